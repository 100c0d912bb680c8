"""Fuzz: the record scanner and the case loader never raise anything but our diagnostics, whatever the text
(issue 11, "A standing adversarial suite")."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pto_docs.analysis.load import _unit_from_file
from pto_docs.executor import CaseError, exec_command, load_case, run_case
from pto_docs.model.catalog import SourceFile
from pto_docs.model.codes import CODES
from pto_docs.sources.asl_scan import RECORD_PREFIXES, scan_asl

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# JSON-ish text: real values, then the ways records go wrong (duplicate keys, NaN, deep nesting, bad escapes)
scalar = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=12))
value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                     max_leaves=12)
KEYS = ["id", "surface", "mnemonic", "summary", "classification", "depends_on", "kind", "requirements", "source"]
record = st.dictionaries(st.sampled_from(KEYS), value, max_size=6).map(json.dumps)
broken = st.one_of(
    record.map(lambda t: t.replace("{", '{"id": 1, "id": 2, ', 1) if t != "{}" else t),
    record.map(lambda t: t[:-1] + (', "x": NaN}' if len(t) > 2 else '"x": Infinity}')),
    st.integers(1, 400).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 400).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.text(max_size=40).map(lambda t: '{"id": "' + t + '"}'),
    st.text(alphabet='{}[]":,\\ 0aeNI\x00\x1b\n', max_size=40),
)
MARKERS = [*RECORD_PREFIXES.values(), "// NDF-BEGIN: ", "// NDF-END: ", "// ndf: ", "// DOC-BEGIN: ", "// DOC-END: "]
line = st.one_of(
    st.text(max_size=60),
    st.builds(lambda m, t: m + t, st.sampled_from(MARKERS), st.one_of(record, broken, st.text(max_size=30))),
    st.sampled_from(["// ndf: kind=executable level=L1 layer=tile status=accepted", "// NDF-BEGIN: PTO-X-1",
                     "// NDF-END: PTO-X-1", "// DOC-BEGIN: semantics", "// DOC-END: semantics", "// body", ""]),
)


def _check(diags) -> None:
    for d in diags:
        assert d.code in CODES, d
        text = d.format()
        assert "\n" not in text and "\r" not in text


@FUZZ
@given(st.lists(line, max_size=25), st.text(max_size=8))
def test_the_record_scanner_and_unit_loader_only_diagnose(lines, name):
    text = "\n".join(lines)
    path = f"asl/tile/{name}.asl"
    scan = scan_asl(path, text, tuple(RECORD_PREFIXES))
    _check(scan.diagnostics)
    diags: list = []
    _unit_from_file(SourceFile(path, "0" * 64, len(text), text), diags)
    _check(diags)


CASE = {"tiles": {"0": {"capacity_bytes": 128, "rows": 4, "columns": 4, "valid_rows": 1, "valid_columns": 2,
                        "data_type": "U64", "elements": [[3, 5]]},
                  "1": {"capacity_bytes": 128, "rows": 4, "columns": 4, "valid_rows": 1, "valid_columns": 2,
                        "data_type": "U64", "elements": [[7, 11]]}},
        "bundle": {"pad_value": "Min", "pe_mask": "0001"},
        "execute": {"instruction": "TMUL", "destination": 2, "sources": [0, 1]}}
PATHS = [("tiles", "0", "rows"), ("tiles", "0", "data_type"), ("tiles", "0", "elements"), ("tiles", "1", "valid_rows"),
         ("tiles", "0", "capacity_bytes"), ("bundle", "pad_value"), ("bundle", "pe_mask"), ("execute", "instruction"),
         ("execute", "destination"), ("execute", "sources"), ("tiles", "7"), ("bundle",), ("execute",)]
DATA_TYPES = ["U64", "FP32", "FP16", "BF16", "E4M3", "S8", "U8", "FP64", "TF32", "HF32", "E5M2", "S64", "X"]
INSTRUCTIONS = ["TMUL", "TADD", "TSQRT", "TCVT", "TCOLEXPAND", "TROWSUM", "NOPE"]
mutation_value = st.one_of(value, st.sampled_from(DATA_TYPES), st.sampled_from(INSTRUCTIONS),
                           st.integers(-2, 70), st.lists(st.lists(st.integers(-(2 ** 70), 2 ** 70), max_size=5), max_size=5))


def _mutated(changes) -> dict:
    case = json.loads(json.dumps(CASE))
    for path, new in changes:
        node = case
        for key in path[:-1]:
            node = node.setdefault(key, {}) if isinstance(node, dict) else {}
        if isinstance(node, dict):
            node[path[-1]] = new
    return case


def _check_loads_or_diagnoses(text: str) -> None:
    """The case runs, or fails with one of our EXEC- diagnostics; any other exception fails the test."""
    try:
        run_case(load_case(text))
    except CaseError as err:
        assert err.code.startswith("EXEC-")


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(PATHS), mutation_value), max_size=4))
def test_the_case_loader_only_diagnoses_mutated_cases(changes):
    _check_loads_or_diagnoses(json.dumps(_mutated(changes)))


YAML_BITS = ["a: &x 1\nb: *x\n", "- &a [1]\n- *a\n", "tiles: !!python/object:os.system {}\n", "[" * 300 + "]" * 300,
             "{: }\n", "? [a]\n: b\n", "tiles:\n  0: {rows: 4, columns: .inf}\n", "%YAML 1.1\n---\n", "\t- x\n",
             "execute: {instruction: TMUL, destination: 2, sources: [0, 1]}\n", "tiles: *undefined\n"]


@FUZZ
@given(st.lists(st.one_of(st.sampled_from(YAML_BITS), st.text(max_size=40)), max_size=5))
def test_the_case_loader_only_diagnoses_any_text(parts):
    _check_loads_or_diagnoses("".join(parts))


@FUZZ
@given(st.one_of(broken, record))
def test_the_case_loader_only_diagnoses_broken_json(text):
    _check_loads_or_diagnoses(text)


def test_exec_of_a_hostile_file_exits_2_with_one_line(tmp_path, capsys):
    for i, text in enumerate(['{"tiles": {}, "tiles": {}}', '{"x": NaN}', "[" * 100_000, "a: &x [1]\nb: *x\n",
                              "a: " + "[" * 10_000 + "]" * 10_000]):
        case = tmp_path / f"c{i}.yaml"
        case.write_text(text, "utf-8")
        assert exec_command(str(case)) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1 and "error[EXEC-" in err, err
