"""Headless Chromium on the built site: diagram, language switch, search, console, no outside requests."""

from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path

import pytest
from conftest import SEED_PAGES

CHROMIUM = Path("/usr/bin/chromium")
# CI sets PTO_DOCS_REQUIRE_BROWSER=1 after installing chromium: there a missing browser is a failure, not a skip.
REQUIRED = os.environ.get("PTO_DOCS_REQUIRE_BROWSER") == "1"
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists() and not REQUIRED, reason="Debian chromium is not installed")]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def server(built_site):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(built_site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser(chromium):
    """The session's one chromium (conftest.py): one playwright driver per test process."""
    return chromium


@pytest.fixture
def page(browser, server):
    context = browser.new_context()
    pg = context.new_page()
    pg.errors, pg.foreign = [], []
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("request", lambda r: pg.foreign.append(r.url) if not r.url.startswith(server) else None)
    yield pg
    context.close()


@pytest.mark.parametrize("prefix", ["", "zh-CN/"])
def test_tmul_diagram(page, server, prefix):
    page.goto(server + prefix + SEED_PAGES["TMUL"])
    svg = page.locator("svg.pto-reg").first
    svg.wait_for()
    assert svg.is_visible()
    labels = svg.locator("text.pto-reg-label").evaluate_all("els => els.map(e => e.textContent)")
    for name in ("DataType", "Mode", "Function"):
        assert any(name in t for t in labels), labels
    assert not page.errors and not page.foreign, (page.errors, page.foreign)


def _switch_language(page, lang: str) -> None:
    # Material's script fetches every language's sitemap.xml once the page has loaded and would then reroute a
    # click into another language by it: wait until it has, so the test sees what a reader sees
    page.wait_for_load_state("networkidle")
    page.locator(".md-header__option .md-select").first.hover()
    link = page.locator(f"a.pto-language-link[hreflang='{lang}']").first
    try:
        link.click(timeout=5000)
    except Exception:  # the hover menu can close under a slow machine before the click lands: activate the link itself
        link.dispatch_event("click")


def test_language_switch_lands_on_chinese_tmul(page, server):
    page.goto(server + SEED_PAGES["TMUL"])
    _switch_language(page, "zh-CN")
    page.wait_for_url("**/zh-CN/" + SEED_PAGES["TMUL"], timeout=15000)
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    assert page.locator("h1").first.inner_text().strip().rstrip("¶").split(" — ")[0] == "TMUL"  # (then its long name)
    _switch_language(page, "en")  # and back to the same page in English
    page.wait_for_url(server + SEED_PAGES["TMUL"], timeout=15000)
    assert page.locator("html").get_attribute("lang") == "en"
    assert not page.errors and not page.foreign, (page.errors, page.foreign)


@pytest.mark.parametrize("prefix", ["", "zh-CN/"])
def test_search_finds_tsqrt(page, server, prefix):
    page.goto(server + prefix)
    page.wait_for_timeout(500)
    page.keyboard.press("s")  # Material's search shortcut
    page.locator("input.md-search__input").press_sequentially("TSQRT", delay=30)
    page.locator(".md-search-result__item").first.wait_for(timeout=15000)
    assert "TSQRT" in page.locator(".md-search-result").inner_text()
    if prefix:  # a Chinese query on the Chinese site (jieba-segmented index)
        box = page.locator("input.md-search__input")
        box.fill("平方根")
        box.press("End")
        page.wait_for_function("document.querySelector('.md-search-result__meta').textContent.includes('平方根') || "
                               "document.querySelectorAll('.md-search-result__item').length > 0", timeout=15000)
        assert "TSQRT" in page.locator(".md-search-result").inner_text()
    assert not page.errors and not page.foreign, (page.errors, page.foreign)
