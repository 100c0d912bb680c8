"""A teaching run shared with a forked helper (bridge/teaching_split.py, teaching_run.teach(split=True)): the same
examples and the same sealed cache as a run alone; a helper that fails, is killed or stalls costs time only (this
process runs its share), never a hang; a failure here leaves no helper behind. Fixture: the repository's catalog/
tree (its toy ASL model)."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from pto_docs.bridge import teaching_run, teaching_split

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the helper is a forked process")


@pytest.fixture(scope="module")
def catalog():
    from pto_docs.analysis.load import load_catalog
    from tests.conftest import REPO
    return load_catalog(REPO / "catalog").catalog


def _fresh() -> None:  # as a new process: nothing taught before
    teaching_run._TAUGHT.clear()
    teaching_run._LAST.clear()


def _examples(done: tuple) -> tuple:
    taught, untaught = done
    return ({k: (v.scenario, v.result, v.tried, v.finding, v.alias_of) for k, v in taught.items()},
            {k: v.reason for k, v in untaught.items()})


def _run_alone(catalog, cache) -> tuple:
    _fresh()
    return _examples(teaching_run.teach(catalog, None, cache))


def _split(catalog, cache, monkeypatch, log, in_helper=None) -> tuple:
    """A split run whose every scenario run is logged (pid, case digest) to ``log``; this process runs slowly so
    that the helper has a share; ``in_helper(case)`` runs first in the helper."""
    monkeypatch.setattr(teaching_split, "MIN_LEFT", 1)  # (the sample tree has only a few instructions)
    parent = os.getpid()
    real = teaching_run._run

    def logged(runner, case):
        if os.getpid() == parent:
            time.sleep(0.15)
        elif in_helper is not None:
            in_helper(case)
        with open(log, "a", encoding="utf-8") as out:  # (appended by both processes: one line each)
            out.write(f"{os.getpid()} {teaching_run.case_digest(case)}\n")
        return real(runner, case)
    monkeypatch.setattr(teaching_run, "_run", logged)
    _fresh()
    return _examples(teaching_run.teach(catalog, None, cache, split=True))


def _runs(log) -> list[tuple[int, str]]:
    if not log.exists():
        return []
    return [(int(pid), key) for pid, key in (line.split() for line in log.read_text("utf-8").splitlines())]


def _cache_entries(folder) -> dict:
    from pto_docs.store import sealed_folder
    sealed = sealed_folder(folder)
    return {p.name: json.loads(sealed.load(p.name)) for p in folder.glob("teaching-*.json")}


def test_a_split_run_makes_the_examples_and_the_cache_of_a_run_alone(catalog, tmp_path, monkeypatch):
    alone = _run_alone(catalog, tmp_path / "alone")
    assert alone[0], "the sample tree teaches"
    log = tmp_path / "runs.log"
    assert _split(catalog, tmp_path / "split", monkeypatch, log) == alone
    runs = _runs(log)
    helpers = {pid for pid, _key in runs} - {os.getpid()}
    assert helpers, "the helper ran none of the scenarios"
    assert any(pid == os.getpid() for pid, _key in runs)  # both sides ran a share
    assert _cache_entries(tmp_path / "split") == _cache_entries(tmp_path / "alone")  # every result sealed


@pytest.mark.parametrize("how", ["fails", "is killed", "sends garbage"])
def test_a_helper_that_fails_leaves_its_share_to_this_process(catalog, tmp_path, monkeypatch, how):
    alone = _run_alone(catalog, None)

    def broken(_case):
        if how == "fails":
            raise RuntimeError("the helper fails")
        if how == "is killed":
            os.kill(os.getpid(), signal.SIGKILL)
        if how == "sends garbage":  # (set in the helper's memory only)
            teaching_split._payload = lambda _results: b'{"not": "a result"'
    log = tmp_path / "runs.log"
    assert _split(catalog, None, monkeypatch, log, broken) == alone
    mine = {key for pid, key in _runs(log) if pid == os.getpid()}
    done = {teaching_run.case_digest(t[0].case()) for t in alone[0].values()}
    assert done <= mine  # every example's scenario ran here too: nothing was taken from the helper


def test_a_stalled_helper_is_stopped_and_its_share_run_here(catalog, tmp_path, monkeypatch):
    alone = _run_alone(catalog, None)
    monkeypatch.setattr(teaching_split, "STALL_SECONDS", 1.0)
    helpers = []
    real_fork = teaching_split.fork

    def fork(*a):
        share = real_fork(*a)
        helpers.append(share.pid)
        return share
    monkeypatch.setattr(teaching_split, "fork", fork)
    start = time.monotonic()
    assert _split(catalog, None, monkeypatch, tmp_path / "runs.log", lambda _case: time.sleep(3600)) == alone
    assert time.monotonic() - start < 60
    assert len(helpers) == 1
    with pytest.raises(ChildProcessError):  # stopped and reaped: no process, no zombie
        os.waitpid(helpers[0], os.WNOHANG)


def test_a_failure_here_stops_the_helper(catalog, tmp_path, monkeypatch):
    """An error in this process's share (here: the run after the fork) propagates, and the helper is not left
    running."""
    monkeypatch.setattr(teaching_split, "MIN_LEFT", 1)
    helpers = []
    real_fork = teaching_split.fork

    def fork(*a):
        share = real_fork(*a)
        helpers.append(share.pid)
        return share
    monkeypatch.setattr(teaching_split, "fork", fork)
    parent = os.getpid()
    real = teaching_run._run

    def failing(runner, case):
        if os.getpid() == parent and helpers:
            raise KeyboardInterrupt  # (what an interrupted build raises)
        if os.getpid() != parent:
            time.sleep(3600)
        return real(runner, case)
    monkeypatch.setattr(teaching_run, "_run", failing)
    _fresh()
    with pytest.raises(KeyboardInterrupt):
        teaching_run.teach(catalog, None, None, split=True)
    assert len(helpers) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(helpers[0], os.WNOHANG)


def test_the_two_sides_claim_every_unit_and_meet_once():
    count = 3000
    share = teaching_split.Share(count, 0)
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.write(writer, json.dumps(list(share.from_the_end())).encode())
        finally:
            os._exit(0)
    os.close(writer)
    mine = []
    for index in range(count):
        if not share.claim(index):
            break
        mine.append(index)
    chunks = []
    while chunk := os.read(reader, 1 << 16):
        chunks.append(chunk)
    os.close(reader)
    os.waitpid(pid, 0)
    theirs = json.loads(b"".join(chunks))
    assert mine == list(range(len(mine)))  # this side: a prefix, in order
    assert theirs == list(range(count - 1, count - 1 - len(theirs), -1))  # the helper: a suffix, from the end
    assert len(set(mine) & set(theirs)) <= 1  # a race may give one unit to both (it is run twice, no harm)
    assert count - len(set(mine) | set(theirs)) <= 1  # or to neither: this process runs it after collecting


def test_a_run_alone_forks_nothing(catalog, monkeypatch):
    """Without ``split`` (a serving process, with threads of its own) no helper is forked."""
    monkeypatch.setattr(teaching_split, "MIN_LEFT", 1)
    monkeypatch.setattr(teaching_split, "fork", lambda *a: pytest.fail("forked a helper"))
    _fresh()
    assert teaching_run.teach(catalog, None, None)[0]
