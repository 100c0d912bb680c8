"""The whole bilingual site from the catalog: both languages, switch targets, diagrams, examples, no outside URLs."""

from __future__ import annotations

import json
import re

from conftest import SEED_PAGES

EXTERNAL_ASSET = re.compile(r"<(?:script|img|link|iframe|source|audio|video)\b[^>]*\b(?:src|href)=\"(?:https?:)?//", re.I)


def test_both_languages_have_every_page(built_site):
    english = {p.relative_to(built_site) for p in built_site.rglob("index.html") if "zh-CN" not in p.parts}
    chinese = {p.relative_to(built_site / "zh-CN") for p in (built_site / "zh-CN").rglob("index.html")}
    assert english == chinese and len(english) > 20
    for path in SEED_PAGES.values():
        assert (built_site / path / "index.html").is_file()
    for name in ("requirements", "instructions", "units", "adrs"):
        assert (built_site / name / "index.html").is_file()


def test_html_lang_and_language_switch(built_site):
    tmul = SEED_PAGES["TMUL"]
    en = (built_site / tmul / "index.html").read_text("utf-8")
    zh = (built_site / "zh-CN" / tmul / "index.html").read_text("utf-8")
    assert '<html lang="en"' in en and '<html lang="zh-CN"' in zh
    depth = tmul.count("/")
    assert f'href="{"../" * depth}zh-CN/{tmul}"' in en
    assert f'href="{"../" * (depth + 1)}{tmul}"' in zh
    assert "搜索" in zh  # Material's own UI in Chinese


def test_diagrams_inline_and_examples_downloadable(built_site):
    html = (built_site / SEED_PAGES["TMUL"] / "index.html").read_text("utf-8")
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="pto-reg" data-lane-bits="32" role="img"' in html
    for label in ("DataType", "Mode", "Function"):
        assert f'data-field="{label}"' in html
    links = re.findall(r'href="([^"]+\.json)" download', html)
    assert links, "worked examples link their case JSON"
    for link in links:
        target = (built_site / SEED_PAGES["TMUL"] / link).resolve()
        case = json.loads(target.read_text("utf-8"))
        assert case["execute"]["instruction"] == "TMUL" and "tiles" in case


def test_no_request_leaves_the_site(built_site):
    for page in built_site.rglob("*.html"):
        text = page.read_text("utf-8")
        assert not EXTERNAL_ASSET.search(text), page
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, page


def test_search_languages(built_site):
    en = json.loads((built_site / "search/search_index.json").read_text("utf-8"))
    zh = json.loads((built_site / "zh-CN/search/search_index.json").read_text("utf-8"))
    assert en["config"]["lang"] == ["en"] and zh["config"]["lang"] == ["zh"]
    assert any(doc["title"].startswith("TSQRT — ") for doc in zh["docs"])  # (with its long name: issue 33)
    assert any("\u200b" in doc["text"] for doc in zh["docs"])  # jieba segmented the Chinese text


def test_validation_error_fails_the_build(tmp_path, caplog):
    import io
    import os

    from conftest import REPO

    from pto_docs.cli import build as build_cmd
    bad = tmp_path / "tree/asl/tile/x"
    bad.mkdir(parents=True)
    (bad / "TBAD.asl").write_text("// PTO-INSTRUCTION: {not json\n")
    args = type("Args", (), {"spec_root": str(tmp_path / "tree"), "site_dir": str(tmp_path / "site"),
                             "config_file": str(REPO / "mkdocs.yml"), "no_strict": False})()
    err = io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        assert build_cmd.run(args, io.StringIO(), err) == 1
    finally:
        os.chdir(cwd)
    assert "BuildError" in err.getvalue()
    assert "asl/tile/x/TBAD.asl:1:22: error[JSON-SYNTAX]" in caplog.text  # the validate diagnostic, verbatim
