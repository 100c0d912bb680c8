"""site/rendering.py: while the load worker runs the teaching examples, a first build's process compiles the page
templates and makes the id lookup (they do not depend on the examples) instead of waiting idle and making them
after; the pages are those of a build that makes everything in turn."""

from __future__ import annotations

import os
import time

import pytest

from pto_docs.render import env as env_module
from pto_docs.render import id_index as id_index_module
from pto_docs.site import load_helper
from pto_docs.site.rendering import build_state
from tests.site.conftest import SPEC_ROOT
from tests.site.test_load_helper import _outcome

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the worker is a forked process")


def slow_teaching(catalog, quiet=False, split=False):
    time.sleep(1.5)  # (in the worker: this process's wait)
    return {}, {}


def _events(monkeypatch) -> list:
    """(what, pid, env) of every compile of the templates, id lookup and end of the wait for the teaching run."""
    events: list = []
    compile_templates, id_index_json = env_module.compile_templates, id_index_module.id_index_json
    teaching = load_helper.Helper.teaching

    def compiled(env):
        events.append(("compiled", os.getpid(), env))
        return compile_templates(env)

    def indexed(*args):
        events.append(("indexed", os.getpid(), None))
        return id_index_json(*args)

    def taught(self, *args, **kwargs):
        try:
            return teaching(self, *args, **kwargs)
        finally:
            events.append(("taught", os.getpid(), None))
    monkeypatch.setattr(env_module, "compile_templates", compiled)
    monkeypatch.setattr(id_index_module, "id_index_json", indexed)
    monkeypatch.setattr(load_helper.Helper, "teaching", taught)
    from pto_docs.render import pages
    monkeypatch.setattr(pages, "compile_templates", compiled)
    return events


def test_the_templates_and_the_id_lookup_are_made_while_the_teaching_examples_run(monkeypatch):
    expected = _outcome(build_state(SPEC_ROOT, teach_run=slow_teaching))
    events = _events(monkeypatch)
    state = build_state(SPEC_ROOT, parallel=True, teach_run=slow_teaching)
    here = [(what, env) for what, pid, env in events if pid == os.getpid()]
    ends = [i for i, (what, _env) in enumerate(here) if what == "taught"]
    assert len(ends) == 1
    before = {what for what, _env in here[:ends[0]]}
    assert before == {"compiled", "indexed"}  # both made while waiting, here
    assert "indexed" not in {what for what, _env in here[ends[0]:]}  # and the lookup not made again
    assert state.renderer.env is here[0][1]  # the renderer's environment is the one compiled meanwhile
    assert state.renderer.id_index == id_index_module.id_index_json(state.renderer.catalog,
                                                                    state.renderer.data.examples)
    assert _outcome(state) == expected


def test_a_failure_while_waiting_costs_nothing_but_time(monkeypatch):
    expected = _outcome(build_state(SPEC_ROOT, teach_run=slow_teaching))
    failed = []
    id_index_json = id_index_module.id_index_json

    def failing_once(*args):
        if not failed:
            failed.append(1)
            raise RuntimeError("a failure while waiting")
        return id_index_json(*args)
    monkeypatch.setattr(id_index_module, "id_index_json", failing_once)
    state = build_state(SPEC_ROOT, parallel=True, teach_run=slow_teaching)
    assert failed and state.renderer.id_index is not None
    assert _outcome(state) == expected
