"""Declared types: name resolution, base values (what ``var x: T;`` holds) and ``as`` checks."""

from __future__ import annotations

from fractions import Fraction

from .errors import AslCompileError
from .limits import MAX_BITS, check_array, check_width
from .syntax import RecordType
from .values import BV, copy_value, least_magnitude_member


class TypeTable:
    def __init__(self):
        self.decls: dict[str, tuple] = {}

    def declare(self, name: str, ty):
        self.decls[name] = ty if ty is not None else RecordType([])

    def resolve(self, ty):
        seen = 0
        while ty.tag == "named":
            decl = self.decls.get(ty.name)
            if decl is None:
                raise AslCompileError(f"unknown type {ty.name}")
            ty = decl
            seen += 1
            if seen > 100:
                raise AslCompileError(f"type alias cycle at {ty}")
        return ty

    def base_value(self, ty, comp):
        """A closure ``frame -> value`` giving the base value of ``ty``."""
        ty = self.resolve(ty)
        tag = ty.tag
        if tag == "int":
            v = 0
            if ty.constraints:
                v = self._int_base(ty.constraints, comp)
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
            width = comp.expr(ty.width)
            if ty.width.tag == "lit" and type(ty.width.value) is int and 0 <= ty.width.value <= MAX_BITS:
                v = BV(0, ty.width.value)
                return lambda f: v

            def bits(f):
                w = width(f)
                check_width(w)
                return BV(0, w)

            return bits
        if tag == "enum":
            first = ty.labels[0]
            return lambda f: first
        if tag in ("record", "exception"):
            fields = [(field.name, self.base_value(field.ty, comp)) for field in ty.fields]
            return lambda f: {n: fn(f) for n, fn in fields}
        if tag == "tuple":
            items = [self.base_value(t, comp) for t in ty.items]
            return lambda f: tuple(fn(f) for fn in items)
        if tag == "array":
            size = self.array_size(ty.size, comp)
            elem = self.base_value(ty.elem, comp)

            def array(f):
                n = size(f)
                check_array(n)
                first = elem(f)
                if type(first) in (dict, list):
                    return [first] + [copy_value(first) for _ in range(n - 1)]
                return [first] * n

            return array
        raise AslCompileError(f"no base value for type {tag}")

    def enum_labels(self, e) -> list | None:
        """The labels of the enumeration an array size expression names (``array [[E]] of T``), else None."""
        if e.tag == "var":
            decl = self.decls.get(e.name)
            if decl is not None and decl.tag == "enum":
                return decl.labels
        return None

    def array_size(self, e, comp):
        labels = self.enum_labels(e)
        if labels is not None:
            n = len(labels)
            return lambda f: n
        return comp.expr(e)

    def _int_base(self, constraints, comp):
        """The value of least magnitude in the constraint set (ASLRef's choice), preferring 0."""
        fns = [(comp.expr(c.lo), comp.expr(c.hi) if c.hi is not None else None) for c in constraints]

        def pick(f):
            best = least_magnitude_member((lo(f), hi(f) if hi is not None else lo(f)) for lo, hi in fns)
            if best is None:
                raise AslCompileError("empty integer constraint has no base value")
            return best

        return pick

    def checker(self, ty, comp):
        """``(frame, value) -> bool`` for an ``as`` conversion, or None when nothing is checked."""
        ty = self.resolve(ty)
        if ty.tag == "int" and ty.constraints:
            fns = [(comp.expr(c.lo), comp.expr(c.hi) if c.hi is not None else None) for c in ty.constraints]

            def in_constraints(f, v):
                for lo, hi in fns:
                    if hi is None:
                        if v == lo(f):
                            return True
                    elif lo(f) <= v <= hi(f):
                        return True
                return False

            return in_constraints
        if ty.tag == "bits":
            width = comp.expr(ty.width)
            return lambda f, v: v.width == width(f)
        return None
