"""A ReleaseDiff as words: the summary ``pto-docs diff`` prints, and the Markdown page of ``--markdown``.

Every name and value comes from a spec tree, so it is data: values go in code spans (a fence longer than any
backtick run in them, on one line) or fenced blocks (a fence longer than any in them), other text is escaped.
"""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

from ..store.output_guard import printable
from .aspects import ASPECTS
from .diff import IdDiff, InstructionChange, ReleaseDiff

VALUE_CHARS = 400  # a value longer than this is cut in the page (the JSON has it whole)
GROUPS = (("units", "units"), ("ndf_clauses", "NDF clauses"), ("requirements", "requirements"),
          ("tests", "tests"), ("adrs", "ADRs"))
_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")


def escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def code(text: str) -> str:
    text = " ".join(str(text).split()) or " "
    fence = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)


def _window(text: str, start: int, end: int) -> str:
    """``text[start:end]`` with some context, cut to VALUE_CHARS, with … where something is left out."""
    lo, hi = max(0, start - 80), min(len(text), max(end, start) + 80)
    hi = min(hi, lo + VALUE_CHARS)
    return ("… " if lo else "") + text[lo:hi] + (" …" if hi < len(text) else "")


def _one(value: Any) -> str:
    if value is None:
        return "(absent)"
    text = _text(value)
    return code(text if len(text) <= VALUE_CHARS else text[:VALUE_CHARS] + " …")


def _pair(old: Any, new: Any) -> str:
    """``old → new``; of two long values, the part where they differ (the JSON has both whole)."""
    if old is None or new is None:
        return f"{_one(old)} → {_one(new)}"
    a, b = _text(old), _text(new)
    if len(a) <= VALUE_CHARS and len(b) <= VALUE_CHARS:
        return f"{code(a)} → {code(b)}"
    first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    tail = 0
    while tail < min(len(a), len(b)) - first and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    return f"{code(_window(a, first, len(a) - tail))} → {code(_window(b, first, len(b) - tail))}"


def _side(side) -> str:
    commit = f" ({side.commit[:12]})" if side.commit else ""
    return f"{side.label} [{side.version}]{commit}" if side.label != side.version else f"{side.version}{commit}"


def summary_text(diff: ReleaseDiff) -> str:
    """The lines ``pto-docs diff`` prints: counts, the instructions added and removed, changes by aspect (names
    from the trees with control characters escaped: a terminal is not told anything by them)."""
    lines = [f"pto-docs diff {printable(_side(diff.old))} -> {printable(_side(diff.new))}"]
    records = sum(c.record_changed for c in diff.changed)
    lines.append(f"instructions: {len(diff.added)} added, {len(diff.removed)} removed, {len(diff.changed)} changed "
                 f"({records} with a changed record)")
    for word, entries in (("added", diff.added), ("removed", diff.removed)):
        if entries:
            lines.append(f"  {word}: " + " ".join(printable(e.mnemonic) for e in entries))
    by_aspect = {a: sum(a in c.aspects for c in diff.changed) for a in ASPECTS}
    if diff.changed:
        lines.append("  changed, by aspect: " + ", ".join(f"{a} {n}" for a, n in by_aspect.items() if n))
    for name, label in GROUPS:
        counts = getattr(diff, name).counts()
        lines.append(f"{label}: {counts['added']} added, {counts['removed']} removed, {counts['changed']} changed")
    return "\n".join(lines) + "\n"


def diff_markdown(diff: ReleaseDiff) -> str:
    """The Markdown page of a comparison."""
    out = [f"# Changes from {escape(_side(diff.old))} to {escape(_side(diff.new))}", "",
           "| | added | removed | changed |", "| --- | ---: | ---: | ---: |",
           f"| instructions | {len(diff.added)} | {len(diff.removed)} | {len(diff.changed)} |"]
    for name, label in GROUPS:
        c = getattr(diff, name).counts()
        out.append(f"| {label} | {c['added']} | {c['removed']} | {c['changed']} |")
    for title, entries in (("Added instructions", diff.added), ("Removed instructions", diff.removed)):
        if entries:
            out += ["", f"## {title}", ""]
            out += [f"- {code(e.mnemonic)} ({escape(e.surface)}, {code(e.path)}): {escape(e.summary)}" for e in entries]
    if diff.changed:
        out += ["", "## Changed instructions", ""]
        for change in diff.changed:
            out += _changed(change)
    for name, label in GROUPS:
        out += _ids(label, getattr(diff, name))
    return "\n".join(out).rstrip("\n") + "\n"


def _changed(change: InstructionChange) -> list[str]:
    out = [f"### {escape(change.mnemonic)}", "", f"{code(change.new_path)}: " + ", ".join(change.aspects), ""]
    for item in change.changes:
        if item.aspect == "semantics":
            out += ["- semantics (ASL, comments and whitespace left out):", ""]
            out += _fenced(difflib.unified_diff(str(item.old).split("\n"), str(item.new).split("\n"), "old", "new",
                                                lineterm="", n=1))
        else:
            out.append(f"- {escape(item.aspect)} {code(item.field)}: {_pair(item.old, item.new)}")
    return out + [""]


def _fenced(lines) -> list[str]:
    body = list(lines)
    fence = "`" * max(3, max((len(m) for line in body for m in re.findall(r"`+", line)), default=0) + 1)
    return [f"    {fence}diff"] + [f"    {line}" for line in body] + [f"    {fence}", ""]


def _ids(label: str, ids: IdDiff) -> list[str]:
    out = []
    for word, names in (("added", ids.added), ("removed", ids.removed), ("changed", ids.changed)):
        if names:
            out += ["", f"## {label[0].upper()}{label[1:]} {word}", "", ", ".join(code(n) for n in names)]
    return out
