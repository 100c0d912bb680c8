"""Sharing for the real-tree `pto-docs exec` tests: the checkout is read-only, so a second load of it gives the
same tree, and a linked model of it runs case after case (ModelRunner's own contract). Each case still goes
through the whole command (``main(["exec", ...])``: case checks, decoders, cache-directory checks, output), but
the tree is loaded and its ASL model parsed once per worker process, and a model is linked (a ModelRunner) once
per (decoders, cache directory, profile, named calls), instead of all three for every case (~4 s a case)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def _real_exec_memo(real_load, real_tree_root):
    return {"root": real_tree_root.resolve(), "load": real_load, "models": {}, "runners": {}}


@pytest.fixture
def shared_real_exec(_real_exec_memo, monkeypatch):
    """While a test runs, `pto-docs exec` on the real tree reuses the session's loaded tree and linked models
    (any other root is loaded as usual)."""
    import pto_docs.bridge.exec_model as exec_model
    import pto_docs.cli.validate as validate_cmd

    memo = _real_exec_memo
    load_catalog, model_runner, load_model = validate_cmd.load_catalog, exec_model.ModelRunner, exec_model.load_model

    def shared_load(root, *args, **kwargs):
        if not args and not kwargs and Path(root).resolve() == memo["root"]:
            return memo["load"]
        return load_catalog(root, *args, **kwargs)

    def shared_runner(catalog, generated, cache_dir=None, profile="ieee", calls=()):
        if catalog is not memo["load"].catalog:
            return model_runner(catalog, generated, cache_dir, profile, calls)
        key = (generated, str(cache_dir), profile, tuple(calls))
        if key not in memo["runners"]:
            memo["runners"][key] = model_runner(catalog, generated, cache_dir, profile, calls)
        return memo["runners"][key]

    def shared_model(units, generated, cache_dir=None, parsed=None):
        # a Session reads its model (Program compiles the declarations into tables of its own): several may be
        # linked from one parsed model
        key = (tuple((u.unit_id, u.text) for u in units), generated, str(cache_dir))
        if key not in memo["models"]:
            memo["models"][key] = load_model(units, generated, cache_dir, parsed)
        return memo["models"][key]

    monkeypatch.setattr(validate_cmd, "load_catalog", shared_load)
    monkeypatch.setattr(exec_model, "load_model", shared_model)
    monkeypatch.setattr(exec_model, "ModelRunner", shared_runner)
    return memo
