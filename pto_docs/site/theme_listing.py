"""The theme's file listing, kept by a serving process for the theme directories that are installed packages.

Every MkDocs build lists every file of the theme (``Files.add_files_from_theme``: ``env.list_templates`` with a
filter of name patterns) to copy its static files: Material ships about 14,500 files (its icons), and walking
them and matching each name against the patterns cost 0.1-0.15 s per language on every serving rebuild (pto-spec
0.58.3). A directory inside an installed package (site-packages) does not change while a process runs, so its
listing is kept (:data:`_LISTINGS`), and so is each name's verdict under MkDocs' own filter for the same patterns
(:data:`_VERDICTS`). Any other directory (a ``custom_dir``, this repository's overrides) is walked on every call,
as before: an author may add a file to it while serving. The answer is the one Jinja gives: the sorted union of
every directory's names, filtered.
"""

from __future__ import annotations

import os
import sysconfig

import jinja2

from ..store.memo import Memo

_LISTINGS = Memo(__name__, "an installed theme directory (and followlinks) -> the template names under it", limit=32)
_VERDICTS = Memo(__name__, "MkDocs' theme file filter (its code, static templates, Markdown extensions) -> "
                 "{template name: kept}", limit=8)


def _installed_roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    return tuple(sorted({os.path.realpath(paths[k]) + os.sep for k in ("purelib", "platlib") if paths.get(k)}))


def _installed(directory: str) -> bool:
    real = os.path.realpath(directory) + os.sep
    return any(real.startswith(root) for root in _installed_roots())


def _names(directory: str, followlinks: bool) -> list[str]:
    return jinja2.FileSystemLoader([directory], followlinks=followlinks).list_templates()


def listing(loader) -> list[str]:
    """``loader.list_templates()``, with the listings of installed directories kept."""
    if type(loader) is not jinja2.FileSystemLoader:
        return loader.list_templates()
    found: set[str] = set()
    for directory in loader.searchpath:
        if _installed(directory):
            key = (os.path.realpath(directory), loader.followlinks)
            names = _LISTINGS.get(key)
            if names is None:
                names = _LISTINGS[key] = tuple(_names(directory, loader.followlinks))
        else:
            names = _names(directory, loader.followlinks)
        found.update(names)
    return sorted(found)


def _filter_key(filter_func) -> tuple | None:
    """The key of MkDocs' theme file filter (``Files.add_files_from_theme``'s ``filter``: name patterns made from
    ``config.theme.static_templates`` and MkDocs' Markdown extensions), None for any other filter."""
    code = getattr(filter_func, "__code__", None)
    if code is None or getattr(filter_func, "__qualname__", "") != "Files.add_files_from_theme.<locals>.filter":
        return None
    cells = dict(zip(code.co_freevars, (c.cell_contents for c in filter_func.__closure__ or ())))
    config = cells.get("config")
    if set(cells) != {"config"} or config is None:
        return None
    from mkdocs import utils
    return (code, tuple(sorted(config.theme.static_templates)), tuple(utils.markdown_extensions))


def install(env: jinja2.Environment) -> None:
    """``env.list_templates`` answers from the kept listings (and verdicts, for MkDocs' own filter)."""
    def list_templates(extensions=None, filter_func=None):
        if extensions is not None or env.loader is None:
            return jinja2.Environment.list_templates(env, extensions, filter_func)
        names = listing(env.loader)
        if filter_func is None:
            return names
        key = _filter_key(filter_func)
        if key is None:
            return [name for name in names if filter_func(name)]
        verdicts = _VERDICTS.get(key)
        if verdicts is None:
            verdicts = _VERDICTS[key] = {}
        out = []
        for name in names:
            kept = verdicts.get(name)
            if kept is None:
                kept = verdicts[name] = bool(filter_func(name))
            if kept:
                out.append(name)
        return out
    env.list_templates = list_templates
