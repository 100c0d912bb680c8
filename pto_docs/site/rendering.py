"""One analysed tree + renderer per spec tree state, shared by every language build in the process.

Kept by its owner (a :class:`TreeStates`, the plugin's site/memory.py) by the spec root and a fingerprint of its
files (path, size, mtime), so ``mkdocs serve`` reloads only after a change and the second language reuses the
first language's catalog, executor results and SVGs.
A reload is incremental: the previous state's :class:`~pto_docs.store.load_memo.LoadMemo` answers every per-file
step (parse, schema check, executor consistency check) of byte-identical files, so after a save only the
changed files are parsed again; the whole-tree checks re-run, and the result equals a fresh load
(analysis/state.py analyse). The renderer of a state is made here, from the analysis (render/pages.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..analysis.load import LoadResult
from ..analysis.state import Analysis
from ..api import load as analyse
from ..render.pages import SiteRenderer
from ..sources.digest import stat_fingerprint
from ..store.load_memo import LoadMemo


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
    analysis: Analysis | None = None


def _while_teaching(early: dict, catalog, templates_dir: str | None, memo: LoadMemo) -> None:
    """What a first build's renderer needs that does not depend on the teaching examples, made in ``early``
    while the load worker runs them (this process would otherwise wait idle, and make these after): the page
    templates' environment with every template compiled, and the id lookup of the worked examples the analysis
    made (build_state uses it only when those are the examples of the site's data)."""
    from ..analysis.sitedata import group_examples
    from ..analysis.state import worked_examples
    from ..render.env import compile_templates, environment
    from ..render.id_index import id_index_json
    early["env"] = compile_templates(environment(templates_dir))
    examples = group_examples(worked_examples(catalog, memo))
    early["id_index"] = (examples, id_index_json(catalog, examples))


def build_state(root: str | Path, templates_dir: str | None = None, preread: dict | None = None,
                avs: dict | None = None, states: TreeStates | None = None, avs_run=None,
                parallel: bool = False, previous_release=None, teach_run=None) -> BuildState:
    """Analyse (or reuse) the tree of ``root`` and make its renderer; the renderer is None when validation found
    errors.

    Templates are not part of the fingerprint: the Jinja environment reloads a changed template by itself (and
the renderer keys its reused pages by the templates' content). After a change, the new renderer reuses the
previous one's page models and pages whose inputs are unchanged (render/pages.py). ``states`` is the owner's
memory of earlier loads (None: load afresh, keep nothing). ``avs_run(catalog)`` (plugin option ``avs_examples:
run``), when given instead of ``avs``, makes the AVS results of an error-free tree. With ``parallel`` (a first
build, not a serving reload) a forked process makes the results of the tree every language shares while this one
checks the tree (load_helper.py). ``previous_release`` (site/history.py PreviousRelease): the release the pages tell
this one's history against."""
    states = states if states is not None else TreeStates()
    path = Path(root).resolve()
    from ..model.frozen import canonical_sha256
    key = f"{path}\0{templates_dir or ''}\0{canonical_sha256(avs) if avs is not None else ''}\0{avs_run is not None}\0{teach_run is not None}"
    if previous_release is not None:
        key += f"\0{previous_release.identity()}"
    stamp = stat_fingerprint(path)
    cached = states.get(key)
    if cached and cached[0] == stamp:
        return cached[1]
    # lends its unchanged page models and pages (across failed states too: the fix of an error renders little)
    previous = (cached[1].renderer or cached[1].lender) if cached else None
    if previous is not None:
        previous._previous = None  # keep one generation only
    memo = cached[1].memo if cached else LoadMemo()
    helpers: list = []

    def started(catalog, tree):
        from . import load_helper
        helpers.append(load_helper.start(catalog, tree, teach=teach_run))
        return lambda: helpers[0].semantics(meanwhile=True)

    early: dict = {}  # what this process made while the worker ran the teaching examples

    def teach(catalog):  # the worker's run when one started (the second core), else this process's
        if not helpers:
            return teach_run(catalog)
        return helpers[0].teaching(catalog, meanwhile=lambda: _while_teaching(early, catalog, templates_dir, memo))
    try:
        analysis = analyse(path, memo=memo, previous=cached[1].result.tree if cached else None, preread=preread,
                           avs=avs, avs_run=avs_run, started=started if parallel else None,
                           teach_run=teach if teach_run is not None else None)
        renderer = None
        if analysis.site is not None and previous_release is not None:  # (before the renderer's keys are made)
            analysis.site.history = previous_release.history(analysis.catalog, path)
        if analysis.site is not None:
            id_index = None
            if helpers:  # (the id lookup of the search box, made once rather than once per language)
                made = early.get("id_index")
                if made is not None and made[0] == analysis.site.examples:
                    id_index = made[1]
                else:
                    from ..render.id_index import id_index_json
                    id_index = id_index_json(analysis.catalog, analysis.site.examples)
            renderer = SiteRenderer(analysis.site, templates_dir, previous=previous, id_index=id_index,
                                    env=early.get("env"))
            if helpers:
                renderer.prepare(made=helpers[0].made())  # every page model, on both cores
    finally:
        for helper in helpers:
            helper.close()
    state = BuildState(analysis.result, renderer, list(analysis.diagnostics), memo,
                       lender=None if renderer is not None else previous, analysis=analysis)
    states.put(key, stamp, state)
    return state
