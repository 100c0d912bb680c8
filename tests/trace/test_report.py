"""The report: byte-identical across runs and machines, written atomically, valid against its schema."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from pto_docs.analysis.load import load_catalog
from pto_docs.schemas.registry import validator
from pto_docs.store.atomic import atomic_write
from pto_docs.trace import build_report, report_bytes, report_markdown
from pto_docs.trace.lock import LOCK_NAME

from .conftest import codes


def _errors(name: str, doc) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator(name).iter_errors(doc)]


def test_two_runs_are_byte_identical_even_from_another_directory(traced, tmp_path, run_trace):
    first, second, moved = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    assert run_trace(traced, "--json", first)[0] == 0
    assert run_trace(traced, "--json", second)[0] == 0
    assert first.read_bytes() == second.read_bytes()
    elsewhere = tmp_path / "elsewhere" / "tree"
    shutil.copytree(traced, elsewhere)
    assert run_trace(elsewhere, "--json", moved)[0] == 0
    assert moved.read_bytes() == first.read_bytes()  # no machine paths in the report
    data = first.read_bytes()
    doc = json.loads(data)
    assert data == (json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
    assert "date" not in doc["release"]


def test_date_only_from_source_date_epoch(traced, tmp_path, run_trace, monkeypatch):
    out = tmp_path / "r.json"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    assert run_trace(traced, "--json", out)[0] == 0
    assert json.loads(out.read_text())["release"]["date"] == "2026-01-01"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    code, _out, err = run_trace(traced, "--json", out)
    assert code == 2 and "SOURCE_DATE_EPOCH" in err


def test_failed_write_leaves_previous_report_intact(traced, tmp_path, run_trace, monkeypatch):
    out = tmp_path / "report.json"
    assert run_trace(traced, "--json", out)[0] == 0
    before = out.read_bytes()
    (traced / "asl/tile/model/demo-state.asl").write_text("// changed\n")

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    code, _out, err = run_trace(traced, "--json", out)
    assert code == 2 and "IO-WRITE" in err
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".report.json.")) == []
    # an unusable spec root is an I/O problem too, and it never touches the report
    monkeypatch.undo()
    code, _out, err = run_trace(tmp_path / "no-such-tree", "--json", out)
    assert code == 2 and out.read_bytes() == before


def test_atomic_write_replaces_whole_file(tmp_path):
    target = tmp_path / "x.json"
    target.write_text("old\n")
    atomic_write(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_report_and_lock_validate_against_their_schemas(traced, tmp_path, run_trace):
    out = tmp_path / "r.json"
    assert run_trace(traced, "--stamp", "--json", out)[0] == 0
    assert _errors("traceability-report", json.loads(out.read_text())) == []
    assert _errors("review-lock", json.loads((traced / LOCK_NAME).read_text())) == []
    # and a report full of problems validates too
    (traced / "tests/asl/tile/model/demo-state/tile-static-demo-state-001.asl").unlink()
    (traced / "asl/tile/model/demo-state.asl").write_text((traced / "asl/tile/model/demo-state.asl").read_text() + "// x\n")
    code, _out, _err = run_trace(traced, "--check", "--json", out)
    assert code == 1
    doc = json.loads(out.read_text())
    assert _errors("traceability-report", doc) == []
    assert doc["summary"]["verdict"] == "fail" and doc["summary"]["links"]["removed"] >= 1


def test_report_lists_every_kind_with_statuses(traced):
    result = load_catalog(traced)
    report = build_report(result.catalog, result.tree, ())
    assert {u["id"]: u["status"] for u in report["units"]} == {"PTO-TILE-TDEMO": "match", "PTO-TILE-MODEL-DEMO-STATE": "match"}
    assert {r["id"]: r["status"] for r in report["requirements"]} == {"PTO-INST-TILE-TDEMO": "match",
                                                                      "PTO-TDEMO-CONTRACT-001": "match"}
    assert all(t["status"] == "match" for t in report["tests"])
    assert report["translations"][0]["status"] == "match"
    assert [a["status"] for a in report["aggregates"]] == ["match", "match"]
    assert report["summary"]["agrees_with_recorded"] is True
    assert report["summary"]["recorders"]["traceability.sources"] == {"match": 4, "stale": 0, "recorded-only": 0}


def test_recorded_but_absent_file_is_recorded_only_not_a_crash(traced, run_trace):
    trace = traced / "spec/evidence/release-traceability-readiness.json"
    doc = json.loads(trace.read_text())
    doc["sources"]["spec/evidence/instruction-contract-closure.json"] = "f" * 64
    trace.write_text(json.dumps(doc, indent=2) + "\n")
    code, _out, err = run_trace(traced)
    assert code == 0, err
    assert ("warning", "evidence-recorded-only", "spec/evidence/instruction-contract-closure.json") in codes(err)


def test_markdown_in_both_languages(traced, run_trace, tmp_path):
    result = load_catalog(traced)
    report = build_report(result.catalog, result.tree, ())
    en = report_markdown(report, "en")
    zh = report_markdown(report, "zh-CN")
    assert en.startswith("# Traceability report 0.1.0\n") and "| Units | 2 | 2 |" in en
    assert zh.startswith("# 可追溯性报告 0.1.0\n") and "| 单元 | 2 | 2 |" in zh
    assert report_markdown(report, "en") == en
    page = tmp_path / "trace.zh-CN.md"
    assert run_trace(traced, "--markdown", page, "--locale", "zh-CN")[0] == 0
    assert page.read_text("utf-8") == zh
    with pytest.raises(KeyError):
        report_markdown(report, "fr")


def test_report_bytes_is_canonical(traced):
    result = load_catalog(traced)
    report = build_report(result.catalog, result.tree, ())
    assert report_bytes(report) == report_bytes(json.loads(report_bytes(report)))


def test_markdown_renders_for_the_stamped_catalog_in_both_languages():
    """The report page of the stamped catalog renders every label in both languages."""
    from pathlib import Path

    import yaml

    from pto_docs.analysis.load import load_catalog
    from pto_docs.bridge.examples import worked_examples
    from pto_docs.trace import build_report, report_markdown

    labels = yaml.safe_load((Path(__file__).resolve().parents[2] / "pto_docs/i18n/report.yaml").read_text("utf-8"))
    assert set(labels["en"]) == set(labels["zh-CN"])
    result = load_catalog(Path(__file__).resolve().parents[2] / "catalog")
    report = build_report(result.catalog, result.tree, worked_examples(result.catalog))
    assert report["links"]["stamped"]
    en, zh = report_markdown(report, "en"), report_markdown(report, "zh-CN")
    assert labels["en"]["unstamped"] in en and labels["zh-CN"]["unstamped"] in zh
    assert labels["en"]["links"] in en and labels["zh-CN"]["links"] in zh


def test_markdown_paths_wrap_after_a_slash_and_diagnostics_are_marked_english(traced):
    """Issue 33: the findings' paths broke every ~10 characters. A path is a <code class="pto-path"> whose names
    up to 24 characters are unbreakable spans with a <wbr> after each "/" (a longer name may still wrap at its
    hyphens); on the zh-CN page the checker's English message is marked lang="en"."""
    result = load_catalog(traced)
    report = build_report(result.catalog, result.tree, ())
    path = "spec/evidence/numeric-format-namespace-contract.json"
    report["findings"] = [{"severity": "warning", "code": "evidence-input-stale", "id": "asl/arch/x.asl",
                           "path": path, "message": "recorded input hash at /sources/10 is old"}]
    en, zh = report_markdown(report, "en"), report_markdown(report, "zh-CN")
    assert ('<code class="pto-path"><span>spec/</span><wbr><span>evidence/</span><wbr>'
            "numeric-format-namespace-contract.json</code>") in en
    assert '<code class="pto-path"><span>asl/</span><wbr><span>arch/</span><wbr><span>x.asl</span></code>' in en
    assert "| recorded input hash at /sources/10 is old |" in en
    assert '<span lang="en">recorded input hash at /sources/10 is old</span>' in zh


def test_the_site_page_tables_are_phone_cards_with_labelled_cells(traced):
    """Issue 33: on the site the report's tables reflow as cards on a phone like the other index tables: HTML tables
    of class pto-cards whose cells after the first carry their column's label (data-label); the text is the same
    (paths, code, strong) and the CLI's Markdown page keeps its pipe tables."""
    import re
    result = load_catalog(traced)
    report = build_report(result.catalog, result.tree, ())
    path = "spec/evidence/numeric-format-namespace-contract.json"
    report["findings"] = [{"severity": "warning", "code": "evidence-input-stale", "id": "asl/arch/x.asl",
                           "path": path, "message": "a <b>*bold*</b> claim"}]
    for locale in ("en", "zh-CN"):
        plain, site = report_markdown(report, locale), report_markdown(report, locale, cards=True)
        assert "| " in plain and '<table class="pto-table pto-cards">' not in plain
        assert "\n| " not in site and site.count('<table class="pto-table pto-cards">') == plain.count("\n|---")
        heads = re.findall(r"<thead><tr>(.*?)</tr></thead>", site, re.S)
        for row in re.findall(r"<tr>(<td>.*?)</tr>", site, re.S):
            cells = re.findall(r"<td( data-label=\"[^\"]*\")?>", row)
            assert cells[0] == "" and all(c for c in cells[1:]), row
        assert heads and all("</th>\n<th>" in h for h in heads if h.count("<th>") > 1)  # apart in the search index
        assert "<code>evidence-input-stale</code>" in site and "&lt;b&gt;&#42;bold&#42;&lt;/b&gt;" in site
        tables = "".join(re.findall(r"<table.*?</table>", site, re.S))
        assert "<strong>" in tables and "**" not in tables and "`" not in tables


def test_zh_cn_report_page_says_the_generated_messages_in_chinese(traced):
    """Issue 33: the report's own messages (i18n/messages.py templates) are Chinese on the zh-CN page, their
    parameters kept as escaped text; a message that is not ours (the loader's) stays English, marked lang="en"."""
    import string

    from pto_docs.i18n.messages import labels, say
    trace = traced / "spec/evidence/release-traceability-readiness.json"
    doc = json.loads(trace.read_text())
    doc["sources"]["spec/evidence/instruction-contract-closure.json"] = "f" * 64
    trace.write_text(json.dumps(doc, indent=2) + "\n")
    result = load_catalog(traced)
    report = build_report(result.catalog, result.tree, ())
    made = [f for f in report["findings"] if f["code"] == "evidence-recorded-only"]
    assert made and made[0]["message"].startswith("file is absent; only its hash recorded in ")  # English in the JSON
    en, zh = labels("en"), labels("zh-CN")
    keys = sorted(k for k in en if k.startswith("msg_"))
    hostile = "<b>*x*</b>|`y`"
    for key in keys:
        params = {f: hostile for _l, f, _s, _c in string.Formatter().parse(en[key]) if f}
        report["findings"].append({"severity": "warning", "code": "c", "id": key, "path": "p",
                                   "message": say(key[4:], **params)})
    report["findings"].append({"severity": "error", "code": "load-error", "id": "x", "path": "p",
                               "message": "B.DIM: expects 3 operands"})
    page = report_markdown(report, "zh-CN")
    rows = {line.split(" | ")[2].strip("`"): line for line in page.splitlines() if line.startswith("| ")
            and line.count(" | ") >= 4}
    escaped = "&lt;b&gt;&#42;x&#42;&lt;/b&gt;&#124;&#96;y&#96;"
    for key in keys:
        params = {f: escaped for _l, f, _s, _c in string.Formatter().parse(en[key]) if f}
        assert rows[key].endswith("| " + zh[key].format(**params) + " |"), (key, rows[key])
        assert 'lang="en"' not in rows[key] and zh[key] != en[key]
    assert '<span lang="en">B.DIM: expects 3 operands</span>' in page
    ours = [line for line in page.splitlines() if "evidence-recorded-only" in line]
    assert ours and all('lang="en"' not in line and "文件不存在" in line for line in ours)
