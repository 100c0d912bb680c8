"""Where a site build writes: a staging directory beside the site, published by rename only when every language
succeeded (a failed build never leaves a half-written site), and the theme files no page loads removed.

A staging directory is made by ``mkdtemp`` (``.<site>.pto-build-<random>``, ``...-<lang>-<random>``: a name no
tree can plant in advance, created anew, so nothing found beside the site is reused, unlinked or written through)
and marked as pto-docs' own by a marker file inside it, sealed with the user's cache key (store/seal.py) and
naming the building process and the directory. The next build removes what a killed build left behind: only a
real directory (never a link) of that name shape, owned by this user, whose marker verifies for its own path and
names a process that is gone. A directory of the tree of the same name, forged marker or not, is left alone.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from pathlib import Path

STAGING_MARKER = ".pto-docs-staging"


def locale_dir(locale: str, primary: str) -> str:
    """Where a language's site lies in the whole site: the primary language at its root, others in <lang>/."""
    return "" if locale == primary else f"{locale}/"


def site_path(locale: str, primary: str, version: str | None = None) -> str:
    """Where a language's pages lie, relative to the root of everything published: :func:`locale_dir`, or in a
    versioned site (versions.py; mike's layout, one prefix per language) ``<version>/`` for the primary language
    and ``<lang>/<version>/`` for the others."""
    return locale_dir(locale, primary) + (f"{version}/" if version else "")


def staging_dir(final: str) -> str:
    """A new, empty staging directory beside ``final``, made here and marked as ours."""
    parent, name = os.path.split(os.path.abspath(final))
    return _new_marked_dir(parent, f".{name}.pto-build-")


def language_staging_dir(staging: str, locale: str) -> str:
    """A new, empty staging directory for a further language, beside ``staging``, made here and marked as ours."""
    parent, name = os.path.split(staging)
    return _new_marked_dir(parent, f"{name}-{locale}-")


def _new_marked_dir(parent: str, prefix: str) -> str:
    path = tempfile.mkdtemp(prefix=prefix, dir=parent)
    os.chmod(path, 0o755)  # (mkdtemp's 0700: a site is published with ordinary modes)
    mark(path)
    return path


def mark(path: str, pid: int | None = None) -> None:
    """Write the sealed marker saying that ``path`` is the staging directory of process ``pid`` (this one)."""
    from ..store import user_sealer
    sealer = user_sealer()
    if sealer is not None:  # (without the user's key nothing is marked, so nothing is ever removed as stale)
        sealer.save(os.path.join(path, STAGING_MARKER), f"{os.getpid() if pid is None else pid}\n{path}\n".encode())


def unmark(path: str) -> None:
    """Remove our marker before ``path`` becomes (part of) the published site."""
    try:
        os.unlink(os.path.join(path, STAGING_MARKER))
    except FileNotFoundError:
        pass


def _marked_pid(path: str) -> int | None:
    """The process id in ``path``'s marker when the marker is ours (sealed with the user's key) and names ``path``."""
    from ..store import user_sealer
    sealer = user_sealer()
    payload = sealer.load(os.path.join(path, STAGING_MARKER)) if sealer is not None else None
    try:
        pid, named = (payload or b"").decode("utf-8").split("\n")[:2]
        return int(pid) if named == path else None
    except ValueError:
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def remove_stale(final_site_dir: str) -> list[str]:
    """Remove the staging directories of killed builds of this site (see the module's docstring)."""
    removed = []
    parent, name = os.path.split(os.path.abspath(final_site_dir))
    try:
        names = os.listdir(parent)
    except OSError:
        return removed
    for entry in names:
        if not entry.startswith(f".{name}.pto-build-"):
            continue
        path = os.path.join(parent, entry)
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue
        pid = _marked_pid(path)
        if pid is not None and pid != os.getpid() and not _alive(pid):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def publish(staging: str, final: str) -> None:
    """Swap the finished site into place: the old one is removed only after the new one is there."""
    unmark(staging)
    trash = None
    if os.path.lexists(final):
        trash = tempfile.mkdtemp(prefix=f"{os.path.basename(staging)}.old-", dir=os.path.dirname(staging))
        os.replace(final, trash)  # (onto the empty directory just made: a rename over an empty directory)
        mark(trash)
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
