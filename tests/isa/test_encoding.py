"""encoding_for / validate_form on hand-built catalogs: tile carriers, aliases, split and scaled fields, 64-bit forms."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pto_docs.isa.encoding import EncodingItem, encoding_for, validate_form, wavejson
from tests.isa._build import catalog, field, form, form_unit, tepl_carrier, tile, unit


def rows(word):
    return [(i.name, i.kind, i.bit_range, i.value) for i in word.items]


def assert_covers(word):
    bits = sorted(b for i in word.items for b in range(i.lsb, i.msb + 1))
    assert bits == list(range(word.offset, word.offset + word.width_bits))
    assert [i.msb for i in word.items] == sorted((i.msb for i in word.items), reverse=True)


# -- tile operations on BSTART.TEPL -------------------------------------------------------------
def test_tmul_substitutes_mode_and_function_into_the_tepl_carrier():
    tmul = tile("TMUL", "VEC", "TEPL", "BSTART.TEPL", 2, mode=0)
    enc = encoding_for(catalog(tepl_carrier(), tmul), tmul)
    assert enc.carrier_mnemonic == "BSTART.TEPL"
    assert enc.engine_mnemonic == "BSTART.VEC"
    assert enc.fixed == {"Mode": 0, "Function": 2}
    (word,) = enc.words
    assert (word.mask, word.match, word.width_bits) == ("0x000fffff", "0x00019181", 32)
    assert rows(word) == [
        ("DataType", "field", "31:27", "variable"),
        ("Mode", "field", "26:25", "0 (Mode fixed by TMUL)"),
        ("Function", "field", "24:20", "2 (Function fixed by TMUL)"),
        ("Constant", "constant", "19:0", "20'b00011001000110000001"),
    ]
    assert word.wavejson == {
        "reg": [{"bits": 20, "name": "20'b00011001000110000001"}, {"bits": 5, "name": "Function", "attr": 2},
                {"bits": 2, "name": "Mode", "attr": 0}, {"bits": 5, "name": "DataType"}],
        "config": {"bits": 32, "fontsize": 13, "hspace": 900, "lanes": 1, "offset": 0},
    }
    # (mode << 25) | (function << 20) | carrier match; DataType stays open
    assert word.effective_mask == 0x07FFFFFF
    assert word.effective_match == 0x00219181
    assert any("BSTART.VEC" in n and "Mode 0" in n and "Function 2" in n for n in enc.notes)


@pytest.mark.parametrize(("mnemonic", "engine", "mode", "function", "selector"), [
    ("TSQRT", "SFU", 0, 21, "0x015"),
    ("TCOLEXPAND", "SFU", 2, 20, "0x054"),
])
def test_sfu_operations_fix_their_own_selector(mnemonic, engine, mode, function, selector):
    op = tile(mnemonic, engine, "TEPL", "BSTART.TEPL", function, mode=mode)
    assert op.catalog_records[0]["selector"] == selector
    enc = encoding_for(catalog(tepl_carrier(), op), op)
    assert enc.engine_mnemonic == "BSTART.SFU"
    assert enc.fixed == {"Mode": mode, "Function": function}
    values = {i.name: (i.bit_range, i.value) for i in enc.words[0].items}
    assert values["Mode"] == ("26:25", f"{mode} (Mode fixed by {mnemonic})")
    assert values["Function"] == ("24:20", f"{function} (Function fixed by {mnemonic})")
    assert values["DataType"] == ("31:27", "variable")
    attrs = {r["name"]: r.get("attr") for r in enc.words[0].wavejson["reg"]}
    assert attrs["Mode"] == mode and attrs["Function"] == function and attrs["DataType"] is None
    assert not any("does not equal" in n for n in enc.notes)


def test_inconsistent_selector_is_noted():
    op = tile("TBAD", "VEC", "TEPL", "BSTART.TEPL", 3, mode=1, selector="0x003")
    enc = encoding_for(catalog(tepl_carrier(), op), op)
    assert any("does not equal" in n and "0x023" in n for n in enc.notes)


def test_missing_carrier_gives_empty_words_and_a_note():
    op = tile("TMUL", "VEC", "TEPL", "BSTART.TEPL", 2, mode=0)
    enc = encoding_for(catalog(op), op)
    assert enc is not None and enc.words == ()
    assert enc.engine_mnemonic == "BSTART.VEC"
    assert any("BSTART.TEPL" in n and "not in this tree" in n for n in enc.notes)


def cube_carrier(mnemonic: str, match: str, variants=None) -> object:
    extra = {"encoding_variants": variants} if variants else {}
    return form_unit("block", mnemonic, form(mnemonic, [("0x07ffffff", match, 32)], [field("DataType", (27, 0, 5))], **extra))


def test_cube_operation_keeps_the_carrier_bits_and_records_its_function():
    op = tile("TMATMUL_ACC", "CUBE", "CUBE", "BSTART.TMATMUL.ACC", 2)
    cat = catalog(tepl_carrier(), cube_carrier("BSTART.TMATMUL.ACC", "0x00231181"), op)
    enc = encoding_for(cat, op)
    assert enc.carrier_mnemonic == enc.engine_mnemonic == "BSTART.TMATMUL.ACC"
    assert enc.fixed == {"Function": 2}
    assert rows(enc.words[0]) == [("DataType", "field", "31:27", "variable"),
                                  ("Constant", "constant", "26:0", "27'b000001000110001000110000001")]
    assert any("Function 2" in n and "fixed match bits" in n for n in enc.notes)
    assert not any("not Function" in n for n in enc.notes)
    # a carrier whose Function slot disagrees with the operation is flagged
    wrong = tile("TMATMUL_ACC", "CUBE", "CUBE", "BSTART.TMATMUL.ACC", 3)
    enc = encoding_for(catalog(tepl_carrier(), cube_carrier("BSTART.TMATMUL.ACC", "0x00231181"), wrong), wrong)
    assert any("hold 2, not Function 3" in n for n in enc.notes)


def test_tlsu_operation_selects_the_encoding_variant_of_its_function():
    variants = [{"name": "TMOV.L2S.INSERT", "function": 9,
                 "encoding": [{"index": 0, "mask": "0x07ffffff", "match": "0x00911181", "width_bits": 32}]}]
    carrier = cube_carrier("BSTART.TMOV", "0x00211181", variants)
    base = tile("TMOV", "TLSU", "TLSU", "BSTART.TMOV", 2)
    insert = tile("TMOVINS", "TLSU", "TLSU", "BSTART.TMOV", 9)
    cat = catalog(carrier, base, insert)
    assert encoding_for(cat, base).words[0].match == "0x00211181"
    assert encoding_for(cat, insert).words[0].match == "0x00911181"
    # the carrier's own page lists the base word and every variant
    words = encoding_for(cat, carrier).words
    assert [w.match for w in words] == ["0x00211181", "0x00911181"]
    assert "TMOV.L2S.INSERT" in words[1].title and "Function 9" in words[1].title


# -- aliases ------------------------------------------------------------------------------------
def test_alias_borrows_the_target_forms():
    alias = unit({"id": "PTO-BLOCK-BSTART-VEC", "surface": "block", "mnemonic": "BSTART.VEC",
                  "alias_of": "BSTART.TEPL", "alias_engine": "VEC", "catalog_records": []})
    enc = encoding_for(catalog(tepl_carrier(), alias), alias)
    assert (enc.carrier_mnemonic, enc.engine_mnemonic) == ("BSTART.TEPL", "BSTART.VEC")
    assert [i.value for i in enc.words[0].items][:3] == ["variable"] * 3
    assert "alias of BSTART.TEPL" in enc.words[0].title
    assert any("alias" in n and "engine VEC" in n for n in enc.notes)
    lonely = encoding_for(catalog(alias), alias)
    assert lonely.words == () and any("not in this tree" in n for n in lonely.notes)


# -- scalar and block forms ---------------------------------------------------------------------
def test_split_field_gives_one_item_per_piece():
    # S-type store layout: imm[11:5] at 31:25, imm[4:0] at 11:7
    f = form("SW", [("0x0000707f", "0x00002023", 32)],
             [field("imm", (25, 5, 7), (7, 0, 5), signedness="signed"), field("rs2", (20, 0, 5)), field("rs1", (15, 0, 5))])
    u = form_unit("scalar", "SW", f)
    (word,) = encoding_for(catalog(u), u).words
    assert rows(word) == [
        ("imm[11:5]", "field", "31:25", "variable"),
        ("rs2", "field", "24:20", "variable"),
        ("rs1", "field", "19:15", "variable"),
        ("Constant", "constant", "14:12", "3'b010"),
        ("imm[4:0]", "field", "11:7", "variable"),
        ("Constant", "constant", "6:0", "7'b0100011"),
    ]
    imm = [i for i in word.items if i.field == "imm"]
    assert [i.piece for i in imm] == [0, 1]


def test_scaled_immediate_labels_value_bits_not_positions():
    # FENTRY-style: uimm is 15 bits wide but its pieces cover value bits 14:3 only (low three bits implied zero)
    f = form("FENTRY", [("0x0000707f", "0x00000041", 32)],
             [field("uimm", (25, 3, 7), (7, 10, 5), width=15, signedness="unsigned"),
              field("SrcEnd", (20, 0, 5)), field("SrcBegin", (15, 0, 5))])
    u = form_unit("block", "FENTRY", f)
    (word,) = encoding_for(catalog(u), u).words
    labels = {i.name: i.bit_range for i in word.items if i.kind == "field"}
    assert labels == {"uimm[9:3]": "31:25", "uimm[14:10]": "11:7", "SrcEnd": "24:20", "SrcBegin": "19:15"}
    assert validate_form(f) == []
    assert_covers(word)


def test_single_piece_with_offset_value_bits_is_labelled_too():
    f = form("C.J", [("0xff00", "0x1200", 16)], [field("off", (0, 1, 8), width=9)])
    u = form_unit("scalar", "C.J", f)
    (word,) = encoding_for(catalog(u), u).words
    assert rows(word) == [("Constant", "constant", "15:8", "8'b00010010"), ("off[8:1]", "field", "7:0", "variable")]
    assert word.wavejson["config"] == {"bits": 16, "fontsize": 13, "hspace": 640, "lanes": 1, "offset": 0}


def test_sixty_four_bit_form_gives_two_words():
    f = form("L.BSTOP", [("0xffffffff", "0x0000000f", 32), ("0xffffffff", "0x00000001", 32)], [])
    u = form_unit("block", "L.BSTOP", f)
    enc = encoding_for(catalog(u), u)
    assert [(w.index, w.offset, w.width_bits) for w in enc.words] == [(0, 0, 32), (1, 32, 32)]
    assert rows(enc.words[0]) == [("Constant", "constant", "31:0", "32'b" + "0" * 28 + "1111")]
    assert rows(enc.words[1]) == [("Constant", "constant", "63:32", "32'b" + "0" * 31 + "1")]
    assert enc.words[1].wavejson["config"]["offset"] == 32
    assert "word 1" in enc.words[1].title and "63:32" in enc.words[1].title


def test_forty_eight_bit_form_wavejson_has_two_lanes():
    f = form("HL.X", [("0xe00000000000", "0x200000000000", 48)], [field("imm", (0, 0, 45))])
    u = form_unit("scalar", "HL.X", f)
    (word,) = encoding_for(catalog(u), u).words
    assert word.wavejson["config"]["lanes"] == 2 and word.wavejson["config"]["bits"] == 48
    assert rows(word) == [("Constant", "constant", "47:45", "3'b001"), ("imm", "field", "44:0", "variable")]


def test_bits_outside_mask_and_fields_are_unspecified_and_fields_in_mask_are_fixed():
    f = form("B.X", [("0x0000007f", "0x00000013", 32)], [field("rd", (7, 0, 5)), field("op", (0, 0, 7))])
    u = form_unit("block", "B.X", f)
    (word,) = encoding_for(catalog(u), u).words
    assert rows(word) == [("Unspecified", "unspecified", "31:12", "unspecified"),
                          ("rd", "field", "11:7", "variable"),
                          ("op", "field", "6:0", "19 (op fixed by the form's match bits)")]
    assert word.wavejson["reg"][0] == {"bits": 7, "name": "op", "attr": 19}
    assert word.wavejson["reg"][-1] == {"bits": 20, "type": 1}


def test_non_instruction_and_record_less_units_have_no_encoding():
    model = unit({"id": "PTO-TILE-MODEL", "surface": "tile", "mnemonic": None}, kind="unit")
    bare = unit({"id": "PTO-SCALAR-NOP", "surface": "scalar", "mnemonic": "NOP", "catalog_records": []})
    cat = catalog(model, bare)
    assert encoding_for(cat, model) is None
    assert encoding_for(cat, bare) is None


# -- validate_form ------------------------------------------------------------------------------
def test_validate_form_reports_each_problem():
    assert validate_form(tepl_carrier().catalog_records[0]) == []
    overlap = form("A", [("0x0000007f", "0x00000013", 32)], [field("a", (7, 0, 5)), field("b", (10, 0, 4))])
    assert any("overlaps a at bit 10" in p for p in validate_form(overlap))
    outside = form("B", [("0x0000000f", "0x000000ff", 32)], [])
    assert any("outside the mask" in p for p in validate_form(outside))
    beyond = form("C", [("0x0000", "0x0000", 16)], [field("x", (12, 0, 8))])
    assert any("beyond width 16" in p for p in validate_form(beyond))
    partly = form("D", [("0x0000000f", "0x00000000", 32)], [field("y", (2, 0, 4))])
    assert any("partly inside the mask" in p for p in validate_form(partly))
    # encoding_for still answers, and carries the problems as notes
    u = form_unit("scalar", "A", overlap)
    enc = encoding_for(catalog(u), u)
    assert any("overlaps" in n for n in enc.notes)
    assert_covers(enc.words[0])


# -- properties ---------------------------------------------------------------------------------
@st.composite
def random_form(draw):
    width = draw(st.sampled_from([16, 32, 48]))
    cuts = sorted(draw(st.sets(st.integers(1, width - 1), max_size=8)))
    bounds = [0, *cuts, width]
    fields, mask = [], 0
    for n, (lo, hi) in enumerate(zip(bounds, bounds[1:], strict=False)):
        role = draw(st.sampled_from(["field", "mask", "none"]))
        if role == "field":
            fields.append(field(f"f{n}", (lo, 0, hi - lo)))
        elif role == "mask":
            mask |= ((1 << (hi - lo)) - 1) << lo
    match = draw(st.integers(0, (1 << width) - 1)) & mask
    digits = width // 4
    return form("R", [(f"0x{mask:0{digits}x}", f"0x{match:0{digits}x}", width)], fields)


@settings(max_examples=200, deadline=None)
@given(random_form())
def test_items_partition_the_word_and_constants_carry_the_match(f):
    u = form_unit("scalar", "R", f)
    (word,) = encoding_for(catalog(u), u).words
    assert_covers(word)
    mask, match = int(word.mask, 16), int(word.match, 16)
    for item in word.items:
        if item.kind == "constant":
            assert int(item.value.split("'b")[1], 2) == (match >> item.lsb) & ((1 << item.width) - 1)
    assert word.effective_mask & mask == mask and word.effective_match & mask == match
    assert sum(r["bits"] for r in word.wavejson["reg"]) == word.width_bits
    assert validate_form(f) == []


def test_wavejson_is_lsb_first():
    items = (EncodingItem("hi", "field", 7, 4, "variable", "hi", 0), EncodingItem("Constant", "constant", 3, 0, "4'b1010"))
    assert wavejson(items, 8)["reg"] == [{"bits": 4, "name": "4'b1010"}, {"bits": 4, "name": "hi"}]
