"""``ResetProfileState()`` on the fresh-run state, run once and remembered.

Nearly every AVS test point begins with ``ResetProfileState()``, called on the fresh-run state that the harness
restores before each test. From that state the call always leaves the same state: it takes no argument, and a
test's own globals are declared after the model, out of its reach. Yet running it costs 8-25 ms and writes
some 13,000 storage paths (memory bytes, system registers, tile payload) that the next reset then restores one
by one: about a third of a typical point. So a session runs it once, keeps what it wrote, and when a test
calls it on that fresh state (nothing written since the reset, the same baseline) puts the values it changed
in place instead. Most of what it writes is the value already there (of 0.58.3's 13,000 paths, 176 and 4
whole globals change), so a test's next reset restores a few hundred paths, not 13,000. A global it wrote
more of than a whole copy costs is copied whole; any other changed path is written as the ASL wrote it. A
call on any other state runs the ASL.

The state after the shortcut is the state after the ASL: ``tests/asl/test_fresh_reset.py`` compares every
global of the real model both ways.
"""

from __future__ import annotations

from .errors import AslError
from .runner import run_in_big_stack
from .values import copy_cost, copy_value

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
    fitting = [f for f in program.functions.get(NAME, ()) if f.arity == 0 and f.decl[7] is None]
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

    def reset_profile_state():
        if program.dirty or program.initial is not baseline:
            return asl()
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
        return None

    program.ns[pyname] = reset_profile_state
    return True
