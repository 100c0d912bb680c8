"""The AVS worked examples read like the executed ones (issue 32 item 4): the concrete assembly of the decoded word
(pto-docs' assembler), registers named as the syntax names them, bookkeeping folded apart, a fault example named
with its condition, and a step of a fault test that did not fault is not shown as the fault example."""

from __future__ import annotations

import pytest

from pto_docs.analysis.load import load_catalog
from pto_docs.bridge.avs_examples import examples_by_unit
from pto_docs.render.avs_examples_view import avs_example_views
from pto_docs.trace.avs_status import avs_statuses
from tests.bridge.test_avs_examples import SWI_FAULT, avs_doc, step, swi_word
from tests.conftest import REPO


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(REPO / "catalog").catalog


def _views(catalog, doc):
    unit = catalog.find_instruction("SWI")
    found = examples_by_unit(catalog, doc, avs_statuses(catalog, doc))
    return avs_example_views(catalog, unit, found.get(unit.id, ()), "instructions/x/SWI.md")


def test_concrete_assembly_register_names_and_folded_bookkeeping(catalog):
    execution, fault = _views(catalog, avs_doc(catalog))
    assert execution.asm.startswith("swi ") and "Src" not in execution.asm  # not the template
    assert "a2" in execution.asm and "a0" in execution.asm  # SrcL=4 is a2, SrcR=2 is a0
    assert [r.name for r in execution.before] == ["a0", "a2"]
    assert [r.name for r in execution.changed] == ["_Memory[512..515]"]
    assert [r.name for r in execution.folded] == ["_PC"]  # the PC stepping over the instruction: bookkeeping
    assert fault.fault == "Fault_Alignment" and fault.condition == catalog.tests[SWI_FAULT].summary
    assert not execution.fault


def test_a_fault_test_step_that_does_not_fault_is_not_its_fault_example(catalog):
    doc = avs_doc(catalog)
    word = f"0x{swi_word(catalog, SrcL=4, SrcR=2):012x}"
    for row in doc["tests"]:
        if row["id"] == SWI_FAULT:  # the fault test's steps, none of them faulting
            row["steps"] = [step("ExecuteScalarInstruction", [word, "32"], result="ScalarExecution_Executed",
                                 changed=[("_Memory[512]", "0x00", "0x44")])]
    views = _views(catalog, doc)
    assert [v.kind for v in views] == ["execution"]
