"""Worked examples from AVS steps (pto_docs/bridge/avs_examples.py): decoding by our encoding model, attribution to
instruction pages, the report section and its findings, pinning in the review lock, and the pages.

The AVS documents are written by the tests: the steps are shaped as ``pto-docs avs --examples`` records them
(tests/asl/test_probe.py checks that recording on a model)."""

from __future__ import annotations

import json
import shutil

import pytest

from pto_docs.analysis.load import load_catalog
from pto_docs.bridge.avs_examples import Decoder, examples_by_unit, report_examples
from pto_docs.isa.encoding import encoding_words
from pto_docs.schemas.registry import validator
from pto_docs.trace.avs_status import avs_statuses
from pto_docs.trace.report import build_report
from tests.conftest import REPO

SWI_EXEC = "PTO-AVS-AGU-SWI-ADDRESS-001"
SWI_FAULT = "PTO-AVS-AGU-SWI-ALIGN-001"
TCOLEXPAND_EXEC = "PTO-AVS-TILE-TCOLEXPAND-BROADCAST-001"


def swi_word(catalog, **fields) -> int:
    unit = catalog.find_instruction("SWI")
    form = unit.catalog_records[0]
    (_i, _w, _mask, match, _off), = encoding_words(form)
    word = match
    for field in form["fields"]:
        value = fields.get(field["name"], 0)
        for piece in field["pieces"]:
            word |= ((value >> piece["value_lsb"]) & ((1 << piece["width"]) - 1)) << piece["instruction_lsb"]
    return word


def step(function, arguments, *, result=None, exception="", before=(), changed=()):
    return {"function": function, "arguments": list(arguments), "result": result, "exception": exception,
            "before": [list(b) for b in before], "changed": [list(c) for c in changed], "truncated": False}


def avs_doc(catalog, status=None, memory_after="0x44 0x33 0x22 0x11") -> dict:
    word = f"0x{swi_word(catalog, SrcL=4, SrcR=2):012x}"
    steps = {
        SWI_EXEC: [step("ExecuteScalarInstruction", [word, "32"], result="ScalarExecution_Executed",
                        before=[("_PEGPRs[0][2]", "0x0000000000000200"), ("_PEGPRs[0][4]", "0x0000000011223344")],
                        changed=[("_Memory[512..515]", "0x00 0x00 0x00 0x00", memory_after),
                                 ("_PC", "0x0000000000000000", "0x0000000000000004")])],
        SWI_FAULT: [step("ExecuteScalarInstruction", [word, "32"], result="ScalarExecution_Executed"),
                    step("ExecuteScalarInstruction", [word, "32"], result="ScalarExecution_Fault",
                         changed=[("_LastFault", "Fault_None", "Fault_Alignment")])],
        TCOLEXPAND_EXEC: [step("InstructionContractExecute_TCOLEXPAND", ["1", "0"],
                               changed=[("_Tiles[1].payload[0..3]", "0x0 0x0 0x0 0x0", "0x101 0x202 0x303 0x404")])],
    }
    status = status or {}
    tests = []
    for tid, t in sorted(catalog.tests.items()):
        row = {"id": tid, "path": t.path, "kind": t.kind, "status": status.get(tid, "pass"), "message": "",
               "seconds": 0.0, "sha256": t.file.sha256}
        if tid in steps:
            row["steps"] = steps[tid]
        tests.append(row)
    summary = {"total": len(tests), "pass": sum(t["status"] == "pass" for t in tests),
               "fail": sum(t["status"] == "fail" for t in tests), "error": sum(t["status"] == "error" for t in tests)}
    doc = {"schema": "pto-docs.avs.v1", "profile": "ieee", "tests": tests, "summary": summary}
    validator("avs").validate(doc)
    return doc


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(REPO / "catalog").catalog


def test_our_encoding_model_decodes_a_word_to_its_form_and_fields(catalog):
    word = swi_word(catalog, SrcL=4, SrcR=2)
    decoder = Decoder(catalog)
    ((unit, form),) = decoder.decode(word, 32)
    assert unit.mnemonic == "SWI"
    fields = dict(decoder.fields(form, word))
    assert fields["SrcL"] == 4 and fields["SrcR"] == 2
    assert Decoder(catalog).decode(word ^ 0x7F, 32) == []  # another major opcode: no form
    assert Decoder(catalog).decode(word, 16) == []


def test_each_instruction_gets_the_steps_that_execute_it(catalog):
    doc = avs_doc(catalog)
    found = examples_by_unit(catalog, doc, avs_statuses(catalog, doc))
    swi = found[catalog.find_instruction("SWI").id]
    assert [(e.test_id, e.kind) for e in swi] == [(SWI_EXEC, "execution"), (SWI_FAULT, "fault")]
    assert swi[0].decoded.mnemonic == "SWI" and dict(swi[0].decoded.fields)["SrcR"] == 2
    assert swi[1].step_index == 1 and swi[1].faulted  # the faulting step of the fault test, not the first
    (tcol,) = found[catalog.find_instruction("TCOLEXPAND").id]
    assert tcol.test_id == TCOLEXPAND_EXEC and tcol.decoded is None
    assert catalog.find_instruction("TADD").id not in found  # no step executes TADD
    assert len({e.digest for e in swi}) == 2


def test_the_report_lists_examples_coverage_and_findings(catalog):
    from pto_docs.analysis.load import load_catalog as load
    result = load(REPO / "catalog")
    doc = avs_doc(catalog, status={SWI_EXEC: "fail", SWI_FAULT: "fail"})
    report = build_report(catalog, result.tree, (), avs=doc, avs_examples=report_examples(catalog, doc), lock=None)
    validator("traceability-report").validate(report)
    section = report["avs"]["examples"]
    by_id = {row["mnemonic"]: row for row in section["instructions"]}
    assert [e["test"] for e in by_id["TCOLEXPAND"]["examples"]] == [TCOLEXPAND_EXEC]
    assert section["coverage"]["tile"]["passing"] == 1
    assert section["coverage"]["scalar"] == {"instructions": 1, "passing": 0, "failing": 1, "none": 0}
    codes = {(f["code"], f["id"]) for f in report["findings"]}
    assert ("avs-example-failing", catalog.find_instruction("SWI").id) in codes
    assert ("avs-example-missing", catalog.find_instruction("TADD").id) in codes
    assert ("avs-example-missing", catalog.find_instruction("TCOLEXPAND").id) not in codes


def test_the_markdown_report_shows_the_coverage_per_surface(catalog):
    from pto_docs.trace.markdown import report_markdown
    result = load_catalog(REPO / "catalog")
    doc = avs_doc(catalog)
    report = build_report(catalog, result.tree, (), avs=doc, avs_examples=report_examples(catalog, doc), lock=None)
    text = report_markdown(report, "en")
    assert "### Worked examples from the AVS test points" in text
    assert "| scalar | 1 | 1 | 0 | 0 |" in text
    assert "来自 AVS 测试点的计算示例" in report_markdown(report, "zh-CN")


def test_the_review_lock_pins_example_digests_and_a_changed_result_is_a_finding(tmp_path):
    from pto_docs import api
    tree = tmp_path / "catalog"
    shutil.copytree(REPO / "catalog", tree)
    result = api.load_catalog(tree)
    doc = avs_doc(result.catalog)
    stamped = api.run_trace(result, stamp=True, avs=doc)
    lock = json.loads((tree / "pto-docs.review-lock.json").read_text("utf-8"))
    swi_id = result.catalog.find_instruction("SWI").id
    assert len(lock["items"]["avs_examples"][swi_id]["digests"]) == 2
    assert not [f for f in stamped.findings if f.code.startswith("avs-example-c")]
    changed = avs_doc(result.catalog, memory_after="0x00 0x33 0x22 0x11")
    run = api.run_trace(api.load_catalog(tree), avs=changed)
    hits = [f for f in run.findings if f.code == "avs-example-changed"]
    assert [f.subject for f in hits] == [swi_id] and run.exit_code == 1
    # the lock pins examples: an instruction that gains one is unpinned until it is stamped again
    assert not [f for f in run.findings if f.code == "avs-example-unpinned"]


def test_a_malformed_step_is_refused_with_the_results_file(tmp_path, catalog):
    from pto_docs.trace.avs_status import AvsResultsError, read_avs_results
    doc = avs_doc(catalog)
    doc["tests"][0].setdefault("steps", []).append({"function": "X"})
    path = tmp_path / "avs.json"
    path.write_text(json.dumps(doc), "utf-8")
    with pytest.raises(AvsResultsError, match="not a pto-docs.avs.v1 document"):
        read_avs_results(path)


def test_the_catalog_examples_run_and_match_the_digests_its_review_lock_pins(tmp_path):
    """catalog/ ships its AVS example digests pinned: a fresh `pto-docs avs --examples` (ieee) and `pto-docs trace
    --check --avs` find every instruction's examples unchanged, none missing or failing."""
    import contextlib
    import io

    from pto_docs.cli import main
    results = tmp_path / "avs.json"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["avs", str(REPO / "catalog"), "--examples", "--profile", "ieee", "--jobs", "1", "-q",
                     "--cache-dir", str(tmp_path / "cache"), "--json", str(results)]) == 0
    lock = json.loads((REPO / "catalog" / "pto-docs.review-lock.json").read_text("utf-8"))
    assert set(lock["items"]["avs_examples"]) == {u.id for u in load_catalog(REPO / "catalog").catalog.instructions}
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["trace", str(REPO / "catalog"), "--check", "--avs", str(results), "--json", str(tmp_path / "r.json")])
    assert code == 0 and "avs-example" not in err.getvalue(), err.getvalue()
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert report["avs"]["examples"]["total"]["passing"] == report["avs"]["examples"]["total"]["instructions"] == 9


def test_stamping_without_avs_results_keeps_the_pinned_examples(tmp_path):
    from pto_docs import api
    tree = tmp_path / "catalog"
    shutil.copytree(REPO / "catalog", tree)
    before = json.loads((tree / "pto-docs.review-lock.json").read_text("utf-8"))["items"]["avs_examples"]
    api.run_trace(api.load_catalog(tree), stamp=True)
    after = json.loads((tree / "pto-docs.review-lock.json").read_text("utf-8"))["items"]["avs_examples"]
    assert after == before and before
