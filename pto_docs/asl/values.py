"""Runtime values of the interpreter.

integer -> int, boolean -> bool, real -> fractions.Fraction, string -> str, enumeration label -> str,
bitvector -> BV (immutable), tuple -> tuple, record -> dict (field -> value), array -> list.
Records and arrays are mutable containers owned by exactly one storage location; ``copy_value`` makes
the private copy that a new binding needs (see compiler: value semantics).
"""

from __future__ import annotations

from fractions import Fraction


class BV:
    """A bitvector: ``val`` is the unsigned value, ``width`` the number of bits."""

    __slots__ = ("val", "width")

    def __init__(self, val: int, width: int):
        self.val = val
        self.width = width

    def __eq__(self, other):
        return isinstance(other, BV) and self.val == other.val and self.width == other.width

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((self.val, self.width))

    def __repr__(self):
        return f"BV({self.val:#x}, {self.width})"

    def __reduce__(self):
        return (BV, (self.val, self.width))


def copy_value(v):
    t = type(v)
    if t is dict:
        return {k: (copy_value(x) if type(x) in (dict, list) else x) for k, x in v.items()}
    if t is list:
        if v and type(v[0]) in (dict, list):
            return [copy_value(x) for x in v]
        return list(v)
    return v


def format_value(v) -> str:
    """Text as ASLRef's print shows it."""
    t = type(v)
    if t is bool:
        return "TRUE" if v else "FALSE"
    if t is BV:
        return "0x" + format(v.val, "0%dx" % ((v.width + 3) // 4)) if v.width else "0x"
    if t is Fraction:
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if t is tuple:
        return "(" + ", ".join(format_value(x) for x in v) + ")"
    if t is dict:
        return "{ " + ", ".join(f"{k} = {format_value(x)}" for k, x in v.items()) + " }"
    if t is list:
        return "[" + ", ".join(format_value(x) for x in v) + "]"
    return str(v)
