"""``ResetProfileState()`` on the fresh-run state, run once and remembered.

Nearly every AVS test point begins with ``ResetProfileState()``, called on the fresh-run state that the harness
restores before each test. From that state the call always leaves the same state: it takes no argument, and a
test's own globals are declared after the model, out of its reach. Yet running it costs 8-25 ms and writes
some 13,000 storage paths (memory bytes, system registers, tile payload) that the next reset then restores one
by one: about a third of a typical point. So a session runs it once, keeps what it wrote, and when a test
calls it on that fresh state (nothing written since the reset, the same baseline) puts the values it changed
in place instead. Most of what it writes is the value already there (of 0.58.3's 13,000 paths, 176 and 4
whole globals change), so a test's next reset restores a few hundred paths, not 13,000. A global it wrote
more of than a whole copy costs is copied whole; any other changed path is written as the ASL wrote it.

Most calls are not on the fresh state, though: a generated ``Validate*`` body calls it once per case, on the
state the previous case left. Those calls use the shortcut too when the session has shown that the
subprogram's writes do not depend on the state it starts from (``state_independent_writes``): run on a state
whose every ``var`` leaf is a poison value that fails on any use (compare, arithmetic, truth, indexing, hash),
it completes, and every path it wrote holds the value the fresh run wrote there, with no poison in it. So no
value, branch or index of the run came from a value it did not write itself first; the set of written paths
and their values are the same from every state. On such a state the call's result is then: the paths the
test wrote that the subprogram does not overwrite keep their values, everything else is the fresh state plus
the shortcut's changes. A call runs the ASL when that was not shown, or on a session whose fresh state
changed.

The state after the shortcut is the state after the ASL: ``tests/asl/test_fresh_reset.py`` compares every
global of the real model both ways, from the fresh state and from states that test points left.
"""

from __future__ import annotations

from .errors import AslError
from .runner import run_in_big_stack
from .values import BV, copy_cost, copy_value

NAME = "ResetProfileState"


def identical(a, b) -> bool:
    """The same ASL value: same Python types all the way down (``0 == False`` is no match) and equal."""
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return len(a) == len(b) and all(identical(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return a.keys() == b.keys() and all(identical(a[k], b[k]) for k in a)
    return a == b


def remember_fresh_reset(program) -> bool:
    """Install the shortcut in ``program`` (whose state must be the fresh one); False when the model has no
    such subprogram, or running it fails (then the ASL runs every time, as before)."""
    fitting = [f for f in program.functions.get(NAME, ()) if f.arity == 0 and f.decl.ret is None]
    if len(fitting) != 1:
        return False
    pyname = fitting[0].pyname
    program.reset()
    try:
        run_in_big_stack(program.call, NAME)  # compiles it: ns[pyname] is now the compiled function
    except (AslError, RecursionError):
        program.reset()
        return False
    written: dict[int, list[tuple]] = {}
    for path in program.dirty:
        written.setdefault(path[0], []).append(path)
    G, fresh = program.G, program.initial
    whole: list[tuple[int, object]] = []
    paths: list[tuple[tuple, object]] = []
    for j, js in written.items():
        if any(len(path) == 1 for path in js):  # assigned whole (small globals in practice): compare whole
            if not identical(G[j], fresh[j]):
                whole.append((j, copy_value(G[j])))
            continue
        changed = []  # compared path by path: _SharedTiles alone holds millions of values it does not write
        for path in sorted(js, key=len):
            value, before = G[j], fresh[j]
            for key in path[1:]:
                value, before = value[key], before[key]
            if not identical(value, before):
                changed.append((path, value))
        if not changed:
            continue  # rewritten with the values it had: nothing to put in place
        if len(changed) >= copy_cost(G[j], len(changed) + 1):
            whole.append((j, copy_value(G[j])))
        else:
            paths.extend((path, copy_value(value)) for path, value in changed)
    program.reset()
    baseline = program.initial
    asl = program.ns[pyname]
    general = state_independent_writes(program, asl, written)
    written_values, covers, under = general if general is not None else ({}, set(), {})

    def fresh_shortcut():
        state, dirty = program.G, program.dirty
        for j, value in whole:
            state[j] = copy_value(value)
            dirty.add((j,))
        for path, value in paths:
            target = state[path[0]]
            for key in path[1:-1]:
                target = target[key]
            target[path[-1]] = copy_value(value)
            dirty.add(path)

    def reset_profile_state():
        if program.initial is not baseline:
            return asl()
        if program.dirty:
            if general is None:
                return asl()
            # keep what the test wrote outside the subprogram's paths; the rest is the fresh state's result
            state, dirty = program.G, program.dirty
            kept = sorted((d for d in dirty if not any(d[:i] in covers for i in range(1, len(d) + 1))), key=len)
            kept_values = [(d, copy_value(value_at(state, d))) for d in kept]
            program.restore_written()
            fresh_shortcut()
            for d, value in kept_values:
                put_at(state, d, value)
                dirty.add(d)
                for p in under.get(d, ()):  # d holds paths the subprogram writes: those take its values again
                    put_at(state, p, copy_value(written_values[p]))
                    dirty.add(p)
            return None
        fresh_shortcut()
        return None

    program.ns[pyname] = reset_profile_state
    return True


def value_at(state, path):
    """The value at storage path ``path`` (``(global index, key, ...)``) of ``state``."""
    value = state[path[0]]
    for key in path[1:]:
        value = value[key]
    return value


def put_at(state, path, value):
    """Store ``value`` at storage path ``path`` of ``state``."""
    if len(path) == 1:
        state[path[0]] = value
        return
    target = state[path[0]]
    for key in path[1:-1]:
        target = target[key]
    target[path[-1]] = value


class PoisonRead(Exception):
    """A run read a value of the state it started from."""


def _refuse(*_args, **_kwargs):
    raise PoisonRead()


_REFUSED = ("__bool__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__index__",
            "__int__", "__float__", "__len__", "__iter__", "__contains__", "__getitem__", "__setitem__", "__add__",
            "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__", "__floordiv__",
            "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__", "__and__", "__rand__", "__or__",
            "__ror__", "__xor__", "__rxor__", "__lshift__", "__rlshift__", "__rshift__", "__rrshift__", "__neg__",
            "__pos__", "__abs__", "__invert__", "__str__", "__repr__", "__format__", "__getattr__", "__call__",
            "__reduce__", "__reduce_ex__", "__copy__", "__deepcopy__")
# A leaf of the starting state in the independence check: any use of it raises PoisonRead.
_Poison = type("_Poison", (), {"__slots__": (), **{name: _refuse for name in _REFUSED}})
POISON = _Poison()


def _poisoned(value):
    """``value``'s shape (arrays and records are fixed in ASL) with every leaf replaced by POISON."""
    t = type(value)
    if t is dict:
        return {k: _poisoned(x) for k, x in value.items()}
    if t is list:
        if value and type(value[0]) in (dict, list):
            return [_poisoned(x) for x in value]
        return [POISON] * len(value)
    return POISON


def _holds_poison(value) -> bool:
    t = type(value)
    if t is _Poison:
        return True
    if t is dict:
        return any(_holds_poison(x) for x in value.values())
    if t is list or t is tuple:
        return any(_holds_poison(x) for x in value)
    if t is BV:
        return type(value.val) is _Poison or type(value.width) is _Poison
    return False


def state_independent_writes(program, asl, fresh_written: dict[int, list[tuple]]):
    """Whether ``asl`` (the compiled subprogram, no arguments) writes the same paths with the same values from
    any state. When it does: ``(values, covers, under)``, the value it leaves at each path it writes, those
    paths as a set, and for each proper prefix of them the paths below it. None when it reads the state it
    starts from, or anything else goes wrong (then the ASL keeps running). ``program`` must be in its fresh
    state and ``fresh_written`` hold the paths the fresh run wrote, by global; the fresh state is back when
    this returns."""
    G = program.G
    mutable = sorted({program.global_index[d.name] for d in program.global_decls if d.kind == "var"})
    saved = {j: G[j] for j in mutable}
    try:
        for j in mutable:
            G[j] = _poisoned(saved[j])
        program.dirty.clear()
        run_in_big_stack(asl)
        written = sorted(program.dirty, key=len)
        values = {p: copy_value(value_at(G, p)) for p in written}
    except Exception:  # noqa: BLE001 - PoisonRead, an AslError, anything: not shown independent
        return None
    finally:
        for j in mutable:
            G[j] = saved[j]
        program.dirty.clear()
        program.renew_budget()
    if {p for ps in fresh_written.values() for p in ps} != values.keys():
        return None
    if any(_holds_poison(v) for v in values.values()):
        return None
    # the values the run from the fresh state leaves at those paths
    try:
        run_in_big_stack(asl)
        if not all(identical(value_at(G, p), v) for p, v in values.items()):
            return None
    except (AslError, RecursionError):
        return None
    finally:
        program.reset()
    under: dict[tuple, list[tuple]] = {}
    for p in written:
        for i in range(1, len(p)):
            under.setdefault(p[:i], []).append(p)
    return values, set(values), under
