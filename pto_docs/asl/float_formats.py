"""The spec's binary floating formats as exact rationals, and rounding onto them under every rounding mode.

Layouts as asl/arch/data-types/formats/*.asl declare them: FP64, FP32, FP16, BF16 (IEEE 754 / bfloat16);
TF32 and HF32 are FP32-layout 32-bit carriers with 10 and 11 fraction bits whose low 13 and 12 bits are zero;
E4M3 is the OFP8 "fn" variant (bias 7, no infinity, S.1111.111 the only NaN, which is quiet, largest finite
448); E5M2 is IEEE-like (bias 15, infinities, quiet and signaling NaNs). No host floating point is used:
values are ``fractions.Fraction``, rounding is integer arithmetic (the ``ieee`` numeric profile's ground truth).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

NV, DZ, OF, UF, NX = 1, 2, 4, 8, 16
MODES = ("NumericRound_RNE", "NumericRound_RTZ", "NumericRound_RTM", "NumericRound_RTP", "NumericRound_RNA",
         "NumericRound_RTO", "NumericRound_RHB")


@dataclass(frozen=True)
class FloatFormat:
    name: str
    width: int
    exp_bits: int
    frac_bits: int
    low_zero_bits: int = 0
    has_inf: bool = True
    canonical_nan: int = 0

    @property
    def bias(self) -> int:
        return (1 << (self.exp_bits - 1)) - 1

    @property
    def emin(self) -> int:
        return 1 - self.bias

    @property
    def emax(self) -> int:  # the largest exponent of a finite value
        return (1 << self.exp_bits) - (2 if self.has_inf else 1) - self.bias

    @property
    def max_finite(self) -> Fraction:
        m = self.frac_bits
        top = (1 << (m + 1)) - (1 if self.has_inf else 2)  # E4M3: the all-ones fraction is the NaN
        return Fraction(top) * Fraction(2) ** (self.emax - m)

    @property
    def sign_bit(self) -> int:
        return 1 << (self.width - 1)


FORMATS = {f.name: f for f in (
    FloatFormat("TileDataType_FP64", 64, 11, 52, canonical_nan=0x7FF8000000000000),
    FloatFormat("TileDataType_FP32", 32, 8, 23, canonical_nan=0x7FC00000),
    FloatFormat("TileDataType_TF32", 32, 8, 10, 13, canonical_nan=0x7FC00000),
    FloatFormat("TileDataType_HF32", 32, 8, 11, 12, canonical_nan=0x7FC00000),
    FloatFormat("TileDataType_FP16", 16, 5, 10, canonical_nan=0x7E00),
    FloatFormat("TileDataType_BF16", 16, 8, 7, canonical_nan=0x7FC0),
    FloatFormat("TileDataType_E4M3", 8, 4, 3, has_inf=False, canonical_nan=0x7F),
    FloatFormat("TileDataType_E5M2", 8, 5, 2, canonical_nan=0x7E),
)}


@dataclass(frozen=True)
class Decoded:
    kind: str  # "finite", "inf", "nan"
    negative: bool
    value: Fraction = Fraction(0)  # the exact magnitude of a finite value
    signaling: bool = False

    @property
    def signed(self) -> Fraction:
        return -self.value if self.negative else self.value


def decode(bits: int, fmt: FloatFormat) -> Decoded:
    """The class and exact value of ``bits`` (the carrier's low ``width`` bits; TF32/HF32 low bits ignored)."""
    m, low = fmt.frac_bits, fmt.low_zero_bits
    negative = bool(bits >> (fmt.width - 1) & 1)
    exponent = bits >> (m + low) & ((1 << fmt.exp_bits) - 1)
    fraction = bits >> low & ((1 << m) - 1)
    top = (1 << fmt.exp_bits) - 1
    if fmt.has_inf and exponent == top:
        if fraction == 0:
            return Decoded("inf", negative)
        return Decoded("nan", negative, signaling=not fraction >> (m - 1) & 1)
    if not fmt.has_inf and exponent == top and fraction == (1 << m) - 1:
        return Decoded("nan", negative)
    if exponent == 0:
        return Decoded("finite", negative, Fraction(fraction) * Fraction(2) ** (fmt.emin - m))
    return Decoded("finite", negative, Fraction((1 << m) | fraction) * Fraction(2) ** (exponent - fmt.bias - m))


def _exponent(a: Fraction) -> int:
    """e with 2**e <= a < 2**(e+1) (a > 0)."""
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    elif Fraction(2) ** (e + 1) <= a:
        e += 1
    return e


def encode(negative: bool, magnitude: Fraction, fmt: FloatFormat) -> int:
    """The bits of ``magnitude`` (zero or a value of the format) with the sign."""
    m = fmt.frac_bits
    sign = fmt.sign_bit if negative else 0
    if magnitude == 0:
        return sign
    e = _exponent(magnitude)
    if e < fmt.emin:
        field, fraction = 0, magnitude / Fraction(2) ** (fmt.emin - m)
    else:
        field, fraction = e + fmt.bias, magnitude / Fraction(2) ** (e - m) - (1 << m)
    assert fraction.denominator == 1 and 0 <= field < (1 << fmt.exp_bits), (magnitude, fmt.name)
    return sign | (field << (m + fmt.low_zero_bits)) | (int(fraction) << fmt.low_zero_bits)


def infinity(negative: bool, fmt: FloatFormat) -> int:
    """Signed infinity, or the canonical NaN of a format without one (E4M3)."""
    if not fmt.has_inf:
        return fmt.canonical_nan
    return (fmt.sign_bit if negative else 0) | (((1 << fmt.exp_bits) - 1) << (fmt.frac_bits + fmt.low_zero_bits))


def round_integer(n: Fraction, negative: bool, mode: str) -> tuple[int, bool]:
    """The magnitude ``n`` (>= 0) rounded to an integer under ``mode`` (of the signed value): (integer, inexact).

    RTO (round to odd) truncates and sets the last bit when inexact; RHB (round half toward the numerically
    bigger) is nearest with a tie going up for a positive value and toward zero for a negative one."""
    floor, rest = divmod(n.numerator, n.denominator)
    inexact = rest != 0
    twice = 2 * rest
    above, tie = twice > n.denominator, twice == n.denominator
    if mode == "NumericRound_RNE":
        up = above or (tie and floor & 1 == 1)
    elif mode == "NumericRound_RNA":
        up = above or tie
    elif mode == "NumericRound_RHB":
        up = above or (tie and not negative)
    elif mode == "NumericRound_RTP":
        up = inexact and not negative
    elif mode == "NumericRound_RTM":
        up = inexact and negative
    elif mode in ("NumericRound_RTZ", "NumericRound_RTO"):
        up = False
    else:
        raise ValueError(f"unknown rounding mode {mode!r}")
    kept = floor + up
    if mode == "NumericRound_RTO" and inexact:
        kept |= 1
    return kept, inexact


def overflow_to_infinity(negative: bool, mode: str) -> bool:
    """IEEE 754 7.4: whether an overflow rounds to infinity (else to the largest finite value)."""
    if mode in ("NumericRound_RTZ", "NumericRound_RTO"):
        return False
    if mode == "NumericRound_RTP":
        return not negative
    if mode == "NumericRound_RTM":
        return negative
    return True


def round_value(exact: Fraction, fmt: FloatFormat, mode: str = "NumericRound_RNE", saturate: bool = False,
                inexact_in: bool = False) -> tuple[int, int]:
    """Nonzero ``exact`` rounded once onto ``fmt``: (bits, flags NX/UF/OF).

    Gradual underflow; tininess after rounding (with an unbounded exponent range, same mode); UF only when
    inexact. Overflow (the rounded value beyond the largest finite) raises OF|NX and gives infinity or the
    largest finite value by the mode (a format without infinity gives its canonical NaN), or the signed
    largest finite value when ``saturate``. ``inexact_in``: ``exact`` is itself a rounded stand-in for an
    irrational result (the result is inexact whatever this rounding does)."""
    negative, a = exact < 0, abs(exact)
    m = fmt.frac_bits
    e = _exponent(a)
    quantum = Fraction(2) ** (max(e, fmt.emin) - m)
    kept, inexact = round_integer(a / quantum, negative, mode)
    inexact = inexact or inexact_in
    rounded = kept * quantum
    if rounded > fmt.max_finite:
        if saturate or not overflow_to_infinity(negative, mode):
            return encode(negative, fmt.max_finite, fmt), OF | NX
        return infinity(negative, fmt), OF | NX
    unbounded = Fraction(2) ** (e - m)
    tiny = round_integer(a / unbounded, negative, mode)[0] * unbounded < Fraction(2) ** fmt.emin
    flags = (NX if inexact else 0) | (UF if tiny and inexact else 0)
    return encode(negative, rounded, fmt), flags
