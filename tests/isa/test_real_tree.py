"""On a PTO-ISA/pto-spec 0.58.3 checkout: every instruction gets an encoding whose items cover its words exactly."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from pto_docs.isa.encoding import encoding_for, validate_form
from pto_docs.render.diagrams import register_svg
from tests.isa._build import spec_checkout

pytestmark = pytest.mark.realtree


@pytest.fixture(scope="module")
def real_catalog():
    root = spec_checkout()
    if root is None:
        pytest.skip("no PTO-ISA/pto-spec checkout (set PTO_SPEC_CHECKOUT)")
    from pto_docs.analysis.load import load_catalog
    return load_catalog(root).catalog


@pytest.fixture(scope="module")
def encodings(real_catalog):
    return {u.id: encoding_for(real_catalog, u) for u in real_catalog.instructions}


def test_every_instruction_has_an_encoding(real_catalog, encodings):
    assert len(encodings) == 634
    assert all(e is not None and e.words for e in encodings.values())
    assert not [n for e in encodings.values() for n in e.notes if "not in this tree" in n or "does not equal" in n]


def test_items_cover_each_word_exactly(real_catalog, encodings):
    length = {}
    for unit in real_catalog.instructions:
        for rec in unit.catalog_records:
            if "form_id" in rec:
                length[rec["form_id"]] = rec["length_bits"]
                assert validate_form(rec) == [], rec["form_id"]
    for enc in encodings.values():
        per_form: dict[str, int] = {}
        for word in enc.words:
            bits = sorted(b for i in word.items for b in range(i.lsb, i.msb + 1))
            assert bits == list(range(word.offset, word.offset + word.width_bits)), (enc.unit_id, word.title)
            assert sum(r["bits"] for r in word.wavejson["reg"]) == word.width_bits
            if "variant" not in word.title:
                per_form[word.form_id] = per_form.get(word.form_id, 0) + word.width_bits
        for form_id, bits in per_form.items():
            assert bits == length[form_id], (enc.unit_id, form_id)


def test_tile_pages_show_their_own_selector(encodings):
    tmul = encodings["PTO-TILE-TMUL"]
    assert (tmul.carrier_mnemonic, tmul.engine_mnemonic) == ("BSTART.TEPL", "BSTART.VEC")
    assert [(i.name, i.bit_range, i.value) for i in tmul.words[0].items] == [
        ("DataType", "31:27", "variable"),
        ("Mode", "26:25", "0 (Mode fixed by TMUL)"),
        ("Function", "24:20", "2 (Function fixed by TMUL)"),
        ("Constant", "19:0", "20'b00011001000110000001"),
    ]
    for uid, mode, function in (("PTO-TILE-TSQRT", 0, 21), ("PTO-TILE-TCOLEXPAND", 2, 20)):
        enc = encodings[uid]
        assert enc.engine_mnemonic == "BSTART.SFU" and enc.fixed == {"Mode": mode, "Function": function}
    # no TEPL tile page keeps the generic "variable" Mode/Function of the carrier
    for enc in encodings.values():
        if enc.carrier_mnemonic == "BSTART.TEPL" and enc.unit_id.startswith("PTO-TILE-"):
            values = {i.name: i.value for i in enc.words[0].items}
            assert values["Mode"] != "variable" and values["Function"] != "variable", enc.unit_id
    assert encodings["PTO-BLOCK-BSTART-SFU"].words[0].form_id == encodings["PTO-BLOCK-BSTART-TEPL"].words[0].form_id
    assert [w.index for w in encodings["PTO-BLOCK-L-BSTOP"].words] == [0, 1]


def test_every_word_renders_as_well_formed_svg(encodings):
    """Well-formed, labelled with the word's title, and one titled group per item of the word."""
    svg = "{http://www.w3.org/2000/svg}"
    words = [(enc.unit_id, word) for enc in encodings.values() for word in enc.words]
    assert len(words) > 100
    for unit_id, word in words:
        root = ET.fromstring(register_svg(word, label=word.title))
        assert root.tag == svg + "svg" and root.get("aria-label") == word.title, unit_id
        titles = ["".join(t.itertext()) for t in root.iter(svg + "title")]
        for item in word.items:
            assert any(t.startswith(f"{item.name} {item.bit_range}") for t in titles), (unit_id, item.name)
