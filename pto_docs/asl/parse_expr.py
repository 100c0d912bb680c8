"""Primary expressions: literals, names, calls, record constructions, tuples, ARBITRARY."""

from __future__ import annotations

from fractions import Fraction

from .syntax import Arbitrary, Call, FieldInit, Lit, RecordExpr, TupleExpr, Var
from .values import BV


def parse_primary(p):
    tok = p.toks[p.i]
    k, value, pos = tok
    p.i += 1
    if k == "INT":
        return Lit(pos, value)
    if k == "ID":
        if value in ("TRUE", "FALSE"):
            return Lit(pos, value == "TRUE")
        nxt = p.kinds[p.i]
        if nxt == "(":
            p.i += 1
            return Call(pos, value, [], call_args(p))
        if nxt == "{":
            if p.kinds[p.i + 1] == "-" and p.kinds[p.i + 2] == "}":
                p.i += 3
                return RecordExpr(pos, value, [])
            if p.kinds[p.i + 1] == "ID" and p.kinds[p.i + 2] == "=":
                return record_fields(p, pos, value)
            p.i += 1
            params = [p.expr()]
            while p.accept(","):
                params.append(p.expr())
            p.expect("}")
            args = []
            if p.accept("("):
                args = call_args(p)
            return Call(pos, value, params, args)
        return Var(pos, value)
    if k == "BITS":
        return Lit(pos, BV(int(value or "0", 2), len(value)))
    if k == "REAL":
        return Lit(pos, Fraction(value))
    if k == "STR":
        return Lit(pos, value)
    if k == "(":
        items = [p.expr()]
        while p.accept(","):
            items.append(p.expr())
        p.expect(")")
        return items[0] if len(items) == 1 else TupleExpr(pos, items)
    if k == "ARBITRARY":
        p.expect(":")
        return Arbitrary(pos, p.type_())
    if k == "[":  # ASL v0's `[a, b]` concatenation: ASLRef rejects it
        p.error("'[a, b]' is not ASL v1: concatenate with a :: b", pos)
    if k == "MASK":
        p.error("a bit mask is only allowed as a pattern", pos)
    p.i -= 1
    found = "end of file" if k == "EOF" else repr(str(value))
    p.error(f"expected an expression, found {found}", pos)


def call_args(p) -> list:
    """Arguments after '(' up to and including ')'."""
    args = []
    if p.accept(")"):
        return args
    args.append(p.expr())
    while p.accept(","):
        args.append(p.expr())
    p.expect(")")
    return args


def record_fields(p, pos, name):
    p.expect("{")
    fields = []
    while True:
        field = p.ident()
        p.expect("=")
        fields.append(FieldInit(field, p.expr()))
        if not p.accept(","):
            break
    p.expect("}")
    return RecordExpr(pos, name, fields)
