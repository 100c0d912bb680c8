"""Every href/src of a built site resolves: to a file of the site (a directory to its index.html) and, with a
fragment, to an element id of that page. External links (a scheme or ``//``) are not followed."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

_REF = re.compile(r"""\s(?:href|src)=(?:"([^"]*)"|'([^']*)')""")
_ID = re.compile(r"""\s(?:id|name)=(?:"([^"]*)"|'([^']*)')""")
_EXTERNAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")




class LinkChecker:
    def __init__(self, site: Path):
        self.site = site.resolve()
        self._ids: dict[Path, set[str]] = {}

    def ids(self, page: Path) -> set[str]:
        if page not in self._ids:
            text = page.read_text("utf-8", errors="replace")
            self._ids[page] = {html.unescape(a or b) for a, b in _ID.findall(text)}
        return self._ids[page]

    def target(self, page: Path, ref: str) -> tuple[Path | None, str]:
        parts = urlsplit(ref)
        fragment = unquote(parts.fragment)
        if not parts.path:
            return page, fragment
        base = self.site if parts.path.startswith("/") else page.parent  # root-absolute: the 404 pages
        path = (base / unquote(parts.path).lstrip("/")).resolve()
        if not path.is_relative_to(self.site):
            return None, fragment
        if parts.path.endswith("/") or path.is_dir():
            path = path / "index.html"
        return (path if path.is_file() else None), fragment

    def problems(self, page: Path) -> list[str]:
        out = []
        text = page.read_text("utf-8", errors="replace")
        for a, b in _REF.findall(text):
            ref = html.unescape(a or b)
            if not ref or _EXTERNAL.match(ref):
                continue
            rel = page.relative_to(self.site)
            if urlsplit(ref).path.endswith(".md"):
                out.append(f"{rel}: link to a raw Markdown file {ref!r}")
                continue
            target, fragment = self.target(page, ref)
            if target is None:
                out.append(f"{rel}: {ref!r} resolves to no file")
            elif fragment and target.suffix == ".html" and fragment not in self.ids(target):
                out.append(f"{rel}: {ref!r}: no element with id {fragment!r}")
        return out

    def check(self) -> list[str]:
        out = []
        for page in sorted(self.site.rglob("*.html")):
            out.extend(self.problems(page))
        return out
