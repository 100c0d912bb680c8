"""Issue 33 in chromium, at 1366 and 390 px, both languages, on the catalog's site and (PTO_SPEC_CHECKOUT) the real
tree's: instruction pages in reading order (TMUL's first example within 4,000 px on a phone), the register diagram
within a phone's screen with 11 px labels, index tables as cards on a phone, the language switch keeping the
#anchor, syntax lines and padded outputs not clipped, report paths wrapping after a slash."""

from __future__ import annotations

import pytest
from browser_checks import WIDTHS, measure, without_search_index
from conftest import SEED_PAGES

pytestmark = pytest.mark.browser

LANGS = ["", "zh-CN/"]
PHONE, DESK = WIDTHS["phone"], WIDTHS["desktop"]
TOPS_JS = """ids => Object.fromEntries(ids.map(id => { const e = document.getElementById(id);
    return [id, e ? e.getBoundingClientRect().top + scrollY : null]; }))"""


@pytest.fixture
def page(page):
    """A fresh page that never downloads the search index (these tests do not search)."""
    without_search_index(page)
    return page


# -- order -----------------------------------------------------------------------------------------------------
READING_ORDER = ["assembly", "assembler-symbols", "encoding", "asl", "worked-examples", "contract", "evidence",
                 "sources"]


def _check_tmul_order(page, base: str) -> dict:
    out = {}
    for lang in LANGS:
        measure(page, base + lang + SEED_PAGES["TMUL"], *PHONE)
        tops = page.evaluate(TOPS_JS, READING_ORDER)
        assert None not in tops.values(), tops
        assert list(tops.values()) == sorted(tops.values()), tops
        assert page.evaluate("""() => Array.from(document.querySelectorAll('details.pto-fold')).map(d => d.open)""") \
            == [False, False]  # the evidence and the sources, closed
        out[lang] = tops
    return out


def test_catalog_tmul_in_reading_order_on_a_phone(page, catalog_url):
    _check_tmul_order(page, catalog_url)


# the first example itself (its box, not the heading of its section): the executed example when there is one, else
# the first worked example
FIRST_EXAMPLE_JS = """() => { const e = document.querySelector('article section.pto-teaching, article .pto-example-case');
    return e ? e.getBoundingClientRect().top + scrollY : null; }"""


def test_real_tree_tmul_first_example_within_4000_px_on_a_phone(page, real_url):
    for lang in LANGS:
        measure(page, real_url + lang + SEED_PAGES["TMUL"], *PHONE)
        top = page.evaluate(FIRST_EXAMPLE_JS)
        assert top is not None and top <= 4000, (lang, top)
    _check_tmul_order(page, real_url)


# -- the register diagram ----------------------------------------------------------------------------------------
DIAGRAM_JS = """() => Array.from(document.querySelectorAll('.pto-diagram')).map(box => {
  const shown = Array.from(box.querySelectorAll('svg.pto-reg')).filter(s => s.getClientRects().length);
  if (shown.length !== 1) return {shown: shown.length};
  const svg = shown[0], r = svg.getBoundingClientRect(), scale = r.width / svg.viewBox.baseVal.width;
  const sizes = Array.from(svg.querySelectorAll('text.pto-reg-label')).map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
  return {shown: 1, lanes: svg.getAttribute('data-lane-bits'), right: r.right, scrolls: box.scrollWidth > box.clientWidth + 1,
          smallest: sizes.length ? Math.min(...sizes) : null};
})"""


def _diagrams_ok(page, base: str, paths: list[str]) -> list[str]:
    bad = []
    for lang in LANGS:
        for path in paths:
            for name, (w, h) in (("phone", PHONE), ("desktop", DESK)):
                measure(page, base + lang + path, w, h)
                for d in page.evaluate(DIAGRAM_JS):
                    lanes = "16" if name == "phone" else "32"
                    if d["shown"] != 1 or d["lanes"] != lanes or d["right"] > w or d["scrolls"] \
                            or (name == "phone" and d["smallest"] is not None and d["smallest"] < 10.95):
                        bad.append(f"{lang}{path} {name}: {d}")
    return bad


def test_catalog_register_diagram_fits_a_phone(page, catalog_url):
    bad = _diagrams_ok(page, catalog_url, [SEED_PAGES["TMUL"], "instructions/scalar/agu/SWI/"])
    assert not bad, "\n".join(bad)


def test_real_tree_register_diagram_fits_a_phone(page, real_url):
    bad = _diagrams_ok(page, real_url, [SEED_PAGES["TMUL"], "instructions/scalar/alu/ADD/"])
    assert not bad, "\n".join(bad)


# -- index tables on a phone -------------------------------------------------------------------------------------
ROWS_JS = """() => Array.from(document.querySelectorAll('table.pto-cards tbody tr')).filter(tr => tr.querySelector('td')).map(tr => {
  const r = tr.getBoundingClientRect(), first = tr.querySelector('td').getBoundingClientRect();
  return [r.height, first.width / r.width]; })"""


def test_catalog_index_tables_are_cards_on_a_phone(page, catalog_url):
    """Each row a block: its first cell (the id) as wide as the row, no index row taller than ~6 lines."""
    for lang in LANGS:
        for path in ("units/", "adrs/", "requirements/tile/"):  # (the instruction index is the A–Z list, no table)
            measure(page, catalog_url + lang + path, *PHONE)
            rows = page.evaluate(ROWS_JS)
            assert rows, path
            assert all(share > 0.9 for _, share in rows), (lang, path, rows[:3])
            if not path.startswith("requirements/"):  # (a requirement's row lists its tests: as long as they are)
                assert max(height for height, _ in rows) <= 170, (lang, path, max(rows))


def test_catalog_report_tables_are_cards_on_a_phone(page, catalog_url):
    """The traceability report page: every table of it (the report's and the model-check findings') reflows as
    cards, each cell after the first labelled, and nothing scrolls sideways."""
    for lang in LANGS:
        size = measure(page, catalog_url + lang + "reports/traceability/", *PHONE)
        assert size["width"] <= size["viewport"], (lang, size)
        tables = page.evaluate("""() => Array.from(document.querySelectorAll('article table')).map(t =>
            [t.classList.contains('pto-cards'), Array.from(t.querySelectorAll('tbody tr')).every(tr =>
              Array.from(tr.querySelectorAll('td')).slice(1).every(td => td.dataset.label))])""")
        assert len(tables) >= 5 and all(cards and labelled for cards, labelled in tables), (lang, tables)
        rows = page.evaluate(ROWS_JS)
        assert rows and all(share > 0.9 for _, share in rows), (lang, rows[:3])


def test_real_tree_units_index_on_a_phone(page, real_url):
    heights = {}
    for lang in LANGS:
        heights[lang] = measure(page, real_url + lang + "units/", *PHONE)["height"]
    assert heights["zh-CN/"] <= 60_000 and heights[""] <= 60_000, heights


# -- the language switch -----------------------------------------------------------------------------------------
def test_catalog_language_switch_keeps_the_anchor(page, catalog_url):
    for here, there in (("", "zh-CN"), ("zh-CN/", "en")):
        page.set_viewport_size({"width": DESK[0], "height": DESK[1]})
        page.goto(catalog_url + here + SEED_PAGES["TMUL"] + "#encoding")
        page.hover(".md-header__option .md-select")
        page.locator(f'.md-header__option a.md-select__link[hreflang="{there}"]').click()
        page.wait_for_load_state("load")
        assert page.url.endswith(SEED_PAGES["TMUL"] + "#encoding"), page.url
        assert ("/zh-CN/" in page.url) == (there == "zh-CN"), page.url


# -- desktop: nothing clipped ------------------------------------------------------------------------------------
CLIPPED_JS = """() => Array.from(document.querySelectorAll('pre.pto-form > code, pre.pto-minimum > code, pre.pto-example > code, table.pto-tile'))
  .filter(e => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.slice(0, 60))"""


def test_catalog_syntax_lines_and_padded_outputs_are_not_clipped(page, catalog_url):
    for lang in LANGS:
        for seed in ("TMUL", "TCOLEXPAND"):
            measure(page, catalog_url + lang + SEED_PAGES[seed], *DESK)
            assert not page.evaluate(CLIPPED_JS), (lang, seed)
        assert page.locator("td.pto-col-run").count() > 0  # TCOLEXPAND's padding columns, folded


def test_real_tree_report_paths_wrap_only_after_a_slash(page, real_url):
    measure(page, real_url + "reports/traceability/", *DESK)
    names = page.evaluate("""() => Array.from(document.querySelectorAll('code.pto-path > span'))
        .map(s => [s.textContent, s.getClientRects().length])""")
    assert names and all(lines == 1 for _, lines in names), [n for n in names if n[1] != 1][:5]
