"""The remembered ResetProfileState (asl/fresh_reset.py) leaves exactly the state the ASL leaves.

Two sessions of the same model, one with the shortcut and one without, call ``ResetProfileState`` from the
fresh state and from a state a test has written; every global must be equal after each call and after the
reset that follows.
"""

from __future__ import annotations

import pytest

from pto_docs.asl import harness
from pto_docs.asl.fresh_reset import NAME
from pto_docs.asl.runner import run_in_big_stack
from pto_docs.asl.values import BV


def sessions(model, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(harness, "remember_fresh_reset", lambda program: False)
        plain = harness.Session(model)
    remembered = harness.Session(model)
    fitting = remembered.program.functions[NAME][0]
    assert remembered.program.ns[fitting.pyname].__name__ == "reset_profile_state"  # the shortcut is installed
    return plain.program, remembered.program


def same_state(a, b) -> None:
    names = {j: n for n, j in a.global_index.items()}
    differing = [names[j] for j, (x, y) in enumerate(zip(a.G, b.G)) if x != y]
    assert differing == [] and len(a.G) == len(b.G)


def check(model, monkeypatch, poke: str) -> None:
    plain, remembered = sessions(model, monkeypatch)
    same_state(plain, remembered)
    for program in (plain, remembered):
        run_in_big_stack(program.call, NAME)
    same_state(plain, remembered)
    for program in (plain, remembered):
        program.reset()
    same_state(plain, remembered)
    # on a state a test has written (not the fresh one) the ASL runs: both sessions still agree
    for program in (plain, remembered):
        j = program.global_index[poke]
        program.G[j] = BV(1, program.G[j].width) if type(program.G[j]) is BV else program.G[j]
        program.dirty.add((j,))
        run_in_big_stack(program.call, NAME)
    same_state(plain, remembered)
    for program in (plain, remembered):
        program.reset()
    same_state(plain, remembered)


@pytest.mark.realtree
def test_the_real_model_resets_the_same_both_ways(real_load, real_decoders, monkeypatch):
    from pto_docs.asl.model import load_model
    from pto_docs.avs import avs_inputs
    inputs = avs_inputs(real_load.catalog)
    model = load_model(inputs.units, real_decoders.read_text("utf-8"))
    check(model, monkeypatch, "_FaultAddress")


def test_the_sample_model_resets_the_same_both_ways(catalog_load, monkeypatch):
    from pto_docs.asl.model import load_model
    from pto_docs.avs import avs_inputs
    inputs = avs_inputs(catalog_load.catalog)
    model = load_model(inputs.units, None)
    if not any(d[0] == "func" and d[2] == NAME for d in model.decls):
        pytest.skip("the sample model has no ResetProfileState")
    check(model, monkeypatch, "_LastFault")
