"""A generated page as parts: tiny Markdown with placeholders and the HTML fragments they stand for (see
render/pages.py), and the template helpers that collect the fragments."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markupsafe import Markup

SEARCHABLE = re.compile(r"<!--pto-f:(\d+)-->")
HEAVY = re.compile(r"<!--pto-h:(\d+)-->")


@dataclass
class PageParts:
    """One generated page: tiny Markdown + searchable fragments + heavy fragments (see the module doc)."""

    markdown: str
    search: list[str] = field(default_factory=list)
    heavy: list[str] = field(default_factory=list)

    def fill_search(self, html: str) -> str:
        return SEARCHABLE.sub(lambda m: self.search[int(m.group(1))], html) if self.search else html

    def fill_heavy(self, html: str) -> str:
        """``html`` with every heavy placeholder replaced by its fragment, and the placeholders a heavy fragment
        holds (a heavy block around ``H()`` values) by theirs."""
        if not self.heavy:
            return html
        heavy = self.heavy

        def fill(m: re.Match) -> str:
            part = heavy[int(m.group(1))]
            return HEAVY.sub(fill, part) if "<!--pto-h:" in part else part
        return HEAVY.sub(fill, html)

    def assembled(self) -> str:
        """The page as one text (Markdown with every fragment in place): for tests and the page hash."""
        return self.fill_heavy(self.fill_search(self.markdown))

    def dump(self) -> str:
        """The Markdown, then every fragment under a separator line (the reviewed golden form of a page)."""
        out = [self.markdown]
        out += [f"\n<!-- ===== pto-f:{i} ===== -->\n{f}\n" for i, f in enumerate(self.search)]
        out += [f"\n<!-- ===== pto-h:{i} ===== -->\n{f}\n" for i, f in enumerate(self.heavy)]
        return "".join(out)

    def size(self) -> int:
        return len(self.markdown) + sum(map(len, self.search)) + sum(map(len, self.heavy))


class Collector:
    """Template helpers that take HTML out of the Markdown: ``{% call frag() %}`` (searchable block),
    ``{% call heavy() %}`` (heavy block) and ``H(markup)`` (a heavy pre-rendered value, once per page)."""

    def __init__(self) -> None:
        self.search: list[str] = []
        self.heavy_parts: list[str] = []
        self._seen: dict[int, int] = {}

    def frag(self, caller) -> Markup:
        html = str(caller()).strip("\n")
        if not html.strip():
            return Markup("")
        self.search.append(html)
        return Markup(f"\n\n<!--pto-f:{len(self.search) - 1}-->\n\n")

    def heavy_html(self, html: str) -> Markup:
        """A heavy block given as its HTML (render/heavy_html.py): its placeholder."""
        self.heavy_parts.append(html)
        return Markup(f"<!--pto-h:{len(self.heavy_parts) - 1}-->")

    def heavy(self, caller) -> Markup:
        return self.heavy_html(str(caller()).strip("\n"))

    def H(self, value: Markup) -> Markup:
        index = self._seen.get(id(value))
        if index is None:
            self.heavy_parts.append(str(value))
            index = self._seen[id(value)] = len(self.heavy_parts) - 1
        return Markup(f"<!--pto-h:{index}-->")

    def parts(self, markdown: str) -> PageParts:
        return PageParts(re.sub(r"\n{3,}", "\n\n", markdown), self.search, self.heavy_parts)
