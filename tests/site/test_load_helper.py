"""site/load_helper.py: with ``parallel`` a forked worker makes the SEMANTICS-PROSE findings while the tree is
checked (and the report and id lookup made), then the costly parts of its share of the page models; the
diagnostics and pages are the same as a load that makes them in this process, and a failing worker costs nothing
but time."""

from __future__ import annotations

import os

import pytest

from pto_docs.site import load_helper, model_helper
from pto_docs.site.rendering import build_state
from tests.site.conftest import SPEC_ROOT

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the worker is a forked process")


def _outcome(state) -> dict:
    from pto_docs.render.indexes import trace_markdown
    r = state.renderer
    return {
        "pages": {(src, loc): parts.assembled() for loc in ("en", "zh-CN") for src, parts in r.pages(loc)},
        "diagnostics": [d.format() for d in state.diagnostics],
        "semantics": r.data.semantics,
        "examples": {k: [e.key for e in v] for k, v in r.data.examples.items()},
        "files": dict(r.files()),
        "report": {loc: trace_markdown(r, loc) for loc in ("en", "zh-CN")},
    }


def _counting(monkeypatch) -> list:
    made_here = []
    original = load_helper.semantics

    def counted(catalog):
        made_here.append(1)  # (a forked worker's calls are counted in its own memory, not here)
        return original(catalog)
    monkeypatch.setattr(load_helper, "semantics", counted)
    return made_here


def test_the_worker_makes_the_shared_parts_and_nothing_changes(monkeypatch):
    import time
    expected = _outcome(build_state(SPEC_ROOT))
    assert expected["report"]["en"] and expected["files"]  # the sample tree has a report page and an id lookup
    made_here = _counting(monkeypatch)
    from pto_docs.render import instruction, pages
    monkeypatch.setattr(model_helper, "HELPER_MIN", 1)  # the sample tree has only a few instructions
    costly_here = []
    original = instruction.costly_parts
    parent = os.getpid()

    def counted(data, unit, *rest):
        if os.getpid() == parent:  # (the worker is a fork: what it makes is not counted here)
            costly_here.append(unit.id)
            time.sleep(0.2)  # a slow start here: the worker takes units from the end meanwhile
        return original(data, unit, *rest)
    monkeypatch.setattr(instruction, "costly_parts", counted)
    monkeypatch.setattr(pages, "costly_parts", counted)
    state = build_state(SPEC_ROOT, parallel=True)
    assert made_here == []  # the worker ran the model
    assert state.renderer.data.trace_report is not None and state.renderer.id_index is not None  # made by the worker
    r = state.renderer
    instructions = [u.id for u in r.units if u.is_instruction]
    # this process made a first part of the instruction units (in page order, maybe none), the worker the others
    assert len(costly_here) < len(instructions)
    assert costly_here == instructions[:len(costly_here)]
    assert r.stats["models"] == len(r.units) and not r._costly  # every model built, every part used
    assert len(r._adr_bodies) >= 2  # the English ADR bodies, from the worker
    assert _outcome(state) == expected


def test_this_process_makes_parts_while_the_worker_runs_the_model(monkeypatch):
    """Waiting for the SEMANTICS-PROSE findings, this process makes costly parts from the start of the page order
    instead of idling; the pages are the same."""
    import time
    expected = _outcome(build_state(SPEC_ROOT))
    from pto_docs.render import instruction
    monkeypatch.setattr(model_helper, "HELPER_MIN", 1)
    original_task = load_helper.semantics

    def slow_task(catalog):  # (run by the forked worker, which sees this module as patched here)
        time.sleep(1.0)  # a machine without the verdict cache: the model takes seconds
        return original_task(catalog)
    monkeypatch.setattr(load_helper, "semantics", slow_task)
    events = []
    parent = os.getpid()
    original_parts = instruction.costly_parts

    def counted(data, unit, *rest):
        if os.getpid() == parent:
            events.append(unit.id)
        return original_parts(data, unit, *rest)
    monkeypatch.setattr(instruction, "costly_parts", counted)
    original_semantics = load_helper.Helper.semantics

    def semantics(self, meanwhile=False):
        found = original_semantics(self, meanwhile)
        events.append("findings")
        return found
    monkeypatch.setattr(load_helper.Helper, "semantics", semantics)
    state = build_state(SPEC_ROOT, parallel=True)
    r = state.renderer
    instructions = [u.id for u in r.units if u.is_instruction]
    before = events[:events.index("findings")]
    assert before and before == instructions[:len(before)]  # made meanwhile, in page order
    made = [e for e in events if e != "findings"]
    assert len(made) == len(set(made))  # none made twice
    assert r.stats["models"] == len(r.units) and not r._costly  # every part made meanwhile was used
    assert _outcome(state) == expected


def test_a_failing_worker_leaves_them_to_this_process(monkeypatch):
    expected = _outcome(build_state(SPEC_ROOT))
    made_here = _counting(monkeypatch)
    monkeypatch.setattr(load_helper, "_semantics_task", lambda: 1 / 0)
    monkeypatch.setattr(load_helper, "_parts_task", lambda unit_ids: 1 / 0)
    monkeypatch.setattr(model_helper, "HELPER_MIN", 1)
    state = build_state(SPEC_ROOT, parallel=True)
    assert made_here == [1]
    assert state.renderer.stats["models"] == len(state.renderer.units)
    assert _outcome(state) == expected


def test_a_tree_with_errors_starts_no_worker(tmp_path, monkeypatch):
    (tmp_path / "asl").mkdir()
    (tmp_path / "asl" / "bad.asl").write_text('// PTO-INSTRUCTION: {"id": \n', "utf-8")
    started = []
    monkeypatch.setattr(load_helper, "start", lambda *a: started.append(a))
    state = build_state(tmp_path, parallel=True)
    assert state.renderer is None and any(d.is_error for d in state.diagnostics)
    assert started == []


def test_the_highlight_cache_keeps_what_the_worker_highlighted(monkeypatch, tmp_path):
    """The code the worker highlights is in the cache this process saves, as if it had highlighted it here."""
    from pto_docs.render import fragments
    monkeypatch.setattr(model_helper, "HELPER_MIN", 1)

    def used(parallel: bool) -> set:
        cache = fragments.HighlightCache(str(tmp_path / f"h-{parallel}.json.z"))
        fragments.use_highlight_cache(cache)
        try:
            state = build_state(SPEC_ROOT, parallel=parallel)
            state.renderer.prepare()
        finally:
            fragments.use_highlight_cache(None)
        return set(cache.new)
    alone = used(False)
    assert alone and used(True) == alone


def test_a_meeting_gives_each_unit_to_exactly_one_side():
    import multiprocessing
    context = multiprocessing.get_context("fork")
    ids = [f"U{i}" for i in range(400)]
    meeting = load_helper.Meeting(ids, context)
    reader, writer = context.Pipe(duplex=False)

    def worker():
        writer.send(list(meeting.from_the_end()))
    process = context.Process(target=worker)
    process.start()
    mine = [uid for uid in ids if meeting.claim(uid)]
    theirs = reader.recv()
    process.join()
    assert sorted(mine + theirs) == sorted(ids) and not set(mine) & set(theirs)
    assert mine == ids[:len(mine)] and sorted(theirs) == sorted(ids[len(mine):])


def test_the_teaching_examples_run_in_the_worker_and_here_without_one(catalog_load):
    """The build's teaching runner is the worker's task after the findings (the second core); a helper without a
    worker runs it in this process."""
    calls = []

    def teach(catalog, quiet=False, split=False):
        calls.append(os.getpid())  # (the worker's calls are in its own memory)
        return {"pid": os.getpid(), "quiet": quiet, "split": split}, {}
    helper = load_helper.start(catalog_load.catalog, catalog_load.tree, models=False, teach=teach)
    try:
        taught, _missing = helper.teaching(catalog_load.catalog)
    finally:
        helper.close()
    assert taught["pid"] != os.getpid() and taught["quiet"] and taught["split"] and not calls
    alone = load_helper.Helper(catalog_load.catalog, catalog_load.tree, teach)  # never started: no worker
    assert alone.teaching(catalog_load.catalog)[0]["pid"] == os.getpid() and calls == [os.getpid()]


def test_the_teaching_run_starts_while_the_findings_are_made(catalog_load, monkeypatch):
    """The teaching run has a worker of its own: it links the model while the other worker makes the
    SEMANTICS-PROSE findings, rather than after them (a first build's critical path)."""
    import time

    def slow_findings(catalog):  # (run by a forked worker, which sees this module as patched here)
        time.sleep(2.0)
        return ("findings done", time.monotonic())
    monkeypatch.setattr(load_helper, "semantics", slow_findings)

    def teach(catalog, quiet=False, split=False):
        return {"started": time.monotonic()}, {}
    helper = load_helper.start(catalog_load.catalog, catalog_load.tree, models=False, teach=teach)
    try:
        taught, _missing = helper.teaching(catalog_load.catalog)
        findings = helper.semantics()
    finally:
        helper.close()
    assert findings[0] == "findings done"
    assert taught["started"] < findings[1] - 1.0  # started while the findings were still being made
