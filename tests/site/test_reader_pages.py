"""The reader's pages without a browser: requirement pages and anchors, model-check findings, relations."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pto_docs.checks.examples import prose_data_types
from pto_docs.render import routes
from pto_docs.render.requirements_view import MAX_PER_PAGE, requirement_href, requirement_pages

REAL = os.environ.get("PTO_SPEC_CHECKOUT")


def test_every_requirement_is_on_exactly_one_page(renderer):
    cat = renderer.catalog
    pages = requirement_pages(cat)
    placed = [rid for p in pages for _owner, ids in p.owners for rid in ids]
    assert sorted(placed) == sorted(cat.requirements)
    assert len({p.src for p in pages}) == len(pages)
    for p in pages:
        assert p.segment or p.count <= MAX_PER_PAGE


def test_requirement_pages_have_one_anchor_per_row_and_link_owners(renderer):
    cat = renderer.catalog
    for src, parts in renderer.pages("en"):
        if src.startswith("requirements/") and src != routes.REQUIREMENTS:
            text = parts.assembled()
            for _owner, ids in next(p for p in requirement_pages(cat) if p.src == src).owners:
                for rid in ids:
                    assert text.count(f'<tr id="{rid}">') == 1
                    assert f'<code class="pto-id">{rid}</code>' in text


def test_owner_pages_link_their_requirement_rows(renderer):
    cat = renderer.catalog
    unit = cat.find_instruction("TMUL", "tile")
    text = renderer.unit_page(unit, "en").assembled()
    src = routes.unit_src(unit)
    for clause in unit.ndf:
        assert requirement_href(cat, src, clause.id) in text
    assert requirement_href(cat, src, unit.requirement_id) in text


def test_datatype_sentences_in_both_upstream_phrasings():
    assert prose_data_types("DataType is one of S32, U32, FP32, S16, U16, FP16, or BF16.") == {
        "S32", "U32", "FP32", "S16", "U16", "FP16", "BF16"}
    # TSQRT (0.58.3): the phrasing the check missed before; its ASL accepts eight floating types
    assert prose_data_types("The selected DataType is exactly FP16, FP32, or BF16; every integer rejects.") == {
        "FP16", "FP32", "BF16"}
    assert prose_data_types("DataType is exactly one of FP16, FP32, or BF16.") == {"FP16", "FP32", "BF16"}
    assert prose_data_types("DataType is exactly S8 or U8 and B.DATR is default.") is None


@pytest.fixture(scope="module")
def real_renderer():
    if not REAL:
        pytest.skip("PTO_SPEC_CHECKOUT names no pto-spec checkout")
    from pto_docs.analysis.load import load_catalog
    from pto_docs.analysis.sitedata import SiteData
    from pto_docs.analysis.state import worked_examples
    from pto_docs.render.pages import SiteRenderer
    loaded = load_catalog(Path(REAL))
    return SiteRenderer(SiteData.build(loaded.catalog, loaded.tree, worked_examples(loaded.catalog)))


def test_real_tree_findings_reach_the_pages(real_renderer):
    from pto_docs.checks.findings import findings_of
    cat = real_renderer.catalog
    tmul = findings_of(cat.find_instruction("TMUL", "tile"))
    assert [f.code for f in tmul] == ["DATATYPE-PROSE"] and len(tmul[0].listed) == 7 and len(tmul[0].accepted) == 16
    tsqrt = findings_of(cat.find_instruction("TSQRT", "tile"))
    assert [f.code for f in tsqrt] == ["DATATYPE-PROSE"] and set(tsqrt[0].listed) == {"FP16", "FP32", "BF16"}
    assert "FP64" in tsqrt[0].also
    text = real_renderer.unit_page(cat.find_instruction("TMUL", "tile"), "en").assembled()
    assert 'data-finding="DATATYPE-PROSE"' in text


def test_real_tree_assembler_findings_reach_the_pages(real_renderer):
    """EXAMPLE-ASM (examples_check.assembly_diagnostics) on the instruction page, in both languages."""
    from pto_docs.checks.findings import findings_of
    from pto_docs.i18n import labels
    cat = real_renderer.catalog
    tmov = cat.find_instruction("TMOV", "tile")
    found = [f for f in findings_of(tmov, cat) if f.code == "EXAMPLE-ASM"]
    assert [f.pointer for f in found] == ["/contract/examples/0", "/block/0"]
    assert "unknown mnemonic 'BSTART.TLSU'" in found[0].detail
    assert findings_of(cat.find_instruction("ADD", "scalar"), cat) == ()
    for locale in ("en", "zh-CN"):
        text = real_renderer.unit_page(tmov, locale).assembled()
        assert 'data-finding="EXAMPLE-ASM"' in text and labels(locale).t("finding.assembler_says") in text
        # the assembler's reason: as it printed it on the English page, in Chinese (its values as code) on the other
        english = "unknown mnemonic &#39;BSTART.TLSU&#39; (this instruction is written BSTART.TMOV)"
        chinese = "未知助记符 <code>&#39;BSTART.TLSU&#39;</code>（本指令写作 <code>BSTART.TMOV</code>）"
        assert (english in text, chinese in text) == ((True, False) if locale == "en" else (False, True))


def test_real_tree_semantics_findings_reach_the_pages(real_renderer):
    """SEMANTICS-PROSE (semantics_check.py) on the page of each index reduction it concerns, in both languages,
    with the witness, the two results and the places; not on the other reductions."""
    from pto_docs.i18n import labels
    cat = real_renderer.catalog
    findings = {f.mnemonic: f for f in real_renderer.data.semantics}
    assert set(findings) == {"TROWARGMIN", "TROWARGMAX", "TCOLARGMIN", "TCOLARGMAX"}
    for mnemonic, f in findings.items():
        w = f.witnesses[0]
        for locale in ("en", "zh-CN"):
            text = real_renderer.unit_page(cat.find_instruction(mnemonic, "tile"), locale).assembled()
            assert text.count('data-finding="SEMANTICS-PROSE"') == 1
            lab = labels(locale)
            assert lab.t("finding.semantics_case_" + f.axis) in text and lab.t("finding.semantics_asl") in text
            assert f"<code>{', '.join(map(str, w.values))}</code>" in text
            assert f"<strong>{w.asl}</strong>" in text and f"<strong>{w.prose}</strong>" in text
            assert f"<code>{f.handler_path}:{f.handler_line}</code>" in text and f"#{f.clause}" in text
    for other in ("TROWMIN", "TCOLMAX", "TADD"):
        assert "SEMANTICS-PROSE" not in real_renderer.unit_page(cat.find_instruction(other, "tile"), "en").assembled()


def test_sample_tree_pages_carry_no_semantics_finding(renderer):
    assert renderer.data.semantics == ()
    assert not any("SEMANTICS-PROSE" in renderer.unit_page(u, "en").assembled() for u in renderer.catalog.instructions)


@pytest.mark.parametrize("mnemonic, count", [("TMUL", 14), ("TSQRT", 15), ("TCOLEXPAND", 12)])
def test_real_tree_evidence_counts_match_the_seeds(real_renderer, mnemonic, count):
    """The absent 5 MB closure file is listed as recorded-only, as upstream's portal lists it."""
    from pto_docs.i18n import labels
    unit = real_renderer.catalog.find_instruction(mnemonic, "tile")
    text = real_renderer.unit_page(unit, "en").assembled()
    assert labels("en").t("instruction.evidence_count", count=count) in text
    assert "spec/evidence/instruction-contract-closure.json" in text and "recorded only" in text


def test_footer_identity_names_release_and_generator(renderer):
    from pto_docs import __version__
    from pto_docs.render.footer import footer_identity
    rel = renderer.catalog.release
    en, zh = footer_identity(renderer.catalog, "en"), footer_identity(renderer.catalog, "zh-CN")
    assert rel.version in en["release"] and "Release candidate" in en["release"] and __version__ in en["generator"]
    assert rel.version in zh["release"] and "生成" in zh["generator"]


def test_adr_affected_ndf_link_to_clause_anchors(renderer):
    cat = renderer.catalog
    for adr_id, adr in cat.adrs.items():
        for cid in adr.front.get("affected_ndf", ()) or ():
            owner = cat.units[cat.requirements[cid].owner]
            href = routes.relative(routes.adr_src(adr_id), routes.unit_src(owner), cid)
            assert f'<a href="{href}"><code class="pto-id">{cid}</code></a>' in renderer.adr_page(adr_id, "en").assembled()


def test_id_index_answers_mnemonics_and_ids(renderer):
    import json

    from pto_docs.render.id_index import PATH, normalise
    files = dict(renderer.files())
    data = json.loads(files[PATH])
    by_key: dict[str, list] = {}
    for key, url, kind, shown in data["entries"]:
        by_key.setdefault(key, []).append((url, kind, shown))
    tmul = renderer.catalog.find_instruction("TMUL", "tile")
    tmul_url = routes.url_of(routes.unit_src(tmul))
    assert by_key["TMUL"][0] == (tmul_url, 0, "TMUL")
    clause = tmul.ndf[0].id
    assert by_key[normalise(clause)][0][0] == f"{tmul_url}#{clause}"
    adr = sorted(renderer.catalog.adrs)[0]
    assert by_key[normalise(adr.lower().replace("-", " "))][0][0] == routes.url_of(routes.adr_src(adr))
    assert data["kinds"]["zh-CN"][0] == "指令" and data["exact"]["en"] == "Exact match"


def test_id_index_carries_the_quick_matches_of_each_language(renderer):
    """Titles and summaries (translated where the tree translates them) and the worked examples' captions in the
    page's language: what pto-search.js matches while Material's index loads."""
    import json

    from pto_docs.render.id_index import PATH
    data = json.loads(dict(renderer.files())[PATH])
    cat = renderer.catalog
    tsqrt = cat.find_instruction("TSQRT", "tile")
    url = routes.url_of(routes.unit_src(tsqrt))
    en = {row[0]: row for row in data["quick"]["en"]}
    zh = {row[0]: row for row in data["quick"]["zh-CN"]}
    from pto_docs.i18n.long_names import titled
    assert en[url][1] == titled("TSQRT", "en") and tsqrt.summary in en[url][2]  # (with its long name: issue 33)
    assert "平方根" in zh[url][2]
    translated = cat.translations.get(("zh-CN", tsqrt.id))
    if translated is not None and "/summary" in translated.strings:
        assert translated.strings["/summary"].text in zh[url][2]
        assert translated.strings["/summary"].text not in en[url][2]
    assert len(data["quick"]["en"]) == len(cat.units) + len(cat.adrs) == len(data["quick"]["zh-CN"])
    assert data["quick_label"]["en"] and data["quick_label"]["zh-CN"] != data["quick_label"]["en"]
