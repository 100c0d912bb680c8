"""The reader's site in chromium, on the catalog and (PTO_SPEC_CHECKOUT) the real tree, in both languages:
no page wider than the viewport at 1366 or 390 px, requirement pages at most 100,000 px tall with unwrapped
ids, exact ids first in search, the model-check finding on TMUL, no generated English on zh-CN TSQRT,
register labels inside their boxes, a useful 404 and footer."""

from __future__ import annotations

import pytest
from browser_checks import (
    GENERATED_ENGLISH_JS,
    LABELS_OUTSIDE_JS,
    MAX_PAGE_PX,
    OVERFLOW_JS,
    WIDTHS,
    WRAPPED_IDS_JS,
    measure,
    search,
    without_search_index,
)
from conftest import SEED_PAGES

pytestmark = pytest.mark.browser

# a page of every kind (the real tree adds its own below)
PAGES = ["", "instructions/", SEED_PAGES["TMUL"], SEED_PAGES["TSQRT"], SEED_PAGES["TCOLEXPAND"], "units/",
         "units/PTO-TILE-MODEL-LEGALITY-DTYPE-LAYOUT/", "adrs/", "adrs/ADR-0035/", "requirements/",
         "requirements/tile/", "reports/traceability/", "404.html"]
REAL_PAGES = PAGES + ["instructions/scalar/alu/ADD/", "requirements/scalar/agu/", "requirements/scalar/alu/",
                      "adrs/ADR-0062/", "instructions/tile/elementwise-tile-tile/logical/TSEL/"]
LANGS = ["", "zh-CN/"]


def _widths_ok(page, base: str, pages: list[str]) -> list[str]:
    """Each page loaded once, at the desktop width, measured, then measured again with the window resized to the
    phone width. On every page of the real-tree test, both languages, that measured exactly what a fresh load at
    each width measures (width, viewport and height), in a little over half the time. (The other order does not:
    just after a resize from phone to desktop width, Material's pages are 11 px wider than the window.)"""
    without_search_index(page)
    bad = []
    widths = sorted(WIDTHS.items(), key=lambda item: -item[1][0])
    for lang in LANGS:
        for path in pages:
            for i, (name, (w, h)) in enumerate(widths):
                if i == 0:
                    m = measure(page, base + lang + path, w, h)
                else:
                    page.set_viewport_size({"width": w, "height": h})
                    m = page.evaluate(OVERFLOW_JS)
                if m["width"] > m["viewport"]:
                    bad.append(f"{lang}{path} at {name} {w}px: {m['width']}px wide")
    return bad


def test_catalog_no_page_scrolls_sideways(page, catalog_url):
    bad = _widths_ok(page, catalog_url, PAGES)
    assert not bad, "\n".join(bad)


def test_real_tree_no_page_scrolls_sideways(page, real_url):
    bad = _widths_ok(page, real_url, REAL_PAGES)
    assert not bad, "\n".join(bad)


def _requirements_ok(page, base: str) -> list[str]:
    without_search_index(page)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(base + "requirements/")
    hrefs = page.eval_on_selector_all(".pto-requirement-pages a", "els => els.map(a => a.href)")
    assert hrefs
    bad = []
    for href in hrefs:
        m = measure(page, href, 1366, 900)
        if m["height"] > MAX_PAGE_PX:
            bad.append(f"{href}: {m['height']}px tall")
        wrapped = page.evaluate(WRAPPED_IDS_JS)
        if wrapped:
            bad.append(f"{href}: ids wrap: {wrapped[:5]}")
    return bad


def test_catalog_requirement_pages(page, catalog_url):
    assert not _requirements_ok(page, catalog_url)


def test_real_tree_requirement_pages(page, real_url):
    bad = _requirements_ok(page, real_url)
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("query", ["TMUL", "PTO-TMUL-CONTRACT-001", "pto-inst-tile-tmul"])
def test_catalog_search_puts_the_exact_id_first(page, catalog_url, lang, query):
    results = search(page, catalog_url + lang, query)
    assert results and "/TMUL/" in results[0][1], results


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("query", ["TMUL", "PTO-TMUL-CONTRACT-001"])
def test_real_tree_search_puts_the_exact_id_first(page, real_url, lang, query):
    results = search(page, real_url + lang, query)
    assert results and "/TMUL/" in results[0][1], results
    assert results[0][0] in ("TMUL", "PTO-TMUL-CONTRACT-001")


def test_catalog_enter_opens_the_exact_match(page, catalog_url):
    search(page, catalog_url, "TSQRT")
    page.keyboard.press("Enter")
    page.wait_for_url("**/TSQRT/**", timeout=15000)  # (raises after 15 s elsewhere)
    assert page.url == catalog_url + SEED_PAGES["TSQRT"]  # the instruction's own page, not one that mentions it


@pytest.mark.parametrize("url_fixture", ["catalog_url", "real_url"])
def test_square_root_in_chinese_finds_tsqrt(page, request, url_fixture):
    base = request.getfixturevalue(url_fixture)
    results = search(page, base + "zh-CN/", "平方根")
    material = [title for title, href in results if "/TSQRT/" in href or title == "TSQRT"]
    assert material and [t for t, _ in results].index(material[0]) < 3, results


def test_real_tree_tmul_shows_its_datatype_prose_finding(page, real_url):
    for lang in LANGS:
        page.goto(real_url + lang + SEED_PAGES["TMUL"])
        notice = page.locator('[data-finding="DATATYPE-PROSE"]')
        assert notice.is_visible()
        text = notice.inner_text()
        assert "DATATYPE-PROSE" in text and "S32, U32, FP32, S16, U16, FP16, or BF16" in text and "U64" in text
    page.goto(real_url + "reports/traceability/")
    assert page.locator("#model-findings").is_visible()
    assert page.locator('.pto-findings-report a[href*="/TMUL/"]').count() == 1


@pytest.mark.parametrize("url_fixture", ["catalog_url", "real_url"])
def test_zh_tsqrt_has_no_generated_english(page, request, url_fixture):
    base = request.getfixturevalue(url_fixture)
    page.goto(base + "zh-CN/" + SEED_PAGES["TSQRT"])
    english = page.evaluate(GENERATED_ENGLISH_JS)
    assert not english, english


@pytest.mark.parametrize("path", [SEED_PAGES["TMUL"], "instructions/scalar/alu/ADD/"])
def test_register_labels_stay_inside_their_boxes(page, real_url, path):
    without_search_index(page)
    for name, (w, h) in WIDTHS.items():
        measure(page, real_url + path, w, h)
        assert not page.evaluate(LABELS_OUTSIDE_JS), name


def test_catalog_404_offers_search_and_both_homes(page, catalog_url):
    for lang in LANGS:
        page.goto(catalog_url + lang + "404.html")
        assert page.locator(".pto-404 form input[name=q]").count() == 1
        # (the links resolve against the base the page finds in its address: issue 33, a 404 under a sub-path)
        homes = page.eval_on_selector_all(".pto-404 a[hreflang]", "els => els.map(a => a.href)")
        assert homes == [catalog_url, catalog_url + "zh-CN/"]
    assert page.locator(".md-footer-meta").inner_text().strip()  # the footer is no empty band


@pytest.mark.parametrize("url_fixture", ["catalog_url", "real_url"])
@pytest.mark.parametrize("lang,query", [("", "square root"), ("zh-CN/", "平方根")])
def test_quick_matches_answer_while_the_full_text_index_is_still_loading(page, request, url_fixture, lang, query):
    """While Material's index has not arrived (its request is held here), pto-search.js answers from titles and
    summaries: TSQRT is among the quick matches; once Material shows its own results the quick matches go."""
    base = request.getfixturevalue(url_fixture)
    held, released = [], []

    def hold(route):  # until released, then every request of the index goes through (no unroute: it can hang)
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route("**/search/search_index.json", hold)
    page.goto(base + lang)
    page.keyboard.press("s")
    box = page.locator("input.md-search__input")
    box.fill(query)
    box.press("End")
    page.wait_for_function("document.querySelectorAll('.pto-quick:not([hidden]) .pto-quick__item').length > 0",
                           timeout=30000)
    titles = page.eval_on_selector_all(".pto-quick__item h1", "els => els.map(e => e.textContent)")
    assert "TSQRT" in [t.split(" — ")[0] for t in titles[:3]], titles  # ("TSQRT — Tile Square Root": issue 33)
    assert page.locator(".pto-quick__meta").inner_text().strip()
    released.append(True)
    for route in held:
        route.continue_()
    page.wait_for_function(
        "document.querySelectorAll('.md-search-result__list:not(.pto-exact__list) > .md-search-result__item').length > 0",
        timeout=60000)
    page.wait_for_function("document.querySelector('.pto-quick') === null || document.querySelector('.pto-quick').hidden",
                           timeout=10000)
