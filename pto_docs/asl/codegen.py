"""Translate one ASL subprogram to Python source, compiled with ``compile``/``exec``.

Locals become Python locals (``l_<name>``), globals are ``G[j]`` (a write first records ``j`` in the
dirty set ``_D``), calls go through namespace names that start as compile-on-first-call stubs.
Integers and bitvectors share Python operators (``BV`` overloads them); operators with ASL-specific
errors (DIV, MOD, slices, ``as``) call helpers from ``runtime_helpers``.
"""

from __future__ import annotations

from fractions import Fraction

from .errors import AslCompileError
from .limits import MAX_BITS
from .operators import BINARY, UNARY
from .static_kinds import (
    Known,
    check_field,
    check_mask_pattern,
    check_operands,
    check_slice,
    of_type,
    of_value,
)
from .stdlib import PRIMITIVES
from .syntax import BitsType, NamedType
from .values import BV

NATIVE_BINARY = {"+": "+", "-": "-", "AND": "&", "OR": "|", "XOR": "^", "EOR": "^",
                 "<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!="}
HELPER_BINARY = {"*": "_mul", "DIV": "_div", "DIVRM": "_divrm", "MOD": "_mod", "/": "_rdiv", "RDIV": "_rdiv",
                 "::": "_cat", "++": "_strcat", "^": "_pow", "<<": "_shl", ">>": "_shr", "<=>": "_eq"}
_NO = object()
PATH_TAGS = ("var", "field", "aget")


class CodeGen:
    def __init__(self, program, locals_: set[str]):
        self.program = program
        self.locals = locals_
        self.owned: set[str] = set()  # locals whose aggregate only this frame refers to (StmtGen.returned)
        self.lines: list[str] = []
        self.consts: list = program.codegen_consts
        self.tmp = 0

    # -- helpers -----------------------------------------------------------------------------------
    def emit(self, depth: int, text: str):
        self.lines.append("    " * depth + text)

    def new_tmp(self) -> str:
        self.tmp += 1
        return f"_t{self.tmp}"

    def const(self, v) -> str:
        t = type(v)
        if t is bool or v is None:
            return repr(v)
        if t is int and v.bit_length() < 4096:  # (a longer one is past Python's int-to-text limit: a K entry)
            return repr(v) if v >= 0 else f"({v!r})"
        if t is str:
            return repr(v)
        self.consts.append(v)
        return f"K[{len(self.consts) - 1}]"

    # -- constant evaluation -----------------------------------------------------------------------
    def value(self, e):
        """The value of a constant expression, or _NO."""
        tag = e.tag
        if tag == "lit":
            return e.value
        if tag == "var":
            name = e.name
            if name in self.locals:
                return _NO
            prog = self.program
            if name in prog.constant_names and prog.initial is not None:
                v = prog.G[prog.global_index[name]]
                return v if type(v) not in (dict, list) else _NO
            if name in prog.enum_label_index and name not in prog.global_index:
                return name
            return _NO
        if tag == "bin" and e.op in BINARY:
            a, b = self.value(e.left), self.value(e.right)
            if a is _NO or b is _NO:
                return _NO
            return _try(BINARY[e.op], a, b)
        if tag == "un":
            a = self.value(e.operand)
            return _NO if a is _NO else _try(UNARY[e.op], a)
        if tag == "call" and e.name in PRIMITIVES and e.name not in self.program.functions:
            params = [self.value(p) for p in e.params]
            args = [self.value(a) for a in e.args]
            if any(v is _NO for v in params + args):
                return _NO
            return _try(PRIMITIVES[e.name], params, args)
        return _NO

    # -- static types, where the text gives them cheaply (static_kinds.py) -------------------------
    def static_type(self, e) -> Known | None:
        tag = e.tag
        if tag == "lit":
            return of_value(e.value, True)
        if tag == "var" and e.name in self.locals:
            return self.__dict__.get("local_types", {}).get(e.name)
        if tag == "record":
            return of_type(self.program, NamedType(e.name))
        if tag == "var":  # a global constant, an enumeration label (not known)
            v = self.value(e)
            return of_value(v, False) if v is not _NO else None
        return None

    def view_type(self, e):
        """The resolved type node of ``e`` where the text gives it: a local or global declared with a type, or a
        field of one (a nested bitfield's ``{…}`` or type, a record field's type); else None. Only for a bitfield
        name two declarations give (x_field). Remembered per node: a chain ``x.a.b…`` costs its length once."""
        memo = self.__dict__.setdefault("view_types", {})
        chain = []
        while e.tag == "field" and id(e) not in memo:
            chain.append(e)
            e = e.base
        ty = memo[id(e)][1] if id(e) in memo else self._root_view_type(e)
        for step in reversed(chain):
            ty = _field_type(self.program, ty, step.name)
            memo[id(step)] = (step, ty)  # (the node kept alive, so its id stays its own)
        return ty

    def _root_view_type(self, e):
        if e.tag != "var":
            return None
        if e.name in self.locals:
            known = self.__dict__.get("local_types", {}).get(e.name)
            return known.ty if known is not None else None
        decls = [d for d in self.program.global_decls if d.name == e.name and d.ty is not None]
        return _resolved(self.program, decls[-1].ty) if decls else None

    def note_local(self, name: str, ty, init=None):
        """A local's static type from its declaration (None: not known)."""
        types = self.__dict__.setdefault("local_types", {})
        types[name] = of_type(self.program, ty) if ty is not None else (
            self.static_type(init) if init is not None else None)

    # -- expressions -------------------------------------------------------------------------------
    def expr(self, e) -> str:
        v = self.value(e)
        if v is not _NO:
            return self.const(v)
        return getattr(self, "x_" + e.tag)(e)

    def rhs(self, e) -> str:
        """An expression whose value is bound to a new owner: an aggregate read from storage is copied, also
        when it is a branch of a conditional or a part of a tuple (ASL has value semantics)."""
        tag = e.tag
        if tag in ("if", "tuple") and self.value(e) is _NO:
            if tag == "if":
                return f"({self.rhs(e.then)} if {self.expr(e.cond)} else {self.rhs(e.other)})"
            return "(" + "".join(self.rhs(x) + ", " for x in e.items) + ")"
        code = self.expr(e)
        if tag in PATH_TAGS and self.value(e) is _NO:
            return f"_cp({code})"
        return code

    def x_var(self, e):
        name = e.name
        if name in self.locals:
            return "l_" + name
        j = self.program.global_index.get(name)
        if j is None:
            if name in self.program.enum_label_index:
                return repr(name)
            raise AslCompileError(f"unknown identifier {name}")
        return f"G[{j}]"

    def x_bin(self, e):
        op = e.op
        left, right = e.left, e.right
        if left.tag == "lit" and right.tag == "lit" and type(left.value) is not type(right.value) and op in BINARY:
            check_operands(op, BINARY[op], left.value, right.value)  # (5 + "hello")
        a, b = self.expr(e.left), self.expr(e.right)
        if op == "&&":
            return f"({a} and {b})"
        if op == "||":
            return f"({a} or {b})"
        if op == "==>":
            return f"((not {a}) or {b})"
        native = NATIVE_BINARY.get(op)
        if native is not None:
            return f"({a} {native} {b})"
        helper = HELPER_BINARY.get(op)
        if helper is None:
            raise AslCompileError(f"unsupported operator {op}")
        return f"{helper}({a}, {b})"

    def x_un(self, e):
        a = self.expr(e.operand)
        return {"-": f"(-{a})", "!": f"(not {a})", "NOT": f"(~{a})"}[e.op]

    def x_if(self, e):
        return f"({self.expr(e.then)} if {self.expr(e.cond)} else {self.expr(e.other)})"

    def x_tuple(self, e):
        return "(" + "".join(self.expr(x) + ", " for x in e.items) + ")"

    def x_call(self, e):
        name, params, args = e.name, e.params, e.args
        if name not in self.program.functions:
            if name not in PRIMITIVES:
                raise AslCompileError(f"call of unknown subprogram {name}")
            ps = "".join(self.expr(p) + ", " for p in params)
            xs = "".join(self.expr(a) + ", " for a in args)
            if name == "UInt":
                return f"({xs[:-2]}).val"
            return f"P[{name!r}](({ps}), ({xs}))"
        return self.program.call_code(self, name, params, args)

    def x_field(self, e):
        bitfields = self.program.bitfields
        check_field(self.static_type(e.base), (e.name,), bitfields.special)
        if bitfields.special(e.name):
            if e.name in bitfields.repeated:  # two declarations give this name: the static type tells which
                field = _bitfield(self.view_type(e.base), e.name)
                if field is not None:
                    return f"_fldv({self.expr(e.base)}, {bitfields.view(field)})"
            return f"_fld({self.expr(e.base)}, {e.name!r})"
        return f"{self.expr(e.base)}[{e.name!r}]"

    def x_fields(self, e):
        names = e.names
        check_field(self.static_type(e.base), names, self.program.bitfields.special)
        if any(self.program.bitfields.special(n) for n in names):
            return f"_flds({self.expr(e.base)}, {tuple(names)!r})"
        return f"_getfields({self.expr(e.base)}, {tuple(names)!r})"

    def x_aget(self, e):
        return f"_ag({self.expr(e.base)}, {self.expr(e.index)})"

    def slice_parts(self, slices) -> list[tuple[str, str]]:
        """(low, width) code pairs, most significant first."""
        out = []
        for s in slices:
            if s.tag == "single":
                out.append((self.expr(s.index), "1"))
            elif s.tag == "range":
                hi, lo = s.hi, s.lo
                hv, lv = self.value(hi), self.value(lo)
                if hv is not _NO and lv is not _NO:
                    out.append((self.const(lv), self.const(hv - lv + 1)))
                else:
                    lo_code = self.expr(lo)
                    out.append((lo_code, f"({self.expr(hi)} - {lo_code} + 1)"))
            else:
                out.append((self.expr(s.lo), self.expr(s.width)))
        return out

    def x_slice(self, e):
        check_slice(self.static_type(e.base), False)
        base = self.expr(e.base)
        parts = self.slice_parts(e.slices)
        if len(parts) == 1:
            return f"_sl({base}, {parts[0][0]}, {parts[0][1]})"
        flat = ", ".join(f"({lo}, {w})" for lo, w in parts)
        return f"_slices({base}, ({flat},))"

    def x_as(self, e):
        code = self.expr(e.expr)
        ty = self.program.types.resolve(e.ty)
        loc = self.const(self.program.where(e.pos))
        if ty.tag == "int" and ty.constraints:
            ranges = []
            for c in ty.constraints:
                lo_c = self.expr(c.lo)
                ranges.append(f"({lo_c}, {self.expr(c.hi) if c.hi is not None else lo_c})")
            if len(ranges) == 1:
                return f"_rng({code}, {ranges[0][1:-1]}, {loc})"
            return f"_ranges({code}, ({', '.join(ranges)},), {loc})"
        if ty.tag == "bits":
            return f"_width({code}, {self.expr(ty.width)}, {loc})"
        return code

    def pattern_test(self, pats, subject: str, known: Known | None = None) -> str:
        tests = []
        for p in pats:
            tag = p.tag
            if tag == "pmask":
                check_mask_pattern(known, p)
                tests.append(f"(({subject}).val & {p.care}) == {p.value}")
            elif tag == "pall":
                tests.append("True")
            elif tag == "pexpr":
                tests.append(f"{subject} == {self.expr(p.expr)}")
            elif tag == "prange":
                tests.append(f"{self.expr(p.lo)} <= {subject} <= {self.expr(p.hi)}")
            else:  # pleq, pgeq
                tests.append(f"{subject} {'<=' if tag == 'pleq' else '>='} {self.expr(p.bound)}")
        return "(" + " or ".join(f"({t})" for t in tests) + ")"

    def x_in(self, e):
        tmp = self.new_tmp()
        test = self.pattern_test(e.patterns, tmp, self.static_type(e.subject))
        body = test if e.positive else f"(not {test})"
        return f"(({tmp} := {self.expr(e.subject)}) is not None and {body})"

    def x_arb(self, e):
        ty = self.program.types.resolve(e.ty)
        if ty.tag == "int" and ty.constraints:  # as ASLRef: the first constraint's lowest value (not the base value)
            return f"({self.expr(ty.constraints[0].lo)})"
        return self.base(e.ty)

    def x_record(self, e):
        decl = self.program.types.resolve(NamedType(e.name))
        if decl.tag not in ("record", "exception"):
            raise AslCompileError(f"{e.name} is not a record type")
        given = {f.name: self.rhs(f.value) for f in e.fields}
        declared = [f.name for f in decl.fields]
        varying = [f.name for f in e.fields if self.value(f.value) is _NO]
        prelude = []
        if len(varying) > 1 and varying != [n for n in declared if n in varying]:
            # ASLRef evaluates the fields in the order the text gives them, not the type's order
            for name in varying:
                tmp = self.new_tmp()
                prelude.append(f"({tmp} := {given[name]})")
                given[name] = tmp
        items = []
        for field in decl.fields:
            name = field.name
            code = given[name] if name in given else self.base(field.ty)
            items.append(f"{name!r}: {code}")
        record = "{" + ", ".join(items) + "}"
        return f"(({', '.join(prelude)},) and {record})" if prelude else record

    # -- base values -------------------------------------------------------------------------------
    def base(self, ty) -> str:
        ty = self.program.types.resolve(ty)
        tag = ty.tag
        if tag == "int":
            if not ty.constraints:
                return "0"
            pairs = []
            for c in ty.constraints:
                lo_c = self.expr(c.lo)
                pairs.append(f"({lo_c}, {self.expr(c.hi) if c.hi is not None else lo_c})")
            return f"_intbase(({', '.join(pairs)},))"
        if tag == "bool":
            return "False"
        if tag == "real":
            return self.const(Fraction(0))
        if tag == "string":
            return "''"
        if tag == "bits":
            w = self.value(ty.width)
            if w is not _NO and type(w) is int and 0 <= w <= MAX_BITS:
                return self.const(BV(0, w))
            return f"_bv0({self.expr(ty.width)})"
        if tag == "enum":
            return repr(ty.labels[0])
        if tag in ("record", "exception"):
            return "{" + ", ".join(f"{f.name!r}: {self.base(f.ty)}" for f in ty.fields) + "}"
        if tag == "tuple":
            return "(" + "".join(self.base(t) + ", " for t in ty.items) + ")"
        if tag == "array":
            size = ty.size
            labels = self.program.types.enum_labels(size)
            if labels is not None:
                size_code = str(len(labels))
            else:
                size_code = self.expr(size)
            return f"_arr({size_code}, lambda: {self.base(ty.elem)})"
        raise AslCompileError(f"no base value for type {tag}")


def _try(fn, *args):
    try:
        return fn(*args)
    except Exception:  # noqa: BLE001 - not foldable; the error is raised at run time
        return _NO


def _resolved(program, ty):
    try:
        return program.types.resolve(ty)
    except AslCompileError:
        return None


def _field_type(program, holder, name: str):
    """The resolved type of field ``name`` of a value of type ``holder`` (None: not known)."""
    if holder is None:
        return None
    if holder.tag == "bits":
        field = _bitfield(holder, name)
        if field is None:
            return None
        if field.sub:
            return BitsType(None, field.sub)
        return _resolved(program, field.ty) if field.ty is not None else None
    if holder.tag in ("record", "exception"):
        typed = [f for f in holder.fields if f.name == name]
        return _resolved(program, typed[0].ty) if typed else None
    return None


def _bitfield(ty, name: str):
    """The bitfield ``name`` a bitvector type node declares, or None."""
    if ty is None or ty.tag != "bits":
        return None
    for field in ty.fields or ():
        if field.name == name:
            return field
    return None
