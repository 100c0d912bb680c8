"""The ieee profile's scalar FSU and CUBE matrix hooks, in every rounding mode, against independent values.

References never use pto-docs' own rounding: a value's neighbours come from NumPy/ml_dtypes
(``np.nextafter``, an 8-bit format's 256 codes decoded by ml_dtypes) and the mode picks among them by its
definition, compared as exact ``Fraction``s.
"""

from __future__ import annotations

import bisect
import io
import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pto_docs.asl import ieee_scalar
from pto_docs.asl.float_formats import FORMATS
from pto_docs.asl.parser import parse
from pto_docs.asl.profiles import bind_profile
from pto_docs.asl.program import Program

NV, DZ, OF, UF, NX = 1, 2, 4, 8, 16
FP32, FP16, E5M2 = FORMATS["TileDataType_FP32"], FORMATS["TileDataType_FP16"], FORMATS["TileDataType_E5M2"]
DIRECTED = ("NumericRound_RNE", "NumericRound_RTZ", "NumericRound_RTP", "NumericRound_RTM")


def f32(bits: int) -> np.float32:
    return np.array([bits], dtype=np.uint32).view(np.float32)[0]


def bits32(x) -> int:
    return int(np.array([x], dtype=np.float32).view(np.uint32)[0])


def pick(exact: Fraction, below, above, mode: str):
    """The mode's choice between the neighbours below <= exact <= above (NumPy values, one ulp apart)."""
    lo, hi = Fraction(float(below)), Fraction(float(above))
    if mode == "NumericRound_RTP":
        return above
    if mode == "NumericRound_RTM":
        return below
    if mode == "NumericRound_RTZ":
        return below if exact > 0 else above
    if exact - lo != hi - exact:
        return below if exact - lo < hi - exact else above
    return below if int(np.array([below]).view({4: np.uint32, 2: np.uint16}[below.itemsize])[0]) % 2 == 0 else above


def ref_round32(exact: Fraction, mode: str) -> int:
    """``exact`` (nonzero, within FP32's finite range) onto FP32 in ``mode``, from NumPy's neighbours."""
    guess = np.float32(float(exact))
    if Fraction(float(guess)) == exact:
        return bits32(guess)
    below = guess if Fraction(float(guess)) < exact else np.nextafter(guess, np.float32(-np.inf))
    above = np.nextafter(below, np.float32(np.inf))
    return bits32(pick(exact, below, above, mode))


finite32 = st.floats(width=32, allow_nan=False, allow_infinity=False, min_value=-2.0 ** 100, max_value=2.0 ** 100)


@settings(max_examples=300, deadline=None)
@given(finite32, finite32, st.sampled_from("+-*/"), st.sampled_from(DIRECTED))
def test_fp32_binary_matches_the_neighbours_in_every_mode(x, y, op, mode):
    a, b = Fraction(x), Fraction(y)
    assume(not (op == "/" and y == 0))
    exact = {"+": a + b, "-": a - b, "*": a * b, "/": a / b if y else 0}[op]
    assume(exact != 0 and Fraction(2) ** -126 <= abs(exact) < Fraction(2) ** 127)
    bits, flags = ieee_scalar.binary(op, FP32, mode, bits32(x), bits32(y))
    assert bits == ref_round32(exact, mode)
    assert flags == (0 if Fraction(float(f32(bits))) == exact else NX)


E5M2_VALUES = np.arange(256, dtype=np.uint8).view(ml_dtypes.float8_e5m2)
E5M2_FINITE = sorted((Fraction(float(v)), code) for code, v in enumerate(E5M2_VALUES) if np.isfinite(v))
# the grid without -0, with 2**16 (the next power of two above the largest finite value) for infinity
E5M2_GRID = sorted([(v, c) for v, c in E5M2_FINITE if c != 0x80] + [(Fraction(2 ** 16), 0x7C),
                                                                     (Fraction(-(2 ** 16)), 0xFC)])
E5M2_KEYS = [v for v, _ in E5M2_GRID]


def ref_round_e5m2(exact: Fraction, mode: str) -> int:
    """Onto E5M2 by the mode's definition over the 256 codes (the next power of two above the largest finite
    value stands for infinity, as rounding with an unbounded exponent does)."""
    if abs(exact) >= 2 ** 16:  # beyond every finite value: infinity when the mode rounds away, else the largest
        away = mode == "NumericRound_RNE" or mode == ("NumericRound_RTP" if exact > 0 else "NumericRound_RTM")
        return (0x7C if away else 0x7B) | (0x80 if exact < 0 else 0)
    k = bisect.bisect_left(E5M2_KEYS, exact)
    above = E5M2_GRID[k]
    below = above if above[0] == exact else E5M2_GRID[k - 1]
    if below[0] == exact:
        return below[1]
    choose = {"NumericRound_RTP": above, "NumericRound_RTM": below,
              "NumericRound_RTZ": below if exact > 0 else above}.get(mode)
    if choose is None:
        d_lo, d_hi = exact - below[0], above[0] - exact
        choose = below if d_lo < d_hi else above if d_hi < d_lo else (below if below[1] % 2 == 0 else above)
    if choose[0] == 0:  # a result rounded to zero keeps the sign of the exact value
        return 0x80 if exact < 0 else 0
    return choose[1]


def test_e5m2_add_and_mul_over_an_eighth_of_the_pairs_in_every_directed_mode():
    codes = [c for v, c in E5M2_FINITE]
    for mode in DIRECTED:
        for i, left in enumerate(codes):
            for right in codes[i % 8::8]:
                for op in "+*":
                    a, b = Fraction(float(E5M2_VALUES[left])), Fraction(float(E5M2_VALUES[right]))
                    exact = a + b if op == "+" else a * b
                    if exact == 0:
                        continue
                    bits, flags = ieee_scalar.binary(op, E5M2, mode, left, right)
                    assert bits == ref_round_e5m2(exact, mode), (mode, op, hex(left), hex(right))
                    assert bool(flags & NX) == (Fraction(float(E5M2_VALUES[bits])) != exact
                                                 if np.isfinite(E5M2_VALUES[bits]) else True)


@settings(max_examples=200, deadline=None)
@given(st.floats(width=32, min_value=2.0 ** -100, max_value=2.0 ** 100), st.sampled_from(DIRECTED))
def test_fp32_sqrt_in_every_mode(x, mode):
    bits, flags = ieee_scalar.unary("FloatingUnary_SQRT", FP32, mode, bits32(x))
    root = np.float32(np.sqrt(np.float64(x)))
    candidates = [np.nextafter(root, np.float32(-np.inf)), root, np.nextafter(root, np.float32(np.inf))]
    exact_square = Fraction(x)
    below = max(c for c in candidates if Fraction(float(c)) ** 2 <= exact_square)
    if Fraction(float(below)) ** 2 == exact_square:
        assert (bits, flags) == (bits32(below), 0)
        return
    above = np.nextafter(below, np.float32(np.inf))
    if mode == "NumericRound_RNE":  # the midpoint m: sqrt(x) < m exactly when x < m**2
        mid = (Fraction(float(below)) + Fraction(float(above))) / 2
        want = below if exact_square < mid * mid else above
    else:
        want = {"NumericRound_RTP": above, "NumericRound_RTM": below, "NumericRound_RTZ": below}[mode]
    assert (bits, flags) == (bits32(want), NX)


@settings(max_examples=200, deadline=None)
@given(finite32, finite32, finite32, st.sampled_from(sorted(ieee_scalar.FUSED)), st.sampled_from(DIRECTED))
def test_fp32_fused_rounds_once_in_every_mode(a, x, y, op, mode):
    product = Fraction(x) * Fraction(y)
    exact = {"FloatingFused_MADD": product + Fraction(a), "FloatingFused_MSUB": product - Fraction(a),
             "FloatingFused_NMADD": -product - Fraction(a), "FloatingFused_NMSUB": -product + Fraction(a)}[op]
    assume(exact != 0 and Fraction(2) ** -126 <= abs(exact) < Fraction(2) ** 127)
    bits, _ = ieee_scalar.fused(op, FP32, mode, bits32(a), bits32(x), bits32(y))
    assert bits == ref_round32(exact, mode)


@settings(max_examples=300, deadline=None)
@given(st.floats(width=32, allow_nan=False, allow_infinity=False, min_value=-2.0 ** 40, max_value=2.0 ** 40),
       st.sampled_from([(9, 32, True), (11, 8, True), (3, 8, False), (1, 32, False)]),
       st.sampled_from(DIRECTED + ("NumericRound_RNA",)))
def test_fp32_to_integer_in_every_mode_with_invalid_out_of_range(x, destination, mode):
    code, width, signed = destination
    q = Fraction(x)
    floor = math.floor(q)
    ceil = math.ceil(q)
    n = {"NumericRound_RTP": ceil, "NumericRound_RTM": floor, "NumericRound_RTZ": math.trunc(q),
         "NumericRound_RNA": math.floor(abs(q) + Fraction(1, 2)) * (1 if q >= 0 else -1),
         "NumericRound_RNE": round(q)}[mode]
    low, high = (-(2 ** (width - 1)), 2 ** (width - 1) - 1) if signed else (0, 2 ** width - 1)
    word, flags = ieee_scalar.to_integer(FP32, code, mode, bits32(x))
    if low <= n <= high:
        assert (word, flags) == (n % 2 ** 64, 0 if n == q else NX)
    else:
        assert (word, flags) == ((low if x < 0 else high) % 2 ** 64, NV)


@settings(max_examples=200, deadline=None)
@given(st.integers(-(2 ** 63), 2 ** 63 - 1), st.sampled_from(DIRECTED))
def test_s64_to_fp32_in_every_mode(n, mode):
    assume(n != 0)
    bits, flags = ieee_scalar.from_integer(8, FP32, mode, n % 2 ** 64)
    assert bits == ref_round32(Fraction(n), mode)
    assert flags == (0 if Fraction(float(f32(bits))) == n else NX)


@settings(max_examples=200, deadline=None)
@given(st.floats(width=64, allow_nan=False, allow_infinity=False, min_value=-6e4, max_value=6e4),
       st.sampled_from(DIRECTED))
def test_fp64_to_fp16_in_every_mode(x, mode):
    assume(abs(x) >= 2 ** -14)
    bits, flags = ieee_scalar.convert(FORMATS["TileDataType_FP64"], FP16, mode,
                                      int(np.array([x]).view(np.uint64)[0]))
    guess = np.float16(x)
    below = guess if Fraction(float(guess)) <= Fraction(x) else np.nextafter(guess, np.float16(-np.inf))
    above = below if Fraction(float(below)) == Fraction(x) else np.nextafter(below, np.float16(np.inf))
    want = below if below == above else pick(Fraction(x), below, above, mode)
    if np.isinf(want) and mode in ("NumericRound_RTZ",):
        return
    assert bits == int(np.array([want]).view(np.uint16)[0])
    assert bool(flags & NX) == (Fraction(x) != Fraction(float(want)))


def test_flags_on_edge_cases():
    one, inf, zero = bits32(1.0), bits32(np.inf), bits32(0.0)
    assert ieee_scalar.binary("*", FP32, "NumericRound_RTP", zero, inf) == (FP32.canonical_nan, NV)
    assert ieee_scalar.binary("/", FP32, "NumericRound_RTZ", one, zero) == (bits32(np.inf), DZ)
    big = bits32(np.finfo(np.float32).max)
    # overflow: infinity under RTP, the largest finite value under RTZ, OF|NX both
    assert ieee_scalar.binary("+", FP32, "NumericRound_RTP", big, big) == (bits32(np.inf), OF | NX)
    assert ieee_scalar.binary("+", FP32, "NumericRound_RTZ", big, big) == (big, OF | NX)
    tiny = bits32(np.float32(2.0 ** -149))
    assert ieee_scalar.binary("*", FP32, "NumericRound_RTP", tiny, bits32(0.5)) == (tiny, UF | NX)
    assert ieee_scalar.binary("*", FP32, "NumericRound_RNE", tiny, bits32(0.5)) == (0, UF | NX)
    # x - x is +0, except -0 under RTM
    assert ieee_scalar.binary("-", FP32, "NumericRound_RTM", one, one) == (0x80000000, 0)
    assert ieee_scalar.binary("-", FP32, "NumericRound_RNE", one, one) == (0, 0)
    assert ieee_scalar.unary("FloatingUnary_SQRT", FP32, "NumericRound_RNE", bits32(-1.0)) == (FP32.canonical_nan,
                                                                                                 NV)
    assert ieee_scalar.unary("FloatingUnary_RECIP", FP32, "NumericRound_RNE", zero) == (bits32(np.inf), DZ)
    signaling = 0x7F800001
    assert ieee_scalar.binary("+", FP32, "NumericRound_RNE", signaling, one) == (FP32.canonical_nan, NV)
    assert ieee_scalar.to_integer(FP32, 9, "NumericRound_RTZ", bits32(np.nan)) == (0, NV)


HOOKS_PROGRAM = """
type FloatingBinaryOperation of enumeration { FloatingBinary_ADD };
type FloatingUnaryOperation of enumeration { FloatingUnary_SQRT };
type NumericRoundingMode of enumeration { NumericRound_RNE, NumericRound_RTP };
type TileDataType of enumeration { TileDataType_FP32, TileDataType_FP16, TileDataType_S32 };
type NumericExecutionControl of record { rounding_mode: NumericRoundingMode, saturating: boolean };

implementation func ScalarFPBinaryProfile(operation: FloatingBinaryOperation,
        rounding_mode: NumericRoundingMode, source_type: bits(5), left: bits(64), right: bits(64))
        => (bits(64), bits(5))
begin
    return (left + right, Zeros{5});
end;

implementation func ScalarFPUnaryProfile(operation: FloatingUnaryOperation,
        rounding_mode: NumericRoundingMode, source_type: bits(5), value: bits(64)) => (bits(64), bits(5))
begin
    return (value, Zeros{5});
end;

implementation func TileProfileMatrixAccumulate(accumulator: bits(64), left: bits(64), right: bits(64),
        destination_type: TileDataType, left_type: TileDataType, right_type: TileDataType,
        control: NumericExecutionControl) => bits(64)
begin
    return accumulator + left * right;
end;

func main() => integer
begin
    let (s, sf) = ScalarFPBinaryProfile(FloatingBinary_ADD, NumericRound_RTP, '00001',
                                        ZeroExtend{64}(0x80000001[31:0]), ZeroExtend{64}(0x11111111[31:0]));
    let (r, rf) = ScalarFPUnaryProfile(FloatingUnary_SQRT, NumericRound_RNE, '00001',
                                       ZeroExtend{64}(FOUR));
    let (h, hf) = ScalarFPUnaryProfile(FloatingUnary_SQRT, NumericRound_RNE, '00110', ZeroExtend{64}(FOUR));
    let control = NumericExecutionControl { rounding_mode = NumericRound_RNE, saturating = FALSE };
    let m = TileProfileMatrixAccumulate(Zeros{64}, ZeroExtend{64}(ONE16), ZeroExtend{64}(TWO16),
                                        TileDataType_FP32, TileDataType_FP16, TileDataType_FP16, control);
    println s, " ", sf, " ", r, " ", rf, " ", h, " ", m;
    return 0;
end;
"""


def run_hooks(profile: str):
    text = (HOOKS_PROGRAM.replace("FOUR", f"'{bits32(4.0):032b}'")
            .replace("ONE16", f"'{int(np.float16(1.0).view(np.uint16)):016b}'")
            .replace("TWO16", f"'{int(np.float16(2.0).view(np.uint16)):016b}'"))
    out = io.StringIO()
    program = Program(parse(text, "hooks.asl"), out)
    bind_profile(program, profile)
    program.initialize()
    assert program.call("main") == 0
    return out.getvalue().split(), program


def test_the_issues_three_examples_are_ieee_and_a_hook_without_a_format_falls_back_on_record():
    fields, program = run_hooks("ieee")
    exact = Fraction(float(f32(0x80000001))) + Fraction(float(f32(0x11111111)))
    four = f"0x{bits32(4.0):016x}"
    assert fields[:2] == [f"0x{ref_round32(exact, 'NumericRound_RTP'):016x}", f"0x{NX:02x}"]  # 0x11111111, NX
    assert fields[2:4] == [f"0x{bits32(np.sqrt(np.float32(4.0))):016x}", "0x00"]
    assert fields[4] == four  # type code 6 (HiF8) has no bound format: the ASL's own hook ran ...
    assert program.profile_fallbacks == {"ScalarFPUnaryProfile"}  # ... and that is recorded
    product = np.float32(np.float16(1.0)) * np.float32(np.float16(2.0))
    assert fields[5] == f"0x{bits32(product):016x}"
    v0, _ = run_hooks("pto-v0")
    assert v0[0] == "0x0000000091111112" and v0[2] == four


@pytest.mark.parametrize("mode", DIRECTED)
def test_matrix_accumulate_fp16_into_fp32_rounds_once(mode):
    rng = np.random.default_rng(7)
    left = rng.standard_normal(64).astype(np.float16)
    right = rng.standard_normal(64).astype(np.float16)
    acc = rng.standard_normal(64).astype(np.float32) * np.float32(1e-3)
    formats = (FP32, FP16, FP16)
    for a, x, y in zip(acc, left, right, strict=True):
        exact = Fraction(float(a)) + Fraction(float(x)) * Fraction(float(y))
        got = ieee_scalar.matrix_accumulate(bits32(a), int(x.view(np.uint16)), int(y.view(np.uint16)), formats,
                                            mode, False)
        assert got == ref_round32(exact, mode)


def test_matrix_bias_and_scaled_accumulate():
    x, b = np.float32(1.5), np.float16(0.25)
    assert ieee_scalar.matrix_bias(bits32(x), int(b.view(np.uint16)), FP32, FP16) == bits32(x + np.float32(b))
    e4m3 = FORMATS["TileDataType_E4M3"]
    left = int(np.array([1.5], dtype=ml_dtypes.float8_e4m3fn).view(np.uint8)[0])
    right = int(np.array([-3.0], dtype=ml_dtypes.float8_e4m3fn).view(np.uint8)[0])
    # E8M0 scales 2**(130-127) and 2**(125-127): 1.5 * 8 * -3 * 0.25 = -9, plus 1.0
    got = ieee_scalar.matrix_accumulate(bits32(1.0), left, right, (FP32, e4m3, e4m3), "NumericRound_RNE", False,
                                        (130, 125))
    assert got == bits32(np.float32(1.0) + np.float32(1.5 * 2.0 ** 3) * np.float32(-3.0 * 2.0 ** -2))
    assert ieee_scalar.matrix_accumulate(0, left, right, (FP32, e4m3, e4m3), "NumericRound_RNE", False,
                                         (0xFF, None)) == FP32.canonical_nan


SIX_HOOKS = """
type FloatingFusedOperation of enumeration { FloatingFused_MADD, FloatingFused_NMSUB };
type NumericRoundingMode of enumeration { NumericRound_RNE, NumericRound_RTZ, NumericRound_RTP };
type TileDataType of enumeration { TileDataType_FP32, TileDataType_FP16, TileDataType_E4M3, TileDataType_E8M0 };

impdef func ScalarFPFusedProfile(operation: FloatingFusedOperation, rounding_mode: NumericRoundingMode,
        source_type: bits(5), addend: bits(64), left: bits(64), right: bits(64)) => (bits(64), bits(5))
begin
    return (addend, Zeros{5});
end;
impdef func ScalarFPToIntegerProfile(rounding_mode: NumericRoundingMode, destination_type: bits(5),
        source_type: bits(5), value: bits(64)) => (bits(64), bits(5))
begin
    return (value, Zeros{5});
end;
impdef func ScalarFPConvertProfile(rounding_mode: NumericRoundingMode, destination_type: bits(5),
        source_type: bits(5), value: bits(64)) => (bits(64), bits(5))
begin
    return (value, Zeros{5});
end;
impdef func ScalarIntegerToFPProfile(rounding_mode: NumericRoundingMode, source_type: bits(5),
        destination_type: bits(5), value: bits(64)) => (bits(64), bits(5))
begin
    return (value, Zeros{5});
end;
impdef func TileProfileMatrixBias(value: bits(64), bias: bits(64), destination_type: TileDataType,
        bias_type: TileDataType) => bits(64)
begin
    return value + bias;
end;
impdef func TileProfileMatrixScaledAccumulate(accumulator: bits(64), left: bits(64), right: bits(64),
        left_scale: bits(64), right_scale: bits(64), left_scale_present: boolean, right_scale_present: boolean,
        destination_type: TileDataType, left_type: TileDataType, right_type: TileDataType,
        left_scale_type: TileDataType, right_scale_type: TileDataType) => bits(64)
begin
    return accumulator + left * right;
end;
"""


def test_the_other_six_hooks_are_bound_under_ieee_only():
    program = Program(parse(SIX_HOOKS, "six.asl"), io.StringIO())
    bind_profile(program, "ieee")
    program.initialize()
    from pto_docs.asl.values import BV

    def word(x):
        return BV(x, 64)

    def code(x):
        return BV(x, 5)

    one_third = np.float32(1) / np.float32(3)
    got = program.call("ScalarFPFusedProfile", "FloatingFused_NMSUB", "NumericRound_RNE", code(1),
                       word(bits32(1.0)), word(bits32(2.0)), word(bits32(3.0)))
    assert (got[0].val, got[1].val) == (bits32(np.float32(-5.0)), 0)  # -(2 x 3) + 1
    got = program.call("ScalarFPToIntegerProfile", "NumericRound_RTZ", code(9), code(1), word(bits32(-2.75)))
    assert (got[0].val, got[1].val) == ((-2) % 2 ** 64, NX)
    got = program.call("ScalarFPConvertProfile", "NumericRound_RTP", code(4), code(1), word(bits32(one_third)))
    above = np.float16(one_third)
    above = above if Fraction(float(above)) > Fraction(float(one_third)) else np.nextafter(above, np.float16(1))
    assert (got[0].val, got[1].val) == (int(above.view(np.uint16)), NX)
    got = program.call("ScalarIntegerToFPProfile", "NumericRound_RNE", code(9), code(1), word((-3) % 2 ** 64))
    assert (got[0].val, got[1].val) == (bits32(-3.0), 0)
    got = program.call("TileProfileMatrixBias", word(bits32(1.5)), word(int(np.float16(0.25).view(np.uint16))),
                       "TileDataType_FP32", "TileDataType_FP16")
    assert got.val == bits32(1.75)
    two = int(np.array([2.0], dtype=ml_dtypes.float8_e4m3fn).view(np.uint8)[0])
    got = program.call("TileProfileMatrixScaledAccumulate", word(0), word(two), word(two), word(128), word(127),
                       True, True, "TileDataType_FP32", "TileDataType_E4M3", "TileDataType_E4M3",
                       "TileDataType_E8M0", "TileDataType_E8M0")
    assert got.val == bits32(2.0 * 2.0 * 2.0)  # (2 x 2**1) x (2 x 2**0)
    assert program.profile_fallbacks == set()


@settings(max_examples=200, deadline=None)
@given(st.floats(width=32, allow_nan=False, allow_infinity=False, min_value=2.0 ** -120, max_value=2.0 ** 120),
       st.booleans(), st.sampled_from(DIRECTED))
def test_fp32_reciprocal_in_every_mode(x, negative, mode):
    value = -x if negative else x
    bits, flags = ieee_scalar.unary("FloatingUnary_RECIP", FP32, mode, bits32(value))
    exact = 1 / Fraction(value)
    assert bits == ref_round32(exact, mode)
    assert flags == (0 if Fraction(float(f32(bits))) == exact else NX)
