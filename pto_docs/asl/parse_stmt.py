"""Statements: control flow, declarations, assignments, assert/print/unreachable/throw."""

from __future__ import annotations

from .syntax import (
    Assert,
    Assign,
    Call,
    CallStmt,
    Case,
    CaseAlt,
    Catcher,
    For,
    IfStmt,
    LArrayGet,
    LDiscard,
    LField,
    LFields,
    Lit,
    LocalDecl,
    LocalVars,
    LSlice,
    LTuple,
    LVar,
    Pass,
    Print,
    Repeat,
    Return,
    Throw,
    Try,
    Unreachable,
    Var,
    While,
)


def parse_stmt(p):
    k = p.kinds[p.i]
    pos = p.toks[p.i][2]
    handler = _HANDLERS.get(k)
    if handler is not None:
        p.i += 1
        return handler(p, pos)
    return assign_or_call(p, pos)


def _if(p, pos):
    cond = p.expr()
    p.expect("then")
    then = p.stmts(("elsif", "else", "end"))
    if p.accept("elsif"):
        other = [_if(p, p.toks[p.i - 1][2])]
        return IfStmt(pos, cond, then, other)
    other = p.stmts(("end",)) if p.accept("else") else []
    p.end_semi()
    return IfStmt(pos, cond, then, other)


def _case(p, pos):
    subject = p.expr()
    p.expect("of")
    alts = []
    otherwise = None
    while p.accept("when"):
        positive = True
        if p.peek() == "!" and p.peek(1) == "{":
            p.i += 1
            positive = False
        if p.peek() == "{":
            p.i += 1
            pats = p.patterns("}")
            p.expect("}")
        else:
            pats = p.patterns("=>")
        where = p.expr() if p.accept("where") else None
        p.expect("=>")
        body = p.stmts(("when", "otherwise", "end"))
        alts.append(CaseAlt(pats, positive, where, body))
    if p.accept("otherwise"):
        p.expect("=>")
        otherwise = p.stmts(("end",))
    p.end_semi()
    return Case(pos, subject, alts, otherwise, p.loc(pos))


def _limit(p):
    return p.expr() if p.accept("looplimit") else None


def _while(p, pos):
    cond = p.expr()
    limit = _limit(p)
    p.expect("do")
    body = p.stmts(("end",))
    p.end_semi()
    return While(pos, cond, limit, body, p.loc(pos))


def _for(p, pos):
    name = p.ident()
    p.expect("=")
    start = p.expr()
    if p.accept("to"):
        up = True
    else:
        p.expect("downto")
        up = False
    stop = p.expr()
    limit = _limit(p)
    p.expect("do")
    body = p.stmts(("end",))
    p.end_semi()
    return For(pos, name, start, up, stop, limit, body, p.loc(pos))


def _repeat(p, pos):
    body = p.stmts(("until",))
    p.expect("until")
    cond = p.expr()
    limit = _limit(p)
    p.expect(";")
    return Repeat(pos, body, cond, limit, p.loc(pos))


def _try(p, pos):
    body = p.stmts(("catch",))
    p.expect("catch")
    catchers = []
    while p.accept("when"):
        name = None
        if p.peek() == "ID" and p.peek(1) == ":":
            name = p.ident()
            p.i += 1
        ty = p.type_()
        p.expect("=>")
        catchers.append(Catcher(name, ty, p.stmts(("when", "otherwise", "end"))))
    if not catchers:  # as ASLRef: 'otherwise' alone is no catch
        p.error("'catch' needs a 'when' clause")
    otherwise = None
    if p.accept("otherwise"):
        p.expect("=>")
        otherwise = p.stmts(("end",))
    p.end_semi()
    return Try(pos, body, catchers, otherwise)


def _pass(p, pos):
    p.expect(";")
    return Pass(pos)


def _pragma(p, pos):
    """``pragma name [e {, e}];``: parsed, then ignored (ASLRef warns that it ignores it)."""
    pragma_args(p)
    return Pass(pos)


def pragma_args(p):
    p.ident()
    if p.peek() != ";":
        p.expr()
        while p.accept(","):
            p.expr()
    p.expect(";")


def _return(p, pos):
    e = None if p.peek() == ";" else p.expr()
    p.expect(";")
    return Return(pos, e)


def _assert(p, pos):
    start = p.toks[p.i][2]
    e = p.expr()
    end = p.toks[p.i][2]
    p.expect(";")
    text = " ".join(p.text[start:end].split())
    return Assert(pos, e, text, p.loc(start))


def _decl(p, pos):
    kind = p.toks[p.i - 1][0]
    if kind == "constant":  # as ASLRef: a constant is global
        p.error("a local 'constant' declaration is not valid ASL (declare it global, or use 'let')", pos)
    if p.accept("("):
        items = []
        while True:
            items.append(None if p.accept("-") else p.ident())
            if not p.accept(","):
                break
        if len(items) < 2:  # as ASLRef: a tuple has two items or more
            p.error("a tuple declaration needs two names or more")
        p.expect(")")
        if all(item is None for item in items):
            p.error("a local declaration must declare at least one name", pos)
        target = items
    else:
        target = p.ident()
        if kind == "var" and p.peek() == ",":
            names, ty = p.names_then_type(target)
            return LocalVars(pos, names, ty)
    ty = p.type_() if p.accept(":") else None
    init = p.expr() if p.accept("=") else None
    if init is None and kind != "var":
        p.error(f"'{kind}' declaration needs an initial value", pos)
    if init is None and ty is None:  # as ASLRef
        p.error("a 'var' declaration needs a type or an initial value", pos)
    p.expect(";")
    return LocalDecl(pos, kind, target, ty, init)


def _print(p, pos):
    newline = p.toks[p.i - 1][0] == "println"
    args = []
    if p.peek() != ";":
        args.append(p.expr())
        while p.accept(","):
            args.append(p.expr())
    p.expect(";")
    return Print(pos, args, newline)


def _unreachable(p, pos):
    p.expect(";")
    return Unreachable(pos, p.loc(pos))


def _throw(p, pos):
    if p.peek() == ";":  # as ASLRef at the commit pto-spec pins: no re-throw statement
        p.error("'throw' needs an exception value ('throw;' is not ASL v1)")
    e = p.expr()
    p.expect(";")
    return Throw(pos, e, p.loc(pos))


_HANDLERS = {
    "if": _if, "case": _case, "while": _while, "for": _for, "repeat": _repeat, "try": _try,
    "pass": _pass, "return": _return, "assert": _assert, "let": _decl, "var": _decl,
    "constant": _decl, "pragma": _pragma, "print": _print, "println": _print, "unreachable": _unreachable, "throw": _throw,
}


def assign_or_call(p, pos):
    if p.peek() == "(":
        p.i += 1
        items = []
        while True:
            items.append(LDiscard() if p.accept("-") else lexpr(p))
            if not p.accept(","):
                break
        if len(items) < 2:  # as ASLRef: a tuple has two items or more
            p.error("a tuple assignment needs two targets or more")
        p.expect(")")
        target = LTuple(items)
    elif p.accept("-"):
        target = LDiscard()
    else:
        p.ident()
        if p.peek() in ("(", "{") and not _is_record(p):
            p.i -= 1
            call = p.primary()
            if call.tag == "call" and p.peek() == ";":
                p.i += 1
                return CallStmt(pos, call.name, call.params, call.args)
            if call.tag == "call" and p.accept("="):
                value = p.expr()
                p.expect(";")
                if not (_calls_something(value) and any(_calls_something(a) for a in call.params + call.args)):
                    return CallStmt(pos, call.name + "__setter", call.params, call.args + [value])
                # as ASLRef, the value is evaluated before the setter's arguments (seen only when both call)
                tmp = f"__setter_value_{pos}"
                return IfStmt(pos, Lit(pos, True), [
                    LocalDecl(pos, "let", tmp, None, value),
                    CallStmt(pos, call.name + "__setter", call.params, call.args + [Var(pos, tmp)])], [])
            if call.tag == "call" and p.peek() in (".", "[", "[["):
                return _write_through_accessor(p, pos, call)
            p.error("expected ';' after a procedure call")
        p.i -= 1
        target = lexpr(p)
    p.expect("=")
    value = p.expr()
    p.expect(";")
    return Assign(pos, target, value)


def _calls_something(e) -> bool:
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            if type(n) is Call:
                return True
            stack.extend(n)
        elif type(n) is list:
            stack.extend(n)
    return False


def _write_through_accessor(p, pos, call):
    """``F(args).f = e;``, ``F(args)[s] = e;`` and deeper: as ASLRef, read with the getter into a local, change
    the local, write it back with the setter (in a block of its own: ``if TRUE then … end``)."""
    tmp = f"__accessor_{pos}"
    target = lexpr(p, LVar(tmp))
    p.expect("=")
    value = p.expr()
    p.expect(";")
    body = [LocalDecl(pos, "var", tmp, None, call), Assign(pos, target, value),
            CallStmt(pos, call.name + "__setter", call.params, call.args + [Var(pos, tmp)])]
    return IfStmt(pos, Lit(pos, True), body, [])


def _is_record(p):
    return p.kinds[p.i] == "{" and p.kinds[p.i + 1] == "ID" and p.kinds[p.i + 2] == "="


def lexpr(p, target=None):
    target = LVar(p.ident()) if target is None else target
    while True:
        k = p.peek()
        if k == ".":
            p.i += 1
            if p.accept("("):
                return _fields_tuple(p, target)
            if p.accept("["):
                names = [p.ident()]
                while p.accept(","):
                    names.append(p.ident())
                p.expect("]")
                target = LFields(target, names)
            else:
                target = LField(target, p.ident())
        elif k == "[[":
            p.i += 1
            idx = p.expr()
            p.expect("]]")
            target = LArrayGet(target, idx)
        elif k == "[":
            p.i += 1
            target = LSlice(target, p.slice_list())
        else:
            return target


def _fields_tuple(p, target):
    """``x.(a, -, b)`` after its ``.(``: as ASLRef, the tuple target ``(x.a, -, x.b)``; a field named twice is an
    error (ASLRef: "multiple writes")."""
    items, seen = [], set()
    while True:
        pos = p.toks[p.i][2]
        if p.accept("-"):
            items.append(LDiscard())
        else:
            name = p.ident()
            if name in seen:
                p.error(f"multiple writes to the field {name!r} in one assignment", pos)
            seen.add(name)
            items.append(LField(target, name))
        if not p.accept(","):
            break
    if len(items) < 2:  # as ASLRef: a tuple has two items or more
        p.error("a tuple assignment needs two targets or more")
    p.expect(")")
    return LTuple(items)
