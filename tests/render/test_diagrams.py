"""register_svg: deterministic, escaped, self-contained SVG with every item's label."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from pto_docs.isa.encoding import encoding_for
from pto_docs.render.diagrams import register_svg
from tests.isa._build import catalog, field, form, form_unit, tepl_carrier, tile

SVG = "{http://www.w3.org/2000/svg}"


def tmul_word():
    op = tile("TMUL", "VEC", "TEPL", "BSTART.TEPL", 2, mode=0)
    return encoding_for(catalog(tepl_carrier(), op), op).words[0]


def word_of(f):
    u = form_unit("scalar", f["mnemonic"], f)
    return encoding_for(catalog(u), u).words[0]


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(SVG + "text")]


def test_same_input_gives_the_same_bytes():
    a = register_svg(tmul_word(), label="TMUL encoding")
    b = register_svg(tmul_word(), label="TMUL encoding")  # an equal but separately built word
    assert a == b
    assert a.encode("utf-8") == register_svg(tmul_word(), label="TMUL encoding").encode("utf-8")
    assert register_svg(tmul_word(), label="other") != a


def test_tmul_diagram_is_accessible_and_shows_fixed_values():
    svg = register_svg(tmul_word(), label="TMUL encoding (BSTART.VEC)")
    root = ET.fromstring(svg)
    assert root.get("role") == "img" and root.get("aria-label") == "TMUL encoding (BSTART.VEC)"
    assert root.find(SVG + "title").text == "TMUL encoding (BSTART.VEC)"
    assert "pto-reg" in root.get("class").split()
    labels = texts(svg)
    assert "DataType" in labels and "Mode=0" in labels and "Function=2" in labels
    # the constant's bits, one digit per bit cell, MSB first
    digits = [t.get("class") for t in root.iter(SVG + "text")].count("pto-reg-digit")
    assert digits == 20
    assert "".join(t.text for t in root.iter(SVG + "text") if t.get("class") == "pto-reg-digit") == "00011001000110000001"
    # bit numbers at item boundaries
    bits = {t.text for t in root.iter(SVG + "text") if t.get("class") == "pto-reg-bit"}
    assert {"31", "27", "26", "25", "24", "20", "19", "0"} <= bits
    classes = " ".join(g.get("class", "") for g in root.iter(SVG + "g"))
    for name in ("pto-reg-field", "pto-reg-fixed", "pto-reg-const"):
        assert name in classes
    assert "<script" not in svg and "url(" not in svg and "@font-face" not in svg
    assert 'font-family="monospace"' in svg


def test_every_field_label_appears():
    f = form("SW", [("0x0000707f", "0x00002023", 32)],
             [field("imm", (25, 5, 7), (7, 0, 5)), field("rs2", (20, 0, 5)), field("rs1", (15, 0, 5))])
    word = word_of(f)
    svg = register_svg(word, label="SW")
    titles = ["".join(t.itertext()) for t in ET.fromstring(svg).iter(SVG + "title")]
    for item in word.items:
        assert any(t.startswith(f"{item.name} {item.bit_range}") for t in titles)
        if item.kind == "field":
            assert item.name in texts(svg)


def test_text_is_escaped():
    f = form("X", [("0x0000ffff", "0x00001234", 32)], [field("<script>", (16, 0, 16))])
    svg = register_svg(word_of(f), label='say "<b>" & leave')
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert "&quot;&lt;b&gt;&quot; &amp; leave" in svg
    root = ET.fromstring(svg)  # still well-formed
    assert root.get("aria-label") == 'say "<b>" & leave'
    assert "<script>" in texts(svg)


def test_narrow_fields_keep_their_full_name_in_the_title():
    f = form("B.N", [("0x0000ffff", "0x00000001", 32)],
             [field("ElementWiseEnable", (31, 0, 1)), field("X", (30, 0, 1)), field("Wide", (16, 0, 14))])
    svg = register_svg(word_of(f), label="narrow")
    root = ET.fromstring(svg)
    boxes = {g.get("data-field"): g for g in root.iter(SVG + "g") if g.get("data-field")}
    narrow = boxes["ElementWiseEnable"]
    assert narrow.find(SVG + "title").text.startswith("ElementWiseEnable 31")
    label = next(t for t in narrow.iter(SVG + "text") if t.get("class") == "pto-reg-label")
    assert label.get("transform", "").startswith("rotate(-90")
    assert label.text != "ElementWiseEnable" and label.text.endswith("\u2026")
    assert next(t for t in boxes["X"].iter(SVG + "text") if t.get("class") == "pto-reg-label").text == "X"


def test_fixed_value_survives_truncation():
    f = form("B.F", [("0x00000fff", "0x00000801", 32)], [field("ElementWiseEn", (11, 0, 1))])
    svg = register_svg(word_of(f), label="fixed")
    assert any(t.endswith("=1") and t.startswith("Elem") for t in texts(svg))


def test_sixteen_and_forty_eight_bit_words():
    w16 = word_of(form("C.X", [("0xe003", "0x4001", 16)], [field("imm", (2, 0, 11))]))
    svg16 = register_svg(w16, label="16")
    root = ET.fromstring(svg16)
    assert len([g for g in root.iter(SVG + "g") if g.get("class") == "pto-reg-lane"]) == 1
    assert int(root.get("width")) < int(ET.fromstring(register_svg(tmul_word(), label="32")).get("width"))

    w48 = word_of(form("HL.X", [("0xe00000000fff", "0x200000000001", 48)], [field("imm", (12, 0, 33))]))
    root = ET.fromstring(register_svg(w48, label="48"))
    lanes = [g for g in root.iter(SVG + "g") if g.get("class") == "pto-reg-lane"]
    assert [g.get("data-bits") for g in lanes] == ["47:24", "23:0"]
    # imm (44:12) crosses the lane boundary and is drawn in both lanes
    assert all(any(g.get("data-field") == "imm" for g in lane.iter(SVG + "g")) for lane in lanes)
    bits = {t.text for t in root.iter(SVG + "text") if t.get("class") == "pto-reg-bit"}
    assert {"47", "45", "44", "24", "23", "12", "11", "0"} <= bits


def test_tooltips_have_no_english_words():
    """One drawing serves both languages (issue 33: "variable" and "fixed by" in zh-CN tooltips): an item's
    title is its name, bits and value only."""
    svg = register_svg(tmul_word(), label="TMUL")
    titles = {"".join(t.itertext()) for t in ET.fromstring(svg).iter(SVG + "title")} - {"TMUL"}
    names = {i.name for i in tmul_word().items}
    for title in titles:
        words = set(re.findall(r"[A-Za-z]{2,}", title)) - names
        assert not words, title
    assert "Mode 26:25 = 0" in titles and "DataType 31:27" in titles


def test_the_phone_drawing_fits_390_px_unscaled_with_11_px_labels():
    """narrow_svg: 16 bits a lane, at most 358 px wide (a 390 px screen's content), no label under 11 px (a
    long name in a narrow box is truncated, its full name in the title, rather than set smaller)."""
    from pto_docs.render.diagrams import LABEL_PX, narrow_svg
    f = form("B.N", [("0x0000007f", "0x00000001", 32)],
             [field("ElementWiseEnableAndMore", (7, 0, 1)), field("Rd", (8, 0, 5)), field("ImmediateValueLong", (13, 0, 19))])
    for word in (tmul_word(), word_of(f)):
        root = ET.fromstring(narrow_svg(word, label="x"))
        assert int(root.get("width")) <= 358
        lanes = [g.get("data-bits") for g in root.iter(SVG + "g") if g.get("class") == "pto-reg-lane"]
        assert lanes == ["31:16", "15:0"]
        sizes = {int(t.get("font-size", LABEL_PX)) for t in root.iter(SVG + "text") if t.get("class") == "pto-reg-label"}
        assert sizes and min(sizes) >= 11, sizes
