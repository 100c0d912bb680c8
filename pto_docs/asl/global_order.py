"""The order in which globals are initialised: ASLRef's, i.e. every global after the globals its initialiser
(and its type) uses, directly or through the subprograms it calls, and otherwise by name (byte order):
``let B = A * 2; let A = 21;`` initialises A first, and independent globals initialise in name order."""

from __future__ import annotations

from .syntax import Call, CallStmt, LVar, Var


def _uses(node, names: set, calls: set):
    """Collect the identifiers read or written (``Var``/``LVar`` nodes) and the subprograms called in a tree."""
    stack = [node]
    pop, push = stack.pop, stack.extend
    while stack:
        n = pop()
        if isinstance(n, tuple):
            t = type(n)
            if t is Var or t is LVar:
                names.add(n.name)
            elif t is Call or t is CallStmt:
                calls.add(n.name)
            push(n)
        elif type(n) is list:
            push(n)


def initialisation_order(global_decls: list, functions: dict) -> list:
    """``global_decls`` (:class:`~.syntax.Global` nodes) sorted as ASLRef initialises them.
    ``functions`` maps a subprogram name to its overloads (objects with ``.decl``). A cycle does not stop the
    sort: its globals are taken in name order (a read of one not yet initialised is then a dynamic error)."""
    by_name = {}
    for d in global_decls:
        by_name.setdefault(d.name, d)
    fn_uses: dict[str, tuple[set, set]] = {}

    def function_uses(fname):
        found = fn_uses.get(fname)
        if found is None:
            names, calls = set(), set()
            for f in functions.get(fname, ()):
                _uses(f.decl, names, calls)
            found = fn_uses[fname] = (names, calls)
        return found

    def dependencies(d) -> list[str]:
        names, calls = set(), set()
        _uses((d.ty, d.init), names, calls)
        seen, todo = set(calls), list(calls)
        while todo:
            more_names, more_calls = function_uses(todo.pop())
            names |= more_names
            for c in more_calls - seen:
                seen.add(c)
                todo.append(c)
        return sorted(n for n in names if n in by_name and n != d.name)

    order, state = [], {}
    for name in sorted(by_name):
        if name in state:
            continue
        state[name] = 1
        stack = [(name, iter(dependencies(by_name[name])))]
        while stack:
            current, deps = stack[-1]
            for dep in deps:
                if dep not in state:
                    state[dep] = 1
                    stack.append((dep, iter(dependencies(by_name[dep]))))
                    break
            else:
                stack.pop()
                state[current] = 2
                order.append(by_name[current])
    extra = [d for d in global_decls if by_name.get(d.name) is not d]  # a name declared twice: later, in order
    return order + extra
