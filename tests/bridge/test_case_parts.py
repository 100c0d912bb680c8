"""bridge/exec_model.py: a case's subprograms (setup, instruction, reads) linked as parts, each compiled once per
linked model (asl Session.link_parts); the results are those of a model that runs each case afresh."""

from __future__ import annotations

from pto_docs.analysis.load import load_catalog
from pto_docs.asl import program as program_module
from pto_docs.bridge.exec_model import ModelRunner
from tests.conftest import REPO
from tests.executor.test_exec_v2_catalog import swi_word


def case(setup: list[str], word: int) -> dict:
    return {"schema": "pto-docs.case.v2", "setup": setup,
            "instruction": {"word": f"0x{word:08x}", "length_bits": 32},
            "read": [f"ReadMemoryByte(Zeros{{64}} + {16 + i})" for i in range(12)]}


def test_cases_sharing_a_setup_run_as_fresh_ones_with_the_setup_compiled_once(monkeypatch):
    catalog = load_catalog(REPO / "catalog").catalog
    shared = ["WriteGPR(5, Zeros{64} + 0x11223344);", "WriteGPR(6, Zeros{64} + 16);"]
    other = ["WriteGPR(6, Zeros{64} + 17);"]  # misaligned: a fault
    cases = [case(shared, swi_word(5, 6, 2)), case(shared, swi_word(5, 6, 1)), case(shared, swi_word(5, 6, 2)),
             case(other, swi_word(5, 6, 0)), case(shared, swi_word(5, 6, 1))]
    fresh = [ModelRunner(catalog, None).run(c) for c in cases]
    assert fresh[0] != fresh[1] and fresh[3]["fault"] != fresh[0]["fault"]  # (the cases differ in effect)
    compiled: list[str] = []
    real = program_module.Program.compile_python

    def counting(self, fn):
        compiled.append(fn.decl.name)
        return real(self, fn)
    monkeypatch.setattr(program_module.Program, "compile_python", counting)
    runner = ModelRunner(catalog, None)
    assert [runner.run(c) for c in cases] == fresh
    assert compiled.count("PTODocsCase_setup") == 2  # one per distinct setup, not one per case
    assert compiled.count("PTODocsCase_instruction") == 3  # the two words after the shared setup, one after the other
