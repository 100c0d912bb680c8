"""A frame instruction's teaching scenario (``sp!``: bridge/teaching_stack.py): the stack pointer at an aligned
address with recognisable memory where the slots are, a register range that avoids the stack pointer, a frame size
that holds the range, slot zero of a restore that begins at ra an even return target; the model's own stack
pointer register read from its constant, and the page saying so where the register names call another one sp.

The fixture is a copy of catalog/ with two frame instructions and a model unit of our own writing (FPUSH saves a
range below the stack pointer, FPOP restores one that begins at ra; the model reads its stack pointer from R5)."""

from __future__ import annotations

import json
import shutil
from types import SimpleNamespace

import pytest

from pto_docs.bridge import teaching, teaching_stack
from tests.conftest import REPO

RING = list(range(2, 24))
MODEL_SP = 5  # the model's own stack pointer in the fixture: R5, which the register names call a3
NAMED_SP = 1  # the register the names call sp


def _frame_unit(mnemonic: str, asm: str, begin: str, end: str, match: str, begins: list[int], summary: str) -> str:
    form = {"asm": asm, "constraints": [{"field": begin, "operator": "one-of", "values": begins},
                                        {"field": end, "operator": "one-of", "values": RING}],
            "encoding": [{"index": 0, "mask": "0x0000707f", "match": match, "width_bits": 32}], "encoding_kind": "L32",
            "fields": [{"name": begin, "pieces": [{"instruction_lsb": 15, "value_lsb": 0, "width": 5}],
                        "signedness": "encoding-defined", "width": 5},
                       {"name": end, "pieces": [{"instruction_lsb": 20, "value_lsb": 0, "width": 5}],
                        "signedness": "encoding-defined", "width": 5},
                       {"name": "uimm", "pieces": [{"instruction_lsb": 25, "value_lsb": 3, "width": 7},
                                                   {"instruction_lsb": 7, "value_lsb": 10, "width": 5}],
                        "signedness": "unsigned", "width": 15}],
            "form_id": f"{mnemonic.lower()}_32_0000000000aa", "length_bits": 32, "mnemonic": mnemonic,
            "semantic_family": "CMD", "semantic_group": "Frames", "semantic_handler": "ExecuteSampleFrame",
            "semantic_summary": summary, "status": "accepted"}
    record = {"assembly": [asm], "block": [], "catalog_indices": [90], "catalog_records": [form],
              "classification": ["lifecycle"],
              "contract": {"block_composition": ["none"], "canonical_assembly": [asm], "defaults": [],
                           "encoding_class": "standalone-encoded", "examples": [asm], "exceptions": [],
                           "field_contracts": {}, "field_zero_meanings": {}, "legality": [], "memory_effects": [],
                           "operands": [{"field": begin, "role": "first register of the range"},
                                        {"field": end, "role": "last register of the range"},
                                        {"field": "uimm", "role": "frame size in bytes, a multiple of eight"}],
                           "ordering": [], "standalone_opcode": True, "state_effects": []},
              "depends_on": ["PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING"], "id": f"PTO-BLOCK-{mnemonic}",
              "mnemonic": mnemonic, "summary": summary, "surface": "block"}
    return "// PTO-INSTRUCTION: " + json.dumps(record, separators=(",", ":")) + "\n"


MODEL_UNIT = ('// PTO-UNIT: {"id":"PTO-BLOCK-MODEL-FRAMES","surface":"block","classification":["model","frames"],'
              '"depends_on":[]}\n// The sample frames read their stack pointer from one register.\n'
              f"constant SAMPLE_FRAME_SP_INDEX = {MODEL_SP};\n\n"
              "readonly func SampleFrameStackPointer() => bits(64)\nbegin\n"
              "    return ReadGPR(SAMPLE_FRAME_SP_INDEX);\nend;\n")


def _tree(root, model: str | None = MODEL_UNIT):
    shutil.copytree(REPO / "catalog", root)
    lifecycle = root / "asl" / "block" / "lifecycle"
    (lifecycle / "FPUSH.asl").write_text(_frame_unit(
        "FPUSH", "FPUSH [RegSrc0 ~ RegSrcn], sp!, uimm", "SrcBegin", "SrcEnd", "0x00000041", RING,
        "Pushes an inclusive range of registers into slots below the stack pointer."), "utf-8")
    (lifecycle / "FPOP.asl").write_text(_frame_unit(
        "FPOP", "FPOP [ra ~ RegDstn], sp!, uimm", "DstBegin", "DstEnd", "0x00003041", [10],
        "Pops an inclusive range that begins at ra from the slots above the stack pointer."), "utf-8")
    if model is not None:
        (root / "asl" / "block" / "model" / "frames.asl").write_text(model, "utf-8")
    from pto_docs.analysis.load import load_catalog
    return load_catalog(root).catalog


@pytest.fixture(scope="module")
def frames(tmp_path_factory):
    from pto_docs.isa.assembler import Assembler
    catalog = _tree(tmp_path_factory.mktemp("frames") / "tree")
    return catalog, Assembler(catalog)


def _writes(setup) -> tuple[dict[int, int], dict[int, int]]:
    """(register -> value, address -> byte) a scenario's setup writes."""
    regs, memory = {}, {}
    for line in setup:
        if line.startswith("WriteGPR("):
            reg, value = line[len("WriteGPR("):].rstrip(");").split(", Zeros{PTO_XLEN} + ")
            regs[int(reg)] = int(value, 16)
        elif line.startswith("WriteMemoryByte("):
            address, value = line[len("WriteMemoryByte(Zeros{PTO_XLEN} + "):].rstrip(");").split(", Zeros{8} + ")
            memory[int(address, 16)] = int(value, 16)
    return regs, memory


def _range(asm: str) -> list[int]:
    from pto_docs.isa.assembler.spelling import SOURCE_CODE
    first, last = (SOURCE_CODE[n.strip()] for n in asm[asm.index("[") + 1:asm.index("]")].split("~"))
    return list(range(first, last + 1))


def test_a_save_sets_both_stack_pointers_and_keeps_its_range_and_frame_apart_from_them(frames):
    catalog, assembler = frames
    first = teaching.scalar_scenarios(assembler, catalog.units["PTO-BLOCK-FPUSH"])[0]
    regs, memory = _writes(first.setup)
    base = teaching_stack.STACK_BASE
    assert base % 16 == 0 and regs[MODEL_SP] == base and regs[NAMED_SP] == base
    saved = _range(first.asm)
    assert len(saved) >= 2 and not {MODEL_SP, NAMED_SP} & set(saved)  # the range avoids both stack pointers
    frame = int(first.asm.rsplit(",", 1)[1])
    assert frame % 8 == 0 and frame >= 8 * len(saved)
    assert len({regs[r] for r in saved}) == len(saved)  # distinct saved values
    # every byte of the frame below sp holds a recognisable (nonzero) value the stores overwrite
    assert sorted(memory) == list(range(base - frame, base)) and all(memory[a] not in (0,) for a in memory)
    assert {o.kind for o in first.operands if o.name in ("a3", "sp")} == {"stack"}
    assert first.stack == (MODEL_SP, NAMED_SP, "SAMPLE_FRAME_SP_INDEX", "asl/block/model/frames.asl", 3)


def test_a_restore_that_begins_at_ra_finds_an_even_return_target_in_slot_zero(frames):
    catalog, assembler = frames
    first = teaching.scalar_scenarios(assembler, catalog.units["PTO-BLOCK-FPOP"])[0]
    regs, memory = _writes(first.setup)
    restored = _range(first.asm)
    assert restored[0] == 10 and not {MODEL_SP, NAMED_SP} & set(restored)
    frame = int(first.asm.rsplit(",", 1)[1])
    assert frame >= 8 * len(restored)
    caller = teaching_stack.STACK_BASE + frame
    slots = [int.from_bytes(bytes(memory[caller - 8 * (i + 1) + b] for b in range(8)), "little")
             for i in range(len(restored))]
    assert slots[0] % 2 == 0 and slots[0] != 0  # a valid (even) return target
    assert len(set(slots)) == len(slots) and all(regs[r] not in slots for r in restored)  # every restore shows
    assert [o.name for o in first.operands if o.kind == "slot"][0] == f"memory[0x{caller - 8:x}]"


def test_with_no_model_constant_the_register_named_sp_is_the_stack_pointer(tmp_path):
    from pto_docs.isa.assembler import Assembler
    catalog = _tree(tmp_path / "tree", model=None)
    first = teaching.scalar_scenarios(Assembler(catalog), catalog.units["PTO-BLOCK-FPUSH"])[0]
    regs, _memory = _writes(first.setup)
    assert regs[NAMED_SP] == teaching_stack.STACK_BASE and MODEL_SP not in regs and first.stack == ()
    assert NAMED_SP not in _range(first.asm)


@pytest.mark.parametrize("model", [
    MODEL_UNIT.replace("    return ReadGPR(SAMPLE_FRAME_SP_INDEX);", "    return Zeros{64};"),  # never read as a GPR
    MODEL_UNIT.replace("SAMPLE_FRAME_SP_INDEX", "SAMPLE_FRAME_SPAN"),  # no SP word in its name
    MODEL_UNIT + "constant OTHER_SP = 7;\nfunc F() => bits(64)\nbegin\n    return ReadGPR(OTHER_SP);\nend;\n",  # two
])
def test_the_model_stack_pointer_is_only_a_constant_read_as_a_register_and_named_sp(tmp_path, model):
    catalog = _tree(tmp_path / "tree", model=model)
    assert teaching_stack.model_stack_pointer(catalog) is None


def test_a_save_of_the_model_constant_composes_the_scenarios_again(tmp_path):
    from pto_docs.bridge.teaching_keys import scenarios_digest
    one = _tree(tmp_path / "one")
    other = _tree(tmp_path / "other", model=MODEL_UNIT.replace(f"= {MODEL_SP};", "= 6;"))
    assert scenarios_digest(one, "code") != scenarios_digest(other, "code")


def test_the_page_names_the_model_stack_pointer_in_both_languages(frames):
    from pto_docs.bridge.teaching_run import Taught
    from pto_docs.i18n import labels
    from pto_docs.render.env import environment
    from pto_docs.render.state_view import teaching_view
    catalog, assembler = frames
    first = teaching.scalar_scenarios(assembler, catalog.units["PTO-BLOCK-FPUSH"])[0]
    result = {"status": "ok", "fault": "Fault_None", "digest": "d" * 64, "decoded": {"word": "0x00000041"},
              "changed": [["_PEGPRs[0][5]", "0x0000000000000400", "0x00000000000003f0"],
                          ["_FrameTemplate.progress", "0", "2"]]}
    view = teaching_view(Taught(first, result, 0))
    assert view.stack[:4] == ("a3", MODEL_SP, "sp", NAMED_SP)
    assert [(c.name, c.before.text, c.after.text) for c in view.changes] == [("a3", "0x400", "0x3f0")]
    assert [f[0] for f in view.folded] == ["_FrameTemplate.progress"]  # the restart template is bookkeeping
    template = environment().get_template("partials/teaching.html.j2")
    for locale, words in (("en", "reads the frame stack pointer from R5"), ("zh-CN", "从 R5")):
        html = template.render(m=SimpleNamespace(teaching=view), L=labels(locale))
        note = next(p for p in html.splitlines() if "pto-stack-note" in p)
        assert words in note and "<code>a3</code>" in note and "<code>sp</code>" in note
        assert "<code>asl/block/model/frames.asl:3</code>" in note and "<code>0x400</code>" in note
    hostile = SimpleNamespace(**{**view.__dict__, "stack": ("<b>", 5, "sp", 1, "X", "<script>.asl", 3, "0x400")})
    html = environment().get_template("partials/teaching.html.j2").render(m=SimpleNamespace(teaching=hostile),
                                                                          L=labels("en"))
    assert "<script>" not in html and "&lt;script&gt;.asl" in html


def test_a_frame_example_shows_its_slots_as_8_byte_values(frames):
    """FPUSH's two stores below the stack pointer are two 8-byte rows holding the saved registers' values (slot
    zero the first register, at sp - 8), not sixteen byte rows; the bytes they replaced (the setup's) on hover."""
    from pto_docs.bridge.teaching_run import Taught
    from pto_docs.render.state_view import teaching_view
    catalog, assembler = frames
    first = teaching.scalar_scenarios(assembler, catalog.units["PTO-BLOCK-FPUSH"])[0]
    assert first.access == teaching_stack.SLOT_BYTES == 8
    regs, memory = _writes(first.setup)
    saved = [regs[r] for r in _range(first.asm)]
    base, size = teaching_stack.STACK_BASE, teaching_stack.SLOT_BYTES
    low = base - size * len(saved)
    after = {base - size * (i + 1) + b: value >> (8 * b) & 0xFF for i, value in enumerate(saved) for b in range(size)}
    result = {"status": "ok", "fault": "Fault_None", "digest": "d" * 64, "decoded": {"word": "0x00000041"},
              "before": [[f"_Memory[{low}..{base - 1}]", " ".join(f"0x{memory[a]:02x}" for a in range(low, base))]],
              "changed": [[f"_Memory[{low}..{base - 1}]", " ".join(f"0x{memory[a]:02x}" for a in range(low, base)),
                           " ".join(f"0x{after[a]:02x}" for a in range(low, base))],
                          [f"_PEGPRs[0][{MODEL_SP}]", f"0x{base:016x}", f"0x{low:016x}"]]}
    view = teaching_view(Taught(first, result, 0))
    rows = [(c.name, c.after.text) for c in view.changes if c.name.startswith("memory[")]
    # (a value in memory is raw bits: hex)
    assert rows == [(f"memory[0x{base - size * (i + 1):x}]", hex(v)) for i, v in reversed(list(enumerate(saved)))]
    top = next(c for c in view.changes if c.name == f"memory[0x{base - size:x}]")
    old = bytes(memory[a] for a in range(base - size, base))
    assert top.before.bits == f"0x{int.from_bytes(old, 'little'):016x} ({' '.join(f'{b:02x}' for b in old)})"
    assert f"memory[0x{base - size:x}] = {hex(saved[0])}" in view.caption_outputs


# a model unit whose call writes ra (R10) and its own copy of it, as 0.58.3's SetReturnAddress does for SETRET
MIRROR_UNIT = ('// PTO-UNIT: {"id":"PTO-BLOCK-MODEL-CALLS","surface":"block","classification":["model","calls"],'
               '"depends_on":[]}\nvar _SampleReturnTarget : bits(64);\n\n'
               "func SampleCall(target: bits(64))\nbegin\n    WriteGPR(10, target);\n"
               "    _SampleReturnTarget = target;\nend;\n")


@pytest.mark.parametrize("mirror, copied", [
    (MIRROR_UNIT, "_SampleReturnTarget"),
    (MIRROR_UNIT.replace("WriteGPR(10,", "WriteGPR(11,"), None),  # a copy of another register
    (MIRROR_UNIT.replace("_SampleReturnTarget = target;", "_SampleReturnTarget = other;"), None),  # another value
], ids=["copy", "other-register", "other-value"])
def test_a_restore_that_does_not_restore_ra_finds_ra_and_the_models_copy_a_return_target(tmp_path, mirror, copied):
    """A restore whose range does not begin at ra returns through ra as the model keeps it (0.58.3's FRET.RA
    returns to _ReturnAddress, which the scenario never set: pc 0x10000 -> 0x0): the scenario sets ra and the one
    model variable a model unit sets to what it wrote to R10 to an even return target; no such variable, no copy."""
    from pto_docs.isa.assembler import Assembler
    catalog = _tree(tmp_path / "tree")
    (tmp_path / "tree" / "asl" / "block" / "lifecycle" / "FDROP.asl").write_text(_frame_unit(
        "FDROP", "FDROP [RegDst0 ~ RegDstn], sp!, uimm", "DstBegin", "DstEnd", "0x00005041", RING,
        "Restores an inclusive range from the slots above the stack pointer and returns through ra."), "utf-8")
    (tmp_path / "tree" / "asl" / "block" / "model" / "calls.asl").write_text(mirror, "utf-8")
    from pto_docs.analysis.load import load_catalog
    catalog = load_catalog(tmp_path / "tree").catalog
    assert teaching_stack.register_mirror(catalog, 10) == copied
    first = teaching.scalar_scenarios(Assembler(catalog), catalog.units["PTO-BLOCK-FDROP"])[0]
    regs, _memory = _writes(first.setup)
    assert 10 not in _range(first.asm)
    target = teaching_stack.RETURN_TARGET
    if copied:
        assert regs[10] == target and target % 2 == 0
        assert f"{copied} = Zeros{{PTO_XLEN}} + 0x{target:x};" in first.setup
        assert [(o.name, o.value) for o in first.operands if o.name == "ra"] == [("ra", f"0x{target:x}")]
    else:
        assert 10 not in regs and not [line for line in first.setup if line.startswith("_")]
    # a restore that begins at ra takes its target from slot zero: no copy to set
    pop = teaching.scalar_scenarios(Assembler(catalog), catalog.units["PTO-BLOCK-FPOP"])[0]
    assert not [line for line in pop.setup if line.startswith("_")]


def test_a_save_of_code_that_composing_reads_composes_again_in_a_serving_process(tmp_path):
    """The scenarios (and a serving process's remembered examples) are kept while what composing reads is the same:
    besides the metadata lines, the few facts it takes from the units' code. Each of these saves changes them."""
    from pto_docs.analysis.load import load_catalog
    from pto_docs.bridge.teaching_keys import scenarios_digest
    from pto_docs.bridge.teaching_run import code_digest, model_digest
    root = tmp_path / "tree"
    before = _tree(root)
    seen = {scenarios_digest(before, code_digest())}
    frames = root / "asl" / "block" / "model" / "frames.asl"
    saves = [  # (file, how the text changes, whether the model digest stays: a comment is no code)
        (frames, lambda t: t.replace("// The sample", "// one more line\n// The sample"), True),  # the constant's line
        (root / "asl" / "block" / "model" / "schema" / "profile-encoding.asl",
         lambda t: t.replace("func WriteTPC(", "func SetTPC("), False),  # the start pc's writer (none now)
        (root / "asl" / "scalar" / "agu" / "SWI.asl",
         lambda t: t + "\nfunc InstructionContractMemorySizeBytes_SWI() => integer\nbegin\n    return 8;\nend;\n",
         False),  # an access size the contract declares (4 before; two sizes now: none is known)
    ]
    for path, edit, same_model in saves:
        old = load_catalog(root).catalog
        path.write_text(edit(path.read_text("utf-8")), "utf-8")
        new = load_catalog(root).catalog
        assert (model_digest(old, None) == model_digest(new, None)) == same_model, path.name
        digest = scenarios_digest(new, code_digest())
        assert digest not in seen, path.name
        seen.add(digest)
    assert teaching_stack.model_stack_pointer(load_catalog(root).catalog).line == 4


@pytest.mark.parametrize("reads_ra", [True, False], ids=["return", "exit"])
def test_a_restore_shows_ra_as_an_input_only_when_its_run_reads_it(tmp_path, reads_ra):
    """ra (and the model's copy), set as a call leaves them for a restore that returns through ra, is an input only of
    a restore that reads it: FRET.RA returns through it (without it, to 0), FEXIT does not read it (0.58.3's FEXIT
    example listed ra = 0x1000). The runner runs the scenario without it too and keeps that one if it does the same."""
    from pto_docs.analysis.load import load_catalog
    from pto_docs.bridge import teaching_run
    from pto_docs.isa.assembler import Assembler
    _tree(tmp_path / "tree")
    (tmp_path / "tree" / "asl" / "block" / "lifecycle" / "FDROP.asl").write_text(_frame_unit(
        "FDROP", "FDROP [RegDst0 ~ RegDstn], sp!, uimm", "DstBegin", "DstEnd", "0x00005041", RING,
        "Restores an inclusive range from the slots above the stack pointer."), "utf-8")
    (tmp_path / "tree" / "asl" / "block" / "model" / "calls.asl").write_text(MIRROR_UNIT, "utf-8")
    catalog = load_catalog(tmp_path / "tree").catalog
    unit = catalog.units["PTO-BLOCK-FDROP"]
    found = teaching.scalar_scenarios(Assembler(catalog), unit)
    lines, names = found[0].assumed
    assert names == ("ra",) and len(lines) == 2 and all(line in found[0].setup for line in lines)
    start, target = teaching.START_PC, teaching_stack.RETURN_TARGET
    ran = []

    def result(_uid, _key, case):  # a model of the restore: it loads a register; a return goes to ra's copy
        has_ra = all(line in case["setup"] for line in lines)
        ran.append(has_ra)
        after = (target if has_ra else 0) if reads_ra else start + 4
        return {"status": "ok", "fault": "Fault_None", "result": "ExecutionStatus_Retired", "exception": "",
                "decoded": {"word": "0x00005041"}, "read": {}, "truncated": False, "status_flags": {},
                "before": [["_PEGPRs[0][10]", f"0x{target if has_ra else 0:016x}"]],
                "changed": [["_PEGPRs[0][3]", "0x63", "0x7"], ["_PC", f"0x{start:016x}", f"0x{after:016x}"]]}
    taught, used = teaching_run._search(unit, found, result)
    assert ran == [True, False] and len(used) == 2  # (one run more, without ra)
    shown = [o.name for o in taught.scenario.operands]
    assert ("ra" in shown) == reads_ra and all((line in taught.scenario.setup) == reads_ra for line in lines)
    assert taught.result["changed"][-1][2] == f"0x{(target if reads_ra else start + 4):016x}"
    assert taught.scenario.case() == (found[0] if reads_ra else found[0].without_assumed()).case()


def test_a_restore_whose_range_holds_ra_past_its_start_sets_ra_once_as_a_range_register(tmp_path):
    """A range that holds ra but does not begin at it (a7 ~ ra) restores ra from a slot: ra is one of the range's
    registers, with the range's old value, not also an assumed return target that the range's own line overwrites
    (the page listed ra twice, and the example without the assumed inputs lost the range's ra)."""
    from pto_docs.analysis.load import load_catalog
    from pto_docs.isa.assembler import Assembler
    root = tmp_path / "tree"
    _tree(root)
    (root / "asl/block/lifecycle/FDROP.asl").write_text(_frame_unit(
        "FDROP", "FDROP [RegDst0 ~ RegDstn], sp!, uimm", "DstBegin", "DstEnd", "0x00005041", [9],
        "Restores an inclusive range from the slots above the stack pointer."), "utf-8")
    (root / "asl/block/model/calls.asl").write_text(MIRROR_UNIT, "utf-8")
    catalog = load_catalog(root).catalog
    found = teaching.scalar_scenarios(Assembler(catalog), catalog.units["PTO-BLOCK-FDROP"])
    scenario = found[0]
    assert "ra" in scenario.asm.replace("[", " ").replace("]", " ").split()  # (the range a7 ~ ra)
    ra = [o for o in scenario.operands if o.name == "ra"]
    assert [o.kind for o in ra] == ["destination"]
    assert scenario.assumed == ((), ())
    assert scenario.without_assumed().operands == scenario.operands
