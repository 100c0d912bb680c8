"""Every element the three seed pages show is on our pages, in English and in Simplified Chinese.

Checked twice: on the assembled page (Markdown with every fragment in place) and on the *built HTML* of both
languages, so nothing is lost between the renderer and the site. The goldens under tests/site/golden/ are the
reviewed pages: their Markdown (only headings and fragment placeholders since the HTML moved out of the
Markdown), then each fragment under a ``<!-- ===== pto-f:N ===== -->`` line; regenerate them only after reading the diff:
PTO_DOCS_UPDATE_GOLDEN=1 python -m pytest tests/site/test_seed_pages.py
"""

from __future__ import annotations

import html
import os
from pathlib import Path

import pytest
from conftest import SEED_PAGES

from pto_docs.i18n import labels
from pto_docs.render import routes

GOLDEN = Path(__file__).parent / "golden"
LOCALES = ("en", "zh-CN")

# Section headings (label keys) in page order.
SECTIONS = (("instruction.hla_title", "assembly"), ("instruction.symbols_title", "assembler-symbols"),
            ("instruction.bundle_title", "bundle"), ("instruction.encoding_title", "encoding"),
            ("instruction.asl_title", "asl"), ("instruction.examples_title", "worked-examples"),
            ("instruction.contract_title", "contract"), ("instruction.ndf_title", "ndf"),
            ("instruction.evidence_title", "evidence"), ("instruction.metadata_title", "metadata"),
            ("instruction.sources_title", "sources"))  # the order readers use (issue 33): syntax to examples first

COMMON = (
    "Constant", "20'b00011001000110000001", "BSTART.TEPL Mode, Function, DataType",
    '"reg"', '"hspace": 900', "<svg", "DataType", "31:27", "26:25", "24:20", "19:0",
    "B.DIM LB0=ValidCol", "B.DATR PadValue (optional)", "BSTOP",
    "PTO-EVIDENCE-RELEASE-TRACEABILITY", "ADR-0035", "// DOC-BEGIN", "destination0", "source0",
)
SEEDS = {
    "TMUL": ("PTO-TILE-TMUL",
             "TMUL <LB0:ValidCol, LB1:ValidRow, LB2:Col, DataType, PadValue> SrcTile0, SrcTile1 -> DstTile",
             "BSTART.VEC TMUL, DataType", "contract.operands[1].source0", "contract.operands[2].source1",
             "B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>",
             "PTO-TMUL-CONTRACT-001", "Mode 26:25 = 0", "Function 24:20 = 2",
             "InstructionContractOperation_TMUL", "PTO-AVS-TILE-TMUL-ALIAS-001", "BSTART.VEC"),
    "TSQRT": ("PTO-TILE-TSQRT", "TSQRT <LB0:ValidCol, LB1:ValidRow, LB2:Col, DataType, PadValue> SrcTile0 -> DstTile",
              "BSTART.SFU TSQRT, DataType", "PTO-TSQRT-CONTRACT-001", "Function 24:20 = 21",
              "InstructionContractOperation_TSQRT", "B.IOT SrcTile, mask=PE_MASK, <last>, ->DstTile<TSize>"),
    "TCOLEXPAND": ("PTO-TILE-TCOLEXPAND", "TCOLEXPAND <LB0:ValidCol, LB1:ValidRow, LB2:Col, DataType, PadValue> SrcTile0 -> DstTile",
                   "BSTART.SFU TCOLEXPAND, DataType", "PTO-TCOLEXPAND-CONTRACT-001", "Mode 26:25 = 2",
                   "Function 24:20 = 20", "B.IOT BroadcastTile, mask=PE_MASK, <last>, ->DstTile<TSize>"),
}
LABELS = ("instruction.group", "instruction.operand", "instruction.role", "instruction.asl_source",
          "instruction.group_parameter", "instruction.group_input", "instruction.group_output",
          "instruction.tag_required", "instruction.tag_optional", "instruction.minimum_bundle",
          "instruction.field", "instruction.bits", "instruction.signedness", "instruction.arch_role",
          "instruction.encoded_zero", "instruction.decoded_item", "instruction.bit_range", "instruction.value",
          "instruction.wavejson", "instruction.asl_intro", "instruction.clause_sha256", "instruction.source_sha256",
          "instruction.stable_id", "instruction.classification", "instruction.engine")


def page(renderer, mnemonic: str, locale: str, raw: bool = False) -> str:
    """The assembled page (raw=False, unescaped) or its Markdown alone (raw=True, the golden)."""
    unit = renderer.catalog.find_instruction(mnemonic, "tile")
    assert unit is not None, f"{mnemonic} is missing from the catalog"
    parts = renderer.unit_page(unit, locale)
    return parts.markdown if raw else html.unescape(parts.assembled())


def built_article(built_site, mnemonic: str, locale: str) -> str:
    prefix = "" if locale == "en" else f"{locale}/"
    text = (built_site / prefix / SEED_PAGES[mnemonic] / "index.html").read_text("utf-8")
    start, end = text.index("<article"), text.index("</article>")
    return text[start:end]


def _missing(text: str, mnemonic: str, locale: str) -> list[str]:
    lab = labels(locale)
    missing = [s for s in COMMON + SEEDS[mnemonic] if s not in text]
    return missing + [k for k in LABELS + ("reader.value.signedness.encoding-defined",) if str(lab.t(k)) not in text]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("mnemonic", sorted(SEEDS))
def test_seed_elements_in_built_html(built_site, renderer, mnemonic, locale):
    article = built_article(built_site, mnemonic, locale)
    assert "<!--pto-" not in article, "every fragment placeholder is filled"
    text = html.unescape(article)
    assert not _missing(text, mnemonic, locale)
    lab = labels(locale)
    for _key, anchor in SECTIONS:  # real Markdown headings: in the TOC, with permalinks
        assert f'<h2 id="{anchor}">' in article, anchor
        assert f'href="#{anchor}"' in article
    unit = renderer.catalog.find_instruction(mnemonic, "tile")
    assert unit.file.sha256 in text and '<svg xmlns="http://www.w3.org/2000/svg" class="pto-reg"' in article
    for clause in unit.ndf:
        assert clause.clause_sha256 in text and clause.body in text
    assert lab.t("instruction.show_test_source") in text and "pto-cell--valid" in article


@pytest.mark.parametrize("mnemonic", sorted(SEEDS))
def test_markdown_is_small(renderer, mnemonic):
    """Headings and placeholders only: no large HTML goes through Python-Markdown."""
    for locale in LOCALES:
        md = page(renderer, mnemonic, locale, raw=True)
        assert "<table" not in md and "<svg" not in md and "<div" not in md and "highlight" not in md
        assert len(md) < 4000


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("mnemonic", sorted(SEEDS))
def test_seed_elements(renderer, mnemonic, locale):
    text = page(renderer, mnemonic, locale)
    lab = labels(locale)
    unit = renderer.catalog.find_instruction(mnemonic, "tile")
    missing = _missing(text, mnemonic, locale)
    assert not missing, f"{mnemonic} {locale} lacks {missing}"
    positions = [text.find(f"## {lab.t(k)}".replace("-", "\\-") + " {: #" + a + " }") for k, a in SECTIONS]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), positions
    assert text.count(f"# {mnemonic}") >= 1
    assert unit.file.sha256 in text
    for clause in unit.ndf:
        assert clause.clause_sha256 in text and clause.body in text
    assert lab.t("release." + renderer.catalog.release.status) in text
    assert "Repeatable" not in text and "可重复" not in text  # no B.DIM line really repeats
    first = unit.record["block"][0]
    # the first line is printed once, linked to the unit of its mnemonic (the engine's BSTART alias)
    carrier = renderer.catalog.find_instruction(first.split(" ", 1)[0], "block")
    href = routes.relative(routes.unit_src(unit), routes.unit_src(carrier))
    assert text.count(f'<li><a href="{href}"><code>{first}</code></a>') == 1
    tests = renderer.data.tests_of(unit)
    assert lab.t("instruction.evidence_count", count=len(tests) + len(renderer.data.artifacts) + len(renderer.data.adrs_of(unit))) in text


@pytest.mark.parametrize("mnemonic", sorted(SEEDS))
def test_chinese_prose_is_translated(renderer, mnemonic):
    text = page(renderer, mnemonic, "zh-CN")
    unit = renderer.catalog.find_instruction(mnemonic, "tile")
    translation = renderer.catalog.translations.get(("zh-CN", unit.id))
    assert translation is not None, "every catalog unit is translated"
    assert translation.strings["/summary"].text in text
    assert labels("zh-CN").t("notice.fallback_short") not in text
    assert labels("zh-CN").t("notice.normative_english") in text


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("mnemonic", sorted(SEEDS))
def test_golden(renderer, mnemonic, locale):
    unit = renderer.catalog.find_instruction(mnemonic, "tile")
    text = renderer.unit_page(unit, locale).dump()  # the Markdown, then each fragment it places
    golden = GOLDEN / locale / f"{mnemonic}.md"
    if os.environ.get("PTO_DOCS_UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, "utf-8")
    assert golden.is_file(), f"no golden {golden}; review and create with PTO_DOCS_UPDATE_GOLDEN=1"
    assert text == golden.read_text("utf-8")
