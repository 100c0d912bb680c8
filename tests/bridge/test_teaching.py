"""The teaching scenarios (bridge/teaching*.py): composed from an instruction's syntax and operand kinds, run on
the ASL model, kept only with a visible effect, cached by the digest of their inputs, checked against the NumPy
executor. Fixtures are the repository's catalog/ tree (its toy ASL model) and made-up operand slots."""

from __future__ import annotations

import dataclasses
import math
import re
import struct

import numpy as np
import pytest

from pto_docs.bridge import teaching, teaching_run
from pto_docs.bridge.teaching import Operand, Scenario, _fill, _imm_value
from pto_docs.isa.assembler.syntax import Slot


@pytest.fixture(scope="module")
def catalog():
    from pto_docs.analysis.load import load_catalog
    from tests.conftest import REPO
    return load_catalog(REPO / "catalog").catalog


def _f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


# -- made-up operand kinds ------------------------------------------------------------------------------------
def test_immediates_are_mid_range_and_negative_where_signed():
    signed = Slot("imm", "imm", signed=True)
    assert _imm_value(signed, 12, 0) == (-12) & 0xFFF  # the field's encoding of -12
    assert _imm_value(signed, 12, 1) == 9
    assert _imm_value(signed, 3, 0) == 0b111  # too narrow for -12: -1
    unsigned = Slot("imm", "n", bias=1)  # N of "M, N": encoded as N - 1
    assert _imm_value(unsigned, 6, 0) == 11
    assert _imm_value(Slot("imm", "s"), 2, 0) == 3  # the widest value a 2-bit field holds


def test_registers_are_distinct_and_memory_operands_are_base_then_index():
    values, widths, regs = {}, {"SrcL": 5, "SrcR": 5, "RegDst": 5, "imm": 12}, {}
    sources, dests = iter(teaching.SOURCE_REGS), iter(teaching.DEST_REGS)
    for slot, in_memory in ((Slot("reg", "SrcL"), True), (Slot("reg", "SrcR"), True),
                            (Slot("imm", "imm", signed=True), True), (Slot("dest", "RegDst"), False)):
        _fill(slot, values, widths, sources, dests, 0, in_memory, regs)
    assert values["SrcL"] != values["SrcR"] and values["RegDst"] not in (values["SrcL"], values["SrcR"])
    assert regs == {values["SrcL"]: "base", values["SrcR"]: "index"}
    assert values["imm"] == 1  # an offset inside [...] is small and positive, not -12


# -- scenarios of the catalog tree ----------------------------------------------------------------------------
def test_scalar_scenario_assembles_back_to_its_unit(catalog):
    from pto_docs.isa.assembler import Assembler
    assembler = Assembler(catalog)
    unit = catalog.units["PTO-SCALAR-SWI"]
    found = teaching.scalar_scenarios(assembler, unit)
    assert found, "no scenario for SWI"
    first = found[0]
    done = assembler.assemble(first.asm)
    assert assembler.decoder.decode(done.word, done.length_bits)[0][0] is unit
    assert first.instruction == {"asm": first.asm} and "<" not in first.asm.replace("<<", "")  # concrete, no template
    sources = [o for o in first.operands if o.kind == "source"]
    assert len({o.name for o in sources}) == len(sources) and len({o.value for o in sources}) == len(sources)
    # retries inside a block body come after the plain scenarios, with the same assembly
    assert any(s.in_bundle and s.asm == first.asm for s in found[1:])


def test_tile_scenario_names_its_data_type_and_small_tiles(catalog):
    unit = catalog.units["PTO-TILE-TSQRT"]
    from pto_docs.isa.assembler import Assembler
    found = teaching_run.unit_scenarios(catalog, Assembler(catalog), unit)
    assert [s.data_type for s in found] == ["FP32", "FP16"]  # a floating-only operation: floating types only
    first = found[0]
    assert first.asm.endswith("TSQRT, FP32") and "call" in first.instruction
    sources = [t for t in first.tiles if t[1] == "source"]
    assert sources and all(t[2] == "FP32" and t[3] * t[4] <= 8 for t in sources)


@pytest.fixture(scope="module")
def taught(catalog, tmp_path_factory):
    cache = tmp_path_factory.mktemp("teaching-cache")
    return (*teaching_run.teach(catalog, None, cache), cache)


def test_catalog_examples_run_with_a_visible_effect_and_ieee_values(taught):
    done, missing, _cache = taught
    assert {"PTO-TILE-TSQRT", "PTO-TILE-TCOLEXPAND"} <= set(done)
    for found in done.values():
        assert teaching_run.visible(found.result)
    sqrt = done["PTO-TILE-TSQRT"]
    source = next(t for t in sqrt.scenario.tiles if t[1] == "source")
    dest = next(t for t in sqrt.scenario.tiles if t[1] == "destination")
    for r in range(dest[3]):
        for c in range(dest[4]):
            got = _f32(int(sqrt.result["read"][f"ReadTileElement({dest[0]}, {r}, {c})"], 16))
            with np.errstate(invalid="ignore"):
                want = float(np.sqrt(np.float32(source[5][r][c])))
            assert got == want or (math.isnan(got) and math.isnan(want)), (r, c, got, want)
    # every instruction without an example says why
    assert all(m.reason for m in missing.values())


def _memory_after(result) -> dict[int, int]:
    """address -> byte after the run, of every memory row the run changed (``_Memory[lo..hi]`` or ``_Memory[i]``)."""
    out = {}
    for name, _before, after in result["changed"]:
        found = re.fullmatch(r"_Memory\[(\d+)(?:\.\.(\d+))?\]", name)
        if found:
            low = int(found.group(1))
            for i, byte in enumerate(after.split()):
                out[low + i] = int(byte, 16)
    return out


def test_the_catalog_swi_example_stores_its_data_register_at_the_scaled_address(catalog, taught):
    """SWI on the sample model (its memory addressed as the spec's is): the data register's four low bytes, little
    endian, at the base register plus the sign-extended simm12 times 4 -- computed here from the scenario's inputs."""
    done, _missing, _cache = taught
    found = done["PTO-SCALAR-SWI"]
    assert teaching_run.visible(found.result) and found.result["fault"] == "Fault_None" and not found.scenario.in_bundle
    data = int(next(o.value for o in found.scenario.operands if o.kind == "source"), 0)
    base = int(next(o.value for o in found.scenario.operands if o.kind == "memory"), 0)
    simm12 = found.result["decoded"]["fields"]["simm12"]
    simm12 -= (simm12 >> 11 & 1) << 12
    scale = catalog.units["PTO-SCALAR-SWI"].catalog_records[0]["agu"]["offset_scale"]
    address = base + (simm12 << scale)
    assert address % 4 == 0
    assert _memory_after(found.result) == {address + i: data >> 8 * i & 0xFF for i in range(4)}


def test_the_catalog_l_bstop_example_commits_the_bundle_it_runs_in(taught):
    """L.BSTOP outside a bundle raises Fault_BundleControl (its contract): its example runs in a block body the
    model's own BeginBundle opened, and commits that bundle."""
    done, _missing, _cache = taught
    found = done["PTO-BLOCK-L-BSTOP"]
    assert found.scenario.in_bundle and found.tried > 0 and found.result["fault"] == "Fault_None"
    changed = {c[0]: c[1:] for c in found.result["changed"]}
    assert changed["_BundleActive"] == ["TRUE", "FALSE"]
    assert changed["_BundlesCommitted"] == ["0", "1"]
    assert teaching_run.visible(found.result)


def test_results_are_cached_by_the_digest_of_their_inputs(catalog, taught, monkeypatch):
    done, _missing, cache = taught

    def no_model(*_a, **_k):
        raise AssertionError("a cached run linked the model again")
    monkeypatch.setattr(teaching_run, "_runner", no_model)
    again, _ = teaching_run.teach(catalog, None, cache)
    assert {k: v.result["digest"] for k, v in again.items()} == {k: v.result["digest"] for k, v in done.items()}
    # another model (other decoders text) is another entry: it runs
    with pytest.raises(AssertionError, match="linked the model again"):
        teaching_run.teach(catalog, "// other decoders", cache)


def test_visible_effect_excludes_bookkeeping_and_faults():
    ok = {"status": "ok", "fault": "Fault_None", "decoded": {"word": "0x00000000"}}
    assert not teaching_run.visible({**ok, "changed": [["_PC", "0x0", "0x4"], ["_SystemRegisters.cycle", "0x0", "0x1"]]})
    assert teaching_run.visible({**ok, "changed": [["_PC", "0x0", "0x40"]]})  # a branch: its new PC is the effect
    assert teaching_run.visible({**ok, "changed": [["_PEGPRs[0][6]", "0x63", "0xc"]]})
    assert not teaching_run.visible({**ok, "fault": "Fault_DataAlignment", "changed": [["_PEGPRs[0][6]", "0x63", "0x0"]]})
    # a restartable command's template (the trap-preserved copy of its operands and progress) is bookkeeping
    for template in ("_FrameTemplate.progress", "_MemoryCopyTemplate.instruction_pc"):
        assert teaching_run.is_bookkeeping(template) and not teaching_run.visible({**ok, "changed": [[template, "0", "2"]]})
    assert not teaching_run.is_bookkeeping("_BARG.bpcn") and not teaching_run.is_bookkeeping("_Templates[0]")


def test_numpy_disagreement_is_a_finding(catalog, taught):
    from pto_docs.bridge.teaching_check import disagreement
    done, _missing, _cache = taught
    found = done["PTO-TILE-TCOLEXPAND"]
    assert disagreement(found.scenario, found.result) is None  # the toy model and the executor agree
    wrong = dict(found.result)
    wrong["read"] = {k: "0x0000000000000063" for k in found.result["read"]}
    assert "NumPy executor" in disagreement(found.scenario, wrong)
    diags = teaching_run.findings(catalog, {found.scenario.unit_id: teaching_run.Taught(
        found.scenario, wrong, 0, disagreement(found.scenario, wrong))})
    assert [d.code for d in diags] == ["TEACH-NUMPY"] and not diags[0].is_error


def test_scenario_case_is_a_v2_case():
    s = Scenario("U", "ADD", "scalar", "add a0, a1, ->a4", ("WriteGPR(2, Zeros{PTO_XLEN} + 0x7);",),
                 {"asm": "add a0, a1, ->a4"}, operands=(Operand("a0", "source", "_PEGPRs[0][2]", "7"),))
    from pto_docs.bridge.exec_model import check_case
    check_case(s.case())
    assert s.case()["profile"] == "ieee"


def test_an_encoding_alias_shows_its_targets_example(catalog):
    alias = next(u for u in catalog.instructions if isinstance(u.record.get("alias_of"), str))
    target = catalog.find_instruction(alias.record["alias_of"], alias.surface)
    found = teaching_run.Taught(Scenario(target.id, target.mnemonic, "block", "x", (), {"asm": "x"}), {}, 0)
    taught = {target.id: found}
    untaught = {alias.id: teaching_run.Untaught(alias.id, alias.mnemonic, "no scenario")}
    teaching_run._borrow_for_aliases(catalog, taught, untaught)
    assert alias.id not in untaught and taught[alias.id].alias_of == target.mnemonic
    assert taught[alias.id].scenario is found.scenario


def test_a_record_that_is_not_identifiers_gives_no_tile_scenario(catalog):
    """A hostile record's handler or constant would be written into the case's ASL text: it is not run."""
    from types import SimpleNamespace

    from pto_docs.bridge.teaching_tiles import handler_record, tile_scenarios
    from pto_docs.model.frozen import thaw
    unit = catalog.units["PTO-TILE-TCOLEXPAND"]
    record = thaw(handler_record(unit))

    def fake(rec):
        return SimpleNamespace(catalog_records=[rec], record=unit.record, mnemonic=unit.mnemonic, id=unit.id)
    assert tile_scenarios(catalog, None, fake(record))  # the record as it is: scenarios
    for key, value in (("semantic_handler", "ExecuteTileExpand(1); Evil"), ("arguments", [{"constant": "X); Evil("}])):
        assert tile_scenarios(catalog, None, fake({**record, key: value})) == []


def test_a_fault_example_is_the_instructions_own_fault_only():
    ran = {"status": "ok", "changed": [["_ACRTrapCause[0]", "0x0", "0x3"]]}
    assert teaching_run.own_fault({**ran, "fault": "Fault_SoftwareBreakpoint"})
    for wrong_scenario in ("Fault_None", "Fault_BundleControl", "Fault_IllegalInstruction", "Fault_DataAlignment"):
        assert not teaching_run.own_fault({**ran, "fault": wrong_scenario})
    assert not teaching_run.own_fault({"status": "problem", "fault": "Fault_SoftwareBreakpoint"})


def test_the_model_digest_ignores_comments_but_not_code_or_metadata(catalog, tmp_path):
    """A save that only edits a unit's comment (what an author does most in `mkdocs serve`) re-runs no example;
    an edit of its code, of a string literal that holds `//`, or of its `// PTO-` metadata is another model."""
    import shutil

    from pto_docs.analysis.load import load_catalog
    from tests.conftest import REPO
    unit = next(u for u in catalog.instructions if "\nbegin" in u.file.text and "// PTO-" in u.file.text)
    base = teaching_run.model_digest(catalog, None)

    def digest_after(edit) -> str:
        tree = tmp_path / f"tree{len(list(tmp_path.iterdir()))}"
        shutil.copytree(REPO / "catalog", tree)
        path = tree / unit.path
        path.write_text(edit(path.read_text("utf-8")), "utf-8")
        return teaching_run.model_digest(load_catalog(tree).catalog, None)
    assert digest_after(lambda t: t + "\n// an author's note\n\n") == base
    assert digest_after(lambda t: t.replace("\nbegin", "\nbegin /* why */  ", 1)) == base
    assert digest_after(lambda t: t.replace("\nbegin", "\nbegin\n    let x_teach = 1;", 1)) != base
    assert digest_after(lambda t: t + '\nconstant S_TEACH = "a // b";\n') != \
        digest_after(lambda t: t + '\nconstant S_TEACH = "a // c";\n')
    assert digest_after(lambda t: t.replace("// PTO-", "// PTO-X", 1)) != base


def test_the_model_text_of_hostile_units_is_linear():
    """A unit of a hostile tree cannot make the digest backtrack: open strings, open block comments, long runs."""
    import time
    for hostile in ('\\"' * 200_000, "/*" * 200_000, " " * 400_000 + "x", '"' + "\\a" * 200_000, "\n " * 200_000,
                    '"\\' * 30_000):  # (a string ending in a lone backslash: 11 s before the fix, quadratic)
        start = time.perf_counter()
        teaching_run.model_text(hostile)
        assert time.perf_counter() - start < 2.0
    assert teaching_run.model_text('a /* open\nb "c') == teaching_run.model_text('a /* open\nb "d')  # (all comment)
    assert teaching_run.model_text('x "open // c\ny') != teaching_run.model_text('x "open // d\ny')


# -- the fallbacks of issue 32's last missing examples (SSRGET, ACRC, ASSERT, FENTRY, PRF, ERCOV ...) ----------
def test_an_immediate_a_one_of_constraint_lists_keeps_to_the_list():
    values, widths = {"RRA_Type": 0, "SSRID": 0}, {"RRA_Type": 4, "SSRID": 5}
    chosen = {"RRA_Type": [0, 1], "SSRID": [0, 1, 12, 16]}  # ACRE's rra_type: 0 or 1; the usual 12 where allowed
    for slot in (Slot("imm", "RRA_Type"), Slot("imm", "SSRID")):
        _fill(slot, values, widths, iter(teaching.SOURCE_REGS), iter(teaching.DEST_REGS), 0, False, {}, chosen)
    assert values == {"RRA_Type": 0, "SSRID": 12}


def test_an_immediate_encoded_from_value_bit_3_is_a_multiple_of_8():
    from pto_docs.bridge.teaching import _aligned, _steps
    form = {"fields": [{"name": "uimm", "width": 15, "pieces": [
        {"instruction_lsb": 25, "value_lsb": 3, "width": 7}, {"instruction_lsb": 7, "value_lsb": 10, "width": 5}]}]}
    assert _steps(form) == {"uimm": 8}  # FENTRY's frame size
    assert _aligned(12, 8, 15, False) == 16 and _aligned(5, 8, 15, False) == 8 and _aligned(16, 8, 15, False) == 16
    assert _aligned((-12) & 0xFFF, 8, 12, True) == (-16) & 0xFFF  # away from zero, sign kept
    assert _aligned(0x7FF, 8, 12, True) == 0x7F8  # never out of range
    assert _aligned(3, 1, 5, False) == 3


def test_fallback_scenarios_zero_source_and_ring_2_come_after_the_usual_ones(catalog):
    from pto_docs.isa.assembler import Assembler
    found = teaching.scalar_scenarios(Assembler(catalog), catalog.units["PTO-SCALAR-SWI"])
    plain = [s for s in found if not s.in_bundle]
    zero = [s for s in plain if "zero_source" in s.condition.split("+")]
    assert zero and all(" zero" in s.asm for s in zero) and plain.index(zero[0]) >= 3  # after the 3 value sets
    assert not any("zero_source" in s.condition for s in plain[:3])
    ring_2 = [s for s in found if "ring_2" in s.condition.split("+")]
    assert ring_2 and all(s.in_bundle and "SetCurrentACR(2);" in s.setup for s in ring_2)
    assert found.index(ring_2[0]) > max(found.index(s) for s in plain)


def test_only_a_hint_may_show_an_example_without_effect(catalog):
    from types import SimpleNamespace
    hint = SimpleNamespace(surface="scalar", record={"summary": "PRF issues a non-binding prefetch hint."},
                           catalog_records=[])
    assert teaching_run.is_hint(hint)
    assert not teaching_run.is_hint(catalog.units["PTO-BLOCK-L-BSTOP"])  # a stop: its example must commit a bundle
    assert not teaching_run.is_hint(SimpleNamespace(surface="tile", record=hint.record, catalog_records=[]))


def test_a_fault_of_a_reserved_encoding_is_its_own():
    result = {"status": "ok", "fault": "Fault_IllegalInstruction"}
    assert not teaching_run.own_fault(result) and teaching_run.own_fault(result, reserved=True)
    assert not teaching_run.own_fault({"status": "ok", "fault": "Fault_DataPage"}, reserved=True)


def test_the_view_names_a_fault_s_condition_and_a_hint_s_missing_effect():
    from pto_docs.render.state_view import teaching_view
    s = Scenario("U", "ASSERT", "scalar", "assert zero", (), {"asm": "assert zero"}, condition="zero_source+ring_2")
    faulted = teaching_run.Taught(s, {"status": "ok", "fault": "Fault_Assert", "changed": []}, 0)
    view = teaching_view(faulted)
    assert view.fault == "Fault_Assert" and view.conditions == ("zero_source", "ring_2") and not view.quiet
    quiet = teaching_run.Taught(Scenario("U", "PRF", "scalar", "prf [a0, a1]", (), {"asm": "prf [a0, a1]"}),
                                {"status": "ok", "fault": "Fault_None", "changed": [["_PC", "0x0", "0x4"]]}, 0)
    assert teaching_view(quiet).quiet and not teaching_view(quiet).changes
    hostile = dataclasses.replace(s, condition="<script>+zero_source")  # only the known codes are shown
    assert teaching_view(teaching_run.Taught(hostile, faulted.result, 0)).conditions == ("zero_source",)


def test_a_hostile_value_lsb_makes_no_huge_number():
    from pto_docs.bridge.teaching import _steps
    form = {"fields": [{"name": "imm", "width": 12, "pieces": [
        {"instruction_lsb": 20, "value_lsb": 10**12, "width": 12}]}]}
    assert _steps(form) == {"imm": 1 << 64}


def test_scenarios_are_composed_as_the_runner_asks_for_them(catalog, monkeypatch):
    from pto_docs.isa.assembler import Assembler
    composed = []
    real = teaching._compose
    monkeypatch.setattr(teaching, "_compose", lambda *a, **k: composed.append(a[4]) or real(*a, **k))
    found = teaching.scalar_scenarios(Assembler(catalog), catalog.units["PTO-SCALAR-SWI"])
    assert found and composed == [0]  # the first value set only: the runner stops at an example with an effect
    first = next(iter(found))
    assert composed == [0] and found[0] is first
    everything = list(found)
    assert len(found) == len(everything) > 3 * len(teaching.BUNDLE_PRELUDES) and found[-1] is everything[-1]
    assert len(composed) > 3  # the fallbacks too, once asked for


def test_a_reload_of_the_same_model_reuses_the_examples_and_an_edit_of_code_runs_them_again(catalog, tmp_path,
                                                                                            monkeypatch):
    """A serving process composes and runs nothing again when the model is the one it taught last (a comment saved),
    and an edit of a unit's code is another model: composed and run again, also with the on-disk cache gone."""
    import shutil

    from pto_docs.analysis.load import load_catalog
    from tests.conftest import REPO
    teaching_run._TAUGHT.clear()
    first, _ = teaching_run.teach(catalog, None, None)
    composed: list[int] = []
    real_compose = teaching_run.compose_all

    def counting(cat):
        composed.append(1)
        return real_compose(cat)
    monkeypatch.setattr(teaching_run, "compose_all", counting)
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)
    unit = next(u for u in catalog.instructions if u.id in first and "\nbegin" in u.file.text)
    path = tree / unit.path
    path.write_text(path.read_text("utf-8") + "\n// saved while serving\n", "utf-8")
    again, _ = teaching_run.teach(load_catalog(tree).catalog, None, None)
    assert composed == []  # the same model: nothing composed, nothing run
    assert {k: v.result for k, v in again.items()} == {k: v.result for k, v in first.items()}
    again.clear()  # (what a caller does with the returned dicts is not the memo's)
    assert teaching_run.teach(catalog, None, None)[0].keys() == first.keys()
    path.write_text(path.read_text("utf-8").replace("\nbegin", "\nbegin\n    let x_teach = 1;", 1), "utf-8")
    runs: list[int] = []
    real_run = teaching_run._run
    monkeypatch.setattr(teaching_run, "_run", lambda runner, case: runs.append(1) or real_run(runner, case))
    teaching_run._LAST.clear()  # (nothing kept from the last model: teaching_keys' own test keeps some)
    edited, _ = teaching_run.teach(load_catalog(tree).catalog, None, None)
    assert composed == [] and runs  # the same metadata: the scenarios are the same; they run again
    assert set(edited) == set(first)
    path.write_text(path.read_text("utf-8").replace("// PTO-", "// PTO-X", 1), "utf-8")  # (another record)
    teaching_run.teach(load_catalog(tree).catalog, None, None)
    assert composed == [1]


def test_a_save_of_code_runs_again_only_the_instructions_that_can_read_it(tmp_path, monkeypatch):
    """A serving reload after a save of a unit's code keeps the results of every instruction whose scenarios
    cannot reach the unit by name (teaching_keys), and gives exactly what a fresh run of the saved tree gives; a
    save of the execution machinery every scenario enters runs them all again."""
    import shutil

    from pto_docs.analysis.load import load_catalog
    from tests.conftest import REPO
    runs: list[str] = []
    real_run = teaching_run._run

    def counting(runner, case):
        runs.append(case["instruction"].get("asm") or case["instruction"].get("call"))
        return real_run(runner, case)
    monkeypatch.setattr(teaching_run, "_run", counting)
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)

    def teach(fresh: bool = False):
        if fresh:  # as a new process: nothing kept
            teaching_run._TAUGHT.clear()
            teaching_run._LAST.clear()
        runs.clear()
        done, missing = teaching_run.teach(load_catalog(tree).catalog, None, None)
        return {k: (v.scenario, v.result) for k, v in done.items()}, {k: v.reason for k, v in missing.items()}

    first = teach(fresh=True)
    every_run = len(runs)
    unreached = tree / "asl/block/execution/BSTART.SFU.asl"  # (no other unit mentions its names)
    unreached.write_text(unreached.read_text("utf-8").replace("\nbegin", "\nbegin\n    let x_teach = 1;", 1), "utf-8")
    assert teach() == first and runs == []  # nothing ran again
    assert teach(fresh=True) == first
    machinery = tree / "asl/tile/model/dispatch/top-level.asl"
    machinery.write_text(machinery.read_text("utf-8").replace("then x + y else", "then x - y else", 1), "utf-8")
    kept_edited = teach()  # (the model taught last is the one before this save)
    assert len(runs) == every_run
    assert kept_edited == teach(fresh=True)
    machinery.write_text(machinery.read_text("utf-8").replace("then x - y else", "then x + y else", 1), "utf-8")
    assert teach() == first and len(runs) == every_run


def test_linking_the_runner_composes_no_scalar_scenario(catalog, monkeypatch):
    """The runner's entry points are the subprograms tile scenarios call; finding them must not compose every
    scalar instruction's fallback scenarios (on 0.58.3 a tenth of a first build's teaching run)."""
    scenarios = teaching_run.compose_all(catalog)
    scalar = [uid for uid in scenarios if catalog.units[uid].surface != "tile"]
    assert scalar
    composed = []
    real = teaching._compose
    monkeypatch.setattr(teaching, "_compose", lambda *a, **k: composed.append(a[4]) or real(*a, **k))
    runner = teaching_run._runner(catalog, None, None, scenarios)
    assert not isinstance(runner, str) and composed == []


def test_a_store_scenario_takes_its_access_size_from_the_forms_catalog_record(catalog):
    """The page shows a store's memory as values of the size its form's record gives (``agu.size_bytes``); a size
    the record does not give, or a hostile one, is 0 (the bytes are shown one by one)."""
    from pto_docs.isa.assembler import Assembler
    unit = catalog.units["PTO-SCALAR-SWI"]
    size = next(r["agu"]["size_bytes"] for r in unit.catalog_records if "agu" in r)
    found = teaching.scalar_scenarios(Assembler(catalog), unit)
    assert found and {s.access for s in found} == {size}
    for record in ({}, {"agu": "8"}, {"agu": {"size_bytes": 3}}, {"agu": {"size_bytes": True}},
                   {"agu": {"size_bytes": 10 ** 12}}, {"agu": {"size_bytes": "8"}}):
        assert teaching.access_size(record) == 0, record


def _swi_tree(tmp_path, contract: str):
    """A copy of the catalog tree whose SWI record gives no ``agu`` (as an atomic's does not) and whose contract
    declares the access size as ``contract`` says."""
    import json
    import shutil

    from pto_docs.analysis.load import load_catalog
    from tests.conftest import REPO
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)
    path = tree / "asl/scalar/agu/SWI.asl"
    head, rest = path.read_text(encoding="utf-8").split("\n", 1)
    meta = json.loads(head.split(":", 1)[1])
    meta["catalog_records"] = [{k: v for k, v in r.items() if k != "agu"} for r in meta["catalog_records"]]
    declared = "pure func InstructionContractAGUSizeBytes_SWI() => integer {1, 2, 4, 8}\nbegin\n    return 4;\nend;"
    assert declared in rest
    path.write_text(f"// PTO-INSTRUCTION: {json.dumps(meta)}\n" + rest.replace(declared, contract), encoding="utf-8")
    return load_catalog(tree).catalog


def test_a_form_whose_record_gives_no_access_size_takes_the_one_its_asl_contract_declares(tmp_path):
    """An atomic's record has no ``agu`` (LD.ADD, SWAPW, CASH ...): the access size is the one the instruction's own
    ASL contract declares (``InstructionContract...SizeBytes_<mnemonic>``); none, a commented-out one, or sizes that
    differ give 0 (the bytes one by one)."""
    from pto_docs.isa.assembler import Assembler
    cases = {"pure func InstructionContractAGUSizeBytes_SWI() => integer {1, 2, 4, 8}\nbegin\n    return 2;\nend;": 2,
             "pure func InstructionContractAtomicSizeBytes_SWI() => integer {1,2,4,8}\nbegin\n    return 8;\nend;": 8,
             "// pure func InstructionContractAGUSizeBytes_SWI() => integer\n// begin\n//     return 2;\n// end;": 0,
             "pure func InstructionContractAGUSizeBytes_SWIX() => integer\nbegin\n    return 2;\nend;": 0}
    for n, (contract, size) in enumerate(cases.items()):
        catalog = _swi_tree(tmp_path / str(n), contract)
        unit = catalog.units["PTO-SCALAR-SWI"]
        assert not any("agu" in r for r in unit.catalog_records)
        found = teaching.scalar_scenarios(Assembler(catalog), unit)
        assert found and {s.access for s in found} == {size}, contract
    two = ("pure func InstructionContractLoadSizeBytes_LD_X() => integer\nbegin return 4; end;\n"
           "pure func InstructionContractStoreSizeBytes_LD_X() => integer\nbegin return 8; end;")
    assert teaching.contract_access(two, "LD.X") == 0 and teaching.contract_access(two.replace("8", "4"), "LD.X") == 4
    assert teaching.contract_access(two.replace("8", "64").replace("4", "64"), "LD.X") == 0  # (no such access)
    one = "pure func InstructionContractStoreSizeBytes_LD_X() => integer begin return 2; end;"
    assert teaching.contract_access(f'x = "{one}";', "LD.X") == 0 and teaching.contract_access(one, "LD.X") == 2
    import time
    start = time.perf_counter()  # hostile text: an unclosed string of escapes, comments, a long name are linear
    for hostile in ('"\\' * 50_000, "/*" * 50_000, "func InstructionContract" + "A" * 100_000):
        assert teaching.contract_access(hostile + "\n" + two.replace("8", "4"), "LD.X") == (0 if "/*" in hostile else 4)
    assert time.perf_counter() - start < 2


def test_an_example_not_placed_otherwise_starts_at_a_pc_a_backward_jump_keeps_an_address(catalog, tmp_path):
    """A scalar scenario starts at START_PC (a jump of -12 halfwords from pc 0 went to 0xffffffffffffffe8) when the
    model declares a subprogram that sets the pc; a block-body retry starts where its prelude's block is, a
    PC-relative access where its memory is; a model without such a subprogram gets no call to one."""
    import shutil

    from pto_docs.analysis.load import load_catalog
    from pto_docs.isa.assembler import Assembler
    from tests.conftest import REPO
    assert teaching.pc_writer(catalog) == "WriteTPC"  # (the sample's block model declares it, as 0.58.3's does)
    found = list(teaching.scalar_scenarios(Assembler(catalog), catalog.units["PTO-SCALAR-SWI"]))
    start = f"WriteTPC({teaching.word(teaching.START_PC)});"
    assert all(s.setup[0] == start and start not in s.setup[1:] for s in found if not s.in_bundle)
    bodies = [s for s in found if s.in_bundle]
    assert bodies and all(start not in s.setup and any(line.startswith("WriteTPC(") for line in s.setup) for s in bodies)
    assert teaching.START_PC - 2 * 12 > 0  # (J -12 from there is an address)
    # a model without it (a copy of the sample whose subprogram has another name) gets no call to one; nor does one
    # whose subprogram of that name the scenario cannot call so (two parameters, a result)
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)
    block = tree / "asl/block/model/schema/profile-encoding.asl"
    text = block.read_text("utf-8")
    assert text.count("func WriteTPC(value: bits(64))") == 1
    block.write_text(text.replace("func WriteTPC(", "func SetTPC("), "utf-8")
    bare = load_catalog(tree).catalog
    assert teaching.pc_writer(bare) == ""
    assert not any("WriteTPC(" in line or "WritePC(" in line for s in teaching.scalar_scenarios(
        Assembler(bare), bare.units["PTO-SCALAR-SWI"]) if not s.in_bundle for line in s.setup)
    for other in ("func WriteTPC(value: bits(64), ring: integer)", "func WriteTPC(value: bits(64)) => boolean"):
        block.write_text(text.replace("func WriteTPC(value: bits(64))", other), "utf-8")
        assert teaching.pc_writer(load_catalog(tree).catalog) == "", other


def test_a_register_result_the_contract_computes_from_the_tpc_is_an_address():
    """ADDTPC's and SETRET's contracts declare ``InstructionContractUsesTPC_<mnemonic>`` TRUE: their register result
    is an address computed from the pc (a4 = 0x4000, not 16384); FALSE, another mnemonic's, a commented-out or a
    quoted declaration is none."""
    from pto_docs.bridge.teaching_run import Taught
    from pto_docs.render.state_view import teaching_view
    said = "pure func InstructionContractUsesTPC_ADD_TPC()\n    => boolean\nbegin\n    return TRUE;\nend;"
    assert teaching.contract_uses_pc(said, "ADD.TPC")
    for text, mnemonic in ((said.replace("TRUE", "FALSE"), "ADD.TPC"), (said, "ADD"), ("// " + said, "ADD.TPC"),
                           (f'x = "{said}";', "ADD.TPC"), (said + "\n" + said.replace("TRUE", "FALSE"), "ADD.TPC")):
        assert not teaching.contract_uses_pc(text.replace("\n", "\n// ") if text.startswith("//") else text,
                                             mnemonic), text
    add = teaching.Scenario("U", "ADD.TPC", "scalar", "add.tpc -12, ->a4", (), {"asm": "add.tpc -12, ->a4"},
                            operands=(teaching.Operand("a4", "destination", "_PEGPRs[0][6]", "99"),))
    result = {"status": "ok", "fault": "Fault_None", "digest": "d" * 64, "decoded": {"word": "0x1"},
              "changed": [["_PEGPRs[0][6]", "0x0000000000000063", "0x0000000000004000"]]}
    assert [c.after.text for c in teaching_view(Taught(add, result, 0)).changes] == ["16384"]
    assert [c.after.text for c in teaching_view(Taught(teaching._pc_result(add), result, 0)).changes] == ["0x4000"]


def _roles_tree(tmp_path, roles):
    """A copy of the catalog tree whose SWI contract gives its operands the ``roles`` (field -> role text)."""
    import json
    import shutil

    from pto_docs.analysis.load import load_catalog
    from tests.conftest import REPO
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)
    path = tree / "asl/scalar/agu/SWI.asl"
    head, rest = path.read_text(encoding="utf-8").split("\n", 1)
    meta = json.loads(head.split(":", 1)[1])
    meta["contract"]["operands"] = roles(meta["contract"]["operands"]) if callable(roles) else roles
    path.write_text(f"// PTO-INSTRUCTION: {json.dumps(meta)}\n{rest}", encoding="utf-8")
    return load_catalog(tree).catalog


def _written(setup) -> dict[int, int]:
    """Address -> the byte a scenario's setup writes there."""
    out = {}
    for line in setup:
        if line.startswith("WriteMemoryByte("):
            where, value = line[len("WriteMemoryByte(Zeros{PTO_XLEN} + "):].rstrip(");").split(", Zeros{8} + ")
            out[int(where, 16)] = int(value, 16)
    return out


def test_a_register_whose_contract_role_is_a_byte_address_points_at_an_aligned_region_of_its_own(tmp_path):
    """An operand whose contract role names a byte address (DMA's "destination byte-address source", MCOPY's
    "absolute GPR containing source byte address") holds an aligned address of its own, not a small value: a
    source's region holds recognisable bytes (none zero), a destination's the model's reset zeros, so a copy shows;
    the operand table says address. Other roles keep what they had (SWI's base at 0x200 and its bytes)."""
    from pto_docs.isa.assembler import Assembler

    def as_addresses(operands):
        out = [dict(o) for o in operands]
        for o in out:
            if o["field"] == "SrcL":
                o["role"] = "Reg5 source byte address of the data"
            elif o["field"] == "SrcR":
                o["role"] = "absolute GPR containing destination byte-address"
        return out
    catalog = _roles_tree(tmp_path / "a", as_addresses)
    unit = catalog.units["PTO-SCALAR-SWI"]
    s = teaching.scalar_scenarios(Assembler(catalog), unit)[0]
    kinds = {o.kind: o for o in s.operands}
    assert set(kinds) >= {"source_address", "destination_address"} and "memory" not in kinds and "source" not in kinds
    assert teaching.address_roles(unit) == {"SrcL": "source", "SrcR": "destination"}
    source, dest = int(kinds["source_address"].value, 16), int(kinds["destination_address"].value, 16)
    written = _written(s.setup)
    assert len({source, dest, teaching.MEMORY_BASE}) == 3 and source % 64 == 0 and dest % 64 == 0
    for o, at in ((kinds["source_address"], source), (kinds["destination_address"], dest)):
        reg = int(o.location.rsplit("[", 1)[1].rstrip("]"))
        assert f"WriteGPR({reg}, Zeros{{PTO_XLEN}} + 0x{at:x});" in s.setup
    assert sorted(written) == list(range(source, source + 64)) and 0 not in written.values()  # nothing at 0x200
    assert len(set(written.values())) == 64  # recognisable: each copied byte shows at one place only
    # (the catalog's toy model does not run SWI's setup: test_teaching_realtree runs DMA, MCOPY and MSET)
    # the labels of the new kinds exist in both languages
    from pto_docs.i18n import labels
    for locale in ("en", "zh-CN"):
        for kind in ("source_address", "destination_address"):
            assert labels(locale).t(f"teaching.kinds.{kind}") != f"teaching.kinds.{kind}"
    # the catalog's own roles ("Reg5 source of the base address"): no byte address, the base at 0x200 as before
    plain = _roles_tree(tmp_path / "b", lambda o: o)
    assert teaching.address_roles(plain.units["PTO-SCALAR-SWI"]) == {}
    s = teaching.scalar_scenarios(Assembler(plain), plain.units["PTO-SCALAR-SWI"])[0]
    base = next(o for o in s.operands if o.kind == "memory")
    assert int(base.value, 16) == teaching.MEMORY_BASE and min(_written(s.setup)) == teaching.MEMORY_BASE
    # a hostile contract: no byte address (and no traceback)
    for roles in ([{"field": "SrcL", "role": 7}], "source byte address", [["SrcL", "byte address"]],
                  [{"field": ["SrcL"], "role": "byte address"}], [{"field": "SrcL", "role": "byte" + " x" * 100_000}]):
        hostile = _roles_tree(tmp_path / f"h{len(str(roles))}", roles).units["PTO-SCALAR-SWI"]
        assert teaching.address_roles(hostile) == {}, roles

