"""Declared types: name resolution, base values (what ``var x: T;`` holds) and ``as`` checks."""

from __future__ import annotations

from fractions import Fraction

from .errors import AslCompileError
from .limits import MAX_BITS, check_array, check_width
from .values import BV, copy_value, least_magnitude_member


class TypeTable:
    def __init__(self):
        self.decls: dict[str, tuple] = {}

    def declare(self, name: str, ty):
        self.decls[name] = ty if ty is not None else ("record", [])

    def resolve(self, ty):
        seen = 0
        while ty[0] == "named":
            decl = self.decls.get(ty[1])
            if decl is None:
                raise AslCompileError(f"unknown type {ty[1]}")
            if decl[0] == "enum":
                return ("enum", decl[1], ty[1])
            ty = decl
            seen += 1
            if seen > 100:
                raise AslCompileError(f"type alias cycle at {ty}")
        return ty

    def base_value(self, ty, comp):
        """A closure ``frame -> value`` giving the base value of ``ty``."""
        ty = self.resolve(ty)
        tag = ty[0]
        if tag == "int":
            v = 0
            if ty[1]:
                v = self._int_base(ty[1], comp)
                if callable(v):
                    return v
            return lambda f: v
        if tag == "bool":
            return lambda f: False
        if tag == "real":
            zero = Fraction(0)
            return lambda f: zero
        if tag == "string":
            return lambda f: ""
        if tag == "bits":
            width = comp.expr(ty[1])
            if ty[1][0] == "lit" and type(ty[1][2]) is int and 0 <= ty[1][2] <= MAX_BITS:
                v = BV(0, ty[1][2])
                return lambda f: v

            def bits(f):
                w = width(f)
                check_width(w)
                return BV(0, w)

            return bits
        if tag == "enum":
            first = ty[1][0]
            return lambda f: first
        if tag in ("record", "exception"):
            fields = [(n, self.base_value(t, comp)) for n, t in ty[1]]
            return lambda f: {n: fn(f) for n, fn in fields}
        if tag == "tuple":
            items = [self.base_value(t, comp) for t in ty[1]]
            return lambda f: tuple(fn(f) for fn in items)
        if tag == "array":
            size = self.array_size(ty[1], comp)
            elem = self.base_value(ty[2], comp)

            def array(f):
                n = size(f)
                check_array(n)
                first = elem(f)
                if type(first) in (dict, list):
                    return [first] + [copy_value(first) for _ in range(n - 1)]
                return [first] * n

            return array
        raise AslCompileError(f"no base value for type {tag}")

    def array_size(self, e, comp):
        if e[0] == "var" and e[2] in self.decls and self.decls[e[2]][0] == "enum":
            n = len(self.decls[e[2]][1])
            return lambda f: n
        return comp.expr(e)

    def _int_base(self, constraints, comp):
        """The value of least magnitude in the constraint set (ASLRef's choice), preferring 0."""
        fns = [(comp.expr(lo), comp.expr(hi) if hi is not None else None) for lo, hi in constraints]

        def pick(f):
            best = least_magnitude_member((lo(f), hi(f) if hi is not None else lo(f)) for lo, hi in fns)
            if best is None:
                raise AslCompileError("empty integer constraint has no base value")
            return best

        return pick

    def checker(self, ty, comp):
        """``(frame, value) -> bool`` for an ``as`` conversion, or None when nothing is checked."""
        ty = self.resolve(ty)
        if ty[0] == "int" and ty[1]:
            fns = [(comp.expr(lo), comp.expr(hi) if hi is not None else None) for lo, hi in ty[1]]

            def in_constraints(f, v):
                for lo, hi in fns:
                    if hi is None:
                        if v == lo(f):
                            return True
                    elif lo(f) <= v <= hi(f):
                        return True
                return False

            return in_constraints
        if ty[0] == "bits":
            width = comp.expr(ty[1])
            return lambda f, v: v.width == width(f)
        return None
