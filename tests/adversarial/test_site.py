"""A site built from a tree full of hostile text has no script anywhere: no javascript:, vbscript: or data: in any
href or src, and no on* handler attribute, in any page of either language (issue 11, "Code execution")."""

from __future__ import annotations

import html
import json
import shutil
from pathlib import Path

import pytest

from .conftest import REPO, run_cli, snapshot, unsafe_markup

HOSTILE_MD = """

## Hostile

See [a][r], [b](
javascript:alert(2)), [c](\x01javascript:alert(3)), [d](vbscript:msgbox(4)), ![e](data:image/svg+xml,x),
[f]( JAVASCRIPT:alert(5) ), <img src=x onerror=alert(6)>, <a href="javascript:alert(7)">raw</a>,
[g](java&#115;cript:alert(8)), <svg onload=alert(9)>, [ok](https://example.org/safe-link)

[r]: javascript:alert(1)
"""
HOSTILE_TEXT = "<img src=x onerror=alert(10)>[h](javascript:alert(11))<script>alert(12)</script>"
LOCK_KEY = "test-unit <img/src=x/onerror=alert(document.domain)> -> [k](javascript:alert(13))"


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("hostile")
    tree, site = base / "T", base / "site"
    shutil.copytree(REPO / "catalog", tree)
    adr = tree / "docs/status/decisions/0024-pc-relative-and-unscaled-agu-addressing.md"
    adr.write_text(adr.read_text("utf-8") + HOSTILE_MD, "utf-8")
    for name in ("ADR-0024.json", "PTO-TILE-TMUL.json"):
        path = tree / "translations/zh-CN" / name
        doc = json.loads(path.read_text("utf-8"))
        doc["strings"][0]["text"] += HOSTILE_MD if name.startswith("ADR") else HOSTILE_TEXT
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=2), "utf-8")
    shutil.copy(tree / "examples/TMUL/u64-products.json", tree / "examples/TMUL/q<img src=x onerror=alert(9)>.json")
    code, _out, err = run_cli("trace", str(tree), "--stamp")
    assert code == 0, err
    lock_file = tree / "pto-docs.review-lock.json"
    lock = json.loads(lock_file.read_text("utf-8"))
    lock["links"][LOCK_KEY] = {"from": "0" * 64, "to": "0" * 64}
    lock_file.write_text(json.dumps(lock, indent=2, sort_keys=True), "utf-8")
    before = snapshot(tree)
    code, _out, err = run_cli("build", str(tree), "--site-dir", str(site), "-q", "--no-cache")
    assert code == 0, err
    assert snapshot(tree) == before
    return tree, site


def test_no_page_of_a_hostile_tree_has_script(hostile_site):
    _tree, site = hostile_site
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 40
    found = {p.relative_to(site).as_posix(): bad for p in pages if (bad := unsafe_markup(p.read_text("utf-8")))}
    assert found == {}


def test_the_hostile_text_is_on_the_pages_as_text(hostile_site):
    _tree, site = hostile_site
    adr = next(site.glob("**/ADR-0024/index.html"), None) or next(p for p in site.rglob("index.html")
                                                                     if "0024" in p.as_posix() and "zh-CN" not in p.parts)
    page = adr.read_text("utf-8")
    assert 'href="https://example.org/safe-link"' in page and "alert(6)" in page
    tmul = site / "zh-CN/instructions/tile/elementwise-tile-tile/arithmetic/TMUL/index.html"
    assert HOSTILE_TEXT in html.unescape(tmul.read_text("utf-8"))  # translated prose, shown as text
    report = [p for p in site.rglob("index.html") if "traceability" in p.as_posix()]
    assert len(report) == 2  # en and zh-CN
    for page in report:
        text = html.unescape(page.read_text("utf-8"))
        assert "<img/src=x/onerror=alert(document.domain)>" in text  # the hostile lock key, shown as text


@pytest.mark.browser
def test_no_dialog_fires_and_no_script_link_exists_in_chromium(hostile_site, chromium):
    """The hostile pages in a real browser, both languages: no alert/confirm/prompt ever opens (the payloads all
    call alert), no element carries an event handler or a script URL after the page's own scripts ran, and
    clicking every link of the ADR body opens no dialog either."""
    from tests.conftest import serve_directory
    _tree, site = hostile_site
    httpd = serve_directory(site)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    pages = ["reports/traceability/", "instructions/tile/elementwise-tile-tile/arithmetic/TMUL/"]
    pages += [p.parent.relative_to(site).as_posix() + "/" for p in site.glob("adrs/**/index.html") if "0024" in str(p)]
    dialogs: list[str] = []
    try:
        page = chromium.new_page()
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        for lang in ("", "zh-CN/"):
            for path in pages:
                page.goto(base + lang + path)
                page.wait_for_load_state("networkidle")
                bad = page.evaluate("""() => [...document.querySelectorAll('*')].flatMap(el =>
                    [...el.attributes].filter(a => /^on/i.test(a.name) ||
                        (/^(href|src|action|formaction|xlink:href)$/i.test(a.name) &&
                         /^\\s*(javascript|vbscript|data):/i.test(a.value)))
                    .map(a => el.tagName + ' ' + a.name + '=' + a.value))""")
                assert bad == [], (lang + path, bad)
                if "0024" in path:
                    for link in page.locator("article a[href]").all():
                        href = link.get_attribute("href") or ""
                        if href.startswith(("http", "#", "/", ".")) or not href:
                            continue  # ordinary links: no need to leave the page
                        link.click(no_wait_after=True, timeout=2000)
        page.close()
    finally:
        httpd.shutdown()
    assert dialogs == [], dialogs
    assert len(pages) == 3


def test_hostile_avs_results_are_text_on_the_pages(tmp_path):
    """An AVS results file is data too: markup in a step's entry point, arguments, result, exception or state names
    and values reaches the instruction page escaped, never as markup."""
    import json

    from pto_docs.analysis.load import load_catalog
    from tests.conftest import REPO
    from tests.mkdocs_config import build_catalog
    catalog = load_catalog(REPO / "catalog").catalog
    evil = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    tests = []
    for tid, t in sorted(catalog.tests.items()):
        row = {"id": tid, "path": t.path, "kind": t.kind, "status": "pass", "message": "", "seconds": 0.0,
               "sha256": t.file.sha256}
        if tid == "PTO-AVS-TILE-TCOLEXPAND-BROADCAST-001":
            row["steps"] = [{"function": "InstructionContractExecute_TCOLEXPAND", "arguments": [evil, "0"],
                             "result": evil, "exception": evil, "before": [[evil, evil]],
                             "changed": [[evil, None, evil], ["x[0..1]", evil, "javascript:alert(3)"]],
                             "truncated": False}]
        tests.append(row)
    results = tmp_path / "avs.json"
    results.write_text(json.dumps({"schema": "pto-docs.avs.v1", "profile": "ieee", "tests": tests,
                                   "summary": {"total": len(tests), "pass": len(tests), "fail": 0, "error": 0}}), "utf-8")
    site = tmp_path / "site"
    build_catalog(site, avs_results=str(results))
    (page,) = [p for p in site.glob("instructions/**/TCOLEXPAND/index.html") if "zh-CN" not in p.parts]
    text = page.read_text("utf-8")
    assert 'id="avs-examples"' in text
    assert "<script>alert(1)" not in text and "<img src=x" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert 'href="javascript:' not in text
