"""What the reader-facing browser tests measure in a page (shared by the catalog and the real-tree tests)."""

from __future__ import annotations

import re

WIDTHS = {"desktop": (1366, 900), "phone": (390, 844)}
MAX_PAGE_PX = 100_000

# visible text pto-docs generated in English (not spec prose, which is marked lang="en", nor code)
GENERATED_ENGLISH_JS = r"""() => {
  const skip = el => el.closest('[lang="en"], code, pre, kbd, svg, script, style, q, .md-header, .md-sidebar, .md-search, .md-footer');
  const walker = document.createTreeWalker(document.querySelector('article') || document.body, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skip(el) || !el.getClientRects().length) continue;
    const text = n.textContent.replace(/Material for MkDocs|MkDocs|pto-docs/g, '');
    const m = text.match(/[A-Za-z]{2,}(?:[ ,;:'’-]+[A-Za-z]{2,}){2,}/);
    if (m) out.push(m[0]);
  }
  return out;
}"""

# Material's own full-text results (not the exact-id box nor the quick matches of pto-search.js)
MATERIAL_ITEMS = ".md-search-result__list:not(.pto-exact__list) > .md-search-result__item"

OVERFLOW_JS = """() => ({width: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth,
                  height: document.documentElement.scrollHeight})"""

WRAPPED_IDS_JS = """() => Array.from(document.querySelectorAll('code.pto-id')).slice(0, 400)
    .filter(e => e.getClientRects().length > 1).map(e => e.textContent)"""

LABELS_OUTSIDE_JS = """() => Array.from(document.querySelectorAll('svg.pto-reg g.pto-reg-item')).flatMap(g => {
  const box = g.querySelector('rect'), label = g.querySelector('text.pto-reg-label');
  if (!box || !label) return [];
  const b = box.getBoundingClientRect(), l = label.getBoundingClientRect();
  const inside = l.left >= b.left - 0.5 && l.right <= b.right + 0.5 && l.top >= b.top - 0.5 && l.bottom <= b.bottom + 0.5;
  return inside ? [] : [g.getAttribute('data-field') + ' ' + g.getAttribute('data-bits')];
})"""


def without_search_index(page) -> None:
    """For tests that only measure layout: ``page`` no longer fetches Material's search index. Every page load
    otherwise fetches it (5 MB on the real tree) and its search worker builds the index, for a search box that
    stays closed: it changes no width, height or wrapped id (checked on every page of the real-tree width test,
    both ways), and its cost (about a third of the layout tests' time) is no longer spent."""
    page.route("**/search/search_index.json", lambda route: route.abort())


def measure(page, url: str, width: int, height: int) -> dict:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    page.wait_for_load_state("load")
    return page.evaluate(OVERFLOW_JS)


def search(page, url: str, query: str, timeout_ms: int = 60000) -> list[tuple[str, str]]:
    """(title, href) of the results shown first (exact-id box, then Material's), after typing ``query``."""
    page.goto(url)
    page.keyboard.press("s")
    box = page.locator("input.md-search__input")
    if query.isascii():
        box.press_sequentially(query, delay=20)
    else:  # an input method commits a whole word
        box.fill(query)
        box.press("End")
    page.wait_for_function("document.querySelectorAll('.pto-exact__item, .md-search-result__item').length > 0",
                           timeout=timeout_ms)
    if not query.isascii() or not re.fullmatch(r"[A-Za-z0-9.-]+", query):
        page.wait_for_function(f"document.querySelectorAll('{MATERIAL_ITEMS}').length > 0", timeout=timeout_ms)
    return page.evaluate(f"""() => Array.from(document.querySelectorAll(
        '.pto-exact:not([hidden]) .pto-exact__item a, {MATERIAL_ITEMS} > a')).slice(0, 10)
        .map(a => [a.querySelector('h1') ? a.querySelector('h1').textContent.trim() : '', a.href])""")

# the home page's entry in the primary sidebar (level 0): its text, whether the reader sees it (the element at its
# centre is itself, not the sidebar's title or another panel over it) and whether it starts below the title
HOME_IN_SIDEBAR_JS = """() => {
  const nav = document.querySelector('.md-sidebar--primary nav.md-nav--primary');
  const item = nav && nav.querySelector(':scope > .md-nav__list > .md-nav__item');
  const title = nav && nav.querySelector(':scope > .md-nav__title');
  if (!item || !title) return null;
  const link = Array.from(item.querySelectorAll(':scope > .md-nav__link')).find(e => e.getClientRects().length);
  if (!link) return {text: null};
  const r = link.getBoundingClientRect(), t = title.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + Math.min(r.width / 2, 40), r.top + r.height / 2);
  return {text: link.textContent.trim(), seen: !!hit && link.contains(hit), below: r.top >= t.bottom - 0.5,
          height: r.height};
}"""


def open_drawer_if_narrow(page) -> None:
    """On a phone the sidebar is a drawer: open it (its slide is over when the home entry is hit-testable)."""
    if page.viewport_size["width"] >= 1220:
        return
    page.locator('.md-header label.md-header__button[for="__drawer"]').click()
    page.wait_for_function("document.querySelector('.md-sidebar--primary').getBoundingClientRect().left >= 0")
    page.wait_for_timeout(300)
