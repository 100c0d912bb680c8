"""TCVT's floating conversions (``TileProfileConvert``) under the ``ieee`` numeric profile.

The spec leaves this hook to the profile (asl/tile/model/numeric/formats.asl; its ``implementation`` only
defines E8M0 destinations, asl/arch/profile/e8m0-conversion.asl, and draft ADR-0090 leaves out-of-range
results open). The ``ieee`` profile binds the pairs of the eight floating formats (float_formats.py) and
the eight integer types S/U 8..64 to IEEE 754 conversions under the rounding mode and saturation the ASL
passes in ``NumericExecutionControl`` (the ASL already resolved the TCVT default: RTZ for floating to
integer, RNE otherwise). Its open choices are the NumPy executor's (pto_docs/executor/conversion.py,
``TCVT_PROFILE_NOTES``), so that the two can be compared:

* floating to floating: one rounding with gradual underflow, tininess after rounding, NX/UF/OF; overflow to
  infinity or the largest finite value by the mode (IEEE 754 7.4), Sat=1 clamps to the largest finite; an
  infinity stays infinite; E4M3 (no infinity) gives its NaN 0x7f for an infinite result, or 448 under Sat=1,
  with OF|NX; a NaN gives the canonical quiet NaN, NV only for a signaling one; zeros keep their sign;
* integer to floating: the exact integer rounded once (zero gives +0);
* floating to integer: rounded to an integer under the mode, NX when inexact; a NaN, an infinity or a
  rounded value outside the destination range is invalid: NV without NX, and the result is the range
  endpoint of the value's sign (NaN: 0), with or without Sat.

Other pairs (E8M0, HiF8, the packed and 4-bit types, integer pairs) stay with the ASL.
"""

from __future__ import annotations

from fractions import Fraction

from .float_formats import FORMATS, NV, NX, OF, decode, encode, infinity, round_integer, round_value

INTEGERS = {f"TileDataType_{s}{w}": (w, s == "S") for w in (8, 16, 32, 64) for s in "SU"}
WORD_MASK = (1 << 64) - 1


def handles(source_type: str, destination_type: str) -> bool:
    """Whether the ieee profile computes this pair (a floating side, both sides bound formats)."""
    known = FORMATS.keys() | INTEGERS.keys()
    return (source_type in FORMATS or destination_type in FORMATS) and {source_type, destination_type} <= known


def _integer_word(value: int) -> int:
    """An integer in the destination's range as the ASL's Word (as NormalizeTileInteger: sign-extended)."""
    return value & WORD_MASK


def convert(value: int, source_type: str, destination_type: str, mode: str, saturate: bool) -> tuple[int, int]:
    """(Word, flags) of one TCVT element of a pair ``handles`` accepts."""
    if source_type in INTEGERS:
        width, signed = INTEGERS[source_type]
        n = value & ((1 << width) - 1)
        if signed and n >> (width - 1):
            n -= 1 << width
        fmt = FORMATS[destination_type]
        if n == 0:
            return 0, 0
        return round_value(Fraction(n), fmt, mode, saturate)
    src = FORMATS[source_type]
    x = decode(value & ((1 << src.width) - 1), src)
    if destination_type in INTEGERS:
        width, signed = INTEGERS[destination_type]
        low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
        if x.kind == "nan":
            return 0, NV
        if x.kind == "inf":
            return _integer_word(low if x.negative else high), NV
        kept, inexact = round_integer(x.value, x.negative, mode)
        n = -kept if x.negative else kept
        if not low <= n <= high:
            return _integer_word(low if x.negative else high), NV
        return _integer_word(n), NX if inexact else 0
    dst = FORMATS[destination_type]
    if x.kind == "nan":
        return dst.canonical_nan, NV if x.signaling else 0
    if x.kind == "inf":
        if dst.has_inf:
            return infinity(x.negative, dst), 0
        return (encode(x.negative, dst.max_finite, dst) if saturate else dst.canonical_nan), OF | NX
    if x.value == 0:
        return encode(x.negative, Fraction(0), dst), 0
    return round_value(x.signed, dst, mode, saturate)
