"""Tree text never becomes markup: report cells are inert, ADR links keep only safe URLs, and a hostile file name
stamps a lock that ``--check`` accepts (issue 11, "Stored XSS" and "Script on click")."""

from __future__ import annotations

import json
import shutil

import markdown
import pytest

from pto_docs.render.markdown_safe import adr_html, safe_markdown
from pto_docs.trace.markdown import _any_table as _table
from pto_docs.trace.markdown import _cell, _code

from .conftest import run_main, snapshot, unsafe_markup

HOSTILE_TEXT = [
    "<img src=x onerror=alert(document.domain)>", "[a](javascript:alert(1))", "![i](data:text/html,x)", "a|b",
    "a\\|[x](javascript:1)", "\x01javascript:x", "`x`", "*em* _u_", "<http://x>", "line\nbreak",
    "[r]\n\n[r]: javascript:alert(1)", "&lt;script&gt;", "{: onclick=alert(1) }", "<a href='vbscript:x'>v</a>",
]
TABLE_TAGS = frozenset({"table", "thead", "tbody", "tr", "th", "td", "code", "p"})


def _html_of_cells(render) -> str:
    rows = [[render(h), "ok"] for h in HOSTILE_TEXT]
    return markdown.markdown("\n".join(_table(["a", "b"], rows, {"none": "-", "more": "{n}"})),
                             extensions=["tables", "attr_list", "toc"])


@pytest.mark.parametrize("render", [_cell, _code], ids=["cell", "code"])
def test_report_cells_are_inert(render):
    html = _html_of_cells(render)
    assert unsafe_markup(html, TABLE_TAGS) == []
    assert html.count("<tr>") == len(HOSTILE_TEXT) + 1
    assert all(line.count("<td") <= 1 for line in html.splitlines())  # no cell split into two


ADR_BODY = """# Title
See [a][r], [b](
javascript:alert(2)), [c](\x01javascript:alert(3)), [d](vbscript:msgbox(1)), ![e](data:image/svg+xml,<svg/onload=alert(1)>),
[f]( JAVASCRIPT:alert(4) ), [g](java&#115;cript:alert(5)), <a href="javascript:alert(6)" onclick="alert(7)">raw</a>,
[ok](https://example.org/x), [rel](../0001-x.md), [mail](mailto:a@example.org)

[r]: javascript:alert(1)
"""


def test_adr_bodies_keep_only_safe_links():
    html = str(adr_html(safe_markdown(ADR_BODY)))
    assert unsafe_markup(html, frozenset({"p", "a", "img"})) == []
    assert 'href="https://example.org/x"' in html and 'href="../0001-x.md"' in html
    assert 'href="mailto:a@example.org"' in html


def test_a_hostile_example_name_stamps_a_lock_that_check_accepts(tree, tmp_path):
    source = tree / "examples" / "TMUL" / "u64-products.json"
    shutil.copy(source, tree / "examples" / "TMUL" / "q<img src=x onerror=alert(9)> x.json")
    code, _out, err = run_main("trace", str(tree), "--stamp")
    assert code == 0, err
    before = snapshot(tree)
    out_json, out_md = tmp_path / "r.json", tmp_path / "r.md"
    code, _out, err = run_main("trace", str(tree), "--check", "--json", str(out_json), "--markdown", str(out_md))
    assert code == 0, err
    assert snapshot(tree) == before
    report = json.loads(out_json.read_text("utf-8"))
    assert report["links"]["counts"]["suspect"] == 0 and report["links"]["counts"]["unstamped"] == 0
    html = markdown.markdown(out_md.read_text("utf-8"), extensions=["tables", "attr_list", "toc"])
    assert unsafe_markup(html) == [] and "<img" not in html


def test_hostile_review_lock_keys_stay_text(tree, tmp_path):
    lock_file = tree / "pto-docs.review-lock.json"
    lock = json.loads(lock_file.read_text("utf-8"))
    lock["links"]["test-unit <img/src=x/onerror=alert(document.domain)> -> [a](javascript:alert(1))"] = {
        "from": "0" * 64, "to": "0" * 64}
    lock_file.write_text(json.dumps(lock), "utf-8")
    out_md = tmp_path / "r.md"
    code, _out, err = run_main("trace", str(tree), "--check", "--markdown", str(out_md))
    assert code == 1 and "Traceback" not in err
    html = markdown.markdown(out_md.read_text("utf-8"), extensions=["tables", "attr_list", "toc"])
    assert unsafe_markup(html) == [] and "<img" not in html
    assert "alert" in html  # the key is shown, as text
