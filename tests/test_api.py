"""pto_docs/api.py, the one entry both shells call: what it returns is what the commands print and the plugin
renders (load, validate, run_case, run_avs, run_trace)."""

from __future__ import annotations

import json
import shutil

import pytest

from pto_docs import api
from tests.conftest import REPO
from tests.executor.executor_helpers import BRIEF_CASE


def test_load_gives_the_analysed_tree_the_pages_are_rendered_from():
    analysis = api.load(REPO / "catalog")
    assert analysis.site is not None and not [d for d in analysis.diagnostics if d.is_error]
    assert "PTO-TILE-TMUL" in analysis.catalog.units


def test_validate_counts_and_exit_codes(tmp_path):
    clean = api.validate(REPO / "catalog")
    assert clean.exit_code == 0 and clean.counts["instructions"] == 9 and clean.counts["errors"] == 0
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)
    adr = next((tree / "docs" / "status" / "decisions").glob("*.md"))
    adr.write_text(adr.read_text("utf-8").replace("{", "{{", 1), "utf-8")  # front matter no longer JSON
    broken = api.validate(tree)
    assert broken.exit_code == 1 and broken.counts["errors"] >= 1
    assert any(d.path.endswith(adr.name) and d.is_error for d in broken.diagnostics)
    with pytest.raises(api.ConfigProblem, match="IO-ROOT"):
        api.validate(tmp_path / "absent")


def test_strict_validation_makes_every_warning_an_error(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)
    warned = [d for d in api.validate(tree).diagnostics if not d.is_error]
    strict = api.validate(tree, strict=True)
    assert all(d.is_error for d in strict.diagnostics)
    assert strict.counts["errors"] == api.validate(tree).counts["errors"] + len(warned)


def test_run_case_runs_a_v1_case_as_pto_docs_exec_does(tmp_path):
    from pto_docs.cli import main
    result = api.run_case(BRIEF_CASE)
    assert result["status"] == "ok"
    assert result["tiles"]["2"]["values"][0][:2] == [3 * 4, 5 * 0x10]
    path = tmp_path / "case.json"
    path.write_text(json.dumps(BRIEF_CASE), "utf-8")
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["exec", str(path)]) == 0
    assert json.loads(out.getvalue())["tiles"] == result["tiles"]


def test_a_v2_case_needs_a_loaded_tree():
    from pto_docs.bridge.exec_model import CaseProblem
    case = {"schema": "pto-docs.case.v2", "instruction": {"call": "X"}, "read": []}
    with pytest.raises(CaseProblem, match="loaded tree"):
        api.run_case(case)


def test_run_avs_runs_every_point_of_the_catalog():
    loaded = api.load_catalog(REPO / "catalog")
    assert not api.needs_decoders(loaded.catalog)
    doc = api.run_avs(loaded.catalog, None)
    summary = doc["summary"]
    assert doc["schema"] == "pto-docs.avs.v1" and summary["total"] == len(loaded.catalog.tests)
    assert summary["pass"] == summary["total"]


def test_run_trace_is_the_gate_of_the_trace_command():
    run = api.run_trace(api.load_catalog(REPO / "catalog"))
    assert run.exit_code == 0 and run.report["summary"]["verdict"] == "pass"
    with pytest.raises(api.ConfigProblem):
        api.run_trace(api.load_catalog(REPO / "catalog"), policy_items=["NOT-A-CODE=loud"])
