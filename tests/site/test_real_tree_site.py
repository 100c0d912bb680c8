"""The real tree (PTO_SPEC_CHECKOUT) through a maintainer's minimal mkdocs.yml: every instruction page in both
languages, with our stylesheet and SVG diagrams, and none of upstream's own docs/ pages."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.realtree


def test_real_tree_minimal_config_builds_both_languages(real_site, real_load):
    instructions = [u for u in real_load.catalog.units.values() if u.is_instruction]
    for lang in ("", "zh-CN/"):
        base = real_site / lang
        pages = list((base / "instructions").rglob("index.html"))
        assert len(pages) >= len(instructions)
        assert (base / "assets/pto-docs.css").is_file()
        assert "assets/pto-docs.css" in (base / "index.html").read_text("utf-8")
        with_svg = sum("<svg" in p.read_text("utf-8") for p in pages)
        assert with_svg >= len(instructions) * 9 // 10


def test_real_tree_docs_dir_stays_out_of_the_site(real_site):
    assert not (real_site / "docs").exists() and not (real_site / "mkdocs").exists()
    assert not (real_site / "status").exists() and not (real_site / "tile").exists()
    assert (real_site / "adrs").is_dir()


def test_flags_prose_is_shown_where_it_applies(real_site, real_load):
    """FLAGS-PROSE on the page of the unit that holds ExecuteTileBinary, and on every instruction whose contract
    execution calls it (TMUL among them), in both languages, each linking to the other and to the NDF clause."""
    from pto_docs.checks.flags import executes_through, flags_findings
    (finding,) = flags_findings(real_load.catalog)
    owner = real_load.catalog.unit_for_path(finding.path)
    for lang, words in (("", "records no numeric status flags"), ("zh-CN/", "不记录数值状态标志")):
        unit_page = (real_site / lang / "units" / owner.id / "index.html").read_text("utf-8")
        assert f'id="flags-{finding.function}"' in unit_page and finding.clause in unit_page
        pages = {p.parent.name: p.read_text("utf-8") for p in (real_site / lang / "instructions").rglob("index.html")}
        shown = {name for name, text in pages.items() if 'data-finding="FLAGS-PROSE"' in text}
        expected = {u.mnemonic for u in real_load.catalog.instructions
                    if executes_through(u.file.text, u.mnemonic.replace(".", "_"), finding.function)}
        assert "TMUL" in expected and shown == expected
        assert words in pages["TMUL"] and f"#flags-{finding.function}" in pages["TMUL"]
        assert f"#{finding.clause}" in pages["TMUL"]


def test_semantics_prose_is_shown_on_the_index_reductions(real_site):
    """SEMANTICS-PROSE (the executed ARGMIN/ARGMAX witness) on exactly the four index-reduction pages, in both
    languages, each with its clause link (the build ran the model; semantics_check.py)."""
    from pto_docs.i18n import labels
    for lang, locale in (("", "en"), ("zh-CN/", "zh-CN")):
        pages = {p.parent.name: p.read_text("utf-8") for p in (real_site / lang / "instructions").rglob("index.html")}
        shown = {name for name, text in pages.items() if 'data-finding="SEMANTICS-PROSE"' in text}
        assert shown == {"TROWARGMIN", "TROWARGMAX", "TCOLARGMIN", "TCOLARGMAX"}
        text = pages["TROWARGMIN"]
        assert labels(locale).t("finding.semantics_asl") in text
        assert "#PTO-TROWARGMIN-CONTRACT-001" in text and "asl/tile/model/execution/reduction.asl:" in text


def test_the_maintainers_build_loads_no_google_fonts_and_has_permalinks(real_site):
    """The real tree built from `pto-docs init`'s minimal mkdocs.yml (issue 33): no page of either language links
    Google Fonts; every instruction page's headings carry permalinks."""
    pages = list(real_site.rglob("*.html"))
    assert len(pages) > 1800
    linked = [p for p in pages if "fonts.googleapis.com" in (text := p.read_text("utf-8")) or "fonts.gstatic.com" in text]
    assert linked == []
    for lang in ("", "zh-CN/"):
        tmul = next((real_site / lang / "instructions").rglob("TMUL/index.html")).read_text("utf-8")
        assert 'class="headerlink"' in tmul


def test_every_instruction_page_has_breadcrumbs_to_its_classification(real_site, real_load):
    """Issue 33's "breadcrumbs on every instruction page", on the maintainer's build: each instruction page of both
    languages opens with Material's path (home, instructions, surface, class, then the sub-class or the navigation's
    group of a long class), through the page's own classification page."""
    import re

    from pto_docs.render import routes
    bad = []
    for unit in real_load.catalog.instructions:
        src = routes.unit_src(unit)
        for lang in ("", "zh-CN/"):
            html = (real_site / lang / src.removesuffix(".md") / "index.html").read_text("utf-8")
            path = re.search(r'<nav class="md-path"[^>]*>(.*?)</nav>', html, re.S)
            hrefs = re.findall(r'<a href="([^"]+)" class="md-path__link"', path.group(1)) if path else []
            if len(hrefs) < 4 or not any(h.endswith("../all/") for h in hrefs[2:]):
                bad.append(f"{lang}{src}: {hrefs}")
    assert not bad, f"{len(bad)} pages: {bad[:5]}"
