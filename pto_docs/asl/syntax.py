"""The ASL syntax tree: one named class per node kind, built by the parser only.

Each class is a tuple with named fields (cheap to build, compare and pickle). A tagged node's first field,
``tag``, is the kind's word (``"call"``, ``"if"``, ``"lvar"`` …): code dispatches on ``node.tag``; where two
kinds share a word in different places (the ``if`` expression and the ``if`` statement) the context tells them
apart. The tag is given by the class: ``Call(pos, name, params, args)``. Expressions and statements carry ``pos``, the
offset of their first token in the source text; statements that may fail at run time also carry ``loc``, the
``path:line:col`` text of their diagnostics. A node is read by its field names: indexing one (``node[2]``)
raises TypeError, so a positional read cannot creep back in (iterating one, as a walk over the whole tree
does, still works).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

_new = tuple.__new__


@contextmanager
def collections_paused():
    """No garbage collection while a tree is built (parsed or unpickled). A node, unlike a plain tuple, stays in
    the collector's sight for good, so collections while hundreds of thousands of them are made walk them
    again and again: unpickling pto-spec's parsed validation entry points took 8 times as long. Building a
    tree makes no reference cycles, so nothing is left for a later collection to find."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _positional(self, index):
    raise TypeError(f"a {type(self).__name__} node is read by field name, not by position ([{index!r}])")


def _repr(self):
    return f"{type(self).__name__}({', '.join(f'{f}={v!r}' for f, v in zip(self._fields, tuple.__iter__(self)))})"


def _field(index: int):
    try:
        from collections import _tuplegetter  # CPython's C-level field of a named tuple
        return _tuplegetter(index, None)
    except ImportError:  # pragma: no cover - another Python
        return property(lambda self: tuple.__getitem__(self, index))


class _NodeClass(type):
    """The type of a node class. Calling the class builds a node from its fields (``Call(pos, name, params,
    args)``, the tag added): that is this type's ``__call__``, made for each class with the class's own
    parameters. The class keeps tuple's own ``__new__``, so unpickling a node is one call of C code (a
    constructor written in Python made reading a cached tree several times slower)."""


def _node(name: str, tag: str | None, fields: str, doc: str):
    """A node class ``name``: a tuple of ``tag`` (when the kind has one) and ``fields``, read by field name."""
    names = fields.split()
    all_fields = (["tag"] if tag is not None else []) + names
    params = "".join(", " + n for n in names)
    items = (repr(tag) + ", " if tag is not None else "") + "".join(n + ", " for n in names)
    namespace = {"_new": _new}
    exec(f"def __call__(_cls{params}):\n    return _new(_cls, ({items}))", namespace)  # noqa: S102 - fixed text
    maker = namespace["__call__"]
    maker.__qualname__ = f"{name}.__call__"
    meta = type(f"{name}Class", (_NodeClass,), {"__call__": maker, "__module__": __name__})
    body = {"__slots__": (), "__doc__": doc, "__module__": __name__, "_fields": tuple(all_fields),
            "__getitem__": _positional, "__repr__": _repr}
    body.update((field, _field(i)) for i, field in enumerate(all_fields))
    return meta(name, (tuple,), body)


# -- declarations ------------------------------------------------------------------------------------
Func = _node("Func", "func", "pos name qualifier override params args ret body limit loc", """A subprogram:
``qualifier`` (``pure``, ``readonly``, ``noreturn`` or None), ``override`` (``impdef``, ``implementation`` or
None), ``params`` the ``{N: T}`` width parameters and ``args`` the arguments (lists of :class:`Typed`; a
parameter's type may be None), ``ret`` the return type (None for a procedure), ``body`` a statement list,
``limit`` the ``recurselimit`` expression or None. An accessor is two: its getter and ``NAME__setter``.""")
Global = _node("Global", "global", "pos kind name ty init", """A global ``var``, ``let``, ``constant`` or
``config`` (``kind``): its type ``ty`` and initial value ``init`` (either may be None, not both).""")
TypeDecl = _node("TypeDecl", "type", "pos name ty", """``type name of ty;`` (``ty`` None: an opaque type).""")
Typed = _node("Typed", None, "name ty", """A name and its type: an argument, a parameter, a record field.""")

# -- types -------------------------------------------------------------------------------------------
IntType = _node("IntType", "int", "constraints", """``integer``, with its ``{…}`` constraints (a list of
:class:`Constraint`) or None.""")
Constraint = _node("Constraint", None, "lo hi", """One constraint of an integer type: ``lo`` or ``lo..hi``
(``hi`` None for a single value).""")
BoolType = _node("BoolType", "bool", "", """``boolean``.""")
RealType = _node("RealType", "real", "", """``real``.""")
StringType = _node("StringType", "string", "", """``string``.""")
BitsType = _node("BitsType", "bits", "width fields", """``bits(width)`` (``bit`` is ``bits(1)``) with its named
bitfields (a list of :class:`BitField`).""")
BitField = _node("BitField", None, "name slices sub ty", """A named bitfield ``[slices] name``, with its own nested
bitfields ``sub`` (a list, or None) and the type its text gives (``[29:0] view: ViewType``; None if none).""")
ArrayType = _node("ArrayType", "array", "size elem", """``array [[size]] of elem`` (``size`` an expression, or
the name of an enumeration).""")
NamedType = _node("NamedType", "named", "name", """A type named by an identifier (declared by a ``type``).""")
TupleType = _node("TupleType", "tuple", "items", """``(T1, T2, …)``.""")
EnumType = _node("EnumType", "enum", "labels", """``enumeration {labels}``.""")
RecordType = _node("RecordType", "record", "fields", """``record {fields}`` (or ``collection``): a list of
:class:`Typed`.""")
ExceptionType = _node("ExceptionType", "exception", "fields", """``exception {fields}``: a list of
:class:`Typed`.""")

# -- expressions -------------------------------------------------------------------------------------
Lit = _node("Lit", "lit", "pos value", """A literal: an int, bool, ``Fraction``, ``str`` or ``BV`` value.""")
Var = _node("Var", "var", "pos name", """A name: a local, a global, an enumeration label.""")
Call = _node("Call", "call", "pos name params args", """``name{params}(args)``: a function call.""")
RecordExpr = _node("RecordExpr", "record", "pos name fields", """``Name{f = e, …}`` (``fields``: a list of
:class:`FieldInit`; ``Name{-}`` has none).""")
FieldInit = _node("FieldInit", None, "name value", """``name = value`` in a record construction.""")
TupleExpr = _node("TupleExpr", "tuple", "pos items", """``(a, b, …)``.""")
Arbitrary = _node("Arbitrary", "arb", "pos ty", """``ARBITRARY: ty`` (or ``UNKNOWN: ty``).""")
Binary = _node("Binary", "bin", "pos op left right", """``left op right`` (``[a, b]`` is ``a :: b``).""")
Unary = _node("Unary", "un", "pos op operand", """``-x``, ``!x`` or ``NOT x``.""")
IfExpr = _node("IfExpr", "if", "pos cond then other", """``if cond then e1 else e2``.""")
As = _node("As", "as", "pos expr ty", """``expr as ty`` (``as {constraints}`` is an ``integer`` type).""")
SliceExpr = _node("SliceExpr", "slice", "pos base slices", """``base[slices]`` (most significant first).""")
ArrayGet = _node("ArrayGet", "aget", "pos base index", """``base[[index]]``.""")
FieldGet = _node("FieldGet", "field", "pos base name", """``base.name``.""")
FieldsGet = _node("FieldsGet", "fields", "pos base names", """``base.[n1, n2, …]``.""")
In = _node("In", "in", "pos subject patterns positive", """``subject IN {patterns}`` (``positive`` False:
``IN !{…}``); also ``x == 'mask'`` and ``x != 'mask'``.""")

# -- slices and patterns -----------------------------------------------------------------------------
SingleSlice = _node("SingleSlice", "single", "index", """``[i]``.""")
RangeSlice = _node("RangeSlice", "range", "hi lo", """``[hi:lo]``.""")
LenSlice = _node("LenSlice", "len", "lo width", """``[lo +: width]``.""")
MaskPattern = _node("MaskPattern", "pmask", "value care width", """A bit pattern (``'1x0'``): matches when the
``care`` bits of the value equal ``value``.""")
AllPattern = _node("AllPattern", "pall", "", """``-``: matches anything.""")
LeqPattern = _node("LeqPattern", "pleq", "bound", """``<= bound``.""")
GeqPattern = _node("GeqPattern", "pgeq", "bound", """``>= bound``.""")
RangePattern = _node("RangePattern", "prange", "lo hi", """``lo..hi``.""")
ExprPattern = _node("ExprPattern", "pexpr", "expr", """An expression: matches an equal value.""")

# -- assignment targets ------------------------------------------------------------------------------
LVar = _node("LVar", "lvar", "name", """A variable being assigned.""")
LDiscard = _node("LDiscard", "ldiscard", "", """``-``: the value is discarded.""")
LTuple = _node("LTuple", "ltuple", "items", """``(t1, t2, …) = e``.""")
LField = _node("LField", "lfield", "base name", """``base.name = e``.""")
LFields = _node("LFields", "lfields", "base names", """``base.[n1, n2] = e``.""")
LArrayGet = _node("LArrayGet", "laget", "base index", """``base[[index]] = e``.""")
LSlice = _node("LSlice", "lslice", "base slices", """``base[slices] = e``.""")

# -- statements --------------------------------------------------------------------------------------
Pass = _node("Pass", "pass", "pos", """``pass;`` (also what a ``pragma`` statement leaves).""")
Return = _node("Return", "return", "pos value", """``return e;`` (``value`` None: ``return;``).""")
Assign = _node("Assign", "assign", "pos target value", """``target = value;``.""")
CallStmt = _node("CallStmt", "callstmt", "pos name params args", """A procedure call ``name{params}(args);``
(a setter call ``N__setter`` for ``N(args) = v;``).""")
LocalDecl = _node("LocalDecl", "decl", "pos kind target ty init", """``var``/``let`` (``kind``) of one name
(``target`` a string) or of a tuple (``target`` a list of names, None for ``-``).""")
LocalVars = _node("LocalVars", "vars", "pos names ty", """``var A, B: ty;``.""")
IfStmt = _node("IfStmt", "if", "pos cond then other", """``if cond then … else … end;`` (``then`` and
``other`` statement lists; ``elsif`` is an ``other`` of one :class:`IfStmt`).""")
Case = _node("Case", "case", "pos subject alts otherwise loc", """``case subject of when … otherwise … end;``
(``alts`` a list of :class:`CaseAlt`, ``otherwise`` a statement list or None).""")
CaseAlt = _node("CaseAlt", None, "patterns positive where body", """``when patterns where e => body``
(``positive`` False: ``when !{…}``).""")
While = _node("While", "while", "pos cond limit body loc", """``while cond looplimit limit do body end;``.""")
For = _node("For", "for", "pos name start up stop limit body loc", """``for name = start to stop`` (``up``
False: ``downto``) ``looplimit limit do body end;``.""")
Repeat = _node("Repeat", "repeat", "pos body cond limit loc", """``repeat body until cond looplimit limit;``.""")
Try = _node("Try", "try", "pos body catchers otherwise", """``try body catch when … otherwise … end;``
(``catchers`` a list of :class:`Catcher`).""")
Catcher = _node("Catcher", None, "name ty body", """``when name: ty => body`` (``name`` None: ``when ty``).""")
Assert = _node("Assert", "assert", "pos cond text loc", """``assert cond;`` (``text``: the condition's text).""")
Print = _node("Print", "print", "pos args newline", """``print`` or ``println`` (``newline``) of ``args``.""")
Unreachable = _node("Unreachable", "unreachable", "pos loc", """``unreachable;``.""")
Throw = _node("Throw", "throw", "pos value loc", """``throw value;``.""")
