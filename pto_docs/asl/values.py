"""Runtime values of the interpreter.

integer -> int, boolean -> bool, real -> fractions.Fraction, string -> str, enumeration label -> str,
bitvector -> BV (immutable), tuple -> tuple, record -> dict (field -> value), array -> list.
Records and arrays are mutable containers owned by exactly one storage location; ``copy_value`` makes
the private copy that a new binding needs (see compiler: value semantics).
"""

from __future__ import annotations

from fractions import Fraction

from .limits import int_text


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

    # Python operators, so generated code can use native syntax on integers and bitvectors alike.
    def __add__(self, other):
        w = self.width
        return BV((self.val + (other.val if type(other) is BV else other)) & ((1 << w) - 1), w)

    def __sub__(self, other):
        w = self.width
        return BV((self.val - (other.val if type(other) is BV else other)) & ((1 << w) - 1), w)

    def __mul__(self, other):
        w = self.width
        return BV((self.val * (other.val if type(other) is BV else other)) & ((1 << w) - 1), w)

    def __and__(self, other):
        _same(self, other, "AND")
        return BV(self.val & other.val, self.width)

    def __or__(self, other):
        _same(self, other, "OR")
        return BV(self.val | other.val, self.width)

    def __xor__(self, other):
        _same(self, other, "XOR")
        return BV(self.val ^ other.val, self.width)

    def __invert__(self):
        return BV(self.val ^ ((1 << self.width) - 1), self.width)

    def __neg__(self):
        return BV((-self.val) & ((1 << self.width) - 1), self.width)


def _same(a, b, op):
    if type(b) is not BV or a.width != b.width:
        from .errors import AslError

        raise AslError(f"illegal application of operator {op} to {a!r} and {b!r}")


def copy_value(v):
    t = type(v)
    if t is dict:
        return {k: (copy_value(x) if type(x) in (dict, list) else x) for k, x in v.items()}
    if t is list:
        if v and type(v[0]) in (dict, list):
            return [copy_value(x) for x in v]
        return list(v)
    return v


def copy_cost(v, limit: int) -> int:
    """What ``copy_value(v)`` costs, in units of one restored storage path (a Python-level step each): one per
    list and dict it makes, and one per 16 items that ``list()`` or a dict comprehension copies in C; counted up to
    ``limit``."""
    t = type(v)
    if t is list:
        if not v or (type(v[0]) is not dict and type(v[0]) is not list):
            return 1 + len(v) // 16
        items = v
    elif t is dict:
        items = v.values()
    else:
        return 0
    cost = 1 + len(v) // 16
    for x in items:
        if type(x) is dict or type(x) is list:
            cost += copy_cost(x, limit - cost)
            if cost >= limit:
                return limit
    return cost


def format_value(v) -> str:
    """Text as ASLRef's print shows it."""
    t = type(v)
    if t is bool:
        return "TRUE" if v else "FALSE"
    if t is BV:
        return "0x" + format(v.val, "0%dx" % ((v.width + 3) // 4)) if v.width else "0x"
    if t is Fraction:
        n = int_text(v.numerator)
        return n if v.denominator == 1 else f"{n}/{int_text(v.denominator)}"
    if t is tuple:
        return "(" + ", ".join(format_value(x) for x in v) + ")"
    if t is dict:
        return "{ " + ", ".join(f"{k} = {format_value(x)}" for k, x in v.items()) + " }"
    if t is list:
        return "[" + ", ".join(format_value(x) for x in v) + "]"
    if t is int:
        return int_text(v)
    return str(v)


def least_magnitude_member(ranges) -> int | None:
    """The member of least magnitude of the integer ranges ``(lo, hi)`` (0 when present; of two of equal magnitude,
    the negative): the base value ASLRef gives a constrained integer. None for an empty set."""
    best = None
    for a, b in ranges:
        if a > b:
            continue
        cand = 0 if a <= 0 <= b else (a if a > 0 else b)
        if best is None or abs(cand) < abs(best) or (abs(cand) == abs(best) and cand < best):
            best = cand
    return best
