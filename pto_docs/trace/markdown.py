"""report_markdown: the traceability report as a Markdown page (en or zh-CN) with coverage tables.

Deterministic: the page is a pure function of the report and the locale. Long tables are cut at
MAX_ROWS rows with a pointer to the JSON report.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..i18n.messages import labels, localise
from .hashing import STATUSES

MAX_ROWS = 200
LOCALES = ("en", "zh-CN")


# Characters that mean something to Markdown or HTML inside a table cell; each becomes a character reference, so
# a cell is shown as text and never becomes a link, an image, emphasis, a tag or a second column.
_SPECIAL = {ch: f"&#{ord(ch)};" for ch in "\\`*_{}[]()#+!|~^$"}
_SPECIAL.update({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})
_PLAIN_CODE = re.compile(r"[\w./:@+=,\-]*\Z")
_WHOLE_NAME = 24  # a path's names up to this long never wrap inside


def _text(value: Any) -> str:
    """Any text as one line of Markdown-inert, HTML-escaped characters (control characters shown as escapes)."""
    out = []
    for ch in str(value):
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ch in "\r\n\t":
            out.append(" ")
        elif not ch.isprintable():
            out.append(f"&#92;x{ord(ch):02x}" if ord(ch) < 0x100 else f"&#92;u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "✓" if value else "✗"
    return _text(value)


def _code(value: Any) -> str:
    if value is None or value == "":
        return "—"
    text = str(value)
    if "/" in text and _PLAIN_CODE.match(text):  # a path: it wraps after a "/", or at a long name's hyphens (CSS: code.pto-path)
        parts = [p + "/" for p in text.split("/")[:-1]] + [text.rsplit("/", 1)[1]]
        return '<code class="pto-path">' + "<wbr>".join(
            f"<span>{_text(p)}</span>" if len(p) <= _WHOLE_NAME else _text(p) for p in parts) + "</code>"
    if _PLAIN_CODE.match(text):
        return "`" + text + "`"
    return "<code>" + _text(text) + "</code>"  # anything else: an inline tag whose text Markdown cannot touch


_INLINE_CODE = re.compile(r"`([\w./:@+=,\-]*)`")
_STRONG = re.compile(r"\*\*([^*]*)\*\*")


def _html_cell(cell: str) -> str:
    """A Markdown table cell as HTML: only the two Markdown forms the cells use (`plain code`, **strong**); every
    other character of a cell is already a reference or a tag pto-docs wrote (_text, _code)."""
    return _STRONG.sub(r"<strong>\1</strong>", _INLINE_CODE.sub(r"<code>\1</code>", cell))


def _any_table(header: Sequence[str], rows: Iterable[Sequence[str]], L: Mapping[str, str], cards: bool = False) -> list[str]:
    rows = list(rows)
    if not rows:
        return [f"*{L['none']}*", ""]
    if cards:  # the site's page: an HTML table that reflows as cards on a phone (pto-docs.css table.pto-cards)
        head = "\n".join(f"<th>{h}</th>" for h in header)  # (one cell a line: the search index keeps them apart)
        lines = ['<table class="pto-table pto-cards">', f"<thead><tr>{head}</tr></thead>", "<tbody>"]
        for row in rows[:MAX_ROWS]:
            cells = [f"<td>{_html_cell(row[0])}</td>"] + [
                f'<td data-label="{_text(h)}">{_html_cell(c)}</td>' for h, c in zip(header[1:], row[1:])]
            lines.append("<tr>" + "\n".join(cells) + "</tr>")
        lines += ["</tbody>", "</table>"]
        if len(rows) > MAX_ROWS:
            lines += ["", L["more"].format(n=len(rows) - MAX_ROWS)]
        lines.append("")
        return lines
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for row in rows[:MAX_ROWS]:
        lines.append("| " + " | ".join(row) + " |")
    if len(rows) > MAX_ROWS:
        lines.append("")
        lines.append(L["more"].format(n=len(rows) - MAX_ROWS))
    lines.append("")
    return lines


def report_markdown(report: Mapping[str, Any], locale: str = "en", cards: bool = False) -> str:
    """``cards``: the tables as HTML tables that reflow as cards on a phone (the site's page), not pipe tables."""
    L = labels(locale)

    def _table(header, rows, L):  # noqa: N807 (every table of the page in one form)
        return _any_table(header, rows, L, cards)
    s = report["summary"]
    rel = report["release"]
    out: list[str] = [f"# {L['title']} {_text(rel['version'])}", "", L["intro"], ""]
    verdict = L["pass"] if s["verdict"] == "pass" else L["fail"]
    out += _table([L["release"], L["value"]], [
        [L["version"], _code(rel["version"])],
        [L["status"], _cell(rel["status"])],
        [L["commit"], _code(rel.get("commit"))],
        [L["inputs_sha256"], _code(rel.get("inputs_sha256"))],
        [L["verdict"], f"**{verdict}**"],
        [L["errors"], str(s["findings"]["error"])],
        [L["warnings"], str(s["findings"]["warning"])],
    ], L)

    out += [f"## {L['summary']}", ""]
    recorded = s.get("recorded") or {}
    rows = []
    for key in ("unit_count", "documentation_page_count", "mnemonic_count", "requirement_count",
                "executable_requirement_count", "test_count", "uncovered_unit_count",
                "uncovered_executable_requirement_count", "mnemonic_semantic_gap_count", "adr_count",
                "evidence_file_count", "translation_count", "worked_example_count"):
        rec = recorded.get(key)
        rows.append([L[key], str(s[key]), str(rec) if isinstance(rec, int) else "—"])
    out += _table([L["item"], L["value"], L["recorded"]], rows, L)
    agrees = s.get("agrees_with_recorded")
    out += [f"{L['agrees']}: **{L['not_recorded'] if agrees is None else (L['answer_yes'] if agrees else L['answer_no'])}**", ""]

    out += [f"## {L['hashes']}", ""]
    out += _table([L["kind"], *(L[st] for st in STATUSES)],
                  [[L[kind], *(str(counts[st]) for st in STATUSES)] for kind, counts in s["hashes"].items()], L)
    out += [f"## {L['recorders']}", ""]
    out += _table([L["recorder"], L["match"], L["stale"], L["recorded-only"]],
                  [[_code(name), str(c["match"]), str(c["stale"]), str(c["recorded-only"])]
                   for name, c in s["recorders"].items()], L)
    out += [f"## {L['aggregates']}", ""]
    out += _table([L["id"], L["status"], L["sha256_now"], L["sha256_recorded"]],
                  [[_code(a["id"]), L.get(a["status"], a["status"]), _code(_short(a["sha256"])),
                    _code(_short(a["recorded_sha256"]))] for a in report["aggregates"]], L)

    cov = report["coverage"]
    out += [f"## {L['coverage']}", ""]
    out += [f"### {L['untested_units']}", ""]
    out += _table([L["unit"]], [[_code(u)] for u in cov["untested_units"]], L)
    out += [f"### {L['uncovered_executable_requirements']}", ""]
    out += _table([L["requirement"]], [[_code(r)] for r in cov["uncovered_executable_requirements"]], L)
    out += [f"### {L['unknown_requirement_references']}", ""]
    out += _table([L["test"], L["requirement"], L["file"]],
                  [[_code(e["test"]), _code(e["requirement"]), _code(e["path"])] for e in cov["unknown_requirement_references"]], L)
    out += [f"### {L['unowned_requirements']}", ""]
    out += _table([L["requirement"], L["owner"]],
                  [[_code(e["requirement"]), _code(e["owner"])] for e in cov["unowned_requirements"]], L)
    out += [f"### {L['adr_unknown_links']}", ""]
    out += _table([L["adr"], L["field"], L["target"], L["file"]],
                  [[_code(e["adr"]), _cell(e["field"]), _code(e["target"]), _code(e["path"])] for e in cov["adr_unknown_links"]], L)
    out += [f"### {L['inactive_adrs_cited']}", ""]
    out += _table([L["adr"], L["status"], L["cited_by"], L["file"]],
                  [[_code(e["adr"]), _cell(e["adr_status"]), _code(e["cited_by"]), _code(e["path"])]
                   for e in cov["inactive_adrs_cited"]], L)
    out += [f"### {L['stale_translations']}", ""]
    out += _table([L["translation"], L["status"], L["stale_strings"]],
                  [[_code(t["id"]), L.get(t["status"], t["status"]), str(len(t["stale_pointers"]) + len(t["unresolved_pointers"]))]
                   for t in report["translations"] if t["status"] != "match"], L)
    out += [f"### {L['example_mismatches']}", ""]
    out += _table([L["example"], L["now"], L["pinned"]],
                  [[_code(e["key"]), _code(_short(e["sha256"])), _code(_short(e["recorded_sha256"]))]
                   for e in report["examples"] if e["status"] == "stale"], L)

    def message(text: Any) -> str:
        return _message(text, locale)

    links = report["links"]
    out += [f"## {L['links']}", ""]
    if not links["stamped"]:
        out += [L["links_unstamped"], ""]
    else:
        counts = links["counts"]
        out += _table([L["link_status"], L["count"]],
                      [[L[k], str(counts[k])] for k in ("clean", "suspect", "unstamped", "removed")], L)
        out += _table([L["link"], L["status"], L["reasons"]],
                      [[_code(p["id"]), L.get(p["status"], p["status"]), "; ".join(message(r) for r in p["reasons"])]
                       for p in links["problems"]], L) if links["problems"] else []
        if links["coverage_suspect"]:
            out += [f"### {L['coverage_suspect']}", ""]
            out += _table([L["requirement"], L["test"], L["reason"]],
                          [[_code(c["requirement"]), _code(c["test"]), message(c["reason"])] for c in links["coverage_suspect"]], L)

    if "avs" in report:
        out += _avs_section(report, L, _table, locale)

    out += [f"## {L['findings']}", ""]

    out += _table([L["severity"], L["code"], L["id"], L["file"], L["reason"]],
                  [[L.get(f["severity"], f["severity"]), _code(f["code"]), _code(f["id"]), _code(f["path"]), message(f["message"])]
                   for f in report["findings"]], L)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _message(text: Any, locale: str) -> str:
    """A message of the report in ``locale``: ours through i18n/report.yaml (i18n/messages.py); the loader's diagnostics and
    an AVS point's own failure text stay English (lang=en)."""
    if locale == "en" or text is None:
        return _cell(text)
    ours = localise(str(text), locale, _text)
    return ours if ours is not None else f'<span lang="en">{_cell(text)}</span>'


def _avs_section(report: Mapping[str, Any], L: Mapping[str, str], _table=None, locale: str = "en") -> list[str]:
    _table = _table or _any_table
    avs = report["avs"]
    out = [f"## {L['avs']}", "", L["avs_intro"].format(profile=_text(avs["profile"])), ""]
    counts = avs["counts"]
    out += _table([L["status"], L["count"]], [[L.get(k, k), str(counts[k])] for k in counts], L)
    failing = [t for t in report["tests"] if t.get("avs") and t["avs"]["status"] != "pass"]
    if failing:
        out += [f"### {L['avs_not_passing']}", ""]
        out += _table([L["test"], L["status"], L["file"], L["reason"]],
                      [[_code(t["id"]), L.get(t["avs"]["status"], t["avs"]["status"]), _code(t["path"]),
                        _message(t["avs"]["message"], locale)] for t in failing], L)
    examples = avs.get("examples")
    if examples:
        out += [f"### {L['avs_examples']}", "", L["avs_examples_intro"], ""]
        rows = [[_text(surface), str(c["instructions"]), str(c["passing"]), str(c["failing"]), str(c["none"])]
                for surface, c in examples["coverage"].items()]
        t = examples["total"]
        rows.append([L["total"], str(t["instructions"]), str(t["passing"]), str(t["failing"]), str(t["none"])])
        out += _table([L["surface"], L["instructions"], L["passing"], L["failing"], L["without"]], rows, L)
        missing = [i for i in examples["instructions"] if not i["examples"]]
        if missing:
            out += [f"#### {L['avs_examples_missing']}", ""]
            out += _table([L["id"], L["surface"]], [[_code(i["id"]), _text(i["surface"])] for i in missing], L)
    return out


def _short(sha: str | None) -> str | None:
    return sha[:16] if isinstance(sha, str) else None
