"""Recursive-descent parser for ASL v1 producing the syntax tree of :mod:`.syntax`.

Declarations are :class:`~.syntax.Func`, :class:`~.syntax.Global` and :class:`~.syntax.TypeDecl` nodes. An
accessor becomes two functions (its getter and ``NAME__setter``).
Binary operators follow ASLRef's precedence levels; mixing two different operators of one level
without parentheses is rejected, as ASLRef rejects it.
"""

from __future__ import annotations

from fractions import Fraction

from .lexer import AslSyntaxError, LineMap, tokenize
from .parse_expr import parse_primary
from .parse_stmt import parse_stmt, pragma_args
from .syntax import (
    AllPattern,
    ArrayGet,
    ArrayType,
    As,
    Binary,
    BitField,
    BitsType,
    BoolType,
    Constraint,
    EnumType,
    ExceptionType,
    ExprPattern,
    FieldGet,
    FieldsGet,
    Func,
    GeqPattern,
    Global,
    IfExpr,
    In,
    IntType,
    LenSlice,
    LeqPattern,
    Lit,
    MaskPattern,
    NamedType,
    RangePattern,
    RangeSlice,
    RealType,
    RecordType,
    SingleSlice,
    SliceExpr,
    StringType,
    TupleType,
    Typed,
    TypeDecl,
    Unary,
    collections_paused,
)
from .values import BV

PREC = {
    "||": 1, "&&": 1, "==>": 1, "<=>": 1,
    "==": 2, "!=": 2,
    ">": 3, ">=": 3, "<": 3, "<=": 3,
    "+": 4, "-": 4, "OR": 4, "XOR": 4, "EOR": 4, "AND": 4, "::": 4, "++": 4,
    "*": 5, "/": 5, "DIV": 5, "DIVRM": 5, "MOD": 5, "<<": 5, ">>": 5,
    "^": 6,
}
ASSOCIATIVE = frozenset({"+", "AND", "&&", "||", "<=>", "*", "OR", "XOR", "EOR", "::", "++"})
NONASSOC_LEVEL = 3
# Deepest nesting of expressions (parentheses, conditional expressions, unary operators, call arguments) and of
# statements: each level is a Python call here and a level of parentheses or indentation in the generated Python,
# whose compiler refuses 200 parentheses and 100 indents. pto-spec 0.58.3 nests far less.
MAX_NESTING = 40


class Parser:
    def __init__(self, text: str, path: str = "<string>"):
        self.text = text
        self.path = path
        self.toks = tokenize(text, path)
        self.kinds = [t[0] for t in self.toks]
        self.i = 0
        self.depth = self.stmt_depth = 0  # expressions, statements being parsed one inside the other (MAX_NESTING)
        self._lines: LineMap | None = None

    # -- helpers -------------------------------------------------------------------------------
    def loc(self, offset: int) -> str:
        if self._lines is None:
            self._lines = LineMap(self.text)
        line, col = self._lines.locate(offset)
        return f"{self.path}:{line}:{col}"

    def error(self, message: str, offset: int | None = None):
        if offset is None:
            offset = self.toks[self.i][2]
        if self._lines is None:
            self._lines = LineMap(self.text)
        line, col = self._lines.locate(offset)
        raise AslSyntaxError(self.path, line, col, message)

    def peek(self, k: int = 0) -> str:
        return self.kinds[self.i + k]

    def accept(self, kind: str) -> bool:
        if self.kinds[self.i] == kind:
            self.i += 1
            return True
        return False

    def expect(self, kind: str):
        tok = self.toks[self.i]
        if tok[0] != kind:
            found = "end of file" if tok[0] == "EOF" else repr(str(tok[1]))
            self.error(f"expected {kind!r}, found {found}")
        self.i += 1
        return tok[1]

    def ident(self) -> str:
        return self.expect("ID")

    # -- declarations --------------------------------------------------------------------------
    def parse_spec(self) -> list:
        decls = []
        while self.peek() != "EOF":
            d = self.decl()
            if type(d) is tuple:  # the parser's own groups: ("pragma", pos), ("accessor" or "many", pos, *decls)
                decls.extend(d[2:])
            else:
                decls.append(d)
        return decls

    def decl(self):
        pos = self.toks[self.i][2]
        k = self.peek()
        qualifier = override = None
        while k in ("pure", "readonly", "noreturn", "impdef", "implementation"):
            if k in ("impdef", "implementation"):
                override = k
            else:
                qualifier = k
            self.i += 1
            k = self.peek()
        if k == "func":
            self.i += 1
            return self.func_decl(pos, qualifier, override)
        if k == "pragma" and not (qualifier or override):
            self.i += 1
            pragma_args(self)
            return ("pragma", pos)
        if k == "accessor":
            self.i += 1
            return self.accessor_decl(pos, override)
        if qualifier or override:
            self.error("expected 'func' after qualifier")
        if k == "type":
            self.i += 1
            name = self.ident()
            ty = None
            if self.accept("of"):
                ty = self.type_decl()
            elif self.accept("subtypes"):
                self.error("subtypes are not supported")
            self.expect(";")
            return TypeDecl(pos, name, ty)
        if k in ("var", "let", "constant", "config"):
            self.i += 1
            name = self.ident()
            if k == "var" and self.peek() == ",":  # var A, B: T;
                names, ty = self.names_then_type(name)
                return ("many", pos, *[Global(pos, k, n, ty, None) for n in names])
            ty = None
            if self.accept(":"):
                if k == "var" and self.accept("collection"):  # as ASLRef: only a global var's own type
                    ty = RecordType(self.fields())
                else:
                    ty = self.type_()
            init = self.expr() if self.accept("=") else None
            if init is None and k != "var":
                self.error(f"a global '{k}' declaration needs an initial value: {k} {name} = e;")
            if init is None and ty is None:  # as ASLRef
                self.error(f"a global 'var' declaration needs a type or an initial value: var {name}: T;")
            self.expect(";")
            return Global(pos, k, name, ty, init)
        self.error(f"expected a declaration, found {str(self.toks[self.i][1])!r}")

    def func_decl(self, pos, qualifier, override):
        name = self.ident()
        params = self.subprogram_params()
        args = self.typed_args()
        if qualifier == "noreturn" and self.peek() == "=>":
            self.error("a noreturn subprogram returns no value (declare it a procedure)")
        ret = self.type_() if self.accept("=>") else None
        limit = self.expr() if self.accept("recurselimit") else None
        self.expect("begin")
        body = self.stmts(("end",))
        self.expect("end")
        self.expect(";")
        return Func(pos, name, qualifier, override, params, args, ret, body, limit, self.loc(pos))

    def subprogram_params(self) -> list:
        """``{N, M: T, ...}`` after a subprogram's or an accessor's name, if there: its parameters."""
        params = []
        if self.accept("{"):
            while True:
                pname = self.ident()
                params.append(Typed(pname, self.type_() if self.accept(":") else None))
                if not self.accept(","):
                    break
            self.expect("}")
        return params

    def typed_args(self) -> list:
        """``( name: type, ... )``: the arguments of a subprogram or accessor declaration."""
        self.expect("(")
        args = []
        if self.peek() != ")":
            while True:
                aname = self.ident()
                self.expect(":")
                args.append(Typed(aname, self.type_()))
                if not self.accept(","):
                    break
        self.expect(")")
        return args

    def accessor_decl(self, pos, override):
        """``accessor N(args) <=> v: T begin getter ... end; setter ... end; end;`` as two functions:
        the getter ``N(args) => T`` and the setter ``N__setter(args, v: T)``."""
        name = self.ident()
        params = self.subprogram_params()
        args = self.typed_args()
        self.expect("<=>")
        value_name = self.ident()
        self.expect(":")
        ty = self.type_()
        self.expect("begin")
        bodies = {}
        for _ in range(2):
            self.accept("readonly")
            which = self.peek()
            if which not in ("getter", "setter") or which in bodies:
                self.error("expected 'getter' and 'setter' blocks in an accessor")
            self.i += 1
            bodies[which] = self.stmts(("end",))
            self.end_semi()
        self.end_semi()
        loc = self.loc(pos)
        getter = Func(pos, name, None, override, params, args, ty, bodies["getter"], None, loc)
        setter = Func(pos, name + "__setter", None, override, params, args + [Typed(value_name, ty)], None,
                      bodies["setter"], None, loc)
        return ("accessor", pos, getter, setter)

    # -- types ---------------------------------------------------------------------------------
    def type_decl(self):
        k = self.peek()
        if k == "enumeration":
            self.i += 1
            self.expect("{")
            labels = [self.ident()]
            while self.accept(","):
                if self.peek() == "}":
                    break
                labels.append(self.ident())
            self.expect("}")
            return EnumType(labels)
        if k in ("record", "exception"):
            self.i += 1
            return (ExceptionType if k == "exception" else RecordType)(self.fields())
        return self.type_()

    def fields(self):
        self.expect("{")
        out = []
        if self.accept("-"):
            self.expect("}")
            return out
        while self.peek() != "}":
            name = self.ident()
            self.expect(":")
            out.append(Typed(name, self.type_()))
            if not self.accept(","):
                break
        self.expect("}")
        return out

    def type_(self):
        k = self.peek()
        self.i += 1
        if k == "integer":
            return IntType(self.constraints() if self.peek() == "{" else None)
        if k == "boolean":
            return BoolType()
        if k == "real":
            return RealType()
        if k == "string":
            return StringType()
        if k == "bit":
            return BitsType(Lit(0, 1), [])
        if k == "bits":
            self.expect("(")
            width = self.expr()
            self.expect(")")
            fields = self.bitfields() if self.peek() == "{" else []
            return BitsType(width, fields)
        if k == "array":
            self.expect("[[")
            size = self.expr()
            self.expect("]]")
            self.expect("of")
            return ArrayType(size, self.type_())
        if k == "ID":
            return NamedType(self.toks[self.i - 1][1])
        if k == "(":
            items = [self.type_()]
            while self.accept(","):
                items.append(self.type_())
            self.expect(")")
            return items[0] if len(items) == 1 else TupleType(items)
        self.i -= 1
        self.error(f"expected a type, found {str(self.toks[self.i][1])!r}")

    def constraints(self):
        self.expect("{")
        out = []
        if self.peek() != "}":
            while True:
                lo = self.expr()
                out.append(Constraint(lo, self.expr()) if self.accept("..") else Constraint(lo, None))
                if not self.accept(","):
                    break
        self.expect("}")
        return out

    def bitfields(self):
        self.expect("{")
        out = []
        while self.peek() != "}":
            self.expect("[")
            slices = self.slice_list()
            name = self.ident()
            sub = self.bitfields() if self.peek() == "{" else None
            ty = None
            if self.accept(":"):  # [16:1] time : bits(16) { [0] odd_even }: the type's bitfields are nested ones
                ty = self.type_()
                if ty.tag == "bits" and ty.fields and not sub:
                    sub = ty.fields
            out.append(BitField(name, slices, sub, ty))
            if not self.accept(","):
                break
        self.expect("}")
        return out

    # -- statements ----------------------------------------------------------------------------
    def stmts(self, stops) -> list:
        out = []
        while self.peek() not in stops:
            if self.peek() == "EOF":
                self.error("unexpected end of file in statement list")
            out.append(self.stmt())
        if not out:  # as ASLRef: every statement list has a statement
            self.error("expected a statement (an empty statement list is not ASL: write 'pass;')")
        return out

    def names_then_type(self, first: str):
        """The rest of `var A, B, C: T;` after its first name: all the names and the type."""
        names = [first]
        while self.accept(","):
            names.append(self.ident())
        self.expect(":")
        ty = self.type_()
        self.expect(";")
        return names, ty

    def end_semi(self):
        self.expect("end")
        self.expect(";")

    def stmt(self):
        self.stmt_depth += 1
        if self.stmt_depth > MAX_NESTING:
            self.error(f"statements nested more than {MAX_NESTING} deep")
        s = parse_stmt(self)
        self.stmt_depth -= 1
        return s

    def nested_too_deep(self):
        self.error(f"expression nested more than {MAX_NESTING} deep")

    # -- expressions ---------------------------------------------------------------------------
    def expr(self):
        self.depth += 1
        if self.depth > MAX_NESTING:
            self.nested_too_deep()
        if self.peek() == "if":
            pos = self.toks[self.i][2]
            self.i += 1
            cond = self.expr()
            self.expect("then")
            then = self.expr()
            if self.peek() == "elsif":
                self.error("use 'else if' in a conditional expression")
            self.expect("else")
            e = IfExpr(pos, cond, then, self.expr())
        else:
            e = self.binary(1)
            while self.kinds[self.i] == "as":  # as ASLRef: `a + b as T` is `(a + b) as T`, `x as T + 1` goes on
                e = self.as_suffix(e)
                if self.kinds[self.i] in PREC:
                    e = self.binary(1, e)
        self.depth -= 1
        return e

    def as_suffix(self, e):
        pos = self.toks[self.i][2]
        self.i += 1
        if self.peek() == "{":
            return As(pos, e, IntType(self.constraints()))
        return As(pos, e, self.type_())

    def binary(self, level: int, left=None):
        """An expression of operators of precedence ``level`` and above. The same tree as descending one
        level at a time (``binary(L) = ops of level L over binary(L + 1)``), without the six nested calls an
        operand followed by no operator (most of them) would cost: the levels above the next operator's have
        nothing to take."""
        left = self.unary() if left is None else left
        top = PREC.get(self.kinds[self.i])
        if top is None or top < level:
            return left
        for current in range(top, level - 1, -1):
            left = self._operators_of_level(current, left)
        return left

    def _operators_of_level(self, level: int, left):
        first_op = None
        while True:
            op = self.kinds[self.i]
            if PREC.get(op) != level:
                return left
            pos = self.toks[self.i][2]
            if first_op is not None and (op != first_op or op not in ASSOCIATIVE):
                self.error(f"operators '{first_op}' and '{op}' need parentheses to disambiguate", pos)
            first_op = op
            self.i += 1
            if op in ("==", "!=") and self.peek() == "MASK":
                mask = self.mask_pattern()
                left = In(pos, left, [mask], op == "==")
                continue
            if self.peek() == "if":
                right = self.expr()
            else:
                right = self.binary(6 if op == "^" else level + 1)
            left = Binary(pos, op, left, right)

    def unary(self):
        k = self.peek()
        if k in ("-", "!", "NOT"):
            pos = self.toks[self.i][2]
            self.i += 1
            self.depth += 1
            if self.depth > MAX_NESTING:
                self.nested_too_deep()
            e = Unary(pos, k, self.unary())
            self.depth -= 1
            return e
        return self.postfix(self.primary())

    def postfix(self, e):
        while True:
            k = self.kinds[self.i]
            pos = self.toks[self.i][2]
            if k == "[":
                self.i += 1
                e = SliceExpr(pos, e, self.slice_list())
            elif k == "[[":
                self.i += 1
                idx = self.expr()
                self.expect("]]")
                e = ArrayGet(pos, e, idx)
            elif k == ".":
                self.i += 1
                if self.accept("["):
                    names = [self.ident()]
                    while self.accept(","):
                        names.append(self.ident())
                    self.expect("]")
                    e = FieldsGet(pos, e, names)
                else:
                    e = FieldGet(pos, e, self.ident())
            elif k == "IN":
                self.i += 1
                positive = not self.accept("!")
                self.expect("{")
                pats = self.patterns("}")
                self.expect("}")
                e = In(pos, e, pats, positive)
            else:
                return e

    def slice_list(self):
        """Parse slices after '[' up to and including ']'."""
        out = []
        while True:
            first = self.expr()
            if self.accept(":"):
                out.append(RangeSlice(first, self.expr()))
            elif self.accept("+:"):
                out.append(LenSlice(first, self.expr()))
            elif self.peek() == "*:":
                self.error("'x[i *: w]' is obsolete syntax: write x[i * w +: w]")
            else:
                out.append(SingleSlice(first))
            if not self.accept(","):
                break
        self.expect("]")
        return out

    def mask_pattern(self):
        text = self.expect("MASK")
        return MaskPattern(*mask_bits(text))

    def patterns(self, stop):
        out = []
        while True:
            k = self.peek()
            if k == "MASK":
                out.append(self.mask_pattern())
            elif k == "BITS":
                out.append(MaskPattern(*mask_bits(self.expect("BITS"))))
            elif k == "-" and self.peek(1) in (",", stop, "=>", "where"):
                self.i += 1
                out.append(AllPattern())
            elif k == "<=":
                self.i += 1
                out.append(LeqPattern(self.expr()))
            elif k == ">=":
                self.i += 1
                out.append(GeqPattern(self.expr()))
            else:
                e = self.expr()
                out.append(RangePattern(e, self.expr()) if self.accept("..") else ExprPattern(e))
            if not self.accept(","):
                return out

    def primary(self):
        return parse_primary(self)


def mask_bits(text: str) -> tuple[int, int, int]:
    """(value, care, width) of a bit pattern: x positions are don't-care."""
    value = int(text.replace("x", "0") or "0", 2)
    care = int("".join("0" if c == "x" else "1" for c in text) or "0", 2)
    return value, care, len(text)


def real_literal(text: str) -> Fraction:
    return Fraction(text)


def parse(text: str, path: str = "<string>") -> list:
    with collections_paused():  # (syntax.py: a tree makes no reference cycles)
        parser = Parser(text, path)
        try:
            return parser.parse_spec()
        except RecursionError:  # a last resort: MAX_NESTING is met first
            parser.error("nested too deeply")


__all__ = ["AslSyntaxError", "BV", "Parser", "parse"]
