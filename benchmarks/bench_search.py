"""Typing-to-results time of the site search in headless Chromium (a measurement, printed; never asserted).

    python benchmarks/bench_search.py SITE_DIR [QUERY ...]

Serves SITE_DIR on localhost, opens the home page (English, then zh-CN), opens the search, types each query
and prints the milliseconds until the first result is shown, the first five result titles and the index size.
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def serve(site: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


MATERIAL_ITEMS = ".md-search-result__list:not(.pto-exact__list) > .md-search-result__item"


def first_results(page, query: str, timeout_ms: int = 60000) -> tuple[float, list[str], float]:
    """(ms to the first results of any kind: exact id, quick match or Material's; their titles; ms to Material's
    own full-text results, measured from the same keystroke)."""
    box = page.locator("input.md-search__input")
    box.fill("")
    start = time.perf_counter()
    if query.isascii():
        box.press_sequentially(query, delay=0)
    else:  # an input method commits the whole word at once
        box.fill(query)
        box.press("End")
    try:
        page.wait_for_function(
            "document.querySelectorAll('.md-search-result__item, .pto-exact__item').length > 0", timeout=timeout_ms)
    except Exception:  # noqa: BLE001 - a measurement: report it
        return float("nan"), ["(no result within the timeout)"], float("nan")
    elapsed = (time.perf_counter() - start) * 1000
    titles = page.locator(".pto-exact:not([hidden]) .pto-exact__item h1, .pto-quick:not([hidden]) .pto-quick__item h1, "
                          f"{MATERIAL_ITEMS} h1").evaluate_all("els => els.slice(0, 5).map(e => e.textContent.trim())")
    try:
        page.wait_for_function(f"document.querySelectorAll('{MATERIAL_ITEMS}').length > 0", timeout=timeout_ms)
        full = (time.perf_counter() - start) * 1000
    except Exception:  # noqa: BLE001 - an exact id may have no full-text result; report it
        full = float("nan")
    return elapsed, titles, full


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright
    site = Path(argv[0])
    queries = argv[1:] or ["TMUL", "PTO-TMUL-CONTRACT-001", "square root"]
    httpd, base = serve(site)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for prefix, extra in (("", []), ("zh-CN/", ["平方根"])):
                index = site / prefix / "search" / "search_index.json"
                print(f"[{prefix or 'en/'}] search_index.json {index.stat().st_size:,} bytes")
                for query in queries + extra:
                    page = browser.new_page()  # a fresh page per query: the worker builds its index each time
                    page.goto(base + prefix)
                    page.keyboard.press("s")
                    ms, titles, full = first_results(page, query)
                    print(f"  {query!r}: typed at once after loading: first results after {ms:,.0f} ms: {titles}; "
                          f"Material's full-text results after {full:,.0f} ms")
                    page.close()
                    page = browser.new_page()  # the reader who reads first: the index is ready when they type
                    page.goto(base + prefix)
                    page.wait_for_timeout(8000)  # reading the page for 8 s
                    page.keyboard.press("s")
                    ms, titles, full = first_results(page, query)
                    print(f"  {query!r}: typed 8 s after loading: first results after {ms:,.0f} ms; full-text {full:,.0f} ms")
                    page.close()
            browser.close()
    finally:
        httpd.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
