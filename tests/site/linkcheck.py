"""Every href/src of a built site resolves: to a file of the site (a directory to its index.html) and, with a
fragment, to an element id of that page. External links (a scheme or ``//``) are not followed.

Paths are handled as strings against one listing of the site (``os.walk``): a built site holds no symlinks, and
``Path.resolve`` per link was most of this check's time on the real tree (177,000 links)."""

from __future__ import annotations

import html
import os
import posixpath
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

_REF = re.compile(r"""\s(?:href|src)=(?:"([^"]*)"|'([^']*)')""")
_ID = re.compile(r"""\s(?:id|name)=(?:"([^"]*)"|'([^']*)')""")
_EXTERNAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")


class LinkChecker:
    def __init__(self, site: Path):
        self.site = site.resolve()
        self.files: set[str] = set()  # every file of the site, relative to it ("a/b/index.html")
        self.dirs: set[str] = {""}
        for folder, dirs, names in os.walk(self.site):
            rel = os.path.relpath(folder, self.site)
            rel = "" if rel == "." else rel.replace(os.sep, "/")
            self.dirs.update(posixpath.join(rel, d) for d in dirs)
            self.files.update(posixpath.join(rel, n) for n in names)
        self._ids: dict[str, set[str]] = {}

    def ids(self, page: str) -> set[str]:
        if page not in self._ids:
            text = (self.site / page).read_text("utf-8", errors="replace")
            self._ids[page] = {html.unescape(a or b) for a, b in _ID.findall(text)}
        return self._ids[page]

    def target(self, page: str, ref: str) -> tuple[str | None, str]:
        """The site file ``ref`` on ``page`` (both relative to the site) names, or None; and its fragment."""
        parts = urlsplit(ref)
        fragment = unquote(parts.fragment)
        if not parts.path:
            return page, fragment
        base = "" if parts.path.startswith("/") else posixpath.dirname(page)  # root-absolute: the 404 pages
        path = posixpath.normpath(posixpath.join(base, unquote(parts.path).lstrip("/")))
        if path == ".":
            path = ""
        if path == ".." or path.startswith("../"):
            return None, fragment
        if parts.path.endswith("/") or path in self.dirs:
            path = posixpath.join(path, "index.html")
        return (path if path in self.files else None), fragment

    def problems(self, page: str) -> list[str]:
        out = []
        text = (self.site / page).read_text("utf-8", errors="replace")
        for a, b in _REF.findall(text):
            ref = html.unescape(a or b)
            if not ref or _EXTERNAL.match(ref):
                continue
            if urlsplit(ref).path.endswith(".md"):
                out.append(f"{page}: link to a raw Markdown file {ref!r}")
                continue
            target, fragment = self.target(page, ref)
            if target is None:
                out.append(f"{page}: {ref!r} resolves to no file")
            elif fragment and target.endswith(".html") and fragment not in self.ids(target):
                out.append(f"{page}: {ref!r}: no element with id {fragment!r}")
        return out

    def check(self) -> list[str]:
        out = []
        for page in sorted(f for f in self.files if f.endswith(".html")):
            out.extend(self.problems(page))
        return out
