"""The ieee profile's TF32, HF32, E4M3 and E5M2 arithmetic and TCVT conversions (pto_docs/asl/float_formats.py,
ieee_exact.py, ieee_convert.py), checked against expectations computed here: ml_dtypes' float8 types, the
finite grid of each 8-bit format enumerated and searched by the definition of each rounding mode, float32
bit truncation for TF32/HF32, and hand-worked values."""

from __future__ import annotations

import functools
import io
import math
import random
import struct
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from pto_docs.asl import ieee_convert, ieee_exact
from pto_docs.asl.float_formats import DZ, FORMATS, NV, NX, OF, UF, decode, round_value
from pto_docs.asl.runner import run_sources

E4M3, E5M2 = FORMATS["TileDataType_E4M3"], FORMATS["TileDataType_E5M2"]
TF32, HF32 = FORMATS["TileDataType_TF32"], FORMATS["TileDataType_HF32"]
ML = {E4M3.name: ml_dtypes.float8_e4m3fn, E5M2.name: ml_dtypes.float8_e5m2}
MODES = ("RNE", "RTZ", "RTM", "RTP", "RNA", "RTO", "RHB")


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def ml_value(bits: int, fmt) -> float:
    return float(np.array([bits], np.uint8).view(ML[fmt.name])[0])


def grid(fmt) -> dict[Fraction, int]:
    """Every nonnegative finite value of an 8-bit format (ml_dtypes' decoding) -> its bits (read-only: made once
    per format)."""
    return _grid(fmt.name)


@functools.cache
def _grid(name: str) -> dict[Fraction, int]:
    fmt = FORMATS[name]
    out = {}
    for bits in range(0x80):
        v = ml_value(bits, fmt)
        if math.isfinite(v):
            out[Fraction(v)] = bits
    return out


@functools.cache
def _points(name: str) -> list[Fraction]:
    return sorted(_grid(name))


def oracle(x: Fraction, fmt, mode: str, saturate: bool = False):
    """``x`` (nonzero) rounded onto an 8-bit format by searching its grid: (bits, flags)."""
    points = _points(fmt.name)
    largest = points[-1]
    beyond = largest + (largest - points[-2])  # the next grid point past the largest finite value
    ext = points + [beyond]
    negative, a = x < 0, abs(x)
    below = max(p for p in ext if p <= a) if a <= beyond else beyond
    above = min((p for p in ext if p >= a), default=None)
    if above is None:  # far beyond: both neighbours overflow
        below = above = beyond
    if below == above:
        pick, inexact = below, False
    else:
        inexact = True
        mid = (below + above) / 2
        odd = lambda p: (p == beyond and fmt is E4M3) or (p != beyond and grid(fmt)[p] & 1 == 1)  # noqa: E731
        if mode == "RTZ":
            pick = below
        elif mode == "RTP":
            pick = below if negative else above
        elif mode == "RTM":
            pick = above if negative else below
        elif mode == "RTO":
            pick = below if odd(below) else above
        elif a != mid:
            pick = below if a < mid else above
        elif mode == "RNE":
            pick = below if not odd(below) else above
        elif mode == "RNA":
            pick = above
        else:  # RHB: the numerically greater neighbour
            pick = below if negative else above
    sign = 0x80 if negative else 0
    if pick > largest:
        to_inf = not saturate and (mode in ("RNE", "RNA", "RHB") or mode == "RTP" and not negative
                                   or mode == "RTM" and negative)
        if to_inf:
            return (0x7F if fmt is E4M3 else sign | 0x7C), OF | NX
        return sign | grid(fmt)[largest], OF | NX
    tiny = a < Fraction(2) ** fmt.emin  # test values avoid the band where tininess depends on the rounding
    return sign | grid(fmt)[pick], (NX if inexact else 0) | (UF if inexact and tiny else 0)


def sample_values(fmt, rng: random.Random, n: int):
    largest = max(grid(fmt))
    out = []
    for _ in range(n):
        scale = rng.choice([Fraction(2) ** fmt.emin, Fraction(1), largest, largest * 2])
        out.append(Fraction(rng.randrange(1, 1 << 20), 1 << 20) * scale * rng.choice([1, -1]))
    out += [p * s for p in grid(fmt) if p for s in (1, -1)]  # exact grid points
    out += [(p + q) / 2 for p, q in zip(sorted(grid(fmt)), sorted(grid(fmt))[1:])]  # exact midpoints
    band = (Fraction(2) ** fmt.emin * (1 - Fraction(1, 1 << (fmt.frac_bits + 1))), Fraction(2) ** fmt.emin)
    return [v for v in out if v != 0 and not band[0] <= abs(v) < band[1]]


# -- formats ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", [E4M3, E5M2], ids=["E4M3", "E5M2"])
def test_every_8bit_encoding_decodes_as_ml_dtypes(fmt):
    for bits in range(256):
        v, d = ml_value(bits, fmt), decode(bits, fmt)
        if math.isnan(v):
            assert d.kind == "nan", hex(bits)
        elif math.isinf(v):
            assert (d.kind, d.negative) == ("inf", v < 0)
        else:
            assert d.kind == "finite" and d.signed == Fraction(v) and d.negative == bool(np.signbit(v))
    # E4M3 is the OFP8 "fn" variant: no infinity, S.1111.111 the only (quiet) NaN, largest finite 448
    assert [b for b in range(256) if decode(b, E4M3).kind == "nan"] == [0x7F, 0xFF]
    assert E4M3.max_finite == 448 and E5M2.max_finite == 57344 and not decode(0x7F, E4M3).signaling
    assert decode(0x7D, E5M2).signaling and not decode(0x7E, E5M2).signaling


def test_tf32_and_hf32_are_fp32_layouts_with_fewer_fraction_bits():
    assert decode(0x3F802000, TF32).value == 1 + Fraction(1, 1 << 10)
    assert decode(0x3F801000, HF32).value == 1 + Fraction(1, 1 << 11)
    assert decode(0x00002000, TF32).value == Fraction(2) ** -136  # smallest subnormal
    assert TF32.max_finite == (2 - Fraction(1, 1 << 10)) * Fraction(2) ** 127


@pytest.mark.parametrize("fmt", [E4M3, E5M2], ids=["E4M3", "E5M2"])
@pytest.mark.parametrize("mode", MODES)
def test_round_value_follows_each_mode_on_the_8bit_grids(fmt, mode):
    rng = random.Random(f"{fmt.name}{mode}")
    for x in sample_values(fmt, rng, 300):
        for saturate in (False, True):
            assert round_value(x, fmt, "NumericRound_" + mode, saturate) == oracle(x, fmt, mode, saturate), \
                (x, saturate)


def test_tininess_is_detected_after_rounding():
    # E5M2: emin -14, 3 significant bits. 0.9375 * 2^-14 rounds to 2^-14 with an unbounded exponent too: not
    # tiny; 0.90625 * 2^-14 = 7.25 * 2^-17 rounds to 7 * 2^-17 unbounded: tiny, although the result is 2^-14.
    assert round_value(Fraction(15, 16) * Fraction(2) ** -14, E5M2) == (0x04, NX)
    assert round_value(Fraction(29, 32) * Fraction(2) ** -14, E5M2) == (0x04, UF | NX)
    assert round_value(Fraction(2) ** -17, E5M2) == (0x00, UF | NX)  # half the smallest subnormal: ties to 0
    assert round_value(-Fraction(2) ** -17, E5M2, "NumericRound_RTM") == (0x81, UF | NX)


# -- arithmetic -------------------------------------------------------------------------------------
OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b}


@pytest.mark.parametrize("fmt", [E4M3, E5M2], ids=["E4M3", "E5M2"])
@pytest.mark.parametrize("op", list(OPS))
def test_binary_is_the_exact_result_rounded_to_nearest_even(fmt, op):
    rng = random.Random(f"{fmt.name}{op}")
    for _ in range(1500):
        a, b = rng.randrange(256), rng.randrange(256)
        x, y = ml_value(a, fmt), ml_value(b, fmt)
        bits, flags = ieee_exact.binary(op, fmt, a, b)
        if not (math.isfinite(x) and math.isfinite(y)) or op == "/" and y == 0:
            with np.errstate(all="ignore"):
                expect = OPS[op](np.float64(x), np.float64(y))
            got = ml_value(bits, fmt)
            invalid = math.isnan(expect) and not (math.isnan(x) or math.isnan(y))
            if fmt is E4M3 and math.isinf(expect):
                expect = math.nan  # no infinity: its NaN
            assert (math.isnan(got) and math.isnan(expect)) or got == expect, (hex(a), hex(b))
            assert bool(flags & NV) == invalid or decode(a, fmt).signaling or decode(b, fmt).signaling
            continue
        exact = OPS[op](Fraction(x), Fraction(y))
        if exact == 0:
            assert bits & 0x7F == 0 and flags == 0
            continue
        if Fraction(2) ** fmt.emin * (1 - Fraction(1, 1 << (fmt.frac_bits + 1))) <= abs(exact) < Fraction(2) ** fmt.emin:
            continue  # the tininess band, covered by test_tininess_is_detected_after_rounding
        assert (bits, flags) == oracle(exact, fmt, "RNE"), (hex(a), op, hex(b))


def test_binary_special_values_and_zero_signs():
    one, neg_zero = 0x38, 0x80
    assert ieee_exact.binary("+", E4M3, neg_zero, neg_zero) == (0x80, 0)
    assert ieee_exact.binary("-", E4M3, one, one) == (0x00, 0)  # an exact zero difference is +0
    assert ieee_exact.binary("*", E4M3, 0xB8, 0x00) == (0x80, 0)  # -1 * +0 = -0
    assert ieee_exact.binary("/", E4M3, one, 0x00) == (0x7F, DZ)  # no infinity: the NaN, DZ only
    assert ieee_exact.binary("/", E5M2, 0xBC, 0x00) == (0xFC, DZ)
    assert ieee_exact.binary("/", E5M2, 0x00, 0x00) == (0x7E, NV)
    assert ieee_exact.binary("-", E5M2, 0x7C, 0x7C) == (0x7E, NV)  # inf - inf
    assert ieee_exact.binary("*", E5M2, 0x7C, 0x80) == (0x7E, NV)  # inf * -0
    assert ieee_exact.binary("+", E5M2, 0x7D, one) == (0x7E, NV)  # a signaling NaN operand
    assert ieee_exact.binary("+", E5M2, 0x7F, one) == (0x7E, 0)  # a quiet one
    assert ieee_exact.binary("*", E4M3, 0x7E, 0x40) == (0x7F, OF | NX)  # 448 * 2: overflow, no infinity


def _nearest_on_grid(fmt, value_between):
    """RNE of a positive real given by comparisons ``value_between(lo, hi, mid) -> -1/0/1`` on the grid."""
    points = sorted(grid(fmt))
    for lo, hi in zip(points, points[1:]):
        side = value_between(lo, hi, (lo + hi) / 2)
        if side is not None:
            return side
    return None


@pytest.mark.parametrize("fmt", [E4M3, E5M2], ids=["E4M3", "E5M2"])
def test_sqrt_and_recip_of_every_positive_8bit_value(fmt):
    for x, bits in grid(fmt).items():
        if x == 0:
            continue
        r, flags = ieee_exact.unary("TileUnary_SQRT", fmt, bits)
        root = Fraction(ml_value(r, fmt))
        # correctly rounded: sqrt(x) lies within half a grid step of root (compare squares exactly)
        points = sorted(grid(fmt))
        i = points.index(root)
        lo = (points[i - 1] + root) / 2 if i else Fraction(0)
        hi = (root + points[i + 1]) / 2
        assert lo * lo <= x <= hi * hi, (x, root)
        assert bool(flags & NX) == (root * root != x) and not flags & (NV | DZ | OF)
        r, flags = ieee_exact.unary("TileUnary_RECIP", fmt, bits)
        assert (r, flags) == oracle(1 / x, fmt, "RNE"), x
        r, flags = ieee_exact.unary("TileUnary_RSQRT", fmt, bits)
        value = Fraction(ml_value(r, fmt)) if ml_value(r, fmt) == ml_value(r, fmt) else None
        if value is not None and math.isfinite(value):
            i = points.index(value)
            lo = (points[i - 1] + value) / 2 if i else Fraction(0)
            hi = (value + points[i + 1]) / 2
            assert lo * lo * x <= 1 <= hi * hi * x, (x, value)
    assert ieee_exact.unary("TileUnary_SQRT", E5M2, 0x80) == (0x80, 0)  # sqrt(-0) = -0
    assert ieee_exact.unary("TileUnary_SQRT", E5M2, 0xBC) == (0x7E, NV)
    assert ieee_exact.unary("TileUnary_RECIP", E5M2, 0x80) == (0xFC, DZ)
    assert ieee_exact.unary("TileUnary_RECIP", E4M3, 0x01) == (0x7F, OF | NX)  # 1 / 2^-9 = 512 > 448
    assert ieee_exact.unary("TileUnary_LOG", E5M2, 0x00) == (0xFC, DZ)
    assert ieee_exact.unary("TileUnary_EXP", E4M3, 0x00) == (0x38, 0)


def test_exp_and_log_round_the_float64_value_once():
    for bits in range(0x01, 0x7C):
        x = ml_value(bits, E5M2)
        for op, fn in (("TileUnary_EXP", np.exp), ("TileUnary_LOG", np.log)):
            got, flags = ieee_exact.unary(op, E5M2, bits)
            with np.errstate(all="ignore"):
                wide = float(fn(np.float64(x)))
                expect = np.array([wide], np.float32).astype(ml_dtypes.float8_e5m2).view(np.uint8)[0]
            if op == "TileUnary_LOG" and x == 1:
                assert (got, flags) == (0, 0)
                continue
            if abs(wide) > 2 ** 20 or abs(wide) < 2 ** -20:  # far outside: the float32 step cannot matter
                assert got == expect, (x, op)
            assert flags & NX and not flags & (NV | DZ)


def test_fused_multiply_add_rounds_once_on_tf32():
    one = 0x3F800000
    a = one | 0x2000  # 1 + 2^-10
    # (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly: rounding the product first would give 0
    assert ieee_exact.fused_multiply_add(TF32, 0xBF804000, a, a) == (0x35800000, 0)
    assert ieee_exact.fused_multiply_add(TF32, one, one, 0x30000000) == (one, NX)  # 1 + 2^-31: inexact
    assert ieee_exact.fused_multiply_add(TF32, 0x80000000, 0x80000000, one) == (0x80000000, 0)  # -0 + -0
    assert ieee_exact.fused_multiply_add(TF32, 0xFF800000, 0x7F800000, one) == (TF32.canonical_nan, NV)


def test_floating_modulo_takes_the_divisor_sign_on_hf32():
    def bits(x):
        return f32_bits(x)
    assert ieee_exact.floating_modulo(HF32, bits(7.0), bits(-3.0)) == (bits(-2.0), 0)
    assert ieee_exact.floating_modulo(HF32, bits(6.0), bits(-3.0)) == (bits(-0.0), 0)
    assert ieee_exact.floating_modulo(HF32, bits(1.0), bits(0.0)) == (HF32.canonical_nan, NV)
    # -2^-20 mod 1 = 1 - 2^-20, which rounds to 1 on HF32's 12 significant bits
    assert ieee_exact.floating_modulo(HF32, bits(-(2.0 ** -20)), bits(1.0)) == (bits(1.0), NX)


# -- TCVT -------------------------------------------------------------------------------------------
def cvt(value, src, dst, mode="RNE", saturate=False):
    return ieee_convert.convert(value, "TileDataType_" + src, "TileDataType_" + dst, "NumericRound_" + mode,
                                saturate)


@pytest.mark.parametrize("dst", ["E4M3", "E5M2"])
def test_fp32_to_fp8_matches_ml_dtypes(dst):
    rng = np.random.default_rng(7)
    values = np.concatenate([rng.standard_normal(3000) * s for s in (1e-4, 1e-2, 1, 100, 1e4)]).astype(np.float32)
    values = np.concatenate([values, np.float32([0.0, -0.0, np.inf, -np.inf, np.nan])])
    target = ML["TileDataType_" + dst]
    for v in values:
        expect = int(np.array([v]).astype(target).view(np.uint8)[0])
        got, flags = cvt(f32_bits(float(v)), "FP32", dst)
        if math.isnan(v):
            assert got == FORMATS["TileDataType_" + dst].canonical_nan and flags == 0
            continue
        if dst == "E4M3" and expect & 0x7F == 0x7F:  # ml_dtypes: overflow (also from infinity) is the NaN
            assert got == 0x7F and flags == OF | NX
            continue
        assert got == expect, v
        back = ml_value(got, FORMATS["TileDataType_" + dst])
        assert bool(flags & NX) == (math.isfinite(v) and back != float(v))


@pytest.mark.parametrize("dst, fraction_bits", [("TF32", 10), ("HF32", 11)])
def test_fp32_to_tf32_and_hf32_rounds_the_dropped_bits(dst, fraction_bits):
    drop = 23 - fraction_bits
    rng = random.Random(dst)
    for _ in range(3000):
        b = rng.randrange(0, 0x7F800000) | rng.choice([0, 0x80000000])
        low, kept = b & ((1 << drop) - 1), b & ~((1 << drop) - 1)
        half = 1 << (drop - 1)
        up = low > half or low == half and kept >> drop & 1
        expect = kept + (1 << drop) if up else kept
        got, flags = cvt(b, "FP32", dst)
        if (expect & 0x7F800000) == 0x7F800000:  # rounded up past the largest finite value
            assert (got & 0x7FFFFFFF, flags) == (0x7F800000, OF | NX)
            continue
        assert got == expect, hex(b)
        assert bool(flags & NX) == (low != 0)
        # tiny after rounding to 1 + fraction_bits significant bits with an unbounded exponent
        tiny = (b & 0x7FFFFFFF) < 0x00800000 - (1 << (drop - 2))
        assert bool(flags & UF) == (low != 0 and tiny), hex(b)


def test_saturation_nan_infinity_and_zero_signs():
    assert cvt(f32_bits(1000.0), "FP32", "E4M3") == (0x7F, OF | NX)  # no infinity: the NaN
    assert cvt(f32_bits(1000.0), "FP32", "E4M3", saturate=True) == (0x7E, OF | NX)  # 448
    assert cvt(f32_bits(-math.inf), "FP32", "E4M3", saturate=True) == (0xFE, OF | NX)
    assert cvt(f32_bits(math.inf), "FP32", "E4M3") == (0x7F, OF | NX)
    assert cvt(f32_bits(math.inf), "FP32", "E5M2", saturate=True) == (0x7C, 0)  # an infinity stays infinite
    assert cvt(f32_bits(1e6), "FP32", "E5M2") == (0x7C, OF | NX)
    assert cvt(f32_bits(1e6), "FP32", "E5M2", "RTZ") == (0x7B, OF | NX)  # 57344
    assert cvt(f32_bits(-1e6), "FP32", "E5M2", "RTP") == (0xFB, OF | NX)
    assert cvt(f32_bits(-1e6), "FP32", "E5M2", "RTM") == (0xFC, OF | NX)
    assert cvt(0x7FA00000, "FP32", "E5M2") == (0x7E, NV)  # signaling NaN
    assert cvt(0x7FC00001, "FP32", "BF16") == (0x7FC0, 0)
    assert cvt(0xFF, "E4M3", "FP16") == (0x7E00, 0)  # the E4M3 NaN is quiet
    assert cvt(f32_bits(-0.0), "FP32", "E4M3") == (0x80, 0)
    assert cvt(0x80, "E5M2", "TF32") == (0x80000000, 0)
    assert cvt(0, "S32", "E5M2") == (0x00, 0)


def test_float_to_integer_rounds_then_reports_invalid_out_of_range():
    word = (1 << 64) - 1
    assert cvt(f32_bits(-128.5), "FP32", "S8") == (-128 & word, NX)  # ties to even
    assert cvt(f32_bits(-128.5), "FP32", "S8", "RNA") == (-128 & word, NV)  # -129: out of range, no NX
    assert cvt(f32_bits(127.5), "FP32", "S8") == (127, NV)
    assert cvt(f32_bits(-1.9), "FP32", "S16", "RTZ") == (-1 & word, NX)
    assert cvt(f32_bits(2.5), "FP32", "U8", "RHB") == (3, NX)
    assert cvt(f32_bits(-2.5), "FP32", "S8", "RHB") == (-2 & word, NX)  # the greater neighbour
    assert cvt(f32_bits(2.5), "FP32", "U8", "RTO") == (3, NX)
    assert cvt(f32_bits(-0.4), "FP32", "U8", "RTZ") == (0, NX)
    assert cvt(f32_bits(-1.0), "FP32", "U8") == (0, NV)
    assert cvt(0x7FC00000, "FP32", "S32") == (0, NV)
    assert cvt(0xFC, "E5M2", "S64") == (1 << 63, NV)  # -inf: the minimum
    assert cvt(0x7E, "E4M3", "U16") == (448, 0)


def test_integer_to_float_rounds_the_exact_integer():
    assert cvt(16777217, "S32", "FP32") == (0x4B800000, NX)  # 2^24 + 1 ties to 2^24
    assert cvt(255, "U8", "E4M3") == (0x78, NX)  # 256
    assert cvt(1000, "U16", "E4M3") == (0x7F, OF | NX)
    assert cvt(1000, "U16", "E4M3", saturate=True) == (0x7E, OF | NX)
    assert cvt(0xFF, "S8", "E5M2") == (0xBC, 0)  # -1
    assert cvt((1 << 64) - 1, "U64", "HF32", "RTZ") == (0x5F7FF000, NX)
    assert cvt(0x7FFFFFFF, "S32", "TF32", "RTP") == (0x4F000000, NX)  # 2^31


CONVERT_PROGRAM = """
type TileDataType of enumeration { TileDataType_FP32, TileDataType_E4M3, TileDataType_E8M0 };
type NumericRoundingMode of enumeration { NumericRound_RNE, NumericRound_RTZ };
type NumericExecutionControl of record { rounding_mode: NumericRoundingMode, saturating: boolean };
implementation func TileProfileConvert(value: bits(64), source_type: TileDataType,
        destination_type: TileDataType, control: NumericExecutionControl) => (bits(64), bits(5))
begin
    return (value, Zeros{5});
end;
func main() => integer
begin
    let control = NumericExecutionControl { rounding_mode = NumericRound_RTZ, saturating = TRUE };
    let (a, af) = TileProfileConvert(ZeroExtend{64}(VALUE), TileDataType_FP32, TileDataType_E4M3, control);
    println a, " ", af;
    let (b, bf) = TileProfileConvert(ZeroExtend{64}(VALUE), TileDataType_FP32, TileDataType_E8M0, control);
    println b, " ", bf;
    return 0;
end;
"""


def test_ieee_binds_tile_profile_convert_with_the_asl_control():
    text = CONVERT_PROGRAM.replace("VALUE", f"'{f32_bits(1000.0):032b}'")
    lines = {}
    for profile in ("pto-v0", "ieee"):
        out = io.StringIO()
        status, message = run_sources([("convert.asl", text)], out, profile=profile)
        assert status == 0, message
        lines[profile] = out.getvalue().split("\n")
    raw = f"0x{f32_bits(1000.0):016x} 0x00"
    assert lines["pto-v0"][:2] == [raw, raw]
    assert lines["ieee"][0] == "0x000000000000007e 0x14"  # RTZ overflow under Sat: 448, OF|NX
    assert lines["ieee"][1] == raw  # E8M0 stays with the ASL


def test_an_invalid_tf32_or_hf32_encoding_is_an_invalid_operation():
    # nonzero required-zero low bits: the ASL lets TADD..TREM pass such an operand to the profile
    assert ieee_exact.binary("+", TF32, 0x3F800001, 0x3F800000) == (0x7FC00000, NV)
    assert ieee_exact.binary("*", HF32, 0x3F800000, 0x40000800) == (0x7FC00000, NV)
    assert ieee_exact.binary("*", HF32, 0x3F800000, 0x40001000) == (0x40001000, 0)  # a valid low bit
    assert ieee_exact.floating_modulo(TF32, 0x40400000, 0x3F801000) == (0x7FC00000, NV)
