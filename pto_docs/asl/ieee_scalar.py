"""IEEE 754 arithmetic in every rounding mode, on the spec's floating formats (the ``ieee`` profile's scalar
FSU hooks and the CUBE matrix hooks).

Every operation decodes its operands exactly (float_formats.decode), computes the exact rational result and
rounds it once under the ASL's ``NumericRoundingMode`` (float_formats.round_value: RNE, RTZ, RTM, RTP, RNA,
RTO, RHB), returning raw bits and the ASL's ``bits(5)`` flags as an integer (NV bit 0, DZ 1, OF 2, UF 3,
NX 4). A NaN result is the format's canonical quiet NaN; NV comes from a signaling NaN operand or an invalid
operation (0 x inf, inf - inf, 0/0, inf/inf, the square root of a negative number). An exact zero sum of
operands of opposite sign is +0, -0 under RTM (IEEE 754 6.3). Square roots come from an integer square root
(ieee_exact._sqrt_stand_in: exact in every mode); EXP from the float64 libm value rounded once more (not
proven correctly rounded, the one approximation here).
"""

from __future__ import annotations

import math
from fractions import Fraction

from .float_formats import (
    DZ,
    FORMATS,
    NV,
    NX,
    OF,
    Decoded,
    FloatFormat,
    decode,
    encode,
    infinity,
    round_integer,
    round_value,
)
from .ieee_exact import _invalid_encoding, _sqrt_stand_in

RTM = "NumericRound_RTM"


def _nan(fmt: FloatFormat, *operands: Decoded) -> tuple[int, int]:
    return fmt.canonical_nan, NV if any(o.kind == "nan" and o.signaling for o in operands) else 0


def _signed_zero(negative: bool, fmt: FloatFormat) -> int:
    return fmt.sign_bit if negative else 0


def _rounded(exact: Fraction, fmt: FloatFormat, mode: str, zero_negative: bool,
             saturate: bool = False, inexact_in: bool = False) -> tuple[int, int]:
    if exact == 0:
        return _signed_zero(zero_negative, fmt), 0
    return round_value(exact, fmt, mode, saturate, inexact_in)


def _negated(x: Decoded) -> Decoded:
    return Decoded(x.kind, not x.negative, x.value, x.signaling)


def _sum(a: Decoded, b: Decoded, fmt: FloatFormat, mode: str, saturate: bool = False) -> tuple[int, int]:
    """a + b (neither a NaN) rounded once."""
    if a.kind == "inf" or b.kind == "inf":
        if a.kind == b.kind and a.negative != b.negative:
            return fmt.canonical_nan, NV
        return infinity(a.negative if a.kind == "inf" else b.negative, fmt), 0
    zero_negative = (a.negative and b.negative) if a.value == 0 == b.value else mode == RTM
    return _rounded(a.signed + b.signed, fmt, mode, zero_negative, saturate)


def binary(op: str, fmt: FloatFormat, mode: str, left: int, right: int) -> tuple[int, int]:
    """FloatingBinary ADD/SUB/MUL/DIV ("+", "-", "*", "/") of two ``fmt`` values, rounded under ``mode``."""
    if _invalid_encoding(fmt, left, right):
        return fmt.canonical_nan, NV
    a, b = decode(left, fmt), decode(right, fmt)
    if a.kind == "nan" or b.kind == "nan":
        return _nan(fmt, a, b)
    if op in "+-":
        return _sum(a, _negated(b) if op == "-" else b, fmt, mode)
    negative = a.negative != b.negative
    a_zero, b_zero = a.kind == "finite" and a.value == 0, b.kind == "finite" and b.value == 0
    if op == "*":
        if a.kind == "inf" or b.kind == "inf":
            return (fmt.canonical_nan, NV) if a_zero or b_zero else (infinity(negative, fmt), 0)
        return _rounded(a.value * b.value * (-1 if negative else 1), fmt, mode, negative)
    if a.kind == "inf":
        return (fmt.canonical_nan, NV) if b.kind == "inf" else (infinity(negative, fmt), 0)
    if b.kind == "inf":
        return _signed_zero(negative, fmt), 0
    if b_zero:
        return (fmt.canonical_nan, NV) if a_zero else (infinity(negative, fmt), DZ)
    return _rounded(a.value / b.value * (-1 if negative else 1), fmt, mode, negative)


def unary(op: str, fmt: FloatFormat, mode: str, bits: int) -> tuple[int, int]:
    """FloatingUnary ABS, SQRT, EXP, RECIP rounded under ``mode``."""
    if _invalid_encoding(fmt, bits):
        return fmt.canonical_nan, NV
    x = decode(bits, fmt)
    if op == "FloatingUnary_ABS":
        return bits & ~fmt.sign_bit, 0
    if x.kind == "nan":
        return _nan(fmt, x)
    if op == "FloatingUnary_SQRT":
        if x.negative and x.value != 0 or x.negative and x.kind == "inf":
            return fmt.canonical_nan, NV
        if x.kind == "inf" or x.value == 0:
            return bits, 0  # +inf, +0, -0
        value, inexact = _sqrt_stand_in(x.value)
        return round_value(value, fmt, mode, inexact_in=inexact)
    if op == "FloatingUnary_RECIP":
        if x.kind == "inf":
            return _signed_zero(x.negative, fmt), 0
        if x.value == 0:
            return infinity(x.negative, fmt), DZ
        return round_value((-1 if x.negative else 1) / x.value, fmt, mode)
    # FloatingUnary_EXP
    if x.kind == "inf":
        return (0, 0) if x.negative else (bits, 0)
    if x.value == 0:
        return encode(False, Fraction(1), fmt), 0
    try:
        wide = math.exp(float(x.signed))
    except OverflowError:
        wide = math.inf
    if math.isinf(wide):
        return round_value(Fraction(2) ** 4096, fmt, mode)  # beyond every format: OF|NX by the mode
    if wide == 0:
        return round_value(Fraction(1, 2 ** 4096), fmt, mode)  # below every format: UF|NX by the mode
    return round_value(Fraction(wide), fmt, mode, inexact_in=True)


FUSED = {"FloatingFused_MADD": (False, False), "FloatingFused_MSUB": (False, True),
         "FloatingFused_NMADD": (True, True), "FloatingFused_NMSUB": (True, False)}


def product_sum(product: tuple[Decoded, Decoded], addend: Decoded, fmt: FloatFormat, mode: str,
                negate_product: bool = False, saturate: bool = False) -> tuple[int, int]:
    """x * y (negated when asked) + addend with one rounding onto ``fmt``, IEEE invalid cases included."""
    x, y = product
    if "nan" in (x.kind, y.kind, addend.kind):
        if (x.kind == "inf" and y.kind == "finite" and y.value == 0
                or y.kind == "inf" and x.kind == "finite" and x.value == 0):
            return fmt.canonical_nan, NV
        return _nan(fmt, x, y, addend)
    negative = (x.negative != y.negative) != negate_product
    if x.kind == "inf" or y.kind == "inf":
        if x.kind == "finite" and x.value == 0 or y.kind == "finite" and y.value == 0:
            return fmt.canonical_nan, NV
        return _sum(Decoded("inf", negative), addend, fmt, mode)
    return _sum(Decoded("finite", negative, x.value * y.value), addend, fmt, mode, saturate)


def fused(op: str, fmt: FloatFormat, mode: str, addend: int, left: int, right: int) -> tuple[int, int]:
    """FloatingFused MADD (l*r + a), MSUB (l*r - a), NMADD (-(l*r) - a), NMSUB (-(l*r) + a), one rounding."""
    if _invalid_encoding(fmt, addend, left, right):
        return fmt.canonical_nan, NV
    negate_product, negate_addend = FUSED[op]
    z = decode(addend, fmt)
    return product_sum((decode(left, fmt), decode(right, fmt)), _negated(z) if negate_addend else z, fmt, mode,
                       negate_product)


E8M0_NAN = 0xFF


def matrix_accumulate(accumulator: int, left: int, right: int, formats: tuple[FloatFormat, ...], mode: str,
                      saturate: bool, scales: tuple[int | None, int | None] = (None, None)) -> int:
    """accumulator + left * right (each scaled by 2**(scale - 127) when an E8M0 scale is given), rounded once
    onto the accumulator's format (flags are not returned by the ASL's matrix hooks)."""
    destination, left_fmt, right_fmt = formats
    x, y = decode(left, left_fmt), decode(right, right_fmt)
    for i, scale in enumerate(scales):
        if scale is None:
            continue
        if scale == E8M0_NAN:
            return destination.canonical_nan
        operand = (x, y)[i]
        if operand.kind == "finite":
            scaled = Decoded("finite", operand.negative, operand.value * Fraction(2) ** (scale - 127))
            x, y = (scaled, y) if i == 0 else (x, scaled)
    bits, _ = product_sum((x, y), decode(accumulator, destination), destination, mode, saturate=saturate)
    return bits


def matrix_bias(value: int, bias: int, destination: FloatFormat, bias_fmt: FloatFormat) -> int:
    """value + bias (the bias converted exactly), rounded once to nearest-even onto ``destination``."""
    a, b = decode(value, destination), decode(bias, bias_fmt)
    if a.kind == "nan" or b.kind == "nan":
        return destination.canonical_nan
    return _sum(a, b, destination, "NumericRound_RNE")[0]


# The scalar FSU type codes (asl/scalar/model/fsu/profile.asl): floating codes are TileDataTypeToEncoding's;
# integer codes are the carrier widths NormalizeScalarIntegerResult gives them.
FLOAT_CODES = {0: "TileDataType_FP64", 1: "TileDataType_FP32", 3: "TileDataType_HF32", 4: "TileDataType_FP16",
               5: "TileDataType_BF16", 7: "TileDataType_E4M3", 8: "TileDataType_E5M2"}
INTEGER_CODES = {0: (64, False), 1: (32, False), 2: (16, False), 3: (8, False), 4: (4, False), 5: (2, False),
                 6: (1, False), 7: (1, False), 8: (64, True), 9: (32, True), 10: (16, True), 11: (8, True),
                 12: (4, True), 13: (2, True), 14: (1, True)}
WORD_MASK = (1 << 64) - 1


def scalar_format(code: int) -> FloatFormat | None:
    """The format of a scalar floating type code, or None for one the profile leaves to the ASL (TF32, whose
    scalar carrier the ASL normalises to 19 bits, HiF8, the 6- and 4-bit types, E8M0, HiF4X2)."""
    name = FLOAT_CODES.get(code)
    return FORMATS[name] if name else None


def to_integer(fmt: FloatFormat, code: int, mode: str, bits: int) -> tuple[int, int]:
    """A floating value to the integer type ``code``: rounded under ``mode``, NX when inexact; a NaN, an
    infinity or a rounded value out of range is invalid (NV only): the range endpoint of its sign, NaN 0."""
    width, signed = INTEGER_CODES[code]
    low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    if _invalid_encoding(fmt, bits):
        return 0, NV
    x = decode(bits, fmt)
    if x.kind == "nan":
        return 0, NV
    if x.kind == "inf":
        return (low if x.negative else high) & WORD_MASK, NV
    kept, inexact = round_integer(x.value, x.negative, mode)
    n = -kept if x.negative else kept
    if not low <= n <= high:
        return (low if x.negative else high) & WORD_MASK, NV
    return n & WORD_MASK, NX if inexact else 0


def from_integer(code: int, fmt: FloatFormat, mode: str, word: int) -> tuple[int, int]:
    """The integer of type ``code`` held in ``word`` rounded onto ``fmt`` (zero gives +0)."""
    width, signed = INTEGER_CODES[code]
    n = word & ((1 << width) - 1)
    if signed and n >> (width - 1):
        n -= 1 << width
    return _rounded(Fraction(n), fmt, mode, False)


def convert(source: FloatFormat, destination: FloatFormat, mode: str, bits: int) -> tuple[int, int]:
    """One floating value onto another format, rounded once under ``mode``."""
    if _invalid_encoding(source, bits):
        return destination.canonical_nan, NV
    x = decode(bits, source)
    if x.kind == "nan":
        return destination.canonical_nan, NV if x.signaling else 0
    if x.kind == "inf":
        return infinity(x.negative, destination), 0 if destination.has_inf else OF | NX  # E4M3: its NaN
    return _rounded(x.signed, destination, mode, x.negative)
