"""gc_pause.py: a build makes no full garbage collection, in its own process or in the processes it forks;
the AVS interpreter's run inside a build collects as usual; when the build ends (done, failed, or nothing to do)
the process's thresholds are what they were."""

from __future__ import annotations

import gc
import io
import json
import os
from pathlib import Path

import pytest

from pto_docs.runtime.gc_pause import NEVER, FullCollectionPause
from tests.mkdocs_config import config_copy


@pytest.fixture(autouse=True)
def _own_thresholds():
    """Each test starts from thresholds of its own (not CPython's defaults), and leaves the worker's as found."""
    before = gc.get_threshold()
    gc.set_threshold(650, 9, 11)
    yield (650, 9, 11)
    gc.set_threshold(*before)


def test_pause_suspend_resume(_own_thresholds):
    pause = FullCollectionPause()
    pause.resume()  # not paused: nothing to give back
    assert gc.get_threshold() == _own_thresholds and not pause.paused
    pause.pause()
    pause.pause()  # twice: still the first thresholds to give back
    assert gc.get_threshold() == (650, 9, NEVER) and pause.paused
    with pause.suspended():
        assert gc.get_threshold() == _own_thresholds
    assert gc.get_threshold() == (650, 9, NEVER)
    with pytest.raises(RuntimeError), pause.suspended():
        raise RuntimeError("a failed run inside")
    assert gc.get_threshold() == (650, 9, NEVER)
    pause.resume()
    assert gc.get_threshold() == _own_thresholds and not pause.paused
    with pause.suspended():  # not paused: leaves the thresholds alone
        assert gc.get_threshold() == _own_thresholds


def _build(tmp_path: Path, root: Path, name: str = "site") -> tuple[int, str]:
    from pto_docs.cli import build as build_cmd
    args = type("Args", (), {"spec_root": str(root), "site_dir": str(tmp_path / name),
                             "config_file": str(config_copy(tmp_path, root)), "no_strict": False,
                             "cache_dir": str(tmp_path / "cache"), "no_cache": False, "quiet": True})()
    err = io.StringIO()
    code = build_cmd.run(args, io.StringIO(), err)
    return code, err.getvalue()


def _recorder(monkeypatch, log: Path, module, name: str) -> None:
    """Wrap ``module.name`` to append the calling process's thresholds to ``log`` (every process of the build)."""
    original = getattr(module, name)

    def recording(*args, **kwargs):
        with log.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"pid": os.getpid(), "where": name, "thresholds": gc.get_threshold()}) + "\n")
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, recording)


def test_a_build_pauses_full_collections_everywhere_and_gives_them_back(tmp_path, tree, monkeypatch, _own_thresholds):
    from pto_docs.bridge import avs
    from pto_docs.render import pages
    log = tmp_path / "thresholds.jsonl"
    _recorder(monkeypatch, log, pages.SiteRenderer, "pages")  # each language's pages, in its own process
    _recorder(monkeypatch, log, avs, "run_tree_avs")  # the catalog's AVS points (avs_examples: run)
    code, err = _build(tmp_path, tree)
    assert code == 0, err
    assert gc.get_threshold() == _own_thresholds
    seen = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    languages = [s for s in seen if s["where"] == "pages"]
    assert len({s["pid"] for s in languages}) == 2  # en here, zh-CN in the forked process
    assert all(s["thresholds"] == [650, 9, NEVER] for s in languages)
    assert [s["thresholds"] for s in seen if s["where"] == "run_tree_avs"] == [[650, 9, 11]]

    # nothing changed: the build stops early (site/uptodate.py) and gives the thresholds back too
    code, err = _build(tmp_path, tree)
    assert code == 0 and "nothing changed" in err, err
    assert gc.get_threshold() == _own_thresholds


def test_a_failed_build_gives_them_back(tmp_path, tree, _own_thresholds):
    units = sorted((tree / "asl").rglob("*.asl"))
    units[0].write_bytes(b"\xff\xfe not UTF-8 \x80\n")  # an error diagnostic: a strict build fails
    code, err = _build(tmp_path, tree)
    assert code != 0 and "Traceback" not in err, err
    assert gc.get_threshold() == _own_thresholds


def test_full_collections_paused_nests_and_sets_back(_own_thresholds):
    from pto_docs.runtime.gc_pause import full_collections_paused
    with full_collections_paused():
        assert gc.get_threshold() == (650, 9, NEVER)
        with full_collections_paused():
            assert gc.get_threshold() == (650, 9, NEVER)
        assert gc.get_threshold() == (650, 9, NEVER)
    assert gc.get_threshold() == _own_thresholds
    with pytest.raises(ValueError), full_collections_paused():
        raise ValueError("a failed load")
    assert gc.get_threshold() == _own_thresholds


def test_loading_a_tree_and_linking_models_pause_full_collections(tmp_path, monkeypatch, _own_thresholds):
    """load_catalog, the executor's ASL bridge and the model runner of `pto-docs exec` build what lives on with
    full collections paused, and set the thresholds back."""
    from pto_docs.analysis import load
    from pto_docs.bridge import exec_model, executor_asl
    from pto_docs.bridge.avs import avs_inputs
    seen = []

    def recording(module, name):
        original = getattr(module, name)

        def wrapper(*args, **kwargs):
            seen.append((name, gc.get_threshold()))
            return original(*args, **kwargs)
        monkeypatch.setattr(module, name, wrapper)
    recording(load, "_load_units")
    recording(executor_asl, "load_model")
    recording(exec_model, "load_model")
    catalog = load.load_catalog(Path(__file__).resolve().parents[2] / "catalog").catalog
    assert gc.get_threshold() == _own_thresholds
    executor_asl.AslBridge(avs_inputs(catalog).units, None, tmp_path / "asl")
    assert gc.get_threshold() == _own_thresholds
    exec_model.ModelRunner(catalog, None, tmp_path / "asl")
    assert gc.get_threshold() == _own_thresholds
    assert seen == [("_load_units", (650, 9, NEVER)), ("load_model", (650, 9, NEVER)), ("load_model", (650, 9, NEVER))]
