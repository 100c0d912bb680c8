"""Field access on values that are not records: bitfields of bitvector types (``bits(8) { [7:4] hi, [0] z }``,
nested ``{ … }`` included) and tuple items (``t.item0``).

A field of a bitvector is found at run time by its name and the value's width among every bitfield the
program's named types and globals declare; a name that two declarations of one width place differently is an
error there. Where two declarations give one name (``repeated``) and the text gives the static type of the
value (codegen.CodeGen.bitfields_of), the generated code names the declaration itself (``view``, ``get_view``),
as ASLRef's static type does. Generated code calls this only for names some bitfield declares or that
read ``itemN``: a record field of any other name stays a plain dictionary lookup.
"""

from __future__ import annotations

import re

from .errors import AslError
from .values import BV

ITEM = re.compile(r"item(\d+)\Z")


class Bitfields:
    def __init__(self, program):
        self.program = program
        self.declared: list[tuple] = []  # (width expression, fields) of each bitvector type with bitfields
        self.names: set[str] = set()
        self.repeated: set[str] = set()  # names two or more bitfield declarations give
        self.views: list = []  # BitField declarations generated code names by index (get_view)
        self._view_index: dict[int, int] = {}
        self._view_parts: list = []
        self._table: dict | None = None  # name -> width -> [(lo, width), ...] most significant first

    def note(self, ty):
        """Remember the bitfields in a declared type (also inside records, arrays and tuples)."""
        tag = getattr(ty, "tag", None)  # (None: no type given)
        if tag == "bits" and ty.fields:
            self.declared.append((ty.width, ty.fields))
            self._names(ty.fields)
        elif tag in ("record", "exception"):
            for field in ty.fields:
                self.note(field.ty)
        elif tag == "array":
            self.note(ty.elem)
        elif tag == "tuple":
            for t in ty.items:
                self.note(t)

    def _names(self, fields):
        for field in fields:
            if field.name in self.names:
                self.repeated.add(field.name)
            self.names.add(field.name)
            if field.sub:
                self._names(field.sub)

    def special(self, name: str) -> bool:
        return name in self.names or ITEM.match(name) is not None

    def table(self) -> dict:
        if self._table is None:
            from .compile_expr import ExprCompiler

            comp = ExprCompiler(self.program, {})
            table: dict = {}
            for width, fields in self.declared:
                self._add(table, comp, comp.expr(width)([None]), fields)
            self._table = table
        return self._table

    def _add(self, table, comp, width, fields):
        for field in fields:
            name, sub = field.name, field.sub
            parts = [tuple(p) for p in comp.slices(field.slices)([None])]
            by_width = table.setdefault(name, {})
            if by_width.get(width, parts) != parts:
                by_width[width] = None  # two declarations disagree: ambiguous
            else:
                by_width[width] = parts
            if sub:
                self._add(table, comp, sum(w for _, w in parts), sub)

    def view(self, field) -> int:
        """The index ``get_view`` knows the declaration ``field`` (a BitField) by."""
        j = self._view_index.get(id(field))
        if j is None:
            j = self._view_index[id(field)] = len(self.views)
            self.views.append(field)
            self._view_parts.append(None)
        return j

    def view_parts(self, v: BV, j: int):
        parts = self._view_parts[j]
        if parts is None:
            from .compile_expr import ExprCompiler

            slices = ExprCompiler(self.program, {}).slices(self.views[j].slices)
            parts = self._view_parts[j] = [tuple(p) for p in slices([None])]
        for lo, w in parts:
            if lo < 0 or w < 0 or lo + w > v.width:
                raise AslError(f"bitfield {self.views[j].name} [{lo}+:{w}] out of range of a {v.width}-bit value")
        return parts

    def get_view(self, v, j: int):
        """``v.f`` where the static type of ``v`` declares ``f`` as ``views[j]``."""
        if type(v) is not BV:
            return self.get(v, self.views[j].name)
        val, out, total = v.val, 0, 0
        for lo, w in self.view_parts(v, j):
            out = (out << w) | ((val >> lo) & ((1 << w) - 1))
            total += w
        return BV(out, total)

    def set_view(self, v, j: int, x):
        """``v.f = x`` where the static type of ``v`` declares ``f`` as ``views[j]`` (as ``set``)."""
        if type(v) is not BV:
            return self.set(v, self.views[j].name, x)
        return self._write(v, self.views[j].name, self.view_parts(v, j), x)

    def parts(self, v: BV, name: str):
        parts = self.table().get(name, {}).get(v.width, False)
        if parts is False:
            raise AslError(f"no bitfield {name} in a {v.width}-bit value")
        if parts is None:
            raise AslError(f"bitfield {name} of a {v.width}-bit value is declared differently by two types")
        for lo, w in parts:
            if lo < 0 or w < 0 or lo + w > v.width:
                raise AslError(f"bitfield {name} [{lo}+:{w}] out of range of a {v.width}-bit value")
        return parts

    def get(self, v, name: str):
        kind = type(v)
        if kind is dict:
            if name in v:
                return v[name]
        elif kind is BV:
            val, out, total = v.val, 0, 0
            for lo, w in self.parts(v, name):
                out = (out << w) | ((val >> lo) & ((1 << w) - 1))
                total += w
            return BV(out, total)
        elif kind is tuple:
            m = ITEM.match(name)
            if m and int(m.group(1)) < len(v):
                return v[int(m.group(1))]
        raise AslError(f"no field {name} in a {_kind(v)} value")

    def get_many(self, v, names):
        out = None
        for name in names:
            x = self.get(v, name)
            if type(x) is not BV:
                raise AslError(f"field {name} of a multi-field read is not a bitvector")
            out = x if out is None else BV((out.val << x.width) | x.val, out.width + x.width)
        return out

    def set_many(self, v, names, x):
        """``v.[a, b] = x``: ``x`` split among the fields, the last name taking the low bits."""
        if type(x) is not BV:
            raise AslError("a multi-field assignment needs a bitvector value")
        widths = [self.get(v, n).width for n in names]
        if sum(widths) != x.width:
            raise AslError(f"fields {', '.join(names)} are {sum(widths)} bits wide, the value {x.width}")
        low, out = x.val, v
        for name, w in zip(reversed(names), reversed(widths)):
            part = BV(low & ((1 << w) - 1), w)
            low >>= w
            new = self.set(out, name, part)
            if new is not None:
                out = new
        return out if type(v) is BV else None

    def set(self, v, name: str, x):
        """``v.name = x``: a record is changed in place (None returned), a bitvector's new value returned."""
        kind = type(v)
        if kind is dict:
            if name not in v:
                raise AslError(f"no field {name} in a record value")
            v[name] = x
            return None
        if kind is not BV:
            raise AslError(f"cannot assign field {name} of a {_kind(v)} value")
        return self._write(v, name, self.parts(v, name), x)

    def _write(self, v: BV, name: str, parts, x) -> BV:
        total = sum(w for _, w in parts)
        if type(x) is not BV or x.width != total:
            raise AslError(f"bitfield {name} is {total} bits wide; the value assigned is not")
        val, low = v.val, x.val
        for lo, w in reversed(parts):
            mask = ((1 << w) - 1) << lo
            val = (val & ~mask) | ((low << lo) & mask)
            low >>= w
        return BV(val, v.width)


def _kind(v) -> str:
    return {dict: "record", BV: "bitvector", tuple: "tuple", list: "array", int: "integer", bool: "boolean",
            str: "string or enumeration"}.get(type(v), type(v).__name__)
