"""ASLRef's standard library subprograms that PTO's ASL calls (and a few common neighbours).

Each primitive takes ``(params, args)``: the ``{...}`` parameters and the ``(...)`` arguments.
"""

from __future__ import annotations

import math
from fractions import Fraction

from .errors import AslError
from .limits import check_width
from .stdlib_more import MORE_PRIMITIVES
from .values import BV


def _width(params, args, index):
    n = params[0] if params else args[index]
    if n < 0:
        raise AslError(f"a bitvector of negative width {n}")
    return n


def zeros(params, args):
    n = _width(params, args, 0)
    check_width(n)
    return BV(0, n)


def ones(params, args):
    n = _width(params, args, 0)
    check_width(n)
    return BV((1 << n) - 1, n)


def zero_extend(params, args):
    x = args[0]
    n = params[0] if params else args[1]
    check_width(n)
    if n < x.width:
        raise AslError(f"ZeroExtend to {n} bits of a {x.width}-bit value")
    return BV(x.val, n)


def sign_extend(params, args):
    x = args[0]
    n = params[0] if params else args[1]
    check_width(n)
    if n < x.width:
        raise AslError(f"SignExtend to {n} bits of a {x.width}-bit value")
    if x.width == 0:
        raise AslError("SignExtend of a 0-bit value (it has no sign bit)")
    v = x.val
    if x.width and v >> (x.width - 1):
        v |= ((1 << n) - 1) ^ ((1 << x.width) - 1)
    return BV(v, n)


def uint(params, args):
    return args[0].val


def sint(params, args):
    x = args[0]
    if x.width and x.val >> (x.width - 1):
        return x.val - (1 << x.width)
    return x.val


def is_zero(params, args):
    return args[0].val == 0


def is_ones(params, args):
    x = args[0]
    return x.val == (1 << x.width) - 1


def _shift_check(name, shift):
    if shift < 0:
        raise AslError(f"{name}: negative shift {shift}")


def lsl(params, args):
    x, s = args
    _shift_check("LSL", s)
    if s >= x.width:
        return BV(0, x.width)
    return BV((x.val << s) & ((1 << x.width) - 1), x.width)


def lsr(params, args):
    x, s = args
    _shift_check("LSR", s)
    return BV(x.val >> s, x.width)


def asr(params, args):
    x, s = args
    _shift_check("ASR", s)
    return BV((sint((), (x,)) >> s) & ((1 << x.width) - 1), x.width)


def ror(params, args):
    x, s = args
    w = x.width
    if s < 0:
        raise AslError(f"ROR: negative shift {s}")
    if w == 0:
        return x
    s %= w
    return BV(((x.val >> s) | (x.val << (w - s))) & ((1 << w) - 1), w)


def real(params, args):
    return Fraction(args[0])


def round_down(params, args):
    return math.floor(args[0])


def round_up(params, args):
    return math.ceil(args[0])


def round_towards_zero(params, args):
    return math.trunc(args[0])


def _ilog2(v) -> int:
    """floor(log2(v)) of a positive integer or rational, exactly."""
    v = Fraction(v)
    e = v.numerator.bit_length() - v.denominator.bit_length()
    if Fraction(2) ** e > v:
        e -= 1
    return e


def sqrt_rounded(params, args):
    """SqrtRounded(value, fracbits): the square root with ``fracbits`` bits after the leading 1,
    inexact results rounded to odd (ASLRef's stdlib algorithm, in integer arithmetic)."""
    value, fracbits = Fraction(args[0]), args[1]
    if value < 0 or fracbits <= 0:
        raise AslError("SqrtRounded of a negative value or with no fraction bits")
    if value == 0:
        return Fraction(0)
    exp = _ilog2(value)
    mant = value / Fraction(2) ** exp
    if exp % 2:
        mant, exp = 2 * mant, exp - 1
    scale = 2 ** (fracbits - 1)
    root = Fraction(math.isqrt(math.floor(mant * scale * scale)), scale)
    if root * root < mant:
        root += Fraction(1, 2 * scale)
    return Fraction(2) ** (exp // 2) * root


def _len(params, args):
    return args[0].width


def _min(params, args):
    return min(args[0], args[1])


def _max(params, args):
    return max(args[0], args[1])


def _abs(params, args):
    return abs(args[0])


def align(params, args):
    x, y = args
    if type(x) is BV:
        return BV(x.val // y * y, x.width)
    return x // y * y


def replicate(params, args):
    x = args[0]
    if len(args) > 1:
        n = args[1]
    elif x.width and params[0] % x.width == 0:
        n = params[0] // x.width
    else:
        raise AslError(f"Replicate to {params[0]} bits of a {x.width}-bit value")
    check_width(n * x.width if x.width else n)
    w = x.width
    if w == 0 or n <= 0:
        return BV(0, w * max(n, 0))
    return BV(repeat_bits(x.val, w, n), w * n)


def repeat_bits(val: int, w: int, n: int) -> int:
    """``n`` copies of the ``w``-bit ``val`` side by side, by doubling a block of copies: shifts and ors only, in
    time about the result's size times log n (a division by 2^w - 1 is quadratic when w is large)."""
    result, have, block, in_block = 0, 0, val, 1
    while True:
        if n & 1:
            result |= block << (w * have)
            have += in_block
        n >>= 1
        if not n:
            return result
        block |= block << (w * in_block)
        in_block *= 2


def bit_count(params, args):
    return bin(args[0].val).count("1")


def highest_set_bit(params, args):
    return args[0].val.bit_length() - 1


def lowest_set_bit(params, args):
    x = args[0]
    return (x.val & -x.val).bit_length() - 1 if x.val else x.width


def count_leading_zero_bits(params, args):
    x = args[0]
    return x.width - x.val.bit_length()


def is_pow2(params, args):
    x = args[0]
    return x > 0 and x & (x - 1) == 0


def ilog2(params, args):
    v = args[0]
    if v == 0:
        raise AslError("ILog2 of zero")
    return _ilog2(abs(v))


PRIMITIVES = {
    "Zeros": zeros, "Ones": ones, "ZeroExtend": zero_extend, "SignExtend": sign_extend,
    "UInt": uint, "SInt": sint, "IsZero": is_zero, "IsOnes": is_ones, "LSL": lsl, "LSR": lsr,
    "ASR": asr, "ROR": ror, "Real": real, "RoundDown": round_down, "RoundUp": round_up,
    "RoundTowardsZero": round_towards_zero, "SqrtRounded": sqrt_rounded, "Len": _len, "Min": _min,
    "Max": _max, "Abs": _abs, "Align": align, "Replicate": replicate, "BitCount": bit_count,
    "HighestSetBit": highest_set_bit, "LowestSetBit": lowest_set_bit,
    "CountLeadingZeroBits": count_leading_zero_bits, "IsPowerOfTwo": is_pow2, "ILog2": ilog2,
}
PRIMITIVES.update(MORE_PRIMITIVES)
