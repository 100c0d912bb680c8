"""The pages of a site's release history (plugin option ``previous``): "Changes since OLD", the note on each
changed instruction's page, and a page at each removed instruction's old address. They only show the
history.notes.ReleaseHistory the site made (``r.data.history``); nothing here loads or compares.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from . import routes
from .parts import PageParts

MAX_VALUE = 160  # characters of an old or new value shown on the changes page
KINDS = ("units", "ndf_clauses", "requirements", "tests", "adrs")

SiteRenderer = Any  # pages.py's (not imported: it imports this)


def anchor(mnemonic: str) -> str:
    """The changes page's anchor of an instruction (letters, digits, ``.``, ``_`` and ``-`` kept)."""
    return "change-" + re.sub(r"[^A-Za-z0-9._-]", "_", mnemonic)


def instruction_note(r: SiteRenderer, unit, src: str) -> dict | None:
    """What an instruction page says of its change in this release (None: unchanged, or no history)."""
    history = getattr(r.data, "history", None)
    change = history.change_of(unit.mnemonic) if history is not None and unit.is_instruction else None
    if change is None:
        return None
    return {"previous": history.previous, "current": history.current, "aspects": change.aspects,
            "href": routes.relative(src, routes.CHANGES, anchor(change.mnemonic))}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr)


def shortened(old: Any, new: Any) -> tuple[str | None, str | None]:
    """The old and new value as text, each at most MAX_VALUE characters, both cut around their first difference
    (two long values alike in their first MAX_VALUE characters would otherwise look the same)."""
    a, b = (None if v is None else _text(v) for v in (old, new))
    common = 0
    if a is not None and b is not None:
        while common < min(len(a), len(b)) and a[common] == b[common]:
            common += 1
    start = max(0, common - MAX_VALUE // 4)

    def cut(text: str | None) -> str | None:
        if text is None or len(text) <= MAX_VALUE:
            return text
        begin = min(start, len(text) - MAX_VALUE)
        return ("…" if begin else "") + text[begin:begin + MAX_VALUE] + ("…" if begin + MAX_VALUE < len(text) else "")
    return cut(a), cut(b)


def removed_sources(r: SiteRenderer) -> list[tuple[str, Any]]:
    """(page source, RemovedInstruction) of every removed instruction whose old address no page of this release
    takes."""
    history = getattr(r.data, "history", None)
    if history is None:
        return []
    taken = {routes.unit_src(u) for u in r.units}
    out, seen = [], set()
    for removed in history.removed:
        src = routes.unit_src(removed.unit)
        if src not in taken and src not in seen:
            seen.add(src)
            out.append((src, removed))
    return out


def changes_pages(r: SiteRenderer, locale: str, render) -> Iterator[tuple[str, PageParts]]:
    """The changes page and the removed instructions' pages (none without a history)."""
    history = getattr(r.data, "history", None)
    if history is None:
        return
    diff = history.diff
    src = routes.CHANGES
    current = {u.mnemonic: u for u in r.catalog.instructions if u.mnemonic}
    kept = dict((removed.unit.mnemonic, s) for s, removed in removed_sources(r))

    def link(mnemonic: str) -> str | None:
        unit = current.get(mnemonic)
        if unit is not None:
            return routes.relative(src, routes.unit_src(unit))
        return routes.relative(src, kept[mnemonic]) if mnemonic in kept else None

    changed = [{"mnemonic": c.mnemonic, "anchor": anchor(c.mnemonic), "href": link(c.mnemonic), "aspects": c.aspects,
                "changes": [dict(zip(("aspect", "field", "old", "new"), (x.aspect, x.field, *shortened(x.old, x.new))))
                            for x in c.changes]}
               for c in diff.changed]
    others = [{"kind": kind, "ids": getattr(diff, kind)} for kind in KINDS]
    yield src, render("pages/changes.md.j2", src, history=history,
                      added=[{"mnemonic": e.mnemonic, "href": link(e.mnemonic), "summary": e.summary} for e in diff.added],
                      removed=[{"mnemonic": e.mnemonic, "href": link(e.mnemonic), "summary": e.summary} for e in diff.removed],
                      changed=changed, others=others)
    for page, removed in removed_sources(r):
        adrs = [{"id": a, "title": r.catalog.adrs[a].title, "href": routes.relative(page, routes.adr_src(a))}
                for a in removed.adrs if a in r.catalog.adrs]
        replacements = [{"mnemonic": m, "href": routes.relative(page, routes.unit_src(current[m]))}
                        for m in removed.replacements if m in current]
        yield page, render("pages/removed_instruction.md.j2", page, history=history, unit=removed.unit, adrs=adrs,
                           changelog=removed.changelog, replacements=replacements,
                           changes=routes.relative(page, routes.CHANGES))
