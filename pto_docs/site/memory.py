"""What one process keeps from build to build (``mkdocs serve`` rebuilds, and the language builds forked from
each): owned by the plugin object, of which MkDocs keeps one per process (plugin.py), and handed to every
build. A forked build works on its copy; what it must give back it reports (languages.py)."""

from __future__ import annotations

import hashlib
import weakref
from dataclasses import dataclass, field

from .rendering import TreeStates
from .serve import Background
from .template_cache import ThemeBytecode


class PageKeys:
    """The page-cache key of each page's parts (cache.page_key), remembered per parts object: the renderer hands
    out the same parts object for an unchanged page on every rebuild of a serving process (render/pages.py),
    and its parts never change once rendered, so the key is not hashed again. An entry goes with its object."""

    def __init__(self) -> None:
        self._memo: dict[int, tuple[weakref.ref, dict]] = {}

    def key(self, signature: str, src_uri: str, parts) -> str:
        ident = id(parts)
        entry = self._memo.get(ident)
        if entry is None or entry[0]() is not parts:
            ref = weakref.ref(parts, lambda _ref: self._memo.pop(ident, None))
            entry = self._memo[ident] = (ref, {})
        shape = (signature, src_uri, len(parts.markdown), len(parts.search), len(parts.heavy))  # (a guard)
        key = entry[1].get(shape)
        if key is None:
            key = entry[1][shape] = page_key(signature, src_uri, parts)
        return key


def page_key(signature: str, src_uri: str, parts) -> str:
    """The key of a page: the build signature, its source URI and every part of it (cache.py)."""
    digest = hashlib.sha256()
    digest.update(f"{signature}\0{src_uri}\0".encode())
    for text in (parts.markdown, *parts.search, "\0heavy\0", *parts.heavy):
        data = text.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


@dataclass
class SiteMemory:
    # page pack path -> (its stat when this process wrote or read it, its entries): the next PageCache uses them
    packs: dict[str, tuple[tuple, dict]] = field(default_factory=dict)
    # language site directory -> {page file: page key} of what this process last wrote there (serve.py)
    written: dict[str, dict[str, str]] = field(default_factory=dict)
    keys: PageKeys = field(default_factory=PageKeys)
    states: TreeStates = field(default_factory=TreeStates)  # loaded trees, reused while unchanged (rendering.py)
    background: Background = field(default_factory=Background)  # a serving rebuild's work after it (serve.py)
    bytecode: ThemeBytecode = field(default_factory=ThemeBytecode)  # the theme compiled once (template_cache.py)
    # in a serving pool worker: the language build whose page pack its next task saves (languages.py)
    unsaved: tuple | None = None
