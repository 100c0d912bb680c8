"""Content-addressed cache of built pages: a page is reused only when every input of its HTML is unchanged.

A page's key is the sha256 of
  * the page itself: its Markdown and every fragment (so any change to a unit, test, ADR, translation, label,
    template or schema that reaches the page changes the key; one that does not reach it cannot matter);
  * the build signature: pto-docs, MkDocs, Material and Python-Markdown versions, the source of the modules
    that post-process pages (the plugin and site/speedups/), the page language, the whole navigation (titles and URLs: every page's
    sidebar and previous/next links), the site configuration that reaches a page (theme, features, extra,
    Markdown extensions, site name and URL) and the content of every file of the theme's custom_dir and of
    our own theme overrides.
Nothing is keyed by time or path stamps, so a stale entry cannot be found: a changed input is a different key.

The value is the page's final HTML (after every plugin) and its Material search entries, so a reused page
keeps the search index complete. One pack file per language holds the entries of the last build only. A process
that saved a pack keeps its entries and reads the file again only when someone else replaced it (``mkdocs
serve`` rebuilds). A page is stored as the bytes MkDocs writes (UTF-8, uncompressed): compressing it cost a
first build more CPU (about 0.6 s per language on the 0.58.3 tree) than the 2x larger pack costs any build, and a
reused page is written straight from its bytes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Any

from ..store.atomic import read_no_follow
from ..store.seal import user_sealer

FORMAT = 4
MAGIC = b"PTODOCS-PAGES\n"
TRAILER = b"PTODOCS-END\n"
log = logging.getLogger("pto_docs.cache")  # (not MkDocs' logger: a discarded cache must not fail a strict build)


def _stamp(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev)


def sha256_files(root: Path) -> str:
    digest = hashlib.sha256()
    if root.is_dir():
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


SITE_DIR = Path(__file__).resolve().parent
# Every module that shapes a page's HTML after its parts: the plugin and its build, the configuration it adds to
# MkDocs', the navigation and theme-block caches, the Markdown shapes, the search indexer and the minifier (by file, not import).
POST_PROCESSING = ("plugin.py", "build.py", "pages.py", "config.py", "speedups/nav_cache.py", "speedups/chrome_cache.py",
                   "speedups/markdown_shapes.py", "speedups/search_fast.py", "speedups/minify.py")


def _post_processing_sources(root: Path = SITE_DIR) -> str:
    """The source of every post-processing module: a change to any of them is a different signature."""
    digest = hashlib.sha256()
    for name in POST_PROCESSING:
        digest.update(hashlib.sha256((root / name).read_bytes()).digest())
    return digest.hexdigest()


def build_signature(config, locale: str) -> str:
    import markdown
    import material
    import mkdocs

    from .. import __version__
    from ..render.resources import OVERRIDES_DIR
    theme = config.theme
    site = {
        "format": FORMAT, "pto_docs": __version__, "mkdocs": mkdocs.__version__,
        "material": getattr(material, "__version__", "?"), "markdown": markdown.__version__, "locale": locale,
        "plugin": _post_processing_sources(),
        "nav": config.nav, "site_name": config.site_name, "site_url": config.site_url,
        "use_directory_urls": config.use_directory_urls, "extra": dict(config.extra),
        "extra_css": list(config.extra_css), "extra_javascript": [str(j) for j in config.extra_javascript],
        "markdown_extensions": list(config.markdown_extensions), "mdx_configs": config.mdx_configs,
        "copyright": config.copyright, "repo_url": config.repo_url, "edit_uri": config.edit_uri,
        "theme": {k: theme[k] for k in sorted(theme.keys()) if k not in ("custom_dir",)},
        "custom_dir": sha256_files(Path(theme.custom_dir)) if theme.custom_dir else None,
        "overrides": sha256_files(OVERRIDES_DIR),  # our theme overrides (config.py adds them to theme.dirs)
        "theme_dirs": [str(d) for d in theme.dirs],
        "plugins": [name for name in config.plugins],
    }
    for name, plugin in config.plugins.items():
        if name.endswith("search"):
            site["search"] = dict(plugin.config)
    return hashlib.sha256(json.dumps(site, sort_keys=True, default=str).encode()).hexdigest()


class CacheDamaged(Exception):
    """A page pack that is not one this version of pto-docs wrote intact (damaged, truncated, foreign)."""


class PageCache:
    """The page pack of one language: ``get`` from the last build, ``put`` for the next one, ``save``.

    The pack is sealed with the user's key (store/seal.py: ``sealer``, by default the user's; without a trusted
    key there is no pack). A pack that fails verification is reported once (a warning naming it) and treated as
    empty: every page is built again and the next save replaces it. The warning goes to the ``pto_docs``
    logger, outside MkDocs' own, so a strict build does not fail on it: the site it gives is the clean build's."""

    def __init__(self, directory: str | os.PathLike | None, locale: str, packs: dict | None = None, sealer=None):
        self.sealer = sealer if sealer is not None else (user_sealer() if directory else None)
        self.path = Path(directory) / f"pages-{locale}.pack" if directory and self.sealer is not None else None
        self.old: dict[str, tuple[bytes, list[dict[str, Any]]]] = {}
        self.new: dict[str, tuple[bytes, list[dict[str, Any]]]] = {}
        self.packs = {} if packs is None else packs  # the process's packs in memory (memory.SiteMemory.packs)
        saved = self.packs.get(str(self.path)) if self.path is not None else None
        if saved is not None and saved[0] == _stamp(self.path):
            self.old = saved[1]  # the pack this process wrote last, unchanged since (read-only here)
        elif self.path is not None and os.path.lexists(self.path):
            try:
                self.old = _read_pack(self.path, self.sealer)
            except (CacheDamaged, OSError) as exc:
                self.old = {}
                log.warning(f"pto-docs: the page cache {self.path} cannot be used ({exc}); "
                            f"discarded, its pages are built again")

    def get(self, key: str) -> tuple[str, list[dict[str, Any]]] | None:
        entries = self.entries(key)
        return None if entries is None else (self.html(key), entries)

    def entries(self, key: str) -> list[dict[str, Any]] | None:
        """The search entries of a cached page (None: not cached); the page is kept for the next pack."""
        hit = self.old.get(key)
        if hit is None:
            return None
        self.new[key] = hit
        return hit[1]

    def html(self, key: str) -> str:
        """The HTML of a page found by :meth:`entries` or stored by :meth:`put`."""
        return self.new[key][0].decode("utf-8")

    def page_bytes(self, key: str) -> bytes:
        """The file of a page found by :meth:`entries` or stored by :meth:`put`, as MkDocs writes it."""
        return self.new[key][0]

    def put(self, key: str, html: str, entries: list[dict[str, Any]]) -> None:
        self.new[key] = (page_bytes(html), entries)

    def save(self) -> None:
        if self.path is None:
            return
        index, blobs, offset = {}, [], 0
        for key, (blob, entries) in self.new.items():
            index[key] = [offset, len(blob), entries]
            blobs.append(blob)
            offset += len(blob)
        header = json.dumps({"format": FORMAT, "pages": index}, separators=(",", ":")).encode("utf-8")
        self.sealer.save(self.path, b"".join([MAGIC, len(header).to_bytes(8, "little"), header, *blobs, TRAILER,
                                              len(header).to_bytes(8, "little"), offset.to_bytes(8, "little")]))
        self.packs[str(self.path)] = (_stamp(self.path), self.new)


def page_bytes(html: str) -> bytes:
    """A page's file as MkDocs writes it (``mkdocs.commands.build._build_page``)."""
    return html.encode("utf-8", errors="xmlcharrefreplace")


def preload(directory: str | os.PathLike, locale: str, packs: dict) -> None:
    """Read a language's pack into this process's memory (``mkdocs serve``, between rebuilds: a forked language
    build wrote it), so the next fork of that language finds it there instead of reading it again."""
    path = Path(directory) / f"pages-{locale}.pack"
    sealer = user_sealer()
    if sealer is None:
        return
    stamp = _stamp(path)
    try:
        data = _read_pack(path, sealer)
    except (CacheDamaged, OSError):  # no pack to lend: the build reads it itself (and reports it)
        return
    if stamp is not None and stamp == _stamp(path):  # not replaced while it was read
        packs[str(path)] = (stamp, data)


def _read_pack(path: Path, sealer) -> dict[str, tuple[bytes, list[dict[str, Any]]]]:
    """A pack, sealed with the user's key (its MAC is checked before anything in it is read): magic, header
    length, JSON header (key -> offset, length, search entries), page blobs, trailer (header and blob lengths).
    No pickle. Anything else raises :class:`CacheDamaged`."""
    data = sealer.open(path.name, read_no_follow(path))
    if data is None:
        raise CacheDamaged("not sealed with this user's cache key: damaged, or not written by pto-docs for this user")
    if not data.startswith(MAGIC):
        raise CacheDamaged("not a pto-docs page pack")
    start = len(MAGIC) + 8
    size = int.from_bytes(data[len(MAGIC):start], "little")
    tail = len(TRAILER) + 16
    if len(data) < start + tail or not data[-tail:].startswith(TRAILER):
        raise CacheDamaged("truncated")
    blobs_size = int.from_bytes(data[-8:], "little")
    if int.from_bytes(data[-16:-8], "little") != size or start + size + blobs_size + tail != len(data):
        raise CacheDamaged("truncated or extended")
    try:
        header = json.loads(data[start:start + size])
        if header.get("format") != FORMAT:
            raise CacheDamaged(f"written by another version of pto-docs (format {header.get('format')!r})")
        base = start + size
        view = memoryview(data)
        pages = {}
        for key, (off, n, entries) in header["pages"].items():
            if off < 0 or n < 0 or off + n > blobs_size:
                raise CacheDamaged(f"entry {key[:12]} lies outside the pack")
            pages[key] = (bytes(view[base + off:base + off + n]), entries)
    except CacheDamaged:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise CacheDamaged(f"unreadable header: {type(exc).__name__}") from None
    return pages
