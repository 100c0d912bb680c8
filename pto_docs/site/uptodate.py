"""``pto-docs build`` when nothing changed and the published site is the one the last build left: nothing to do.

The no-change fast path (tree_cache.py) already skips loading and rendering; it still writes every page from the
page pack into a staging directory and then swaps it for the published site, which deletes the old copy: on
the 0.58.3 tree that is about 3,800 files written and as many removed, most of such a build. This module skips
that too, only when the result would be the same bytes:

* every language's no-change manifest matches the tree digest (every byte of the spec tree, of pto-docs, of the
  templates, the plugin options: tree_cache.py);
* the build signature of the primary language matches (pto-docs, MkDocs, Material and Markdown versions, the
  post-processing sources, the navigation, the site configuration, theme overrides and ``custom_dir``:
  cache.py); the further languages' configurations are made from the same file and the same tree;
* the ``docs_dir`` holds the same files (path, size, modification time);
* the published site holds exactly the files the last build published, unmodified (path, type, size,
  modification time and inode of every entry: :func:`fingerprint`);
* the build date MkDocs writes into the sitemap is the same (SOURCE_DATE_EPOCH, else the day);
* the configuration's plugins are only pto-docs and search (another plugin may read the clock or a VCS);
* it is ``pto-docs build`` (the CLI), not ``mkdocs build``, which has no cache, nor ``mkdocs serve``.

The record (``site-stamp.json`` in the cache directory) is written after a build publishes its site, and only
after a build whose every language saved its manifest (no warnings); otherwise it is removed.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..api import SiteUpToDate  # noqa: F401 - raised by site/build.py, caught by api.build_site

STAMP = "site-stamp.json"
PLUGINS = frozenset({"pto-docs", "search", "material/search"})


def fingerprint(directory: str | os.PathLike[str], skip: frozenset[str] = frozenset()) -> str | None:
    """sha256 over every entry below ``directory`` (relative path, type, size, mtime, inode), top-level names in
    ``skip`` left out; None when ``directory`` is not one (or a symbolic link to one)."""
    root = os.path.abspath(directory)
    if not os.path.isdir(root) or os.path.islink(root):
        return None
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        if skip and dirpath == root:
            dirnames[:] = [d for d in dirnames if d not in skip]
            filenames = [f for f in filenames if f not in skip]
        dirnames.sort()
        for name in sorted(filenames) + dirnames:
            full = os.path.join(dirpath, name)
            try:
                st = os.lstat(full)
            except OSError:
                return None
            rel = os.path.relpath(full, root)
            digest.update(f"{rel}\0{st.st_mode}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def eligible(config) -> bool:
    return all(name in PLUGINS for name in config.plugins)


def stamp(*, digest: str, signature: str, languages, config) -> dict:
    """What decides the published site besides the tree digest and the build signature (and the build date MkDocs
    writes into the sitemap: SOURCE_DATE_EPOCH, else today)."""
    from mkdocs.utils import get_build_date
    return {"digest": digest, "signature": signature, "languages": list(languages), "build_date": get_build_date(),
            "site_dir": os.path.abspath(config.site_dir), "strict": bool(config.strict),
            "docs_dir": os.path.abspath(config.docs_dir), "docs": fingerprint(config.docs_dir)}


def current(cache_dir: str, wanted: dict, site_dir: str) -> bool:
    """Whether the site was published by a build of ``wanted`` and has not changed since."""
    from ..store import user_sealer
    sealer = user_sealer()
    payload = sealer.load(Path(cache_dir, STAMP)) if sealer is not None else None
    try:
        recorded = json.loads(payload) if payload is not None else None
    except ValueError:
        return False
    if not isinstance(recorded, dict) or recorded.get("stamp") != wanted:
        return False
    site = fingerprint(site_dir)
    return site is not None and recorded.get("site") == site


def record(cache_dir: str, made: dict, site_dir: str) -> None:
    from ..store import user_sealer
    site = fingerprint(site_dir)
    sealer = user_sealer()
    if site is None or sealer is None:
        forget(cache_dir)
        return
    sealer.save(Path(cache_dir, STAMP), (json.dumps({"stamp": made, "site": site}, sort_keys=True) + "\n").encode())


def forget(cache_dir: str) -> None:
    try:
        os.remove(os.path.join(cache_dir, STAMP))
    except OSError:
        pass
