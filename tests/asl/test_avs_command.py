"""pto-docs avs on a spec tree read by pto-docs' loader: inputs, refusals, outputs, per-test hashes."""

from __future__ import annotations

import contextlib
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema

import pto_docs
from pto_docs.analysis.load import load_catalog
from pto_docs.bridge.avs_examples import examples_by_unit
from pto_docs.cli import main
from pto_docs.trace.avs_example_report import coverage
from pto_docs.trace.avs_status import avs_statuses

STATIC = "PTO-AVS-ARCH-*"  # a selection: the catalog's architecture test points
PROFILE_ENCODING = "asl/block/model/schema/profile-encoding.asl"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_a_model_that_needs_generated_decoders_its_records_cannot_make_is_refused_without_them(tree, tmp_path):
    # The sample catalog writes its decoders by hand; make one of its units depend on generated ones. pto-docs
    # would make them from the records, but the sample has no spec/catalog/system-registers.json to make them of.
    unit = tree / PROFILE_ENCODING
    text = unit.read_text("utf-8")
    marker = '"depends_on":["PTO-ARCH-DATA-TYPES-TILE-DATA-TYPES"]'
    assert marker in text
    unit.write_text(text.replace(marker, marker[:-1] + ',"generated:decoders"]', 1), "utf-8")
    code, out, err = run("avs", str(tree), "--cache-dir", str(tmp_path / "c"))
    assert code == 2 and "error[AVS-DECODERS]" in err and "--decoders FILE" in err and out == ""
    assert "system-registers.json" in err


def test_the_catalog_runs_without_decoders_and_every_instruction_gets_a_worked_example(tree, tmp_path):
    out_json = tmp_path / "avs.json"
    code, out, err = run("avs", str(tree), "--examples", "--jobs", "1", "-q", "--cache-dir", str(tmp_path / "c"),
                         "--json", str(out_json))
    doc = json.loads(out_json.read_text("utf-8"))
    catalog = load_catalog(tree).catalog
    s = doc["summary"]
    assert code == 0, out + err
    assert s["total"] == len(catalog.tests) and s["pass"] == s["total"] and s["fail"] == s["error"] == 0
    examples = examples_by_unit(catalog, doc, avs_statuses(catalog, doc))
    rows = coverage(catalog, examples)
    assert rows and all(row["passing"] == row["instructions"] for row in rows.values()), rows
    assert sum(row["instructions"] for row in rows.values()) == len(catalog.instructions)
    for unit in catalog.instructions:
        assert any(e.status == "pass" for e in examples.get(unit.id, ())), unit.mnemonic


def test_the_run_reports_every_selected_point_with_the_hash_of_its_file(tree, tmp_path):
    out_json, out_xml = tmp_path / "avs.json", tmp_path / "avs.xml"
    code, out, err = run("avs", str(tree), "-k", STATIC, "--jobs", "1", "-q",
                         "--cache-dir", str(tmp_path / "c"), "--json", str(out_json), "--junit", str(out_xml))
    doc = json.loads(out_json.read_text("utf-8"))
    schema = json.loads((Path(pto_docs.__file__).parent / "schemas" / "avs.schema.json").read_text("utf-8"))
    jsonschema.validate(doc, schema)
    catalog = load_catalog(tree).catalog
    expected = sorted(t.id for t in catalog.tests.values() if t.id.startswith("PTO-AVS-ARCH-"))
    assert [t["id"] for t in doc["tests"]] == expected and expected
    assert all(t["sha256"] == catalog.tests[t["id"]].file.sha256 for t in doc["tests"])
    s = doc["summary"]
    assert code == (0 if s["pass"] == s["total"] else 1)
    assert out.strip().endswith(f"{s['total']} test points, {s['pass']} pass, {s['fail']} fail, {s['error']} error"
                                f" in {out.strip().split(' in ')[-1]}")
    suite = ET.parse(out_xml).getroot().find("testsuite")
    assert int(suite.get("tests")) == s["total"]


def test_a_failing_point_fails_the_run_and_is_named(tree, tmp_path):
    test = next((tree / "tests/asl/arch").rglob("*.asl"))
    text = test.read_text("utf-8").replace("    return 0;\nend;", "    assert 1 == 2;\n    return 0;\nend;")
    test.write_text(text, "utf-8")
    code, out, _err = run("avs", str(tree), "-k", STATIC, "--jobs", "1", "-q",
                          "--cache-dir", str(tmp_path / "c"))
    rel = test.relative_to(tree).as_posix()
    assert code == 1 and f"{rel}: error[AVS-FAIL]:" in out and "assertion failed: 1 == 2" in out


def test_outputs_and_the_cache_never_go_into_the_spec_tree(tree, tmp_path):
    before = {p: p.read_bytes() for p in tree.rglob("*") if p.is_file()}
    for argv in (("--json", str(tree / "avs.json")), ("--junit", str(tree / "spec/avs.xml")),
                 ("--cache-dir", str(tree / ".cache"))):
        code, _out, err = run("avs", str(tree), *argv)
        assert code == 2 and "error[OUTPUT-REFUSED]" in err
    assert {p: p.read_bytes() for p in tree.rglob("*") if p.is_file()} == before


def test_kind_runs_only_the_points_of_those_kinds(tree, tmp_path):
    catalog = load_catalog(tree).catalog
    kinds = sorted({t.kind for t in catalog.tests.values()})
    assert len(kinds) >= 2
    chosen = kinds[:2]
    out_json = tmp_path / "avs.json"
    code, out, err = run("avs", str(tree), "--kind", chosen[0], "--kind", chosen[1], "--jobs", "1", "-q",
                         "--cache-dir", str(tmp_path / "c"), "--json", str(out_json))
    doc = json.loads(out_json.read_text("utf-8"))
    assert code == 0, out + err
    assert sorted(t["id"] for t in doc["tests"]) == sorted(t.id for t in catalog.tests.values() if t.kind in chosen)
    assert {t["kind"] for t in doc["tests"]} == set(chosen)

    code, out, err = run("avs", str(tree), "--kind", "no-such-kind", "-q", "--cache-dir", str(tmp_path / "c"))
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "error[USAGE]: no test point of kind no-such-kind" in err
    assert all(k in err for k in kinds)


def test_an_examples_run_of_every_point_is_cached_by_the_one_rule_the_build_uses(tree, tmp_path, monkeypatch):
    """``pto-docs avs --examples`` and the build's ``avs_examples: run`` are one orchestration (bridge.avs.run_tree_avs):
    a second run with the same inputs reads the first one's results; a selection (-k, --kind) always runs."""
    import pto_docs.bridge.avs as avs_module
    cache = tmp_path / "c"
    first, again = tmp_path / "first.json", tmp_path / "again.json"
    code, out, err = run("avs", str(tree), "--examples", "--jobs", "1", "-q", "--cache-dir", str(cache), "--json",
                         str(first))
    assert code == 0, out + err
    calls = []
    real = avs_module.run_avs_on_catalog
    monkeypatch.setattr(avs_module, "run_avs_on_catalog", lambda *a, **k: calls.append(1) or real(*a, **k))
    code, out, err = run("avs", str(tree), "--examples", "-q", "--cache-dir", str(cache), "--json", str(again))
    assert code == 0 and calls == [], out + err
    assert json.loads(again.read_text("utf-8")) == json.loads(first.read_text("utf-8"))
    catalog = load_catalog(tree).catalog
    assert avs_module.run_tree_avs(catalog, None, cache_dir=cache, profile="pto-v0", examples=True) == \
        json.loads(first.read_text("utf-8")) and calls == []  # what the build reads, with its options
    code, out, err = run("avs", str(tree), "--examples", "-k", STATIC, "--jobs", "1", "-q", "--cache-dir", str(cache))
    assert calls == [1], out + err
