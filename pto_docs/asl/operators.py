"""Binary and unary operators on run-time values, with ASLRef's dynamic errors."""

from __future__ import annotations

from fractions import Fraction

from .errors import AslError, AslLimitError
from .limits import MAX_BITS, check_int_bits, check_width
from .values import BV, format_value


def _bad(op, a, b):
    raise AslError(f"illegal application of operator {op} to {a!r} and {b!r}")


def add(a, b):
    if type(a) is BV:
        w = a.width
        return BV((a.val + (b.val if type(b) is BV else b)) & ((1 << w) - 1), w)
    if type(a) is str:
        return a + b
    return a + b


def sub(a, b):
    if type(a) is BV:
        w = a.width
        return BV((a.val - (b.val if type(b) is BV else b)) & ((1 << w) - 1), w)
    return a - b


def mul(a, b):
    if type(a) is BV:
        w = a.width
        return BV((a.val * (b.val if type(b) is BV else b)) & ((1 << w) - 1), w)
    return checked_product(a * b)


def checked_product(v):
    """``v``, a product, unless it is an integer (or a real's numerator) beyond MAX_BITS: a loop that squares a
    number grows it without bound in a few steps, each slower than the last."""
    if type(v) is int:
        if v.bit_length() > MAX_BITS:
            check_int_bits(v.bit_length(), "*")
    elif type(v) is Fraction and (v.numerator.bit_length() > MAX_BITS or v.denominator.bit_length() > MAX_BITS):
        check_int_bits(max(v.numerator.bit_length(), v.denominator.bit_length()), "*")
    return v


def rdiv(a, b):
    if type(a) not in (int, Fraction) or type(b) not in (int, Fraction):
        _bad("/", a, b)
    if b == 0:
        raise AslError("division by zero")
    return Fraction(a) / Fraction(b)


def div(a, b):
    if b <= 0 or a % b != 0:
        raise AslError(f"illegal application of operator DIV for values {a} and {b}")
    return a // b


def divrm(a, b):
    if b <= 0:
        raise AslError(f"illegal application of operator DIVRM for values {a} and {b}")
    return a // b


def mod(a, b):
    if b <= 0:
        raise AslError(f"illegal application of operator MOD for values {a} and {b}")
    return a % b


def _integers(op, a, b):
    """ASL's << and >> take integers only (a bitvector is shifted with LSL/LSR, as ASLRef's type error says)."""
    if type(a) is not int or type(b) is not int:
        raise AslError(f"illegal application of operator {op} to {format_value(a)} and {format_value(b)} "
                       "(integers only; shift a bitvector with LSL, LSR or ASR)")


def shl(a, b):
    _integers("<<", a, b)
    if b < 0:
        raise AslError(f"illegal application of operator << for values {a} and {b}")
    if a and b > 64:
        check_int_bits(a.bit_length() + b, "<<")
    return a << b


def shr(a, b):
    _integers(">>", a, b)
    if b < 0:
        raise AslError(f"illegal application of operator >> for values {a} and {b}")
    return a >> b


def power(a, b):
    if (type(a) is int or a == 0) and b < 0:
        raise AslError(f"illegal application of operator ^ for values {a} and {b}")
    if type(b) is int and abs(b) > 64:
        t = type(a)
        size = (abs(a).bit_length() if t is int
                else max(abs(a.numerator).bit_length(), a.denominator.bit_length()) if t is Fraction else 0)
        if size > 1:
            check_int_bits((size - 1) * abs(b), "^")
    return a**b


def _same_width(op, a, b):
    if type(b) is not BV or a.width != b.width:
        _bad(op, a, b)


def band(a, b):
    _same_width("AND", a, b)
    return BV(a.val & b.val, a.width)


def bor(a, b):
    _same_width("OR", a, b)
    return BV(a.val | b.val, a.width)


def bxor(a, b):
    _same_width("XOR", a, b)
    return BV(a.val ^ b.val, a.width)


def _joined(a: str, b: str) -> str:
    if len(a) + len(b) > MAX_BITS:
        raise AslLimitError(f"a string of {len(a) + len(b):,} characters is beyond the limit of {MAX_BITS:,}")
    return a + b


def concat(a, b):
    if type(a) is str:
        return _joined(a, b)
    w = a.width + b.width
    if w > 65536:
        check_width(w)
    return BV((a.val << b.width) | b.val, w)


def strcat(a, b):
    """``a ++ b``: string concatenation; any other operand is first printed as ``print`` prints it."""
    return _joined(a if type(a) is str else format_value(a), b if type(b) is str else format_value(b))


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def gt(a, b):
    return a > b


def ge(a, b):
    return a >= b


def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def implies(a, b):
    return (not a) or b


def equiv(a, b):
    return a == b


BINARY = {
    "+": add, "-": sub, "*": mul, "/": rdiv, "RDIV": rdiv, "DIV": div, "DIVRM": divrm, "MOD": mod,
    "<<": shl, ">>": shr, "^": power, "AND": band, "OR": bor, "XOR": bxor, "EOR": bxor,
    "::": concat, "++": strcat, "<": lt, "<=": le, ">": gt, ">=": ge, "==": eq, "!=": ne,
    "==>": implies, "<=>": equiv,
}


def neg(a):
    if type(a) is BV:
        return BV((-a.val) & ((1 << a.width) - 1), a.width)
    return -a


def bnot(a):
    return BV(a.val ^ ((1 << a.width) - 1), a.width)


def lnot(a):
    return not a


UNARY = {"-": neg, "NOT": bnot, "!": lnot}
