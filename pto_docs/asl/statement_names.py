"""The names a statement list declares (its locals) and assigns at the root of a target: read by the program
(which frames own their aggregates) and by the aliasing analysis (which globals a subprogram may write)."""

from __future__ import annotations


def declared_names(stmts, out, owned_only: bool = False):
    """The local names the statements declare; with ``owned_only`` only those of ``var``/``let``/``constant``
    declarations, whose aggregates the frame owns (every value bound to them is a copy or a fresh value)."""
    for s in stmts:
        tag = s.tag
        if tag == "decl":
            if isinstance(s.target, str):
                out.append(s.target)
            elif not owned_only:  # (a tuple's parts are not copied: copy_value keeps tuples as they are)
                out.extend(n for n in s.target if n is not None)
        elif tag == "vars":
            out.extend(s.names)
        elif tag == "for":
            if not owned_only:
                out.append(s.name)
            declared_names(s.body, out, owned_only)
        elif tag == "if":
            declared_names(s.then, out, owned_only)
            declared_names(s.other, out, owned_only)
        elif tag == "case":
            for alt in s.alts:
                declared_names(alt.body, out, owned_only)
            if s.otherwise:
                declared_names(s.otherwise, out, owned_only)
        elif tag == "while" or tag == "repeat":
            declared_names(s.body, out, owned_only)
        elif tag == "try":
            declared_names(s.body, out, owned_only)
            for catcher in s.catchers:
                if catcher.name and not owned_only:
                    out.append(catcher.name)
                declared_names(catcher.body, out, owned_only)
            if s.otherwise:
                declared_names(s.otherwise, out, owned_only)


def assigned_roots(stmts, out):
    """Names at the root of an assignment target anywhere in the statement list."""
    for s in stmts:
        tag = s.tag
        if tag == "assign":
            stack = [s.target]
            while stack:
                x = stack.pop()
                if x.tag == "lvar":
                    out.add(x.name)
                elif x.tag == "ltuple":
                    stack.extend(x.items)
                elif x.tag != "ldiscard":
                    stack.append(x.base)
        elif tag == "if":
            assigned_roots(s.then, out)
            assigned_roots(s.other, out)
        elif tag == "case":
            for alt in s.alts:
                assigned_roots(alt.body, out)
            if s.otherwise:
                assigned_roots(s.otherwise, out)
        elif tag == "for" or tag == "while" or tag == "repeat":
            assigned_roots(s.body, out)
        elif tag == "try":
            assigned_roots(s.body, out)
            for catcher in s.catchers:
                assigned_roots(catcher.body, out)
            if s.otherwise:
                assigned_roots(s.otherwise, out)
