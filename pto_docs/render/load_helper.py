"""The second core's share of loading a tree and building its page models, for a site build.

Loading is the stretch of a build that one core ran alone: parse, the consistency checks, the model checks,
then the page models. A forked worker (a ``concurrent.futures`` pool of one process with the fork context, so it
shares the parsed catalog copy-on-write) runs two tasks meanwhile:

1. what reads only the parsed catalog and is the same for every language (:class:`SharedParts`), two of which
   used to be made once per language after the languages' processes forked:

   * the SEMANTICS-PROSE findings, which run the tree's ASL on the interpreter (semantics_check.py: about
     0.7 s with its verdict cached, seconds on a machine that has none);
   * the traceability report the report page shows (trace.build_report);
   * the id lookup of the search box (id_index.py);

2. the costly parts of the last share of the instruction models and the HTML of the English ADR bodies
   (pages.helper_parts), which this process adopts once it has built the other models (SiteRenderer.prepare).

So this process checks the tree while the worker runs the model, and builds half the page models while the
worker makes the costly half. The pages are the same either way: a worker that fails (or a platform without
fork) only means this process makes those parts itself. ``mkdocs serve`` does not use it: its reloads are
incremental (site/build.py).
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
from dataclasses import dataclass

from ..model import Catalog
from ..sources.tree import SpecTree
from . import routes
from .sitedata import SiteData, group_examples

_LENDING: list = []  # (catalog, tree) the forked worker reads: set only around the first submit


@dataclass(frozen=True)
class SharedParts:
    semantics: tuple  # semantics_check.SemanticsFinding of the tree
    trace_report: dict | None  # trace.build_report of the tree (None: the renderer makes it, or logs why not)
    id_index: bytes | None  # id_index.id_index_json of the tree


def shared_parts(catalog: Catalog, tree: SpecTree) -> SharedParts:
    """The shared results, made in this process."""
    from .. import model_checks
    from .id_index import id_index_json
    from .indexes import trace_available
    semantics = model_checks.semantics(catalog)
    try:
        from ..examples import worked_examples
        examples = group_examples(tuple(worked_examples(catalog)))
    except ImportError:  # the executor is optional for the site
        examples = {}
    report = None
    if trace_available():
        from ..trace import build_report
        try:
            report = build_report(catalog, tree, tuple(ex for group in examples.values() for ex in group))
        except Exception:  # noqa: BLE001 - the renderer tries again and logs why the page is left out
            report = None
    return SharedParts(semantics, report, id_index_json(catalog, examples))


def _shared_task() -> SharedParts:
    catalog, tree = _LENDING[-1]
    return shared_parts(catalog, tree)


def _parts_task(unit_ids: list[str]):
    from .pages import helper_parts
    catalog, tree = _LENDING[-1]
    return helper_parts(SiteData.trace_rows(catalog, tree), unit_ids)


class Helper:
    """The worker of one loaded tree and its two tasks."""

    def __init__(self, catalog: Catalog, tree: SpecTree):
        self.catalog, self.tree = catalog, tree
        self.pool: cf.ProcessPoolExecutor | None = None
        self.shared_future: cf.Future | None = None
        self.parts_future: cf.Future | None = None
        self.given: frozenset[str] = frozenset()  # the instruction units whose costly parts the worker makes
        self._shared: SharedParts | None = None

    def start(self, models: bool = True) -> Helper:
        """Fork the worker; with ``models``, it also makes the costly model parts of its share of the units."""
        if not hasattr(os, "fork"):
            return self
        from .pages import helper_share
        units = sorted(self.catalog.units.values(), key=routes.unit_src)  # (SiteRenderer.units: page order)
        given = [u.id for u in helper_share(units)] if models else []
        self.pool = cf.ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"))
        _LENDING.append((self.catalog, self.tree))
        try:
            self.shared_future = self.pool.submit(_shared_task)  # (the worker is forked here)
            if given:
                self.parts_future = self.pool.submit(_parts_task, given)  # (then runs this)
                self.given = frozenset(given)
        except Exception:  # noqa: BLE001 - no worker: this process makes everything
            self.close()
        finally:
            _LENDING.pop()
        return self

    def shared(self) -> SharedParts:
        if self._shared is None:
            if self.shared_future is not None:
                try:
                    self._shared = self.shared_future.result()
                except Exception:  # noqa: BLE001 - a worker that failed costs time, never a page
                    pass
            if self._shared is None:
                self._shared = shared_parts(self.catalog, self.tree)
        return self._shared

    def parts(self):
        """(costly parts by unit id, English ADR body HTML, highlight cache entries) the worker made; empty ones
        when it made none (the renderer then makes them)."""
        try:
            if self.parts_future is not None:
                try:
                    return self.parts_future.result()
                except Exception:  # noqa: BLE001
                    pass
            return {}, {}, {}
        finally:
            self.close()

    def made(self):
        """For SiteRenderer.prepare: (the units given to the worker, a function returning what it made)."""
        return self.given, self.parts

    def close(self) -> None:
        """Done, or no longer wanted (a tree with errors): a task still running is stopped."""
        if self.pool is None:
            return
        pool, self.pool = self.pool, None
        if any(f is not None and not f.done() for f in (self.shared_future, self.parts_future)):
            for process in list(getattr(pool, "_processes", {}).values()):  # (no public API before 3.14)
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def start(catalog: Catalog, tree: SpecTree, models: bool = True) -> Helper:
    return Helper(catalog, tree).start(models)
