"""The second core's share of loading a tree and building its page models, for a site build.

Loading is the stretch of a build that one core ran alone: parse, the consistency checks, the model checks,
then the page models. A forked worker (a ``concurrent.futures`` pool of one process with the fork context, so it
shares the parsed catalog copy-on-write) runs two tasks meanwhile:

1. the SEMANTICS-PROSE findings (:func:`semantics`), which run the tree's ASL on the interpreter
   (checks/semantics.py: about 0.7 s with its verdict cached, seconds on a machine that has none), while this
   process runs the other checks and makes the traceability report the report page shows (analysis/state.py
   analyse, which calls :func:`start` through its ``started``), and then, until the findings arrive, the costly
   parts of instruction models from the start of the page order (:meth:`Helper.semantics` with ``meanwhile``)
   rather than wait idle;

2. the HTML of the English ADR bodies and the costly parts of instruction models (render/pages.py helper_parts), taking
   instruction units from the end of the page order while this process builds models from the start
   (:class:`Meeting`), until the two meet; this process adopts what the worker made (SiteRenderer.prepare).

With the build's teaching runner (``teach``), the pool has a second worker for the executed examples of every
instruction (:func:`_teaching_task`): it links the spec's model while the first worker makes the findings, then
shares the runs with a helper it forks (bridge/teaching_split.py), instead of waiting for the findings and running
them on one core while this process, its checks done, waited idle (0.58.3: about 8 s of a first build).

So this process checks the tree while the worker runs the model, and the two share the page models however long
the first task took (seconds longer on a machine without the verdict cache). The pages are the same either way:
a worker that fails (or a platform without fork) only means this process makes those parts itself.
``mkdocs serve`` does not use it: its reloads are incremental (site/build.py). site/rendering.py starts it.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os

from ..analysis.sitedata import SiteData
from ..analysis.state import semantics_findings
from ..model.catalog import Catalog
from ..render import routes
from ..runtime.workers import pool_options
from ..sources.tree import SpecTree

_LENDING: list = []  # (catalog, tree, meeting) the forked worker reads: set only around the first submit


def semantics(catalog: Catalog) -> tuple:
    """The worker's first task: the tree's SEMANTICS-PROSE findings (analysis/state.py semantics_findings)."""
    return semantics_findings(catalog)


def _semantics_task() -> tuple:
    catalog, _tree, _meeting, _teach = _LENDING[-1]
    return semantics(catalog)


def _teaching_task() -> tuple:
    """Every instruction's executed example (api.teach through the build's runner), made by the second worker,
    which shares the runs with a helper it forks once the model is linked (bridge/teaching_split.py: a pool
    worker has no other thread)."""
    catalog, _tree, _meeting, teach = _LENDING[-1]
    return teach(catalog, quiet=True, split=True)


def _parts_task():
    from ..render.pages import helper_parts
    catalog, tree, meeting, _teach = _LENDING[-1]
    return helper_parts(SiteData.trace_rows(catalog, tree), meeting.from_the_end())


class Meeting:
    """Instruction units (in page order) shared by two processes: this one claims them from the start, the worker
    from the end, each unit exactly once (shared memory made before the fork, one lock)."""

    def __init__(self, unit_ids: list[str], context):
        self.ids = list(unit_ids)
        self.index = {uid: i for i, uid in enumerate(self.ids)}
        self.lock = context.Lock()
        self.front = context.Value("i", 0, lock=False)  # ids[:front] are this process's
        self.back = context.Value("i", len(self.ids), lock=False)  # ids[back:] are the worker's

    def claim(self, unit_id: str) -> bool:
        """This process takes ``unit_id`` (units are claimed in order), unless the worker has it already."""
        i = self.index.get(unit_id)
        if i is None:
            return True
        with self.lock:
            if i < self.back.value:
                self.front.value = max(self.front.value, i + 1)
                return True
            return False

    def next_front(self) -> str | None:
        """The next unit from the start for this process, or None once the two have met."""
        with self.lock:
            i = self.front.value
            if i >= self.back.value:
                return None
            self.front.value = i + 1
            return self.ids[i]

    def from_the_end(self):
        """The worker's units, claimed one at a time from the end until the two meet."""
        while True:
            with self.lock:
                j = self.back.value - 1
                if j < self.front.value:
                    return
                self.back.value = j
            yield self.ids[j]


class Helper:
    """The worker of one loaded tree and its two tasks."""

    def __init__(self, catalog: Catalog, tree: SpecTree, teach=None):
        self.catalog, self.tree = catalog, tree
        self.teach = teach  # the build's teaching runner (site/build.py teaching_runner), or None
        self.teaching_future: cf.Future | None = None
        self._teaching: tuple | None = None
        self.pool: cf.ProcessPoolExecutor | None = None
        self.semantics_future: cf.Future | None = None
        self.parts_future: cf.Future | None = None
        self.meeting: Meeting | None = None  # the instruction units the worker and this process share
        self._semantics: tuple | None = None
        self._early: dict = {}  # unit id -> costly parts this process made while waiting for the first task

    def start(self, models: bool = True) -> Helper:
        """Fork the worker; with ``models``, it also makes costly model parts (:class:`Meeting`)."""
        if not hasattr(os, "fork"):
            return self
        from ..i18n import LOCALES, labels
        from .model_helper import HELPER_MIN
        for locale in LOCALES:  # read once before the fork: the worker's id lookup and every page use them
            labels(locale)
        context = multiprocessing.get_context("fork")
        units = sorted(self.catalog.units.values(), key=routes.unit_src)  # (SiteRenderer.units: page order)
        instructions = [u.id for u in units if u.is_instruction]
        if models and len(instructions) >= HELPER_MIN:
            self.meeting = Meeting(instructions, context)
        # (a second worker for the teaching run: it links the model while the first runs the findings' model)
        workers = 2 if self.teach is not None else 1
        self.pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=context, **pool_options())
        _LENDING.append((self.catalog, self.tree, self.meeting, self.teach))
        try:
            self.semantics_future = self.pool.submit(_semantics_task)  # (the worker is forked here)
            if self.teach is not None:  # (then this, while this process checks the tree and makes models)
                self.teaching_future = self.pool.submit(_teaching_task)
            if self.meeting is not None:
                self.parts_future = self.pool.submit(_parts_task)  # (then runs this)
        except Exception:  # noqa: BLE001 - no worker: this process makes everything
            self.meeting = None
            self.close()
        finally:
            _LENDING.pop()
        return self

    def semantics(self, meanwhile: bool = False) -> tuple:
        """The worker's SEMANTICS-PROSE findings. With ``meanwhile``, this process makes the costly parts of
        instruction units (from the start of the page order) while the worker is still running the model,
        instead of waiting idle: on a machine without the verdict cache that is seconds."""
        if self._semantics is None:
            if self.semantics_future is not None:
                if meanwhile:
                    self._parts_meanwhile()
                try:
                    self._semantics = self.semantics_future.result()
                except Exception:  # noqa: BLE001 - a worker that failed costs time, never a page
                    pass
            if self._semantics is None:
                self._semantics = semantics(self.catalog)
        return self._semantics

    def teaching(self, catalog: Catalog, meanwhile=None) -> tuple:
        """The worker's executed examples (made after the findings); this process makes costly model parts
        meanwhile, then, if the worker is still running, calls ``meanwhile()`` (what the pages need that does not
        depend on the examples; an exception it raises is ignored: its caller makes what it did not). Without a
        worker, or one that failed, this process runs them itself."""
        if self._teaching is None:
            if self.teaching_future is not None and catalog is self.catalog:
                self._parts_meanwhile(self.teaching_future)
                if meanwhile is not None and not self.teaching_future.done():
                    try:
                        meanwhile()
                    except Exception:  # noqa: BLE001 - made again by the caller, where a failure is reported
                        pass
                try:
                    self._teaching = self.teaching_future.result()
                except Exception:  # noqa: BLE001 - a worker that failed costs time, never a page
                    pass
            if self._teaching is None:
                self._teaching = self.teach(catalog)
        return self._teaching

    def _parts_meanwhile(self, future: cf.Future | None = None) -> None:
        if self.meeting is None:
            return
        from ..render.instruction import costly_parts
        data = None
        future = future or self.semantics_future
        while not future.done():
            unit_id = self.meeting.next_front()
            if unit_id is None:
                return
            if data is None:
                data = SiteData.trace_rows(self.catalog, self.tree)
            self._early[unit_id] = costly_parts(data, self.catalog.units[unit_id])

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
        """For SiteRenderer.prepare: (claim a unit for this process, a function returning what the worker made,
        the costly parts this process made while waiting for the first task)."""
        early, self._early = self._early, {}
        return (self.meeting.claim if self.meeting is not None else (lambda unit_id: True)), self.parts, early

    def close(self) -> None:
        """Done, or no longer wanted (a tree with errors): a task still running is stopped."""
        if self.pool is None:
            return
        pool, self.pool = self.pool, None
        if any(f is not None and not f.done() for f in (self.semantics_future, self.teaching_future,
                                                         self.parts_future)):
            for process in list(getattr(pool, "_processes", {}).values()):  # (no public API before 3.14)
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def start(catalog: Catalog, tree: SpecTree, models: bool = True, teach=None) -> Helper:
    return Helper(catalog, tree, teach).start(models)
