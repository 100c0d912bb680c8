"""Where a site build writes: a staging directory beside the site, published by rename only when every language
succeeded (a failed build never leaves a half-written site), and the theme files no page loads removed.

Staging names carry the building process's id (``.<site>.pto-build-<pid>``, ``.<site>.pto-build-<pid>-<lang>``),
so the next build can remove what a killed build left behind: only names of that shape, only when that process
is gone, and only entries owned by this user.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path


def locale_dir(locale: str, primary: str) -> str:
    """Where a language's site lies in the whole site: the primary language at its root, others in <lang>/."""
    return "" if locale == primary else f"{locale}/"


def staging_dir(final: str) -> str:
    parent, name = os.path.split(os.path.abspath(final))
    return os.path.join(parent, f".{name}.pto-build-{os.getpid()}")


def language_staging_dir(staging: str, locale: str) -> str:
    return f"{staging}-{locale}"


def fresh_dir(path: str) -> None:
    """Make ``path`` (a staging directory: a name of this process's) a new, empty directory of our own, so that
    nothing found at its name (a symlink planted beside a site inside the spec tree) is written through: a
    symlink is removed (not what it points to), a directory of a stopped build emptied; then ``mkdir``, which
    fails rather than reuse anything still there."""
    if os.path.islink(path) or (os.path.lexists(path) and not os.path.isdir(path)):
        os.unlink(path)
    else:
        shutil.rmtree(path, ignore_errors=True)
    os.mkdir(path, 0o755)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _stale(path: str, pid: int) -> bool:
    try:
        owner = os.lstat(path).st_uid
    except OSError:
        return False
    return pid != os.getpid() and owner == os.getuid() and not _alive(pid)


def remove_stale(final_site_dir: str) -> list[str]:
    """Remove the staging directories of killed builds of this site."""
    removed = []
    parent, name = os.path.split(os.path.abspath(final_site_dir))
    staged = re.compile(rf"\.{re.escape(name)}\.pto-build-(\d+)(?:-[A-Za-z-]+|\.old)?")
    try:
        names = os.listdir(parent)
    except OSError:
        return removed
    for entry in names:
        match = staged.fullmatch(entry)
        path = os.path.join(parent, entry)
        if match and os.path.isdir(path) and not os.path.islink(path) and _stale(path, int(match.group(1))):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def publish(staging: str, final: str) -> None:
    """Swap the finished site into place: the old one is removed only after the new one is there."""
    trash = None
    if os.path.lexists(final):
        trash = f"{staging}.old"
        shutil.rmtree(trash, ignore_errors=True)
        os.replace(final, trash)
    os.replace(staging, final)
    if trash:
        shutil.rmtree(trash, ignore_errors=True)


def prune_theme_assets(site_dir: str, search_languages) -> int:
    """Remove what no page of this language can load: the theme's source maps (debugging aids) and the search
    worker's lunr files for other languages (the worker imports only ``lunr.<lang>`` of the configured search
    languages, ``tinyseg``/``wordcut`` for ja/hi/th, ``lunr.multi`` and ``lunr.stemmer.support``).
    Returns the bytes removed."""
    langs = set(search_languages)
    keep = {"lunr.stemmer.support.min.js"} | {f"lunr.{lang}.min.js" for lang in langs if lang != "en"}
    if len(langs) > 1:
        keep.add("lunr.multi.min.js")
    if "ja" in langs:
        keep.add("tinyseg.js")
    if langs & {"hi", "th"}:
        keep.add("wordcut.js")
    removed = 0
    assets = os.path.join(site_dir, "assets")
    for dirpath, _dirs, names in os.walk(assets):
        in_lunr = os.path.basename(dirpath) in ("lunr", "min") and f"{os.sep}lunr" in dirpath
        for name in names:
            if name.endswith(".map") or (in_lunr and name.endswith(".js") and name not in keep):
                path = os.path.join(dirpath, name)
                removed += os.path.getsize(path)
                os.remove(path)
    return removed


def write_build_report(cache_dir: str, results: list[dict]) -> None:
    """``last-build.json``: what each language built and reused (a report for people and tests; pto-docs never
    reads it). Written whole and renamed into place: a symlink at its name is replaced, never written through."""
    from ..store import atomic_write
    os.makedirs(cache_dir, exist_ok=True)
    atomic_write(Path(cache_dir, "last-build.json"), (json.dumps(results, indent=1, sort_keys=True) + "\n").encode(),
                 durable=False)
