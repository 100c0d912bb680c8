"""The assembler (pto_docs.assembler) on forms made here: text -> word by the encoding model, its diagnostics, the
round trip and the example-line verdicts. The real tree is tested in tests/trace/test_assembler_realtree.py."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pto_docs.assembler import AsmError, Assembler, round_trip


def field(name, lsb, width, signedness="encoding-defined", value_lsb=0):
    return {"name": name, "width": width + value_lsb, "signedness": signedness,
            "pieces": [{"instruction_lsb": lsb, "value_lsb": value_lsb, "width": width}]}


def form(form_id, mnemonic, asm, mask, match, fields, constraints=(), length=32):
    digits = length // 4
    return {"form_id": form_id, "mnemonic": mnemonic, "asm": asm, "length_bits": length,
            "encoding": [{"index": 0, "mask": f"0x{mask:0{digits}x}", "match": f"0x{match:0{digits}x}", "width_bits": length}],
            "fields": fields, "constraints": list(constraints)}


REG = [field("RegDst", 7, 5), field("SrcL", 15, 5), field("SrcR", 20, 5)]
ADDW = form("addw_32_x", "ADDW", "addw SrcL, SrcR<{.sw,.uw,.neg}><<<shamt>, ->{t, u, Rd}", 0x7F, 0x25,
            REG + [field("SrcRType", 25, 2), field("shamt", 27, 5)])
ADDI = form("addi_32_x", "ADDI", "addi SrcL, simm, ->{t, u, Rd}", 0x707F, 0x1015, REG[:2] + [field("simm12", 20, 12, "signed")])
SWAP = form("swap_32_x", "SWAP", "swap<.{aq, rl, f, aqrl}> [SrcL], SrcR, {->t, ->u, ->Rd}", 0x707F, 0x200B,
            REG + [field("aq", 25, 1), field("rl", 26, 1), field("far", 27, 1)])
STOP = form("stop_16_x", "C.STOP", "C.STOP {FALL, IND, RET}", 0xC7FF, 0x0000, [field("BrType", 11, 3)],
            [{"field": "BrType", "operator": "one-of", "values": [1, 5, 7]}], length=16)
IOT = form("iot_32_x", "B.IOT", "B.IOT SrcTile0, mask=PE_MASK, <last>, ->DstTile<SizeCode>", 0x7F, 0x13,
           [field("SrcTile0", 7, 6), field("L", 13, 1), field("PEMode", 14, 3), field("SizeCode", 17, 4), field("DstTile", 21, 2)])
ENTRY = form("entry_32_x", "FENTRY", "FENTRY [RegSrc0 ~ RegSrcn], sp!, uimm", 0x7F, 0x41,
             [field("SrcBegin", 15, 5), field("SrcEnd", 20, 5), field("uimm", 25, 7, value_lsb=3)],
             [{"field": f, "operator": "one-of", "values": list(range(2, 24))} for f in ("SrcBegin", "SrcEnd")])
LEGALITY = {"ADDW": ["SrcRType=00 selects .sw, SrcRType=01 selects .uw, SrcRType=10 selects .neg, and SrcRType=11 selects no modifier."],
            "C.STOP": ["BrType accepts exactly 1 (FALL), 5 (IND), or 7 (RET)."]}


def unit(mnemonic, forms, examples=(), surface="scalar"):
    record = {"mnemonic": mnemonic, "catalog_records": forms, "assembly": [f["asm"] for f in forms], "block": [],
              "contract": {"legality": LEGALITY.get(mnemonic, []), "defaults": [], "field_zero_meanings": {},
                           "canonical_assembly": [], "examples": list(examples)}}
    return SimpleNamespace(id=f"PTO-{surface.upper()}-{mnemonic.replace('.', '-')}", kind="instruction", is_instruction=True,
                           surface=surface, mnemonic=mnemonic, path=f"asl/{surface}/x/{mnemonic}.asl", line=1,
                           record=record, contract=record["contract"], catalog_records=tuple(forms), engine=None)


@pytest.fixture(scope="module")
def asm():
    units = [unit("ADDW", [ADDW]), unit("ADDI", [ADDI]), unit("SWAP", [SWAP]), unit("C.STOP", [STOP], surface="block"),
             unit("B.IOT", [IOT], surface="block"), unit("FENTRY", [ENTRY], surface="block")]
    catalog = SimpleNamespace(instructions=tuple(units), units={u.id: u for u in units})
    return Assembler(catalog)


def bits(value, lsb):
    return value << lsb


def test_operands_modifiers_and_shift_become_the_fields(asm):
    done = asm.assemble("addw a0, a1.neg<<3, ->t")
    # a0 = 2, a1 = 3, .neg = 2 (from the legality prose), shamt 3, ->t = 31
    assert done.word == 0x25 | bits(31, 7) | bits(2, 15) | bits(3, 20) | bits(2, 25) | bits(3, 27)
    assert done.form["form_id"] == "addw_32_x" and dict(done.fields)["SrcRType"] == 2
    plain = asm.assemble("ADDW t#1, u#4, ->zero")  # no modifier = code 3, no shift = 0; mnemonics in any case
    assert plain.word == 0x25 | bits(24, 15) | bits(31, 20) | bits(3, 25)


def test_suffix_flags_signed_immediates_and_named_choices(asm):
    assert asm.assemble("swap.aqrl [sp], a0, ->u").word == 0x200B | bits(30, 7) | bits(1, 15) | bits(2, 20) | bits(1, 25) | bits(1, 26)
    assert asm.assemble("swap.f [sp], a0, ->u").word == 0x200B | bits(30, 7) | bits(1, 15) | bits(2, 20) | bits(1, 27)
    assert asm.assemble("addi s8, -1, ->ra").word == 0x1015 | bits(10, 7) | bits(19, 15) | bits(0xFFF, 20)
    assert asm.assemble("C.STOP IND").word == bits(5, 11) and asm.assemble("C.STOP IND").length_bits == 16


def test_tile_operands_pe_masks_and_register_ranges(asm):
    # U#2 = hand 1 * 16 + 1; mask 0011 = PE0+PE1 = PEMode 5; ->M<3>: DstTile 2, SizeCode 3; last: L 1
    assert asm.assemble("B.IOT U#2, mask=0011, last, ->M<3>").word == 0x13 | bits(17, 7) | bits(1, 13) | bits(5, 14) | bits(3, 17) | bits(2, 21)
    assert asm.assemble("B.IOT T#1, mask=1111, ->T<1>").word == 0x13 | bits(7, 14) | bits(1, 17)
    # uimm's pieces start at value bit 3: a multiple of 8, stored shifted
    assert asm.assemble("FENTRY [s0 ~ s3], sp!, 64").word == 0x41 | bits(11, 15) | bits(14, 20) | bits(8, 25)


@pytest.mark.parametrize("text,message", [
    ("B.IOT T#1, mask=0101, ->T<1>", "is not mask=BBBB"),
    ("B.IOT T1, mask=1111, ->T<1>", "'T1' is not a Local tile operand"),
    ("FENTRY [s0 ~ s3], sp!, 60", "must be a multiple of 8"),
    ("frob a0", "unknown mnemonic 'frob'"),
    ("addi a0, 1", "expects 3 operands"),
    ("addi a0, 2048, ->a1", "out of range -2048..2047"),
    ("addi x5, 1, ->a1", "'x5' is not a source register"),
    ("addw a0, a1.not, ->a2", ".not is not a modifier"),
    ("swap.q [a0], a1, ->a2", ".q is not a suffix of swap"),
    ("swap a0, a1, ->a2", "memory brackets"),
    ("C.STOP JUMP", "'JUMP' is not one of FALL, IND, RET"),
    ("addi a0, one, ->a1", "'one' is not a number"),
])
def test_each_error_is_one_line_naming_what_is_wrong(asm, text, message):
    with pytest.raises(AsmError) as exc:
        asm.assemble(text)
    assert message in str(exc.value) and "\n" not in str(exc.value)


def test_two_forms_one_text_different_words_is_ambiguous():
    one = form("dup_32_a", "DUP", "dup SrcL, ->{t, u, Rd}", 0x7F, 0x21, REG[:2])
    two = form("dup_32_b", "DUP", "dup SrcL, ->{t, u, Rd}", 0x7F, 0x23, REG[:2])
    units = [unit("DUP", [one, two])]
    assembler = Assembler(SimpleNamespace(instructions=tuple(units), units={u.id: u for u in units}))
    with pytest.raises(AsmError, match=r"ambiguous: it assembles to 2 different words \(forms dup_32_a, dup_32_b\)"):
        assembler.assemble("dup a0, ->a1")


def test_every_form_round_trips(asm):
    trips = round_trip(asm, samples=24, seed=3)
    assert {t.form_id: t.status for t in trips} == {"addw_32_x": "full", "addi_32_x": "full", "swap_32_x": "partial",
                                                    "stop_16_x": "full", "iot_32_x": "full", "entry_32_x": "full"}
    # swap's template offers .aq, .rl, .f and .aqrl only: a word with aq and far set has no spelling
    swap = next(t for t in trips if t.form_id == "swap_32_x")
    assert 0 < swap.same < swap.samples and swap.equivalent == 0 and swap.unbound == ()


def test_example_lines_are_ok_descriptive_or_a_mismatch(asm):
    mine = ["PTO-SCALAR-ADDW"]
    assert asm.check_line("addw a0, a1.sw, ->a2", mine)[0] == "ok"
    assert asm.check_line("addw SrcL, SrcR<{.sw,.uw,.neg}><<<shamt>, ->{t, u, Rd}", mine)[0] == "descriptive"
    assert asm.check_line("addw SrcL, a1, ->Rd", mine) == ("descriptive", "operands written as placeholders")
    assert asm.check_line("addi a0, 1, ->a1", mine)[0] == "mismatch"  # another instruction's mnemonic
    assert asm.check_line("addw a0, a1", mine)[0] == "mismatch"  # wrong operand count
    assert asm.check_line("addw a0, Bogus, ->a1", mine)[0] == "mismatch"  # an operand the form does not have
    # in a bundle (own=False) a segment without any concrete value describes, it does not give, operands
    assert asm.check_line("addw some operands", ["PTO-SCALAR-ADDW"], own=False)[0] == "descriptive"
