"""The analysed tree: one spec tree loaded, checked and run once, as immutable data every later stage reads.

:func:`analyse` loads the tree (incrementally, with the :class:`~pto_docs.store.load_memo.LoadMemo` of its last
state: only changed files are parsed again), runs the consistency checks (executor, assembler, FLAGS-PROSE,
SEMANTICS-PROSE), the worked examples and, when asked, the AVS test points, and gathers what the pages share
(:class:`~.sitedata.SiteData`). It builds no page and forks no process: a site build that shares the work
between two cores passes ``started``, which it calls with the loaded tree before the checks begin
(site/load_helper.py), and renders from the :class:`Analysis` it gets back (site/rendering.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..model.catalog import Catalog
from ..sources.tree import SpecTree
from ..store.load_memo import LoadMemo
from .load import LoadResult, load_catalog
from .sitedata import SiteData, group_examples


@dataclass(frozen=True)
class Analysis:
    """One analysed state of a spec tree. ``site`` (what the pages share) is None when the tree has errors."""

    result: LoadResult
    diagnostics: tuple = ()  # the load's, then the consistency checks' and the AVS model link's
    examples: tuple | None = None  # worked examples (bridge/examples.py), None when the tree has errors
    avs: Mapping | None = None  # AVS results the pages show (given, or run by ``avs_run``)
    site: SiteData | None = None
    memo: LoadMemo = field(default_factory=LoadMemo)  # lent to the next analysis of the same root

    @property
    def catalog(self) -> Catalog:
        return self.result.catalog

    @property
    def tree(self) -> SpecTree:
        return self.result.tree

    @property
    def errors(self) -> list:
        return [d for d in self.diagnostics if d.is_error]


def worked_examples(catalog: Catalog, memo: LoadMemo | None = None) -> tuple:
    """Every worked example, run through the executor. They depend only on which instruction each unit is and
    on the example files (the executor's own cases are fixed), so ``memo`` reuses them while those are unchanged."""
    from ..bridge.examples import worked_examples as run
    if memo is None:
        return tuple(run(catalog))
    key = ("worked-examples", tuple((u.id, u.kind, u.surface, u.mnemonic) for u in catalog.units.values()),
           tuple((e.path, e.file.sha256) for e in catalog.examples))
    return memo.get(key, lambda: tuple(run(catalog)))


def semantics_findings(catalog: Catalog) -> tuple:
    """The tree's SEMANTICS-PROSE findings (checks/model_checks.py semantics; it remembers its verdicts)."""
    from ..checks import model_checks
    return model_checks.semantics(catalog)


def trace_report(catalog: Catalog, tree: SpecTree, examples: tuple) -> dict | None:
    """trace.build_report of the tree with its worked examples, or None when it fails (SiteData.trace_page then
    tries again and logs why the page is left out)."""
    from ..trace import build_report
    try:
        return build_report(catalog, tree, examples)
    except Exception:  # noqa: BLE001
        return None


def analyse(root: str | Path, memo: LoadMemo | None = None, previous: SpecTree | None = None,
            preread: dict | None = None, avs: Mapping | None = None,
            avs_run: Callable[[Catalog], Mapping] | None = None,
            started: Callable[[Catalog, SpecTree], Callable[[], tuple] | None] | None = None,
            teach_run: Callable[[Catalog], tuple] | None = None) -> Analysis:
    """Load, check and run the tree at ``root``.

    ``memo`` and ``previous`` (the last state's memo and tree) make the load incremental; ``preread``: files
    read already (site/tree_cache.py). ``avs``: AVS results to show; else ``avs_run(catalog)`` (plugin option
    ``avs_examples: run``) makes those of an error-free tree. ``started(catalog, tree)``, called once the tree
    has loaded without errors, may start work elsewhere and return a function giving the SEMANTICS-PROSE
    findings (called when the checks need them); the traceability report is then made here meanwhile, once,
    rather than by each language build. ``teach_run(catalog)`` (plugin option ``teaching_examples: run``) makes
    every instruction's own executed example of an error-free tree (api.teach)."""
    memo = memo if memo is not None else LoadMemo()
    result = load_catalog(Path(root), memo, previous=previous, preread=preread)
    catalog = result.catalog
    diags = list(result.diagnostics)
    semantics = examples = report = None
    if started is not None and not any(d.is_error for d in diags):
        semantics = started(catalog, result.tree)
        # what the pages need besides the findings started elsewhere, made before waiting for them
        from ..checks import model_checks
        examples = worked_examples(catalog, memo)
        model_checks.assembly(catalog, memo)
        # (in the order the pages group them, as SiteData.trace_page makes it when it is not made here)
        report = trace_report(catalog, result.tree, tuple(ex for group in group_examples(examples).values()
                                                           for ex in group))
    from ..checks.consistency import consistency_diagnostics
    diags += consistency_diagnostics(catalog, memo, semantics=semantics)  # (waits for ``semantics``)
    errors = [d for d in diags if d.is_error]
    if avs is None and avs_run is not None and not errors:
        avs = avs_run(catalog)
        from ..bridge.avs import model_link_diagnostics
        diags += model_link_diagnostics(avs)  # an ASL model over a limit, or not ASL: an error, not a hang
        errors = [d for d in diags if d.is_error]
    site = None
    if not errors:
        if examples is None:
            examples = worked_examples(catalog, memo)
        site = SiteData.build(catalog, result.tree, examples, avs, memo,
                              semantics=semantics() if semantics is not None else None, trace_report=report)
        if teach_run is not None:
            site.teaching, site.untaught = teach_run(catalog)
            from ..bridge.teaching_run import findings
            diags += findings(catalog, site.teaching)
    memo.finish()
    return Analysis(result, tuple(diags), examples if not errors else None, avs, site, memo)


__all__ = ["Analysis", "analyse", "group_examples", "semantics_findings", "trace_report",
           "worked_examples"]
