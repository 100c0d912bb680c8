"""On a PTO-ISA/pto-spec 0.58.3 checkout (PTO_SPEC_CHECKOUT): the summary equals upstream's own."""

from __future__ import annotations

import io
import json

import pytest

from pto_docs.cli.trace import run_gate
from pto_docs.trace import build_report

pytestmark = pytest.mark.realtree

CLOSURE = "spec/evidence/instruction-contract-closure.json"


@pytest.fixture(scope="module")
def report(real_load):
    return build_report(real_load.catalog, real_load.tree, (), diagnostics=real_load.diagnostics)


def test_summary_equals_upstream(report):
    s = report["summary"]
    assert (s["unit_count"], s["documentation_page_count"], s["mnemonic_count"], s["requirement_count"],
            s["executable_requirement_count"], s["test_count"]) == (840, 840, 634, 1003, 636, 3352)
    assert s["uncovered_unit_count"] == s["uncovered_executable_requirement_count"] == s["mnemonic_semantic_gap_count"] == 0
    assert s["agrees_with_recorded"] is True and s["disagreements"] == {}


def test_recorded_hashes(report, real_tree_root):
    rec = report["summary"]["recorders"]
    closure_present = (real_tree_root / CLOSURE).is_file()
    if not closure_present:
        assert rec["traceability.sources"] == {"match": 5033, "stale": 0, "recorded-only": 1}
        assert rec["manifest.canonical_inputs"] == {"match": 857, "stale": 0, "recorded-only": 1}
        closure = next(e for e in report["evidence"] if e["path"] == CLOSURE)
        assert closure["status"] == "recorded-only" and closure["sha256"] is None
    assert rec["traceability.tests"] == {"match": 3352, "stale": 0, "recorded-only": 0}
    assert rec["manifest.owned_artifacts"] == {"match": 843, "stale": 0, "recorded-only": 0}
    assert rec["manifest.release_selection.expanded_ndf"] == {"match": 1003, "stale": 0, "recorded-only": 0}
    assert rec["release-gate.sources"]["match"] == 49
    assert {a["id"]: a["status"] for a in report["aggregates"]} == {
        "architecture-readiness.adr_records": "match", "manifest.content_sha256": "match",
        "manifest.content_sha256.recorded-inputs": "match", "manifest.release_selection.policy_sha256": "match"}
    content = next(a for a in report["aggregates"] if a["id"] == "manifest.content_sha256")
    assert content["sha256"].startswith("f299fe3d") and content["sha256"].endswith("2678")


def test_old_evidence_inputs_are_stale_warnings(report):
    stale = {e["path"]: e["inputs"]["stale"] for e in report["evidence"] if e.get("inputs", {}).get("stale")}
    assert stale == {
        "spec/evidence/numeric-format-namespace-contract.json": 16,
        "spec/evidence/numeric-rounding-selector-contract.json": 10,
        "spec/evidence/numeric-profile-applicability-closure.json": 8,
        "spec/evidence/numeric-profile-decision-proposals.json": 2,
        "spec/evidence/public-integer-conversion-contract.json": 1,
        "spec/evidence/scalar-numeric-flag-contract.json": 1,
    }
    assert {f["severity"] for f in report["findings"] if f["code"] == "evidence-input-stale"} == {"warning"}


def test_gate_passes_on_the_real_tree(real_tree_root, tmp_path):
    out, err = io.StringIO(), io.StringIO()
    code = run_gate(str(real_tree_root), json_out=str(tmp_path / "r.json"), out=out, err=err, environ={}, options={})
    assert code == 0, err.getvalue()
    assert "Traceback" not in err.getvalue()
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["release"]["version"] == "0.58.3"
