"""The gate: exit codes 0/1/2, policy from flags and mkdocs.yml, stamping, and no traceback for bad input."""

from __future__ import annotations

import json

from pto_docs.trace.gate import CODES, Policy
from pto_docs.trace.lock import LOCK_NAME

from .conftest import TRANSLATION_PATH, codes


def _stale_translation(tree) -> None:
    path = tree / TRANSLATION_PATH
    doc = json.loads(path.read_text("utf-8"))
    doc["strings"][0]["en_sha256"] = "0" * 64
    path.write_text(json.dumps(doc, ensure_ascii=False), "utf-8")


def test_exit_codes_and_policy_flags(traced, run_trace):
    _stale_translation(traced)
    code, _out, err = run_trace(traced)
    assert code == 0 and ("warning", "translation-stale", "zh-CN/PTO-TILE-TDEMO") in codes(err)
    code, _out, err = run_trace(traced, "--policy", "translation-stale=error")
    assert code == 1 and ("error", "translation-stale", "zh-CN/PTO-TILE-TDEMO") in codes(err)
    assert "translations/zh-CN/PTO-TILE-TDEMO.json: error[translation-stale]: zh-CN/PTO-TILE-TDEMO: " in err
    code, _out, err = run_trace(traced, "--policy", "translation-*=ignore")
    assert code == 0 and err == ""


def test_policy_from_mkdocs_yml(traced, run_trace, tmp_path):
    _stale_translation(traced)
    (tmp_path / "cwd" / "mkdocs.yml").write_text(
        "site_name: x\nplugins:\n  - pto-docs:\n      spec_root: ../spec\n      trace_policy:\n        translation-stale: error\n")
    code, _out, err = run_trace()  # spec root from mkdocs.yml too
    assert code == 1 and ("error", "translation-stale", "zh-CN/PTO-TILE-TDEMO") in codes(err)
    code, _out, _err = run_trace("--policy", "translation-stale=warning")  # the flag wins
    assert code == 0


def test_usage_problems_exit_2(traced, run_trace, tmp_path):
    for bad in ("translation-stale=fatal", "no-such-code=error", "translation-stale"):
        code, _out, err = run_trace(traced, "--policy", bad)
        assert code == 2 and "USAGE" in err
    (tmp_path / "cwd" / "mkdocs.yml").write_text("plugins:\n  - pto-docs:\n      trace_policy: [1, 2]\n")
    assert run_trace(traced)[0] == 2
    (tmp_path / "cwd" / "mkdocs.yml").unlink()
    assert run_trace(tmp_path / "missing")[0] == 2
    code, _out, err = run_trace(traced, "--json", tmp_path / "no-dir" / "r.json")
    assert code == 2 and "IO-WRITE" in err


def test_check_needs_a_lock_and_a_corrupt_lock_is_a_defect(traced, run_trace):
    code, _out, err = run_trace(traced, "--check")
    assert code == 1 and ("error", "lock-missing", LOCK_NAME) in codes(err)
    (traced / LOCK_NAME).write_text("{not json")
    code, _out, err = run_trace(traced)
    assert code == 1 and ("error", "lock-invalid", LOCK_NAME) in codes(err)
    (traced / LOCK_NAME).write_text(json.dumps({"schema": "pto-docs.review-lock.v1", "items": 3}))
    code, _out, err = run_trace(traced, "--check")
    assert code == 1 and ("error", "lock-invalid", LOCK_NAME) in codes(err)
    code, _out, err = run_trace(traced, "--stamp", "--check")  # stamping again repairs it
    assert code == 0, err


def test_restamp_clears_suspects(traced, run_trace):
    run_trace(traced, "--stamp")
    adr = traced / "docs/status/decisions/0001-demo-decision.md"
    adr.write_text(adr.read_text() + "\nMore context.\n")
    code, _out, err = run_trace(traced, "--check")
    found = codes(err)
    assert code == 1
    assert ("error", "adr-stale", "ADR-0001") in found  # the lock records the reviewed ADR bytes
    assert ("error", "link-suspect", "adr-unit ADR-0001 -> PTO-TILE-TDEMO") in found
    assert ("error", "link-suspect", "adr-requirement ADR-0001 -> PTO-TDEMO-CONTRACT-001") in found
    assert run_trace(traced, "--stamp", "--check")[0] == 0


def test_new_test_is_unstamped_and_unrecorded(traced, run_trace):
    from tests import spec_factory as sf
    run_trace(traced, "--stamp")
    rec = sf.test_record(test_id="PTO-AVS-TILE-TDEMO-EXTRA-001")
    sf.write(traced, "tests/asl/tile/elementwise-tile-tile/arithmetic/TDEMO/tile-exec-tdemo-extra-001.asl", sf.test_text(rec))
    code, _out, err = run_trace(traced, "--check")
    found = codes(err)
    assert code == 1
    assert ("error", "test-unrecorded", "PTO-AVS-TILE-TDEMO-EXTRA-001") in found
    assert ("error", "link-unstamped", "test-requirement PTO-AVS-TILE-TDEMO-EXTRA-001 -> PTO-INST-TILE-TDEMO") in found
    assert ("error", "summary-mismatch", "test_count") in found


def test_unknown_requirement_and_adr_links(traced, run_trace):
    from tests import spec_factory as sf
    rec = sf.test_record(requirements=["PTO-INST-TILE-TDEMO", "PTO-NOPE-001"])
    sf.write(traced, sf.TEST_PATH, sf.test_text(rec))
    front = sf.adr_front()
    front["affected_units"] = ["PTO-TILE-NOPE"]
    front["supersedes"] = ["ADR-0009"]
    sf.write(traced, sf.ADR_PATH, sf.adr_text(front))
    code, _out, err = run_trace(traced)
    found = codes(err)
    assert code == 1
    assert ("error", "test-unknown-requirement", "PTO-AVS-TILE-TDEMO-BASIC-001") in found
    assert [c for c in found if c[1] == "adr-unknown-link"] == [("error", "adr-unknown-link", "ADR-0001")] * 2


def test_draft_adr_cited_as_current(traced, run_trace):
    from tests import spec_factory as sf
    front = sf.adr_front()
    front.update(status="draft", accepted=None, approvers=[])
    sf.write(traced, sf.ADR_PATH, sf.adr_text(front))
    unit = traced / sf.UNIT_PATH
    unit.write_text(unit.read_text().replace("before publishing.", "before publishing.\n// Decisions: ADR-0001."))
    code, _out, err = run_trace(traced)
    assert code == 1 and ("error", "adr-cited-inactive", "ADR-0001") in codes(err)


def test_json_to_stdout(traced, run_trace):
    code, out, err = run_trace(traced, "--json", "-")
    assert code == 0
    assert json.loads(out)["schema"] == "pto-docs.traceability.v1"
    assert err.startswith("trace: ")


def test_policy_resolution():
    p = Policy((("evidence-*", "ignore"), ("evidence-stale", "error"), ("*", "warning")))
    assert p.severity("evidence-stale") == "error"
    assert p.severity("evidence-input-stale") == "warning"  # the later pattern wins
    assert Policy().severity("translation-stale") == "warning"
    assert all(sev in ("error", "warning", "ignore") for sev, _ in CODES.values())


def test_deleting_the_evidence_cannot_hide_a_change(traced, run_trace):
    run_trace(traced, "--stamp")
    (traced / "spec/evidence/release-traceability-readiness.json").unlink()
    unit = traced / "asl/tile/model/demo-state.asl"
    unit.write_text(unit.read_text() + "// edited\n")
    code, _out, err = run_trace(traced)
    found = codes(err)
    assert code == 1
    assert ("error", "recorder-missing", "spec/evidence/release-traceability-readiness.json") in found
    assert ("error", "unit-stale", "PTO-TILE-MODEL-DEMO-STATE") in found  # the manifest and the lock still record it


def test_malformed_evidence_and_lock_never_crash(traced, run_trace, tmp_path):
    trace = traced / "spec/evidence/release-traceability-readiness.json"
    doc = json.loads(trace.read_text())
    doc["sources"]["x" * 5000 + ".asl"] = "a" * 64
    doc["sources"]["../outside.asl"] = "b" * 64
    doc["sources"]["asl/tile"] = "c" * 64
    doc["units"] = [{"source": ["not", "a", "path"], "id": 5}, 7, {"source": "asl/gone.asl", "id": ["x"]}]
    doc["tests"] = [{"path": "tests/asl/gone/t-001.asl", "id": 3, "sha256": "d" * 64, "requirements": "PTO-X"}, None]
    doc["summary"] = [1, 2]
    trace.write_text(json.dumps(doc))
    manifest = traced / "spec/release-manifest.json"
    mdoc = json.loads(manifest.read_text())
    mdoc["canonical_inputs"] = {"not": "a list"}
    mdoc["release_selection"] = {"expanded_ndf": [{"id": 1, "sha256": 2}, "x"], "policy_sha256": "nope"}
    manifest.write_text(json.dumps(mdoc))
    out = tmp_path / "r.json"
    code, _out, err = run_trace(traced, "--json", out)
    assert code == 1, err
    from pto_docs.schemas.registry import validator
    assert list(validator("traceability-report").iter_errors(json.loads(out.read_text()))) == []
    run_trace(traced, "--stamp")
    lock = json.loads((traced / LOCK_NAME).read_text())
    lock["links"]["nonsense"] = {"from": None, "to": None}
    (traced / LOCK_NAME).write_text(json.dumps(lock))
    code, _out, err = run_trace(traced, "--check")
    assert code == 1 and ("error", "lock-invalid", LOCK_NAME) in codes(err)
    (traced / LOCK_NAME).write_bytes(b"\xff\xfe")
    code, _out, err = run_trace(traced, "--check")
    assert code == 1 and ("error", "lock-invalid", LOCK_NAME) in codes(err)
