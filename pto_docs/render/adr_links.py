"""Links inside ADR bodies, rewritten before Markdown conversion: a relative link to another ADR's file, to
an ASL unit or to the ADR directory becomes a link to its site page; a relative link that resolves to no page
becomes its plain text and is reported (``path:line``) so the site never carries a broken link or a raw ``.md``.
External links (a scheme, ``//``) and in-page anchors stay as written."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from ..model.catalog import Adr, Catalog
from . import routes

# [text](target "title") and [text](<target>) — the inline form upstream's ADRs use; images are left alone
_INLINE = re.compile(r"(?<!!)\[(?P<text>[^\]\n]*)\]\((?P<target><[^>\n]*>|[^)\s]*)(?P<title>\s+\"[^\"\n]*\")?\)")
_EXTERNAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//|#)")


@dataclass(frozen=True)
class LinkProblem:
    path: str
    line: int
    target: str

    def format(self) -> str:
        return f"{self.path}:{self.line}:1: warning: link {self.target!r} resolves to no page of the site; shown as text"


def _pages_by_path(cat: Catalog) -> dict[str, str]:
    pages = {a.path: routes.adr_src(a.id) for a in cat.adrs.values()}
    pages.update({u.path: routes.unit_src(u) for u in cat.units.values()})
    for a in cat.adrs.values():  # the ADR directory (its index)
        pages.setdefault(posixpath.dirname(a.path), routes.ADR_INDEX)
        pages.setdefault(posixpath.dirname(a.path) + "/index.md", routes.ADR_INDEX)
    return pages


def rewrite(text: str, adr: Adr, cat: Catalog, src: str, body_line: int | None = None) -> tuple[str, list[LinkProblem]]:
    """``text`` (an ADR body, English or translated) with its relative links pointing at site pages."""
    if "](" not in text:
        return text, []
    pages = _pages_by_path(cat)
    base = posixpath.dirname(adr.path)
    first = body_line if body_line is not None else adr.body_line
    problems: list[LinkProblem] = []

    def one(m: re.Match) -> str:
        target = m.group("target").strip("<>")
        if not target or _EXTERNAL.match(target):
            return m.group(0)
        path, _, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(base, path)).rstrip("/")
        page = pages.get(resolved)
        if page is None:
            problems.append(LinkProblem(adr.path, first + text.count("\n", 0, m.start()), target))
            return m.group("text")
        href = routes.relative(src, page, anchor)
        return f"[{m.group('text')}]({href}{m.group('title') or ''})"

    return _INLINE.sub(one, text), problems


def front_links(cat: Catalog, adr: Adr, src: str) -> dict[str, str]:
    """Front-matter value -> link: affected units, related ADRs and each ``affected_ndf`` clause's anchor on its
    owner's page."""
    links: dict[str, str] = {}
    for uid in adr.front.get("affected_units", ()) or ():
        if isinstance(uid, str) and uid in cat.units:
            links[uid] = routes.relative(src, routes.unit_src(cat.units[uid]))
    for key in ("supersedes", "superseded_by", "resolves"):
        for aid in adr.front.get(key, ()) or ():
            if isinstance(aid, str) and aid in cat.adrs:
                links[aid] = routes.relative(src, routes.adr_src(aid))
    for cid in adr.front.get("affected_ndf", ()) or ():
        if isinstance(cid, str) and cid in cat.requirements:
            owner = cat.units.get(cat.requirements[cid].owner)
            if owner is not None:
                links[cid] = routes.relative(src, routes.unit_src(owner), cid)
    return links
