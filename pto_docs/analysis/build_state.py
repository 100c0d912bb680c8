"""One parsed catalog + renderer per spec tree state, shared by every language build in the process.

Kept by its owner (a :class:`TreeStates`, the plugin's site/memory.py) by the spec root and a fingerprint of its
files (path, size, mtime), so ``mkdocs serve`` reloads only after a change and the second language reuses the
first language's catalog, executor results and SVGs.
A reload is incremental: the previous state's :class:`~pto_docs.store.load_memo.LoadMemo` answers every per-file
step (parse, schema check, executor consistency check) of byte-identical files, so after a save only the
changed files are parsed again; the whole-tree checks re-run, and the result equals a fresh load.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..render.pages import SiteRenderer
from ..store.load_memo import LoadMemo
from .load import LoadResult, load_catalog


class TreeStates:
    """The loaded states one process keeps between builds, by spec root, templates and AVS results, each with the
    fingerprint it was loaded at. Its owner is the MkDocs plugin object (site/memory.py); without one, a build
    keeps nothing."""

    def __init__(self) -> None:
        self._states: dict[str, tuple[str, BuildState]] = {}

    def get(self, key: str) -> tuple[str, BuildState] | None:
        return self._states.get(key)

    def put(self, key: str, stamp: str, state: BuildState) -> None:
        self._states[key] = (stamp, state)

    def clear(self) -> None:
        self._states.clear()


@dataclass
class BuildState:
    result: LoadResult
    renderer: SiteRenderer | None
    diagnostics: list = field(default_factory=list)
    memo: LoadMemo = field(default_factory=LoadMemo)  # lent to the next load of the same root
    lender: SiteRenderer | None = None  # without a renderer (errors): the last good one, for the next state


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
            # (the name as the file system's bytes: one that is not UTF-8 is no error here)
            digest.update(os.fsencode(full) + f"\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _examples(catalog, memo: LoadMemo | None = None) -> tuple:
    """Every worked example, run through the executor. They depend only on which instruction each unit is and
    on the example files (the executor's own cases are fixed), so ``memo`` reuses them while those are unchanged."""
    from ..bridge.examples import worked_examples
    if memo is None:
        return tuple(worked_examples(catalog))
    key = ("worked-examples", tuple((u.id, u.kind, u.surface, u.mnemonic) for u in catalog.units.values()),
           tuple((e.path, e.file.sha256) for e in catalog.examples))
    return memo.get(key, lambda: tuple(worked_examples(catalog)))


def build_state(root: str | Path, templates_dir: str | None = None, preread: dict | None = None,
                avs: dict | None = None, states: TreeStates | None = None, avs_run=None,
                parallel: bool = False) -> BuildState:
    """Load (or reuse) the catalog of ``root``; the renderer is None when validation found errors.

    Templates are not part of the fingerprint: the Jinja environment reloads a changed template by itself (and
the renderer keys its reused pages by the templates' content). After a change, the new renderer reuses the
previous one's page models and pages whose inputs are unchanged (render/pages.py). ``states`` is the owner's
memory of earlier loads (None: load afresh, keep nothing). ``avs_run(catalog)`` (plugin option ``avs_examples:
run``), when given instead of ``avs``, makes the AVS results of an error-free tree. With ``parallel`` (a first
build, not a serving reload) a forked process makes the results of the tree every language shares while this one
checks the tree (load_helper.py)."""
    states = states if states is not None else TreeStates()
    path = Path(root).resolve()
    from ..model.frozen import canonical_sha256
    key = f"{path}\0{templates_dir or ''}\0{canonical_sha256(avs) if avs is not None else ''}\0{avs_run is not None}"
    stamp = fingerprint(path)
    cached = states.get(key)
    if cached and cached[0] == stamp:
        return cached[1]
    # lends its unchanged page models and pages (across failed states too: the fix of an error renders little)
    previous = (cached[1].renderer or cached[1].lender) if cached else None
    if previous is not None:
        previous._previous = None  # keep one generation only
    memo = cached[1].memo if cached else LoadMemo()
    result = load_catalog(path, memo, previous=cached[1].result.tree if cached else None, preread=preread)
    diags = list(result.diagnostics)
    helper = None
    examples = made_here = None
    if parallel and not any(d.is_error for d in diags):
        from . import load_helper
        helper = load_helper.start(result.catalog, result.tree)
        # what the renderer needs besides the worker's results, made before waiting for them
        from ..checks import model_checks
        examples = _examples(result.catalog, memo)
        model_checks.assembly(result.catalog, memo)
        from .sitedata import group_examples
        made_here = load_helper.catalog_parts(result.catalog, result.tree, group_examples(examples))
    try:
        from ..checks.consistency import consistency_diagnostics
        diags += consistency_diagnostics(result.catalog, memo,  # (waits for the worker's first task)
                                         semantics=(lambda: helper.semantics(meanwhile=True)) if helper else None)
        errors = [d for d in diags if d.is_error]
        if avs is None and avs_run is not None and not errors:
            avs = avs_run(result.catalog)
            from ..bridge.avs import model_link_diagnostics
            diags += model_link_diagnostics(avs)  # an ASL model over a limit, or not ASL: an error, not a hang
            errors = [d for d in diags if d.is_error]
        if examples is None and not errors:
            examples = _examples(result.catalog, memo)
        renderer = None if errors else SiteRenderer(result.catalog, result.tree, examples, templates_dir,
                                                     previous=previous, avs=avs, memo=memo,
                                                     shared=load_helper.SharedParts(helper.semantics(), *made_here) if helper else None)
        if renderer is not None and helper is not None:
            renderer.prepare(made=helper.made())  # every page model, on both cores
    finally:
        if helper is not None:
            helper.close()
    memo.finish()
    state = BuildState(result, renderer, diags, memo, lender=None if renderer is not None else previous)
    states.put(key, stamp, state)
    return state
