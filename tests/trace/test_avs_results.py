"""AVS results joined to the traceability report: per-test status, counts, findings, the report page."""

from __future__ import annotations

import json

import pytest

from pto_docs.schemas.registry import validator
from pto_docs.trace import build_report, report_markdown
from pto_docs.trace.avs_status import AvsResultsError, read_avs_results


def avs_doc(catalog, *, fail: str, stale: str, missing: str) -> dict:
    tests = []
    for tid, t in sorted(catalog.tests.items()):
        if tid == missing:
            continue
        status = "fail" if tid == fail else "pass"
        sha = "0" * 64 if tid == stale else t.file.sha256
        tests.append({"id": tid, "path": t.path, "kind": t.kind, "status": status,
                      "message": "t.asl:3:5: assertion failed: x == 1" if status == "fail" else "",
                      "seconds": 0.01, "sha256": sha})
    summary = {"total": len(tests), "pass": sum(t["status"] == "pass" for t in tests),
               "fail": sum(t["status"] == "fail" for t in tests), "error": 0}
    return {"schema": "pto-docs.avs.v1", "profile": "pto-v0", "tests": tests, "summary": summary}


def test_every_test_row_carries_its_status_on_the_current_tree(catalog_load):
    catalog = catalog_load.catalog
    fail, stale, missing = sorted(catalog.tests)[:3]
    report = build_report(catalog, catalog_load.tree, (), avs=avs_doc(catalog, fail=fail, stale=stale, missing=missing))
    validator("traceability-report").validate(json.loads(json.dumps(report)))
    status = {row["id"]: row["avs"]["status"] for row in report["tests"] if "avs" in row}
    assert set(status) == set(catalog.tests)
    assert (status[fail], status[stale], status[missing]) == ("fail", "stale", "missing")
    assert report["avs"]["counts"] == {"pass": len(catalog.tests) - 3, "fail": 1, "error": 0, "stale": 1, "missing": 1,
                                        "needs-decoders": 0}
    codes = {(f["code"], f["id"]) for f in report["findings"] if f["code"].startswith("avs-")}
    assert codes == {("avs-fail", fail), ("avs-stale", stale), ("avs-missing", missing)}
    assert report["summary"]["verdict"] == "fail"
    page = report_markdown(report)
    assert "## AVS test points on the pto-docs ASL interpreter" in page and "assertion failed: x == 1" in page


def test_results_that_all_pass_leave_the_verdict_to_the_rest(catalog_load):
    catalog = catalog_load.catalog
    doc = avs_doc(catalog, fail="", stale="", missing="")
    with_avs = build_report(catalog, catalog_load.tree, (), avs=doc)
    without = build_report(catalog, catalog_load.tree, ())
    assert with_avs["summary"]["verdict"] == without["summary"]["verdict"]
    assert not [f for f in with_avs["findings"] if f["code"].startswith("avs-")]
    assert with_avs["release"]["inputs_sha256"] != without["release"]["inputs_sha256"]


@pytest.mark.parametrize("content, message", [
    (b"{", "not JSON"),
    (b'{"schema": "pto-docs.avs.v1"}', "not a pto-docs.avs.v1 document"),
    (b"\xff\xfe", "not UTF-8"),
    (b'{"schema": "pto-docs.avs.v1", "schema": "x"}', "not JSON"),
])
def test_unusable_results_are_one_clear_message(tmp_path, content, message):
    path = tmp_path / "avs.json"
    path.write_bytes(content)
    with pytest.raises(AvsResultsError, match=message):
        read_avs_results(path)


def test_trace_avs_end_to_end_on_a_catalog_copy(tree, tmp_path):
    """pto-docs avs writes the results, pto-docs trace --avs reads them: the run's points carry their status,
    the points it did not run are missing (a finding that fails the gate)."""
    import contextlib
    import io

    from pto_docs.cli import main

    def run(*argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
        return code, out.getvalue(), err.getvalue()

    decoders = tmp_path / "decoders.asl"
    decoders.write_text("", "utf-8")
    results = tmp_path / "avs.json"
    run("avs", str(tree), "--decoders", str(decoders), "-k", "PTO-AVS-ARCH-*", "--jobs", "1", "-q",
        "--cache-dir", str(tmp_path / "c"), "--json", str(results))
    ran = {t["id"]: t["status"] for t in json.loads(results.read_text("utf-8"))["tests"]}
    assert ran
    code, _out, err = run("trace", str(tree), "--avs", str(results), "--json", str(tmp_path / "report.json"))
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    rows = {r["id"]: r["avs"]["status"] for r in report["tests"] if "avs" in r}
    assert {tid: rows[tid] for tid in ran} == ran
    assert {s for tid, s in rows.items() if tid not in ran} == {"missing"}
    assert code == 1 and "[avs-missing]" in err
    results.write_text("{}", "utf-8")
    code, _out, err = run("trace", str(tree), "--avs", str(results))
    assert code == 2 and "error[AVS-RESULTS]" in err


def test_a_point_that_needs_decoders_is_a_finding_of_the_report_but_absent_from_pages(catalog_load):
    from pto_docs.trace.avs_status import page_statuses
    catalog = catalog_load.catalog
    waiting, other = sorted(catalog.tests)[:2]
    doc = avs_doc(catalog, fail="-", stale="-", missing="-")
    for t in doc["tests"]:
        if t["id"] == waiting:
            t["status"], t["message"] = "needs-decoders", "AslCompileError: unknown validation entry point ValidateX"
    doc["summary"].update({"pass": doc["summary"]["pass"] - 1, "needs-decoders": 1})
    assert read_avs_results("avs.json", json.dumps(doc).encode()) == doc  # the schema has the status
    report = build_report(catalog, catalog_load.tree, (), avs=doc)
    validator("traceability-report").validate(json.loads(json.dumps(report)))
    assert report["avs"]["counts"]["needs-decoders"] == 1
    assert {(f["code"], f["id"]) for f in report["findings"] if f["code"].startswith("avs-")} == \
        {("avs-needs-decoders", waiting)}
    assert waiting not in page_statuses(catalog, doc) and page_statuses(catalog, doc)[other].status == "pass"
    # a run of some kinds: the points of the others were filtered out, not missed (recorded selection, or, in a
    # document without one, the kinds it has results of)
    kind = catalog.tests[other].kind
    doc["tests"] = [t for t in doc["tests"] if catalog.tests[t["id"]].kind == kind]
    shown = {tid for tid in page_statuses(catalog, doc)}
    assert shown == {tid for tid, t in catalog.tests.items() if t.kind == kind} - {waiting}
    assert {s.status for s in page_statuses(catalog, doc).values()} == {"pass"}
    doc["selection"] = {"kinds": [kind], "pattern": other}
    assert set(page_statuses(catalog, doc)) == {other}
