"""The type of an expression where the text says it cheaply (a literal, a folded constant, a local declared with
a type or initialised with a literal), and the compile errors that knowledge gives: ill-typed uses ASLRef rejects
when it type-checks a program (a field of an integer, an undeclared field of a record or bitvector type, a slice
of a real, a bitvector pattern on an integer, an operator on operands it cannot combine). No type checker: where
the type is not known this cheaply nothing is checked here, and Program.call translates what Python raises
(errors.runtime_type_error). Nothing here runs when the generated code runs."""

from __future__ import annotations

from fractions import Fraction

from .errors import AslCompileError
from .values import BV

# what a value of each kind is called in a message
KIND_TEXT = {"int": "an integer", "real": "a real", "string": "a string", "bool": "a boolean", "bits": "a bitvector",
             "array": "an array", "enum": "an enumeration value", "tuple": "a tuple", "record": "a record",
             "exception": "an exception"}
_VALUE_KIND = {int: "int", bool: "bool", Fraction: "real", BV: "bits"}


class Known:
    """A static type: ``tag`` (a resolved type's tag), ``ty`` the resolved type node (None for a literal's), ``name``
    the declared type name, if any."""

    __slots__ = ("tag", "ty", "name")

    def __init__(self, tag: str, ty=None, name: str | None = None):
        self.tag, self.ty, self.name = tag, ty, name

    def text(self) -> str:
        if self.name:
            return f"a value of type {self.name}"
        return KIND_TEXT.get(self.tag, f"a {self.tag} value")


def of_type(program, ty) -> Known | None:
    """The static type a declaration gives, or None (no type given, or one this module does not resolve)."""
    if ty is None:
        return None
    name = ty.name if ty.tag == "named" else None
    try:
        resolved = program.types.resolve(ty)
    except AslCompileError:
        return None
    return Known(resolved.tag, resolved, name)


def of_value(v, literal: bool) -> Known | None:
    """A constant's static type (a ``str`` is a string only when it is a literal: an enumeration label folds to
    its name too)."""
    t = type(v)
    if t is str:
        return Known("string") if literal else None
    tag = _VALUE_KIND.get(t)
    return Known(tag) if tag is not None else None


def bitfield_names(ty) -> set[str]:
    return {f.name for f in (ty.fields or ())} if ty is not None and ty.tag == "bits" else set()


def check_field(known: Known | None, names, special) -> None:
    """``x.f`` (read or written) where the static type of ``x`` is known: the field must be one it has."""
    if known is None:
        return
    tag = known.tag
    for name in names:
        if tag in ("record", "exception"):
            if known.ty is not None and name not in {f.name for f in known.ty.fields}:
                raise AslCompileError(f"{known.text()} has no field {name}")
        elif tag == "bits":
            if known.ty is not None and name not in bitfield_names(known.ty):
                raise AslCompileError(f"{known.text()} has no bitfield {name}"
                                      + ("" if known.ty.fields else " (its type declares none)"))
        elif tag == "tuple":
            if not special(name):
                raise AslCompileError(f"{known.text()} has no field {name} (a tuple has items item0, item1, ...)")
        elif tag in ("int", "real", "string", "bool", "array", "enum"):
            raise AslCompileError(f"{known.text()} has no field {name}")


def check_slice(known: Known | None, writing: bool) -> None:
    """``x[s]``: only a bitvector or (read only) an integer has slices."""
    if known is None or known.tag == "bits" or (known.tag == "int" and not writing):
        return
    if writing:
        raise AslCompileError(f"a slice of {known.text()} is written: only a bitvector's slices can be")
    raise AslCompileError(f"a slice of {known.text()}: only a bitvector or an integer has slices")


def check_mask_pattern(known: Known | None, pattern) -> None:
    """A bitvector pattern (``'1x0'``) only matches a bitvector."""
    if known is not None and known.tag != "bits":
        bits = "".join("x" if not (pattern.care >> i) & 1 else str((pattern.value >> i) & 1)
                       for i in reversed(range(pattern.width)))
        raise AslCompileError(f"the bitvector pattern '{bits}' cannot match {known.text()}")


def check_operands(op: str, fn, a, b) -> None:
    """A binary operator on two constants Python cannot combine (``5 + "hello"``)."""
    try:
        fn(a, b)
    except TypeError:
        left, right = of_value(a, True), of_value(b, True)
        raise AslCompileError(f"operator {op} cannot combine {left.text() if left else 'that value'} and "
                              f"{right.text() if right else 'that value'}") from None
    except Exception:  # noqa: BLE001 - a dynamic error (a division by zero, a bound): raised when reached
        return
