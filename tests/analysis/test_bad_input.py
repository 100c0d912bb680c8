"""Every kind of bad input gets a positioned diagnostic with a stable code, a non-zero exit and no traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pto_docs.cli import main
from tests import spec_factory as sf


def run_cli(root, capsys, *extra) -> tuple[int, str, str]:
    code = main(["validate", str(root), *extra])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def codes_at(err: str) -> list[tuple[str, str]]:
    """(file:line, CODE) of every diagnostic line."""
    found = []
    for line in err.splitlines():
        head, _, rest = line.partition(": ")
        if "[" in rest:
            code = rest.split("[", 1)[1].split("]", 1)[0]
            found.append((":".join(head.split(":")[:2]), code))
    return found


def test_clean_tree_has_no_diagnostics(tmp_path, capsys):
    code, out, err = run_cli(sf.make_tree(tmp_path), capsys)
    assert code == 0, err
    assert err == ""
    assert out.strip() == ("2 units (1 instructions), 1 NDF clauses, 2 requirements, 2 tests, 1 ADRs: 0 errors, 0 warnings")


def test_malformed_json_names_line_and_column(tmp_path, capsys):
    root = sf.make_tree(tmp_path)
    text = sf.unit_text().replace('"surface":"tile"', '"surface":"tile",,', 1)
    sf.write(root, sf.UNIT_PATH, text)
    code, _, err = run_cli(root, capsys)
    assert code == 1
    line = next(ln for ln in err.splitlines() if "JSON-SYNTAX" in ln)
    path, lineno, col = line.split(":")[:3]
    assert (path, lineno) == (sf.UNIT_PATH, "1")
    # the column points at the second comma
    assert text.split("\n")[0][int(col) - 1] == ","


@pytest.mark.parametrize("mutate, code, pointer", [
    (lambda r: r.pop("summary"), "SCHEMA-REQUIRED", "(at )"),
    (lambda r: r.__setitem__("depends_on", "PTO-X"), "SCHEMA-TYPE", "(at /depends_on)"),
    (lambda r: r.__setitem__("colour", "blue"), "SCHEMA-UNKNOWN-KEY", "(at /colour)"),
    (lambda r: r["contract"].__setitem__("encoding_class", "free-form"), "SCHEMA-ENUM", "(at /contract/encoding_class)"),
    (lambda r: r["catalog_records"][0].pop("mode"), "SCHEMA-REQUIRED", "(at /catalog_records/0)"),
])
def test_instruction_schema_errors(tmp_path, capsys, mutate, code, pointer):
    root = sf.make_tree(tmp_path)
    record = sf.instruction_record()
    mutate(record)
    sf.write(root, sf.UNIT_PATH, sf.unit_text(record))
    status, _, err = run_cli(root, capsys)
    assert status == 1
    hits = [ln for ln in err.splitlines() if f"error[{code}]" in ln]
    assert hits, err
    assert hits[0].startswith(f"{sf.UNIT_PATH}:1:")
    assert hits[0].endswith(pointer) if pointer != "(at )" else "(at" not in hits[0]


def test_unknown_key_column_points_at_the_key(tmp_path, capsys):
    root = sf.make_tree(tmp_path)
    record = sf.instruction_record()
    record["colour"] = "blue"
    text = sf.unit_text(record)
    sf.write(root, sf.UNIT_PATH, text)
    _, _, err = run_cli(root, capsys)
    line = next(ln for ln in err.splitlines() if "SCHEMA-UNKNOWN-KEY" in ln)
    col = int(line.split(":")[2])
    assert text.split("\n")[0][col - 1:col - 1 + len('"colour"')] == '"colour"'


def test_duplicate_id(tmp_path, capsys):
    root = sf.make_tree(tmp_path)
    sf.write(root, "tests/asl/tile/elementwise-tile-tile/arithmetic/TDEMO/tile-exec-tdemo-again-001.asl", sf.test_text())
    code, _, err = run_cli(root, capsys)
    assert code == 1
    assert ("tests/asl/tile/elementwise-tile-tile/arithmetic/TDEMO/tile-exec-tdemo-basic-001.asl:1", "DUPLICATE-ID") in codes_at(err) or \
        ("tests/asl/tile/elementwise-tile-tile/arithmetic/TDEMO/tile-exec-tdemo-again-001.asl:1", "DUPLICATE-ID") in codes_at(err)


@pytest.mark.parametrize("where, code", [
    ("requirement", "XREF-REQUIREMENT"),
    ("depends", "XREF-DEPENDS"),
    ("adr", "XREF-ADR"),
    ("source", "XREF-TEST-SOURCE"),
])
def test_dangling_references(tmp_path, capsys, where, code):
    root = sf.make_tree(tmp_path)
    if where == "requirement":
        sf.write(root, sf.TEST_PATH, sf.test_text(sf.test_record(requirements=["PTO-INST-TILE-TNOWHERE"])))
        expect = f"{sf.TEST_PATH}:1"
    elif where == "depends":
        record = sf.instruction_record()
        record["depends_on"] = ["PTO-TILE-MODEL-NOWHERE"]
        sf.write(root, sf.UNIT_PATH, sf.unit_text(record))
        expect = f"{sf.UNIT_PATH}:1"
    elif where == "adr":
        front = sf.adr_front()
        front["affected_units"] = ["PTO-TILE-TNOWHERE"]
        sf.write(root, sf.ADR_PATH, sf.adr_text(front))
        expect = sf.ADR_PATH
    else:
        sf.write(root, sf.TEST_PATH, sf.test_text(sf.test_record(path_source="asl/tile/elementwise-tile-tile/arithmetic/TNOPE.asl")))
        expect = f"{sf.TEST_PATH}:1"
    status, _, err = run_cli(root, capsys)
    assert status == 1
    assert any(loc.startswith(expect) and c == code for loc, c in codes_at(err)), err


def test_dot_dot_path_in_record(tmp_path, capsys):
    root = sf.make_tree(tmp_path)
    record = sf.test_record()
    record["related_sources"] = ["../../etc/passwd"]
    sf.write(root, sf.TEST_PATH, sf.test_text(record))
    status, _, err = run_cli(root, capsys)
    assert status == 1
    hit = next(ln for ln in err.splitlines() if "PATH-TRAVERSAL" in ln)
    assert hit.startswith(f"{sf.TEST_PATH}:1:") and hit.endswith("(at /related_sources/0)")


def test_absolute_path_in_evidence(tmp_path, capsys):
    root = sf.make_tree(tmp_path)
    sf.write(root, "spec/evidence/release-traceability-readiness.json",
             json.dumps({"sources": {"/etc/passwd": "0" * 64}, "tests": []}, indent=2) + "\n")
    status, _, err = run_cli(root, capsys)
    assert status == 1
    hit = next(ln for ln in err.splitlines() if "PATH-TRAVERSAL" in ln)
    assert hit.startswith("spec/evidence/release-traceability-readiness.json:3:")


def test_non_utf8_bytes(tmp_path, capsys):
    root = sf.make_tree(tmp_path)
    data = sf.unit_text().encode().replace(b"Combine", b"Comb\xffine", 1)
    sf.write(root, sf.UNIT_PATH, data)
    status, _, err = run_cli(root, capsys)
    assert status == 1
    assert (f"{sf.UNIT_PATH}:1", "ENCODING") in codes_at(err)


def test_one_megabyte_line(tmp_path, capsys):
    root = sf.make_tree(tmp_path)
    record = sf.instruction_record()
    record["summary"] = "x" * 1_048_576
    sf.write(root, sf.UNIT_PATH, sf.unit_text(record))
    status, _, err = run_cli(root, capsys)
    assert status == 1
    assert (f"{sf.UNIT_PATH}:1", "RECORD-TOO-LONG") in codes_at(err)


def test_long_but_normal_record_is_fine(tmp_path, capsys):
    root = sf.make_tree(tmp_path)
    record = sf.instruction_record()
    record["contract"]["defaults"] = ["y" * 30_000]  # upstream records reach 26 KB
    sf.write(root, sf.UNIT_PATH, sf.unit_text(record))
    status, _, err = run_cli(root, capsys)
    assert status == 0, err


@pytest.mark.parametrize("rel, code", [
    (sf.UNIT_PATH, "UNIT-RECORD-MISSING"),
    (sf.TEST_PATH, "TEST-RECORD-MISSING"),
    (sf.ADR_PATH, "ADR-FRONT-MATTER"),
    ("spec/evidence/adr-index.json", "JSON-SYNTAX"),
])
def test_empty_file(tmp_path, capsys, rel, code):
    root = sf.make_tree(tmp_path)
    sf.write(root, rel, "")
    status, _, err = run_cli(root, capsys)
    assert status == 1
    assert any(loc.split(":")[0] == rel and c == code for loc, c in codes_at(err)), err


def test_missing_spec_root_exits_2(tmp_path, capsys):
    status, out, err = run_cli(tmp_path / "nowhere", capsys)
    assert status == 2
    assert "error[IO-ROOT]" in err and "does not exist" in err


def test_ndf_structure_errors(tmp_path, capsys):
    root = sf.make_tree(tmp_path)
    text = sf.unit_text().replace("// NDF-END: PTO-TDEMO-CONTRACT-001", "// NDF-END: PTO-TDEMO-CONTRACT-002")
    text = text.replace("level=L1", "level=L3")
    sf.write(root, sf.UNIT_PATH, text)
    _, _, err = run_cli(root, capsys)
    codes = {c for _, c in codes_at(err)}
    assert {"NDF-END-MISMATCH", "SCHEMA-ENUM"} <= codes or {"NDF-END-MISMATCH", "SCHEMA"} <= codes, err


def test_all_problems_reported_in_one_run(tmp_path, capsys):
    root = sf.make_tree(tmp_path)
    sf.write(root, sf.TEST_PATH, sf.test_text(sf.test_record(requirements=["PTO-INST-TILE-TNOWHERE"])))
    front = sf.adr_front()
    front["colour"] = "x"
    sf.write(root, sf.ADR_PATH, sf.adr_text(front))
    sf.write(root, sf.MODEL_PATH, "// PTO-UNIT: {oops}\n")
    _, out, err = run_cli(root, capsys)
    codes = {c for _, c in codes_at(err)}
    assert {"XREF-REQUIREMENT", "SCHEMA-UNKNOWN-KEY", "JSON-SYNTAX"} <= codes
    assert "3 errors" in out or "errors" in out


def test_json_format_is_one_document(tmp_path, capsys):
    root = sf.make_tree(tmp_path)
    sf.write(root, sf.TEST_PATH, sf.test_text(sf.test_record(requirements=["PTO-INST-TILE-TNOWHERE"])))
    status, out, _ = run_cli(root, capsys, "--format", "json")
    doc = json.loads(out)
    assert status == 1
    assert doc["counts"]["errors"] == 1
    assert doc["diagnostics"][0]["code"] == "XREF-REQUIREMENT"
    assert doc["diagnostics"][0]["pointer"] == "/requirements/0"
    from pto_docs.schemas.registry import validator
    assert list(validator("validate-output").iter_errors(doc)) == []


def test_subprocess_never_prints_a_traceback(tmp_path):
    root = sf.make_tree(tmp_path)
    sf.write(root, sf.UNIT_PATH, b"\x00\xff// PTO-INSTRUCTION: {\n" * 3)
    proc = subprocess.run([sys.executable, "-m", "pto_docs.cli", "validate", str(root)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "error[ENCODING]" in proc.stderr
