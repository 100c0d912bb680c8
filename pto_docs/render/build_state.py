"""One parsed catalog + renderer per spec tree state, shared by every language build in the process.

Keyed by the spec root and a fingerprint of its files (path, size, mtime), so ``mkdocs serve`` reloads only
after a change and the second language reuses the first language's catalog, executor results and SVGs.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..load import LoadResult, load_catalog
from .pages import SiteRenderer

_CACHE: dict[str, tuple[str, BuildState]] = {}


@dataclass
class BuildState:
    result: LoadResult
    renderer: SiteRenderer | None
    diagnostics: list = field(default_factory=list)


def fingerprint(root: Path) -> str:
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".git"))
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            try:
                st = os.stat(full)
            except OSError:
                continue
            digest.update(f"{full}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _examples(catalog) -> tuple:
    try:
        from ..examples import worked_examples
        return tuple(worked_examples(catalog))
    except ImportError:  # the executor is optional for the site
        return ()


def build_state(root: str | Path, templates_dir: str | None = None) -> BuildState:
    """Load (or reuse) the catalog of ``root``; the renderer is None when validation found errors.

    Templates are not part of the fingerprint: the Jinja environment reloads a changed template by itself (and
the renderer keys its reused pages by the templates' content). After a change, the new renderer reuses the
previous one's page models and pages whose inputs are unchanged (render/pages.py)."""
    path = Path(root).resolve()
    key = f"{path}\0{templates_dir or ''}"
    stamp = fingerprint(path)
    cached = _CACHE.get(key)
    if cached and cached[0] == stamp:
        return cached[1]
    previous = cached[1].renderer if cached else None  # lends its unchanged page models and pages
    if previous is not None:
        previous._previous = None  # keep one generation only
    result = load_catalog(path)
    diags = list(result.diagnostics)
    try:
        from ..examples_check import consistency_diagnostics
        diags += consistency_diagnostics(result.catalog)
    except ImportError:
        pass
    errors = [d for d in diags if d.is_error]
    renderer = None if errors else SiteRenderer(result.catalog, result.tree, _examples(result.catalog), templates_dir,
                                                 previous=previous)
    state = BuildState(result, renderer, diags)
    _CACHE[key] = (stamp, state)
    return state
