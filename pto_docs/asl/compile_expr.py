"""Compile expression trees to Python closures ``fn(frame) -> value`` (used for global initialisers;
subprograms are translated to Python source by codegen.py).

A frame is a list: slot 0 holds the return value, the other slots hold the function's locals.
Globals live in the program's list ``G``; constants whose value is known are folded.
"""

from __future__ import annotations

from .errors import AslCompileError, AslError
from .limits import check_width
from .operators import BINARY, UNARY
from .runtime_helpers import _ag
from .syntax import NamedType
from .values import BV, copy_value

PATH_TAGS = frozenset({"var", "field", "aget", "slice"})
AGGREGATES = (dict, list)
_NO = object()


def constant(v):
    """A closure returning ``v``, marked so that enclosing operators can fold it."""
    fn = lambda f: v  # noqa: E731
    fn.value = v
    return fn


def value_of(fn):
    return getattr(fn, "value", _NO)


def fold(op, fns):
    """Evaluate a pure operation on constant operands once; None when not foldable."""
    vals = [value_of(fn) for fn in fns]
    if any(v is _NO for v in vals):
        return None
    try:
        return constant(op(*vals))
    except Exception:  # noqa: BLE001 - an error stays a run-time error, raised when reached
        return None


class ExprCompiler:
    def __init__(self, program, slots: dict[str, int]):
        self.program = program
        self.slots = slots

    # entry points ------------------------------------------------------------------------------
    def expr(self, e):
        return getattr(self, "e_" + e.tag)(e)

    def rhs(self, e):
        """An expression whose value is bound to a new owner: aggregates read from storage are copied."""
        fn = self.expr(e)
        if e.tag in PATH_TAGS and e.tag != "slice":
            def copied(f):
                v = fn(f)
                return copy_value(v) if type(v) in AGGREGATES else v

            return copied
        return fn

    # leaves -------------------------------------------------------------------------------------
    def e_lit(self, e):
        return constant(e.value)

    def e_var(self, e):
        name = e.name
        slot = self.slots.get(name)
        if slot is not None:
            return lambda f: f[slot]
        return self.program.global_reader(name, e.pos)

    # operators ----------------------------------------------------------------------------------
    def e_bin(self, e):
        op = e.op
        a = self.expr(e.left)
        b = self.expr(e.right)
        folded = fold(BINARY[op], (a, b)) if op in BINARY else None
        if folded is not None:
            return folded
        if op == "&&":
            return lambda f: a(f) and b(f)
        if op == "||":
            return lambda f: a(f) or b(f)
        if op == "==>":
            return lambda f: (not a(f)) or b(f)
        if op in ("==", "!="):
            bv = value_of(b)
            if bv is not _NO:
                return (lambda f: a(f) == bv) if op == "==" else (lambda f: a(f) != bv)
            return (lambda f: a(f) == b(f)) if op == "==" else (lambda f: a(f) != b(f))
        fn = BINARY.get(op)
        if fn is None:
            raise AslCompileError(f"unsupported operator {op}")
        if op in ("+", "-"):
            iop = (lambda x, y: x + y) if op == "+" else (lambda x, y: x - y)

            def arith(f):
                x = a(f)
                y = b(f)
                if type(x) is int:
                    return iop(x, y)
                return fn(x, y)

            return arith
        return lambda f: fn(a(f), b(f))

    def e_un(self, e):
        fn = UNARY[e.op]
        a = self.expr(e.operand)
        folded = fold(fn, (a,))
        if folded is not None:
            return folded
        if e.op == "!":
            return lambda f: not a(f)
        return lambda f: fn(a(f))

    def e_if(self, e):
        c, a, b = self.expr(e.cond), self.expr(e.then), self.expr(e.other)
        return lambda f: a(f) if c(f) else b(f)

    def e_tuple(self, e):
        items = [self.expr(x) for x in e.items]
        return lambda f: tuple(x(f) for x in items)

    # calls --------------------------------------------------------------------------------------
    def e_call(self, e):
        return self.program.compile_call(self, e.name, e.params, e.args, e.pos)

    # accessors ----------------------------------------------------------------------------------
    def e_field(self, e):
        base = self.expr(e.base)
        name = e.name

        def get(f):
            v = base(f)
            try:
                return v[name]
            except (KeyError, TypeError):
                return self.program.bitfields.get(v, name)

        return get

    def e_fields(self, e):
        base = self.expr(e.base)
        names = e.names

        def get(f):
            return self.program.bitfields.get_many(base(f), names)

        return get

    def e_aget(self, e):
        base = self.expr(e.base)
        index = self.index(e.index)

        def get(f):
            return _ag(base(f), index(f))  # the checked read the generated code uses too

        return get

    def index(self, e):
        """Array index: an integer, or an enumeration label mapped to its position."""
        if e.tag == "var" and e.name in self.program.enum_label_index and e.name not in self.slots:
            pos = self.program.enum_label_index[e.name]
            return lambda f: pos
        return self.expr(e)

    def slices(self, slices):
        """Compile slices to a function ``frame -> [(lo, width), ...]`` (most significant first)."""
        parts = []
        for s in slices:
            if s.tag == "single":
                lo = self.expr(s.index)
                parts.append((lo, None))
            elif s.tag == "range":
                hi, lo = self.expr(s.hi), self.expr(s.lo)
                parts.append((lo, hi))
            else:
                lo, w = self.expr(s.lo), self.expr(s.width)
                parts.append((lo, ("len", w)))
        if len(parts) == 1:
            lo, spec = parts[0]
            if spec is None:
                return lambda f: ((lo(f), 1),)
            if type(spec) is tuple:
                wfn = spec[1]
                return lambda f: ((lo(f), wfn(f)),)
            return lambda f: ((lo(f), spec(f) - lo(f) + 1),)

        def many(f):
            out = []
            for lo, spec in parts:
                low = lo(f)
                if spec is None:
                    out.append((low, 1))
                elif type(spec) is tuple:
                    out.append((low, spec[1](f)))
                else:
                    out.append((low, spec(f) - low + 1))
            return out

        return many

    def e_slice(self, e):
        base = self.expr(e.base)
        ranges = self.slices(e.slices)

        def get(f):
            v = base(f)
            rs = ranges(f)
            if type(v) is BV:
                val, width = v.val, v.width
                check = True
            else:
                val, width, check = v, None, False
            if len(rs) == 1:
                lo, w = rs[0]
                if w < 0 or lo < 0 or (check and lo + w > width):
                    raise AslError(f"slice [{lo}+:{w}] out of range of a {width}-bit value")
                if w > 64:
                    check_width(w)
                return BV((val >> lo) & ((1 << w) - 1), w)
            out, total = 0, 0
            for lo, w in rs:
                if w < 0 or lo < 0 or (check and lo + w > width):
                    raise AslError(f"slice [{lo}+:{w}] out of range of a {width}-bit value")
                if w > 64:
                    check_width(w)
                out = (out << w) | ((val >> lo) & ((1 << w) - 1))
                total += w
            return BV(out, total)

        return get

    def e_as(self, e):
        fn = self.expr(e.expr)
        loc = e.pos
        ty = self.program.types.resolve(e.ty)
        if ty.tag == "int" and ty.constraints and len(ty.constraints) == 1 and ty.constraints[0].hi is not None:
            lo, hi = value_of(self.expr(ty.constraints[0].lo)), value_of(self.expr(ty.constraints[0].hi))
            if lo is not _NO and hi is not _NO:
                def in_range(f):
                    v = fn(f)
                    if lo <= v <= hi:
                        return v
                    raise AslError(f"{self.program.where(loc)}: value {v} is not in {{{lo}..{hi}}}")

                return in_range
        check = self.program.types.checker(e.ty, self)
        if check is None:
            return fn

        def checked(f):
            v = fn(f)
            if not check(f, v):
                raise AslError(f"{self.program.where(loc)}: value {v!r} does not belong to the type of 'as'")
            return v

        return checked

    def e_in(self, e):
        subject = self.expr(e.subject)
        test = self.pattern_test(e.patterns)
        if e.positive:
            return lambda f: test(f, subject(f))
        return lambda f: not test(f, subject(f))

    def pattern_test(self, pats):
        tests = [self.pattern(p) for p in pats]
        if len(tests) == 1:
            return tests[0]
        return lambda f, v: any(t(f, v) for t in tests)

    def pattern(self, p):
        tag = p.tag
        if tag == "pmask":
            value, care = p.value, p.care
            return lambda f, v: (v.val & care) == value
        if tag == "pall":
            return lambda f, v: True
        if tag == "pexpr":
            x = self.expr(p.expr)
            return lambda f, v: v == x(f)
        if tag == "prange":
            lo, hi = self.expr(p.lo), self.expr(p.hi)
            return lambda f, v: lo(f) <= v <= hi(f)
        if tag == "pleq":
            x = self.expr(p.bound)
            return lambda f, v: v <= x(f)
        x = self.expr(p.bound)
        return lambda f, v: v >= x(f)

    def e_arb(self, e):
        ty = self.program.types.resolve(e.ty)
        if ty.tag == "int" and ty.constraints:  # as ASLRef: the first constraint's lowest value (not the base value)
            return self.expr(ty.constraints[0].lo)
        return self.program.types.base_value(e.ty, self)

    def e_record(self, e):
        name = e.name
        decl = self.program.types.resolve(NamedType(name))
        if decl.tag not in ("record", "exception"):
            raise AslCompileError(f"{name} is not a record type")
        fields = [(field.name, self.rhs(field.value)) for field in e.fields]
        given = {n for n, _ in fields}
        missing = [(f.name, self.program.types.base_value(f.ty, self)) for f in decl.fields if f.name not in given]
        order = [f.name for f in decl.fields]

        def build(f):
            out = {n: fn(f) for n, fn in fields}
            for n, fn in missing:
                out[n] = fn(f)
            return {n: out[n] for n in order}

        return build
