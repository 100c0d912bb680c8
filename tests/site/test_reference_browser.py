"""Reference content in chromium, at 1366 and 390 px, in both languages, on the catalog and (PTO_SPEC_CHECKOUT)
the real tree: ExecuteTileBinary in TMUL's ASL opens the unit page at the line that declares it; BSTART.TEPL's
operation list links every operation it carries; the data-type page is reachable from TMUL's field values and
from the navigation."""

from __future__ import annotations

import re

import pytest
from browser_checks import WIDTHS, without_search_index
from conftest import SEED_PAGES

pytestmark = pytest.mark.browser

LANGS = ["", "zh-CN/"]
TEPL = "instructions/block/execution/BSTART.TEPL/"
DEFINITION = re.compile(r"^(\w+\s+)*func\s+ExecuteTileBinary\b")

# the declaring line the link opens, as the browser sees it (its text, and whether the reader sees it)
TARGET_JS = """() => { const e = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (!e) return null; const r = e.getBoundingClientRect();
  return {text: e.textContent, top: r.top, bottom: r.bottom, height: innerHeight, visible: e.checkVisibility()}; }"""


@pytest.fixture(params=["catalog", "real"])
def tree_kind(request):
    return request.param


@pytest.fixture
def base(request, tree_kind):
    return request.getfixturevalue("catalog_url" if tree_kind == "catalog" else "real_url")


@pytest.fixture
def page(page):
    """A fresh page that never downloads the search index (these tests do not search)."""
    without_search_index(page)
    return page


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_tmul_asl_link_opens_the_definition_line(page, base, lang, width):
    w, h = WIDTHS[width]
    page.set_viewport_size({"width": w, "height": h})
    page.goto(base + lang + SEED_PAGES["TMUL"])
    link = page.locator(".pto-asl a.pto-asl-ref", has_text=re.compile(r"^ExecuteTileBinary$")).first
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_load_state("load")
    assert "/units/" in page.url and re.search(r"#asl-L\d+$", page.url), page.url
    assert page.url.startswith(base + lang)  # the same language
    target = page.evaluate(TARGET_JS)
    assert target is not None and DEFINITION.match(target["text"]), target
    assert target["visible"] and 0 <= target["top"] and target["bottom"] <= target["height"], target


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_tepl_operation_list_links_its_operations(page, base, tree_kind, lang, width):
    w, h = WIDTHS[width]
    page.set_viewport_size({"width": w, "height": h})
    page.goto(base + lang + TEPL)
    links = page.eval_on_selector_all(".pto-carried-ops a", "els => els.map(a => [a.textContent, a.href])")
    names = [name for name, _href in links]
    assert names and len(set(names)) == len(names) and "TMUL" in names, names
    if tree_kind == "real":  # (the catalog's count is checked against its records in tests/render)
        assert len(names) == 87
    href = dict(links)["TMUL"]
    page.locator(".pto-carried-ops a", has_text=re.compile(r"^TMUL$")).click()
    page.wait_for_load_state("load")
    assert page.url == href and page.locator("article h1").first.inner_text().startswith("TMUL")
    # the table stays inside the screen
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_data_type_page_is_reachable(page, base, lang, width):
    w, h = WIDTHS[width]
    page.set_viewport_size({"width": w, "height": h})
    page.goto(base + lang + SEED_PAGES["TMUL"])
    summary = page.locator("#field-values-DataType > summary")
    summary.scroll_into_view_if_needed()
    if page.locator("#field-values-DataType").get_attribute("open") is None:
        summary.click()
    link = page.locator("#field-values-DataType a", has_text=re.compile(r"^U32$"))
    link.click()
    page.wait_for_load_state("load")
    assert page.url == base + lang + "reference/data-types/#code-25", page.url
    row = page.evaluate(TARGET_JS)
    assert row and row["visible"] and "U32" in row["text"] and row["top"] >= 0, row
    # and from the navigation of any page
    assert page.locator('nav a[href$="reference/data-types/"]').count() >= 1
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
