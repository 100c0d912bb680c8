"""Issue 33, the page itself: instruction pages in the order readers use them, a scalar page without a bundle
heading, encoded-zero sentences under their field's name, an ADR's decision before its id lists, spec enumeration
values in the page's language, a tile's padding columns folded."""

from __future__ import annotations

import re

import pytest

from pto_docs.i18n import labels

LOCALES = ("en", "zh-CN")


def _anchors(text: str) -> list[str]:
    return re.findall(r"\{: #([a-z-]+) \}", text)


@pytest.mark.parametrize("locale", LOCALES)
def test_instruction_sections_in_reading_order(renderer, locale):
    """Summary, syntax and operands, encoding, operation, examples; then the contract, NDF, evidence, metadata,
    sources; the evidence and the sources folded (closed <details>)."""
    page = renderer.unit_page(renderer.catalog.find_instruction("TMUL", "tile"), locale).assembled()
    order = _anchors(page)
    want = ["assembly", "assembler-symbols", "bundle", "encoding", "asl", "worked-examples", "contract",
            "model-findings", "ndf", "evidence", "metadata", "sources"]
    assert [a for a in order if a in want] == [a for a in want if a in order], order
    assert {"assembly", "encoding", "asl", "worked-examples", "evidence", "sources"} <= set(order)
    assert page.index('class="pto-hero"') < page.index("{: #assembly }")
    for anchor in ("evidence", "sources"):
        section = page[page.index("{: #" + anchor + " }"):]
        fold = re.search(r"<details class=\"pto-details pto-fold[^\"]*\"[^>]*>", section)
        assert fold and " open" not in fold.group(0) and fold.start() < 400, anchor


def test_scalar_page_has_no_bundle_heading_and_names_each_encoded_zero(renderer):
    unit = renderer.catalog.find_instruction("SWI")
    zeros = unit.contract["field_zero_meanings"]
    for locale in LOCALES:
        page = renderer.unit_page(unit, locale).assembled()
        assert "{: #bundle }" not in page and labels(locale).t("instruction.bundle_title") not in page
        defaults = page[page.index('id="contract-defaults"'):page.index('id="contract-legality"')]
        for field, sentence in zeros.items():
            # (SrcL's and SrcR's sentences are the same words: each is told apart by its field)
            assert re.search(rf"<li><code>{field}</code>: <span class=\"pto-prose\"[^>]*>{re.escape(sentence)}", defaults) \
                or locale != "en", (field, defaults)
            assert f"<li><code>{field}</code>: " in defaults
    assert len(set(zeros.values())) < len(zeros)  # the fixture really has two fields with one sentence


@pytest.mark.parametrize("locale", LOCALES)
def test_adr_decision_before_its_front_matter(renderer, locale):
    for adr_id in renderer.catalog.adrs:
        page = renderer.adr_page(adr_id, locale).assembled()
        assert page.index("{: #decision }") < page.index("{: #front-matter }"), adr_id


def test_zh_enumeration_values_through_the_catalog(renderer):
    """ADR status and signedness: the zh-CN label, not the spec's English enumeration word."""
    zh = labels("zh-CN")
    adr_id = sorted(renderer.catalog.adrs)[0]
    status = renderer.catalog.adrs[adr_id].status
    page = renderer.adr_page(adr_id, "zh-CN").assembled()
    assert f"<td>{zh.t('reader.value.status.' + status)}</td>" in page and f"<td>{status}</td>" not in page
    tmul = renderer.unit_page(renderer.catalog.find_instruction("TMUL", "tile"), "zh-CN").assembled()
    assert "<td>encoding-defined</td>" not in tmul
    assert f"<td>{zh.t('reader.value.signedness.encoding-defined')}</td>" in tmul


def test_padding_columns_fold_into_one():
    from pto_docs.render.examples_view import Cell, TileTable
    valid, pad = Cell("1.0", True, False), Cell("-3.4028235e+38", False, False)
    grid = tuple(tuple([valid] * 4 + [pad] * 4) for _ in range(3)) + (tuple([pad] * 8),)
    table = TileTable("T1", "FP32", 4, 8, 3, 4, grid, False)
    assert table.folded_columns == (4, pad) and table.shown_columns == 4
    # a column that differs (a valid element, another padding value) keeps every column
    for other in (valid, Cell("0.0", False, False)):
        mixed = grid[:3] + (tuple([pad] * 7 + [other]),)
        assert TileTable("T1", "FP32", 4, 8, 3, 4, mixed, False).folded_columns is None
    assert TileTable("T1", "FP32", 4, 5, 3, 4, tuple(r[:5] for r in grid), False).folded_columns is None  # one column
