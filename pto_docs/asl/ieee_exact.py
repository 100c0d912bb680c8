"""IEEE 754 arithmetic on any of the spec's floating formats, computed exactly and rounded once.

Used by the ``ieee`` numeric profile (profiles.py) for TF32, HF32, E4M3 and E5M2, which NumPy has no (or no
exactly rounding) arithmetic for. Every function takes and returns raw bits and the ASL's ``bits(5)`` flags
as an integer (NV bit 0, DZ 1, OF 2, UF 3, NX 4). A NaN result is the format's canonical quiet NaN; NV comes
from a signaling NaN operand or an invalid operation. Square roots are rounded from an integer square root
with a sticky bit; EXP and LOG from the float64 libm value (inexact, rounded once more: the same two-step
rounding the NumPy executor does).
"""

from __future__ import annotations

import math
from fractions import Fraction

from .float_formats import DZ, NV, NX, UF, Decoded, FloatFormat, decode, encode, infinity, round_value


def _nan(fmt: FloatFormat, *operands: Decoded) -> tuple[int, int]:
    return fmt.canonical_nan, NV if any(o.kind == "nan" and o.signaling for o in operands) else 0


def _zero(negative: bool, fmt: FloatFormat) -> int:
    return fmt.sign_bit if negative else 0


def _result(exact: Fraction, fmt: FloatFormat, zero_negative: bool, inexact_in: bool = False) -> tuple[int, int]:
    if exact == 0:
        return _zero(zero_negative, fmt), 0
    return round_value(exact, fmt, inexact_in=inexact_in)


def _invalid_encoding(fmt: FloatFormat, *operands: int) -> bool:
    """A TF32/HF32 operand with nonzero required-zero low bits (the ASL lets TADD..TREM see one)."""
    low = (1 << fmt.low_zero_bits) - 1
    return any(o & low for o in operands)


def binary(op: str, fmt: FloatFormat, left: int, right: int) -> tuple[int, int]:
    """ADD/SUB/MUL/DIV ("+", "-", "*", "/") rounded to nearest-even. An invalid encoding is an invalid
    operation (NaN, NV), as the spec's reference E8M0 profile treats ``NumericValue_InvalidEncoding``."""
    if _invalid_encoding(fmt, left, right):
        return fmt.canonical_nan, NV
    a, b = decode(left, fmt), decode(right, fmt)
    if a.kind == "nan" or b.kind == "nan":
        return _nan(fmt, a, b)
    if op == "-":
        b = Decoded(b.kind, not b.negative, b.value)
        op = "+"
    if op == "+":
        if a.kind == "inf" or b.kind == "inf":
            if a.kind == b.kind and a.negative != b.negative:
                return fmt.canonical_nan, NV
            return infinity(a.negative if a.kind == "inf" else b.negative, fmt), 0
        # an exact zero sum is +0 under RNE unless both addends are -0
        return _result(a.signed + b.signed, fmt, a.negative and b.negative and a.value == 0 == b.value)
    negative = a.negative != b.negative
    if op == "*":
        if a.kind == "inf" or b.kind == "inf":
            if a.value == 0 and a.kind == "finite" or b.value == 0 and b.kind == "finite":
                return fmt.canonical_nan, NV
            return infinity(negative, fmt), 0
        return _result(a.value * b.value * (-1 if negative else 1), fmt, negative)
    if a.kind == "inf":
        return (fmt.canonical_nan, NV) if b.kind == "inf" else (infinity(negative, fmt), 0)
    if b.kind == "inf":
        return _zero(negative, fmt), 0
    if b.value == 0:
        return (fmt.canonical_nan, NV) if a.value == 0 else (infinity(negative, fmt), DZ)
    return _result(a.value / b.value * (-1 if negative else 1), fmt, negative)


def _sqrt_stand_in(a: Fraction) -> tuple[Fraction, bool]:
    """A rational that rounds like sqrt(a) onto any format of at most 64 significand bits: (value, inexact).

    sqrt(n/d) = sqrt(n*d)/d; the integer square root is taken with at least 70 bits, and an inexact root
    is replaced by the midpoint of its unit interval, which no grid midpoint of a coarser format reaches."""
    n = a.numerator * a.denominator
    shift = max(0, 140 - n.bit_length()) // 2
    scaled = n << (2 * shift)
    root = math.isqrt(scaled)
    exact = root * root == scaled
    value = Fraction(2 * root + (0 if exact else 1), 2 * a.denominator << shift)
    return value, not exact


def unary(op: str, fmt: FloatFormat, bits: int) -> tuple[int, int]:
    """TileUnary_SQRT/RSQRT/RECIP/EXP/LOG with IEEE special values (the ASL takes most of them first)."""
    x = decode(bits, fmt)
    if x.kind == "nan":
        return _nan(fmt, x)
    if op in ("TileUnary_SQRT", "TileUnary_RSQRT", "TileUnary_LOG") and x.negative and x.value != 0:
        return fmt.canonical_nan, NV  # also -inf
    if x.kind == "inf":
        if op == "TileUnary_RECIP":
            return _zero(x.negative, fmt), 0
        if op == "TileUnary_RSQRT" or op == "TileUnary_EXP" and x.negative:
            return 0, 0
        return bits, 0  # SQRT, EXP, LOG of +inf
    if x.value == 0:
        if op == "TileUnary_SQRT":
            return bits, 0
        if op == "TileUnary_EXP":
            return encode(False, Fraction(1), fmt), 0
        if op == "TileUnary_LOG":
            return infinity(True, fmt), DZ
        return infinity(x.negative, fmt), DZ  # RSQRT, RECIP
    if op == "TileUnary_RECIP":
        return round_value((-1 if x.negative else 1) / x.value, fmt)
    if op == "TileUnary_SQRT":
        value, inexact = _sqrt_stand_in(x.value)
        return round_value(value, fmt, inexact_in=inexact)
    if op == "TileUnary_RSQRT":
        value, inexact = _sqrt_stand_in(1 / x.value)
        return round_value(value, fmt, inexact_in=inexact)
    if op == "TileUnary_LOG" and x.value == 1:
        return 0, 0
    try:
        wide = math.exp(float(x.signed)) if op == "TileUnary_EXP" else math.log(float(x.value))
    except OverflowError:  # an exponential beyond the float64 range
        wide = math.inf
    if math.isinf(wide):
        return round_value(Fraction(2) ** 4096 * (-1 if wide < 0 else 1), fmt)  # overflow: OF|NX
    if wide == 0:  # an exponential below the float64 range: tiny and inexact
        return 0, UF | NX
    return round_value(Fraction(wide), fmt, inexact_in=True)


def fused_multiply_add(fmt: FloatFormat, addend: int, left: int, right: int) -> tuple[int, int]:
    """left * right + addend with one rounding (IEEE invalid cases included)."""
    x, y, z = decode(left, fmt), decode(right, fmt), decode(addend, fmt)
    if "nan" in (x.kind, y.kind, z.kind):
        return _nan(fmt, x, y, z)
    product_negative = x.negative != y.negative
    if x.kind == "inf" or y.kind == "inf":
        if x.kind == "finite" and x.value == 0 or y.kind == "finite" and y.value == 0:
            return fmt.canonical_nan, NV
        if z.kind == "inf" and z.negative != product_negative:
            return fmt.canonical_nan, NV
        return infinity(product_negative, fmt), 0
    if z.kind == "inf":
        return infinity(z.negative, fmt), 0
    product = x.value * y.value * (-1 if product_negative else 1)
    exact = product + z.signed
    # an exact zero is -0 only when the product and the addend are both -0-signed zeros
    zero_negative = product == 0 and z.value == 0 and product_negative and z.negative
    return _result(exact, fmt, zero_negative)


def floating_modulo(fmt: FloatFormat, left: int, right: int) -> tuple[int, int]:
    """left - floor(left / right) * right (a nonzero result has the divisor's sign), rounded to nearest-even;
    an infinite dividend, a zero divisor or an invalid encoding is invalid."""
    if _invalid_encoding(fmt, left, right):
        return fmt.canonical_nan, NV
    x, y = decode(left, fmt), decode(right, fmt)
    if x.kind == "nan" or y.kind == "nan":
        return _nan(fmt, x, y)
    if x.kind == "inf" or y.value == 0 and y.kind == "finite":
        return fmt.canonical_nan, NV
    if y.kind == "inf":
        if x.value == 0:
            return _zero(y.negative, fmt), 0
        return (right, 0) if x.negative != y.negative else (left, 0)
    quotient = x.signed / y.signed
    floor = quotient.numerator // quotient.denominator
    exact = x.signed - floor * y.signed
    bits, flags = _result(exact, fmt, y.negative)
    if bits & ~fmt.sign_bit == 0:  # a zero result carries the divisor's sign
        bits = _zero(y.negative, fmt)
    return bits, flags
