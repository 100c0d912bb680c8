"""When a call must copy an argument: ASL passes values, but an aggregate argument read from a global is passed
here as the global's own record or array. That is only visible when the callee, or a subprogram it calls,
writes that global while the parameter is live, so the call copies exactly those arguments: an aggregate read
from a global (``G``, ``G.f``, ``A[[i]]``, either branch of a conditional) that the callee may write. A copy
costs nothing elsewhere, so the AVS model's speed is kept.

The global writes of a subprogram are the roots of its assignments that are not its own locals, with those of
every subprogram it calls (setters included). In a recursive cycle a callee still being computed contributes
nothing, so a subprogram of a mutually recursive group can miss a write of another (then a copy is missed)."""

from __future__ import annotations

from .global_order import _uses
from .statement_names import assigned_roots, declared_names


class GlobalWrites:
    def __init__(self, program):
        self.program = program
        self.memo: dict[str, frozenset] = {}

    def of(self, fname: str) -> frozenset:
        found = self.memo.get(fname)
        if found is not None:
            return found
        self.memo[fname] = frozenset()  # provisional, for recursion
        glob = self.program.global_index
        out: set = set()
        calls: set = set()
        for f in self.program.functions.get(fname, ()):
            body = f.decl.body
            local = [a.name for a in f.decl.params] + [a.name for a in f.decl.args]
            declared_names(body, local)
            roots: set = set()
            assigned_roots(body, roots)
            own = set(local)
            out |= {r for r in roots if r in glob and r not in own}
            _uses(body, set(), calls)
        for c in calls:
            if c != fname:
                out |= self.of(c)
        found = self.memo[fname] = frozenset(out)
        return found


def global_roots(e, locals_, globals_) -> list[str]:
    """The globals an argument expression's value may be part of (a path read, or either branch of ``if``)."""
    tag = e.tag
    if tag == "var":
        name = e.name
        return [name] if name not in locals_ and name in globals_ else []
    if tag in ("field", "aget", "fields"):
        return global_roots(e.base, locals_, globals_)
    if tag == "if":
        return global_roots(e.then, locals_, globals_) + global_roots(e.other, locals_, globals_)
    return []
