"""The assembler (pto_docs.isa.assembler) on forms made here: text -> word by the encoding model, its diagnostics, the
round trip and the example-line verdicts. The real tree is tested in tests/trace/test_assembler_realtree.py."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pto_docs.isa.assembler import AsmError, Assembler, round_trip


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


# -- syntaxes read from the records' other facts: {...} records and flag sets, listed suffixes, roles, labels ----------
def rich_unit(mnemonic, forms, operands=(), legality=(), assembly=None, domains=(), field_contracts=None, surface="block"):
    u = unit(mnemonic, forms, surface=surface)
    u.record["assembly"] = assembly or [f["asm"] for f in forms]
    u.record["field_domains"] = list(domains)
    u.contract.update(operands=[{"field": f, "role": r} for f, r in operands], legality=list(legality),
                      field_contracts=field_contracts or {})
    return u


DATR = form("datr_32_x", "B.DATR", "B.DATR {layout, datatype, cmode, rmode, sat}", 0x7F, 0x23,
            [field("Layout", 7, 5), field("DataType", 12, 5), field("CMode", 17, 3), field("RMode", 20, 3), field("Sat", 23, 1)],
            [{"field": "DataType", "operator": "one-of", "values": [1, 27, 31]}])
CATR = form("catr_32_x", "B.CATR", "B.CATR {trap, atomic, <aq, rl, aqrl>, dr}", 0x7F, 0x27,
            [field("trap", 7, 1), field("atom", 8, 1), field("aq", 9, 1), field("rl", 10, 1), field("DR", 11, 1)])
QMT = form("qmt_32_x", "HL.QMT", "hl.qmt[.{i,e,ie}] SrcL[, SrcR when i], ->RegDst", 0x7F, 0x2B,
           REG + [field("i", 25, 1), field("e", 26, 1)])
BFI = form("bfi_32_x", "HL.BFI", "hl.bfi SrcL, SrcR, M, N, ->{t, u, Rd}", 0x7F, 0x2F,
           REG[:2] + [field("SrcR", 20, 5), field("immr", 25, 3), field("imms", 28, 3)])
TRACE = form("hint_32_x", "B.HINT", "B.HINT TRACE.{begin, end}", 0x7F, 0x33, [field("B/E", 7, 1)])
CALL = form("call_32_x", "BSTART.CALL", "BSTART.CALL <br_label>, <rt_label>, ->ra", 0x7F, 0x37,
            [field("simm12", 7, 12, "signed"), field("uimm5", 19, 5)])
XB = form("xb_32_x", "XB", "XB ACR-ID, C-ID", 0x7F, 0x3B, [field("ACR-ID", 7, 10), field("CROSS-BID", 17, 7)])
HINT = form("hint_32_y", "B.HINT", "B.HINT {BR.{likely, unlikely}, TEMP.{hot, warm, cool, none}, PRFSIZE}", 0x7F, 0x3F,
            [field("V", 7, 1), field("L/UL", 8, 1), field("temp", 9, 2), field("prefetch_size", 11, 12)])


@pytest.fixture(scope="module")
def rich():
    domain = {"id": "PTO-FIELD-X-DATATYPE", "assigned": [{"meaning": "FP32", "value": 1}, {"meaning": "U8", "value": 27}]}
    units = [
        rich_unit("B.DATR", [DATR], operands=[("RMode", "rounding selector: 0 operation default, 1 RNE, 2 RTZ")],
                  legality=["CMode codes 0..2 select EQ, NE, and LT respectively.",
                            "DataType accepts the concrete codes plus code 31 DTYPE_NONE.",
                            "Layout codes 21 through 22 select ND2M32 and ND2M16 respectively."],
                  domains=[domain], field_contracts={"DataType": {"ref": "PTO-FIELD-X-DATATYPE"}}),
        rich_unit("B.CATR", [CATR]),
        rich_unit("HL.QMT", [QMT], surface="scalar",
                  assembly=["hl.qmt SrcL, ->RegDst", "hl.qmt.e SrcL, ->RegDst", "hl.qmt.i SrcL, SrcR, ->RegDst",
                            "hl.qmt.ie SrcL, SrcR, ->RegDst"]),
        rich_unit("HL.BFI", [BFI], surface="scalar",
                  operands=[("immr", "first destination bit"), ("imms", "last destination bit")]),
        rich_unit("B.HINT", [TRACE, HINT], operands=[("B/E", "trace boundary: 0 begin, 1 end"),
                                                     ("V", "branch-hint validity: 0 invalid, 1 valid"),
                                                     ("L/UL", "when V=1, 0 unlikely/fallthrough and 1 likely/taken"),
                                                     ("temp", "temperature: 0 none, 1 cool, 2 warm, 3 hot"),
                                                     ("prefetch_size", "number of cache lines to prefetch")]),
        rich_unit("BSTART.CALL", [CALL], operands=[("simm12", "12-bit signed bundle target displacement"),
                                                   ("uimm5", "unsigned return-address displacement")]),
        rich_unit("XB", [XB]),
    ]
    return Assembler(SimpleNamespace(instructions=tuple(units), units={u.id: u for u in units}))


def test_a_braced_record_is_every_field_by_the_names_the_records_give(rich):
    done = dict(rich.assemble("B.DATR {ND2M16, DTYPE_NONE, NE, Default, 1}").fields)
    # Layout 22 and CMode 1 from the legality sentences, DTYPE_NONE 31 from "code 31 DTYPE_NONE", RMode 0 from the
    # operand role's "0 operation default" (its last word), Sat a number
    assert done == {"Layout": 22, "DataType": 31, "CMode": 1, "RMode": 0, "Sat": 1}
    assert dict(rich.assemble("B.DATR {3, FP32, EQ, RNE, 0}").fields)["Layout"] == 3  # a code without a name: a number
    with pytest.raises(AsmError, match=r"'S8' is not one of FP32, U8, DTYPE_NONE"):
        rich.assemble("B.DATR {ND2M16, S8, EQ, RNE, 0}")  # a field with a domain: only its names
    with pytest.raises(AsmError, match=r"'None' is not a number \(operand cmode; its named values: EQ, NE, LT\)"):
        rich.assemble("B.DATR {ND2M16, FP32, None, RNE, 0}")
    with pytest.raises(AsmError, match=r"5 values in braces"):
        rich.assemble("B.DATR {ND2M16, FP32}")
    assert rich.check_line("B.DATR FP32, RNE", ["PTO-BLOCK-B-DATR"], own=False)[0] == "unchecked"  # shorthand


def test_a_braced_flag_set_sets_the_one_bit_fields_it_names(rich):
    assert dict(rich.assemble("B.CATR {trap, aqrl, dr}").fields) == {"trap": 1, "atom": 0, "aq": 1, "rl": 1, "DR": 1}
    assert dict(rich.assemble("B.CATR {atomic}").fields)["atom"] == 1 and rich.assemble("B.CATR {}").word == 0x27
    with pytest.raises(AsmError, match=r"'far' is not one of trap, atomic, aq, rl, aqrl, dr"):
        rich.assemble("B.CATR {far}")


def test_listed_suffixes_roles_labels_and_the_one_free_field(rich):
    ie = dict(rich.assemble("hl.qmt.ie a0, a1, ->a2").fields)
    assert ie["i"] == ie["e"] == 1 and ie["SrcR"] == 3
    plain = dict(rich.assemble("hl.qmt.e a0, ->a2").fields)
    assert plain["i"] == 0 and plain["e"] == 1
    with pytest.raises(AsmError):
        rich.assemble("hl.qmt.e a0, a1, ->a2")  # SrcR only under .i
    bfi = dict(rich.assemble("hl.bfi a0, a1, 2, 5, ->a2").fields)
    assert bfi["immr"] == 2 and bfi["imms"] == 5  # M the first destination bit, N the last (the operand roles)
    assert dict(rich.assemble("B.HINT TRACE.end").fields) == {"B/E": 1}
    call = dict(rich.assemble("BSTART.CALL -8, 3, ->ra").fields)
    assert call == {"simm12": (-8) & 0xFFF, "uimm5": 3}
    assert dict(rich.assemble("XB 5, 6").fields) == {"ACR-ID": 5, "CROSS-BID": 6}
    trips = {t.form_id: t for t in round_trip(rich, samples=24, seed=5)}
    assert all(trips[f].status == "full" for f in ("datr_32_x", "catr_32_x", "bfi_32_x", "hint_32_x", "call_32_x", "xb_32_x"))
    # SrcR is read only under .i: a word with i = 0 and SrcR set has no text
    assert trips["qmt_32_x"].status == "partial" and trips["qmt_32_x"].unbound == ("SrcR",)
    # BR.likely is L/UL 1 and, by L/UL's role ("when V=1"), V 1; TEMP by temp's role; PRFSIZE abbreviates prefetch_size
    assert dict(rich.assemble("B.HINT {BR.likely, TEMP.warm, 64}").fields) == {"V": 1, "L/UL": 1, "temp": 2,
                                                                               "prefetch_size": 64}
    assert dict(rich.assemble("B.HINT {BR.unlikely, TEMP.none, 0}").fields)["V"] == 1
    with pytest.raises(AsmError, match=r"'BR.maybe' is not one of BR.likely, BR.unlikely"):
        rich.assemble("B.HINT {BR.maybe, TEMP.hot, 1}")
    # no text says V = 0 (no branch hint): such words have no spelling
    assert trips["hint_32_y"].status == "partial" and "V 0 has no spelling" in trips["hint_32_y"].failure


def test_a_wrong_line_written_in_placeholders_is_caught(asm):
    """Another instruction of a bundle written without concrete values was descriptive whatever it said; now its
    mnemonic and operand count/brackets must be those of one of its syntaxes."""
    every = [u.id for u in asm.catalog.instructions]
    # B.IOT's syntax here: SrcTile0, mask=PE_MASK, <last> (optional), ->DstTile<SizeCode>: 3 or 4 operands
    assert asm.check_line("B.IOT SrcTile, mask=PE_MASK, <last>, ->DstTile<TSize>", every, own=False)[0] == "descriptive"
    verdict, message = asm.check_line("B.IOT SrcA, SrcB, SrcC, mask=PE_MASK, <last>, ->DstTile<TSize>", every, own=False)
    assert verdict == "mismatch" and message.startswith("B.IOT takes 4 operands") and message.endswith("not 6")
    verdict, message = asm.check_line("B.IOX SrcTile, mask=PE_MASK, ->DstTile<TSize>", every, own=False)
    assert verdict == "mismatch" and "unknown mnemonic 'B.IOX'" in message  # the tree has B.* commands, not this one
    assert asm.check_line("B.IOT [SrcTile], mask=PE_MASK, ->DstTile<TSize>", every, own=False)[0] == "mismatch"
    # still descriptive: the instruction named without operands, a word of its syntax, prose, an absent family
    for line in ("B.IOT", "B.IOT SrcTile0", "optional B.IOT with the mask", "Q.FOO SrcL"):
        assert asm.check_line(line, every, own=False)[0] == "descriptive", line
