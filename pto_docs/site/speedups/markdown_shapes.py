"""Markdown conversion of the generated pages, once per page *shape* instead of once per page.

A generated page's Markdown is only its title (``# TMUL``), its section headings with explicit ids
(``## Encoding {: #encoding }``) and fragment placeholders (render/pages.py); its content is inserted after
Markdown. MkDocs builds a new Markdown instance with every extension for every page, which on ~940 pages per
language costs seconds for what is, across all instruction pages of a language, a handful of distinct
documents up to their titles. So a page whose Markdown has exactly that form and a plain title (letters,
digits, spaces and ``.,:;/()+=@%'-``, the em dash of a long name and full-width ``，（）：``, Markdown escapes allowed) is converted by MkDocs' own ``Page.render``
with its title replaced by a sentinel, once per distinct result, and the page gets that result with the
sentinel replaced by its title and by the heading id the ``toc`` extension would give it (its configured
``slugify``; any id clash, empty id, link or other surprise falls back to a full conversion of the page).

tests/site/test_markdown_shapes.py compares every page of the sample tree, and whole sites, with and without.
"""

from __future__ import annotations

import logging
import re
from html import escape

from markdown.extensions.toc import slugify as default_slugify
from mkdocs.structure.pages import Page
from mkdocs.structure.pages import log as pages_log
from mkdocs.structure.toc import AnchorLink, TableOfContents

SENTINEL = "PTOTITLESENTINEL"
_H1 = re.compile(r"# (?P<text>[^\n{}]+?) *\Z")
_OTHER_LINE = re.compile(r"(?:[ \t]*|<!--pto-[a-z]+:\d+-->|#{2,6} [^\n]*)\Z")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_PLAIN = re.compile(r"[^\W_]+(?:[ .,:;/()+=@%'\-—，（）：]+[^\W_]*)*\Z")  # (— and full-width: "LW — 加载字（48 位）")
_LINK = re.compile(r"""(?:href|src)=["'](?!#)""")


class ShapeCache:
    def __init__(self, config) -> None:
        toc = (config.mdx_configs or {}).get("toc", {}) if "toc" in (config.markdown_extensions or []) else None
        self.enabled = toc is not None
        toc = toc or {}
        self.slugify = toc.get("slugify", default_slugify)
        self.separator = toc.get("separator", "-")
        self.shapes: dict[str, tuple | None] = {}
        self.reused = 0
        self.converted = 0

    def render(self, page: Page, config, files) -> None:
        """``page.render(config, files)``, from the page's shape when it has one."""
        split = self._split(page.markdown) if self.enabled else None
        if split is not None:
            shape, title = split
            if shape not in self.shapes:
                self.shapes[shape] = self._convert_shape(page, config, files, shape)
                self.converted += 1
            entry = self.shapes[shape]
            if entry is not None and self._apply(page, entry, title):
                self.reused += 1
                return
        Page.render(page, config, files)

    # -- the shape --------------------------------------------------------------------------------
    def _split(self, markdown: str | None) -> tuple[str, str] | None:
        if not markdown or SENTINEL in markdown:
            return None
        lines = markdown.split("\n")
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is None:
            return None
        m = _H1.match(lines[first])
        if m is None:
            return None
        title = _ESCAPE.sub(r"\1", m.group("text"))
        if not _PLAIN.match(title) or not all(_OTHER_LINE.match(line) for line in lines[first + 1:]):
            return None
        return "\n".join(lines[:first] + [f"# {SENTINEL}"] + lines[first + 1:]), title

    def _convert_shape(self, page: Page, config, files, shape: str) -> tuple | None:
        markdown = page.markdown
        page.markdown = shape
        try:
            Page.render(page, config, files)
        finally:
            page.markdown = markdown
        sentinel_id = self._slug(SENTINEL)
        content = page.content or ""
        anchors = set(page.present_anchor_ids or ())
        own = dict(page.links_to_anchors or {})  # the headings' permalinks: links into the page itself
        anchor_links = own.pop(page.file, {})
        if (_LINK.search(content) or own or any(v != f"#{k}" for k, v in anchor_links.items())
                or page._title_from_render != SENTINEL
                or sentinel_id not in anchors or content.count(SENTINEL) != 1 or content.count(sentinel_id) != 2):
            return None  # a link, an unexpected title or id: this shape is converted page by page
        return content, page.toc, anchors - {sentinel_id}, sentinel_id, list(anchor_links)

    def _apply(self, page: Page, entry: tuple, title: str) -> bool:
        content, toc, other_ids, sentinel_id, anchor_links = entry
        slug = self._slug(title)
        if not slug or slug in other_ids or SENTINEL.lower() in title.lower():
            return False  # the toc extension would make the id unique differently: convert the page itself
        text = escape(title, quote=False)
        page.content = content.replace(SENTINEL, text).replace(f'"{sentinel_id}"', f'"{slug}"').replace(
            f'"#{sentinel_id}"', f'"#{slug}"')
        page.toc = TableOfContents([_swap(link, sentinel_id, slug, text) for link in toc])
        page._title_from_render = title
        page.present_anchor_ids = other_ids | {slug}
        if pages_log.getEffectiveLevel() > logging.DEBUG:  # as Page.render records them
            names = [slug if k == sentinel_id else k for k in anchor_links]
            page.links_to_anchors = {page.file: {k: f"#{k}" for k in names}} if names else {}
        return True

    def _slug(self, title: str) -> str:
        return self.slugify(title, self.separator)


def _swap(link: AnchorLink, sentinel_id: str, slug: str, text: str) -> AnchorLink:
    copy = AnchorLink(link.title.replace(SENTINEL, text), slug if link.id == sentinel_id else link.id, link.level)
    if getattr(link, "active", False):
        copy.active = True  # type: ignore[attr-defined]
    copy.children = [_swap(child, sentinel_id, slug, text) for child in link.children]
    return copy
