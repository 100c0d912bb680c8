"""The remembered ResetProfileState (asl/fresh_reset.py) leaves exactly the state the ASL leaves.

Two sessions of the same model, one with the shortcut and one without, call ``ResetProfileState`` from the
fresh state, from a state a test has written, and from every state the real tree's test points call it on;
every global must be equal after each call and after the reset that follows. Small models show that a
subprogram reading the state it starts from (a value, a branch, a bitvector slice it updates) keeps running
as ASL on a written state.
"""

from __future__ import annotations

import pytest

from pto_docs.asl import harness
from pto_docs.asl.fresh_reset import NAME, identical, put_at, state_independent_writes, value_at
from pto_docs.asl.runner import run_in_big_stack
from pto_docs.asl.values import BV, copy_value


def harness_sessions(model, monkeypatch) -> tuple[harness.Session, harness.Session]:
    """A session without the shortcut and one with it."""
    with monkeypatch.context() as m:
        m.setattr(harness, "remember_fresh_reset", lambda program: False)
        plain = harness.Session(model)
    remembered = harness.Session(model)
    fitting = remembered.program.functions[NAME][0]
    assert remembered.program.ns[fitting.pyname].__name__ == "reset_profile_state"  # the shortcut is installed
    return plain, remembered


def sessions(model, monkeypatch):
    plain, remembered = harness_sessions(model, monkeypatch)
    return plain.program, remembered.program


def same_state(a, b) -> None:
    names = {j: n for n, j in a.global_index.items()}
    differing = [names[j] for j, (x, y) in enumerate(zip(a.G, b.G)) if x != y]
    assert differing == [] and len(a.G) == len(b.G)


def changed(value):
    """Another value of the same type (an enumeration label stays: the path is still marked written)."""
    if type(value) is BV:
        return BV(value.val ^ 1, value.width)
    if type(value) is bool:
        return not value
    return value + 1 if type(value) is int else value


def unwritten_leaf(program) -> tuple | None:
    """A bitvector, integer or boolean storage path of a ``var`` global that the last run (``program.dirty``)
    did not write, nor any container of it."""
    kinds = {d.name: d.kind for d in program.global_decls}
    covered = program.dirty

    def walk(value, path):
        if any(path[:i] in covered for i in range(1, len(path) + 1)):
            return None
        if type(value) in (BV, int, bool):
            return path
        keys = value.keys() if type(value) is dict else range(len(value)) if type(value) is list else ()
        for key in list(keys)[:4]:
            found = walk(value[key], (*path, key))
            if found:
                return found
        return None

    for name, j in sorted(program.global_index.items()):
        found = walk(program.G[j], (j,)) if kinds[name] == "var" else None
        if found:
            return found
    return None


def check(model, monkeypatch, poke: str, unwritten_expected: bool = True) -> None:
    """From the fresh state, then from a state where ``poke`` (a global the subprogram overwrites) and a
    bitvector global it does not write were changed."""
    plain, remembered = sessions(model, monkeypatch)
    same_state(plain, remembered)
    for program in (plain, remembered):
        run_in_big_stack(program.call, NAME)
    same_state(plain, remembered)
    assert (plain.global_index[poke],) in plain.dirty
    untouched = unwritten_leaf(plain)
    assert untouched or not unwritten_expected
    for program in (plain, remembered):
        program.reset()
    same_state(plain, remembered)
    for program in (plain, remembered):
        j = program.global_index[poke]
        program.G[j] = changed(program.G[j])
        program.dirty.add((j,))
        if untouched:
            put_at(program.G, untouched, changed(value_at(program.G, untouched)))
            program.dirty.add(untouched)
        run_in_big_stack(program.call, NAME)
    same_state(plain, remembered)
    if untouched:  # kept: the subprogram does not write it
        assert value_at(remembered.G, untouched) == changed(value_at(remembered.initial, untouched))
    for program in (plain, remembered):
        program.reset()
    same_state(plain, remembered)


@pytest.mark.realtree
def test_the_real_model_resets_the_same_both_ways(real_load, real_decoders, asl_model_cache, monkeypatch):
    from pto_docs.asl.model import load_model
    from pto_docs.bridge.avs import avs_inputs
    inputs = avs_inputs(real_load.catalog)
    model = load_model(inputs.units, real_decoders.read_text("utf-8"), asl_model_cache)
    check(model, monkeypatch, "_FaultAddress")


def test_the_sample_model_resets_the_same_both_ways(catalog_load, monkeypatch):
    from pto_docs.asl.model import load_model
    from pto_docs.bridge.avs import avs_inputs
    inputs = avs_inputs(catalog_load.catalog)
    model = load_model(inputs.units, None)
    if not any(d.tag == "func" and d.name == NAME for d in model.decls):
        pytest.skip("the sample model has no ResetProfileState")
    check(model, monkeypatch, "_LastFault", unwritten_expected=False)  # the sample's reset writes every global


@pytest.mark.realtree
def test_from_the_states_test_points_leave_the_shortcut_is_the_asl(real_load, real_decoders, asl_model_cache,
                                                                  monkeypatch):
    """Every call a sample of the real tree's test points makes, on the state the point has written by then,
    is checked against the ASL run from the same state in a session without the shortcut."""
    from pto_docs.asl.model import load_model
    from pto_docs.bridge.avs import avs_inputs
    inputs = avs_inputs(real_load.catalog)
    model = load_model(inputs.units, real_decoders.read_text("utf-8"), asl_model_cache)
    plain_session, session = harness_sessions(model, monkeypatch)
    plain, remembered = plain_session.program, session.program
    pyname = remembered.functions[NAME][0].pyname
    shortcut, asl = remembered.ns[pyname], plain.ns[pyname]
    calls_on_written_state = 0

    def checked():
        nonlocal calls_on_written_state
        written = sorted(remembered.dirty, key=len)
        for path in written:  # the plain session, fresh until now, takes the same state
            put_at(plain.G, path, copy_value(value_at(remembered.G, path)))
            plain.dirty.add(path)
        calls_on_written_state += bool(written)
        shortcut()
        asl()
        # elsewhere both hold the fresh state: every path a run changes is marked written (what reset relies on)
        paths = set(written) | remembered.dirty | plain.dirty
        differing = [path for path in paths if not identical(value_at(plain.G, path), value_at(remembered.G, path))]
        assert differing == [], differing[:5]
        plain.reset()

    remembered.ns[pyname] = checked
    for point in inputs.points[::97]:
        result = session.run(point)
        assert result["status"] == "pass", result
        session.restore()
        assert remembered.G == remembered.initial  # the reset after the point is complete
    assert calls_on_written_state >= 10


def independent(text: str) -> bool:
    """Whether the small model's ResetProfileState is shown to write the same from every state."""
    import io

    from pto_docs.asl.parser import parse
    from pto_docs.asl.program import Program
    program = Program(parse(text, "small.asl"), io.StringIO())
    run_in_big_stack(program.initialize)
    run_in_big_stack(program.call, NAME)
    written: dict = {}
    for path in program.dirty:
        written.setdefault(path[0], []).append(path)
    program.reset()
    asl = program.ns[program.functions[NAME][0].pyname]
    result = state_independent_writes(program, asl, written)
    assert all(identical(x, y) for x, y in zip(program.G, program.initial))  # the fresh state is back
    return result is not None


SMALL_STATE = """
var A : integer = 0;
var B : integer = 5;
var M : array [[4]] of integer;
var X : bits(8) = '00000000';
"""


@pytest.mark.parametrize("body, expected", [
    ("A = 1; X = '00000011'; for i = 0 to 3 do M[[i]] = i; end;", True),
    ("for i = 0 to 3 do M[[i]] = 0; end; A = M[[2]] + 1;", True),  # reads only what it wrote first
    ("X = '00000000'; X[0] = '1';", True),  # a slice of a bitvector it wrote whole
    ("A = B;", False),  # copies a value it did not write
    ("if B == 5 then A = 1; end;", False),  # branches on one
    ("M[[B - 5]] = 1;", False),  # indexes by one
    ("M[[1]] = 7; A = M[[0]];", False),  # reads an element it did not write
    ("X[0] = '1';", False),  # updates part of a bitvector it did not write
])
def test_a_subprogram_reading_its_starting_state_is_not_shortcut_on_a_written_state(body, expected):
    text = SMALL_STATE + f"\nfunc {NAME}()\nbegin\n    {body}\nend;\n\nfunc main() => integer\nbegin\n    return 0;\nend;\n"
    assert independent(text) is expected
