"""Finding an instruction in chromium (issue 33), at 1366 and 390 px, in both languages: the jump box, the A–Z
index's filters, breadcrumbs and previous/next, classification links, and the searches a reader types ("load
word", "broadcast column", 转置 on the real tree; their catalog equivalents always)."""

from __future__ import annotations

import re

import pytest
from browser_checks import HOME_IN_SIDEBAR_JS, WIDTHS, open_drawer_if_narrow, search, without_search_index
from conftest import SEED_PAGES

pytestmark = pytest.mark.browser

LANGS = ["", "zh-CN/"]
ROWS_SHOWN = "() => Array.from(document.querySelectorAll('.pto-az__row')).filter(r => r.offsetParent !== null).map(r => r.querySelector('code').textContent)"


@pytest.fixture
def page(page):
    """A fresh page that never downloads the search index (these tests do not search)."""
    without_search_index(page)
    return page


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("lang", LANGS)
def test_jump_box_opens_the_typed_mnemonic(page, catalog_url, lang, width):
    w, h = WIDTHS[width]
    page.set_viewport_size({"width": w, "height": h})
    page.goto(catalog_url + lang)
    box = page.locator("#pto-jump-home")
    box.fill("tcol expand")  # any case and spacing, as the search box's exact ids
    box.press("Enter")
    page.wait_for_url(re.compile(re.escape(SEED_PAGES["TCOLEXPAND"]) + "$"))
    page.goto(catalog_url + lang)
    page.locator("#pto-jump-home").fill("NOSUCH")
    page.locator("#pto-jump-home").press("Enter")
    status = page.locator(".pto-jump__status")
    status.filter(has_text=re.compile(".")).wait_for()
    page.wait_for_function("document.querySelector('.pto-jump__status').textContent === "
                           "document.querySelector('#pto-jump-home').dataset.none")
    assert page.url == catalog_url + lang


@pytest.mark.parametrize("lang", LANGS)
def test_a_to_z_filters_by_surface_class_and_typed_prefix(page, catalog_url, renderer, lang):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(catalog_url + lang + "instructions/")
    everything = sorted(u.mnemonic for u in renderer.catalog.instructions)
    assert sorted(page.evaluate(ROWS_SHOWN)) == everything
    page.select_option("#pto-az-surface", "block")
    block = sorted(u.mnemonic for u in renderer.catalog.instructions if u.surface == "block")
    assert sorted(page.evaluate(ROWS_SHOWN)) == block
    page.select_option("#pto-az-surface", "")
    page.select_option("#pto-az-class", "tile/elementwise-tile-tile")
    assert sorted(page.evaluate(ROWS_SHOWN)) == ["TADD", "TMUL", "TSQRT"]
    page.locator("#pto-jump-az").fill("tm")
    assert page.evaluate(ROWS_SHOWN) == ["TMUL"]
    assert page.evaluate("Array.from(document.querySelectorAll('.pto-az__group')).filter(g => !g.hidden)"
                         ".map(g => g.id)") == ["letter-t"]


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("lang", LANGS)
def test_instruction_page_has_breadcrumbs_previous_next_and_class_links(page, catalog_url, lang, width):
    w, h = WIDTHS[width]
    page.set_viewport_size({"width": w, "height": h})
    page.goto(catalog_url + lang + SEED_PAGES["TMUL"])
    crumbs = page.locator(".md-path__link")
    assert crumbs.count() >= 4 and crumbs.first.is_visible()
    assert [t.strip() for t in crumbs.all_inner_texts()[-2:]] == ["elementwise-tile-tile", "arithmetic"]
    assert page.locator(".md-footer__link--prev").count() == 1 and page.locator(".md-footer__link--next").count() == 1
    page.locator(".pto-identity a:has(code:text-is('elementwise-tile-tile'))").click()
    page.wait_for_url(re.compile(r"/instructions/tile/elementwise-tile-tile/all/$"))
    listed = page.eval_on_selector_all(".pto-class-table code.pto-id", "els => els.map(e => e.textContent)")
    assert listed == ["TADD", "TMUL", "TSQRT"]
    assert "elementwise-tile-tile" in page.locator("h1").inner_text()


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("lang", LANGS)
def test_sidebar_shows_the_home_entry_below_its_title(page, catalog_url, lang, width):
    """首页 (Home) is the first entry of the sidebar, seen, not under the sidebar's title (issue 33)."""
    w, h = WIDTHS[width]
    page.set_viewport_size({"width": w, "height": h})
    pages = [""] + ([SEED_PAGES["TMUL"]] if width == "desktop" else [])  # (a phone's drawer opens at the page's level)
    for path in pages:
        page.goto(catalog_url + lang + path)
        open_drawer_if_narrow(page)
        home = page.evaluate(HOME_IN_SIDEBAR_JS)
        assert home == {"text": "首页" if lang else "Home", "seen": True, "below": True, "height": home["height"]}, \
            (lang, path, home)


def _check_top3(page, url: str, query: str, expected: str) -> None:
    page.unroute("**/search/search_index.json")
    results = search(page, url, query)
    titles = [title.replace("\u200b", "") for title, _href in results[:3]]
    assert any(t == expected or t.startswith(expected + " — ") for t in titles), (query, titles)


# (each fails on the site before long names: the catalog's own text already finds "store word", "broadcast column",
# 相加 or 乘法, so those would prove nothing here)
@pytest.mark.parametrize(("lang", "query", "expected"), [
    ("", "replicate", "TCOLEXPAND"), ("", "plus", "TADD"), ("zh-CN/", "列广播", "TCOLEXPAND")])
def test_catalog_searches_find_by_long_name_and_synonym(page, catalog_url, lang, query, expected):
    _check_top3(page, catalog_url + lang, query, expected)


@pytest.mark.parametrize(("lang", "query", "expected"), [
    ("", "load word", "LW"), ("", "broadcast column", "TCOLEXPAND"), ("zh-CN/", "转置", "TTRANS")])
def test_real_tree_searches_find_by_long_name_and_synonym(page, real_url, lang, query, expected):
    _check_top3(page, real_url + lang, query, expected)


@pytest.mark.parametrize("lang", LANGS)
def test_real_tree_instruction_index_fits_a_phone(page, real_url, lang):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(real_url + lang + "instructions/")
    assert len(page.evaluate(ROWS_SHOWN)) >= 600
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 30_000, f"{lang}instructions/ is {height} px tall at 390 px"
