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
    """The page-cache key of each page's parts (:func:`page_key`), its costly part remembered per parts object:
    the renderer hands out the same parts object for an unchanged page on every rebuild of a serving process
    (render/pages.py), and its parts never change once rendered, so they are not hashed again. The build
    signature changes with most saves (it covers the navigation and the footer), so what is remembered is the
    digest of the page's own parts (:func:`parts_digest`); the key of a page is that digest hashed with the
    signature. An entry goes with its object."""

    def __init__(self) -> None:
        self._memo: dict[int, tuple[weakref.ref, dict]] = {}
        self.made: list[tuple[int, tuple, str]] | None = None  # a language worker: the digests it made (languages.py)

    def _entry(self, parts) -> dict:
        ident = id(parts)
        entry = self._memo.get(ident)
        if entry is None or entry[0]() is not parts:
            ref = weakref.ref(parts, lambda _ref: self._memo.pop(ident, None))
            entry = self._memo[ident] = (ref, {})
        return entry[1]

    def key(self, signature: str, src_uri: str, parts) -> str:
        digests = self._entry(parts)
        shape = (src_uri, len(parts.markdown), len(parts.search), len(parts.heavy))  # (a guard)
        digest = digests.get(shape)
        if digest is None:
            digest = digests[shape] = parts_digest(src_uri, parts)
            if self.made is not None:
                self.made.append((id(parts), shape, digest))
        return _signed(signature, digest)

    def adopt(self, parts, shape: tuple, digest: str) -> None:
        """The digest a forked language worker made of ``parts`` (an object of this process it inherited): the
        next rebuild's worker, forked from this process, finds it made."""
        self._entry(parts)[shape] = digest


def parts_digest(src_uri: str, parts) -> str:
    """sha256 of a page's source URI and every part of it."""
    digest = hashlib.sha256(f"{src_uri}\0".encode())
    for text in (parts.markdown, *parts.search, "\0heavy\0", *parts.heavy):
        data = text.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


def _signed(signature: str, digest: str) -> str:
    return hashlib.sha256(f"page\0{signature}\0{digest}".encode()).hexdigest()


def page_key(signature: str, src_uri: str, parts) -> str:
    """The key of a page: the build signature, its source URI and every part of it (cache.py)."""
    return _signed(signature, parts_digest(src_uri, parts))


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
