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
    os.makedirs(cache_dir, exist_ok=True)
    Path(cache_dir, "last-build.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", "utf-8")
