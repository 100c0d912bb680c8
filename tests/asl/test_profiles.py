"""Numeric profiles: pto-v0 runs the ASL's own hook; ieee binds TileProfileUnary to IEEE arithmetic."""

from __future__ import annotations

import io
import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pto_docs.asl.profiles import DZ, FLOAT_TYPES, NV, NX, ieee_unary
from pto_docs.asl.runner import run_sources

HOOK_PROGRAM = """
type TileUnaryOperation of enumeration { TileUnary_SQRT, TileUnary_RECIP, TileUnary_ABS };
type TileDataType of enumeration { TileDataType_FP32, TileDataType_S32 };

implementation func TileProfileUnary(op: TileUnaryOperation, data_type: TileDataType,
                                     value: bits(64)) => (bits(64), bits(5))
begin
    return (value, Zeros{5});
end;

func main() => integer
begin
    let (r, flags) = TileProfileUnary(TileUnary_SQRT, TileDataType_FP32, ZeroExtend{64}(VALUE));
    println r, " ", flags;
    let (a, b) = TileProfileUnary(TileUnary_ABS, TileDataType_FP32, ZeroExtend{64}(VALUE));
    println a, " ", b;
    return 0;
end;
"""


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def run(profile: str, value: float) -> list[str]:
    text = HOOK_PROGRAM.replace("VALUE", f"'{f32_bits(value):032b}'")
    out = io.StringIO()
    status, message = run_sources([("hook.asl", text)], out, profile=profile)
    assert status == 0, message
    return out.getvalue().split("\n")


def test_pto_v0_returns_raw_carrier_bits_and_ieee_the_square_root():
    four = f"0x{f32_bits(4.0):016x}"
    assert run("pto-v0", 4.0)[0] == f"{four} 0x00"
    assert run("ieee", 4.0)[0] == f"0x{f32_bits(2.0):016x} 0x00"
    # an operation the ieee profile does not bind falls through to the ASL implementation
    assert run("ieee", 4.0)[1] == f"{four} 0x00"


def test_ieee_flags_for_inexact_invalid_and_divide_by_zero():
    spec = FLOAT_TYPES["TileDataType_FP32"]
    assert ieee_unary("TileUnary_SQRT", spec, f32_bits(2.0))[1] == NX
    assert ieee_unary("TileUnary_SQRT", spec, f32_bits(-1.0))[1] == NV
    assert ieee_unary("TileUnary_RECIP", spec, f32_bits(0.0))[1] == DZ
    assert ieee_unary("TileUnary_RECIP", spec, f32_bits(4.0)) == (f32_bits(0.25), 0)


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=0, width=32, allow_infinity=False, allow_nan=False))
def test_ieee_sqrt_matches_numpy_float32(x):
    spec = FLOAT_TYPES["TileDataType_FP32"]
    bits, _flags = ieee_unary("TileUnary_SQRT", spec, f32_bits(x))
    assert bits == int(np.sqrt(np.float32(x)).view(np.uint32))


def test_unknown_profile_is_rejected():
    with pytest.raises(ValueError):
        run("fast-math", 1.0)


def test_ieee_binary_rounds_and_flags():
    from pto_docs.asl.profiles import OF, UF, ieee_binary

    spec = FLOAT_TYPES["TileDataType_FP32"]
    assert ieee_binary("+", spec, f32_bits(1.5), f32_bits(2.25)) == (f32_bits(3.75), 0)
    bits, flags = ieee_binary("/", spec, f32_bits(1.0), f32_bits(3.0))
    assert bits == int(np.float32(1.0 / 3.0).view(np.uint32)) and flags == NX
    assert ieee_binary("/", spec, f32_bits(1.0), f32_bits(0.0))[1] == DZ
    assert ieee_binary("*", spec, f32_bits(3e38), f32_bits(10.0))[1] == OF | NX
    assert ieee_binary("*", spec, f32_bits(1e-30), f32_bits(1e-30))[1] & UF
    assert ieee_binary("-", spec, f32_bits(float("inf")), f32_bits(float("inf")))[1] == NV


@settings(max_examples=200, deadline=None)
@given(st.floats(width=32, allow_nan=False, allow_infinity=False),
       st.floats(width=32, allow_nan=False, allow_infinity=False))
def test_ieee_binary_add_matches_numpy_float32(x, y):
    from pto_docs.asl.profiles import ieee_binary

    spec = FLOAT_TYPES["TileDataType_FP32"]
    with np.errstate(all="ignore"):
        expected = int((np.float32(x) + np.float32(y)).view(np.uint32))
    assert ieee_binary("+", spec, f32_bits(x), f32_bits(y))[0] == expected


SCALAR_PROGRAM = """
type FloatingBinaryOperation of enumeration { FloatingBinary_ADD, FloatingBinary_MIN };
type NumericRoundingMode of enumeration { NumericRound_RNE, NumericRound_RTZ };

implementation func ScalarFPBinaryProfile(operation: FloatingBinaryOperation,
        rounding_mode: NumericRoundingMode, source_type: bits(5), left: bits(64), right: bits(64))
        => (bits(64), bits(5))
begin
    return (left + right, Zeros{5});
end;

func main() => integer
begin
    let a = ZeroExtend{64}(LEFT);
    let b = ZeroExtend{64}(RIGHT);
    let (r1, f1) = ScalarFPBinaryProfile(FloatingBinary_ADD, NumericRound_RNE, '00001', a, b);
    let (r2, f2) = ScalarFPBinaryProfile(FloatingBinary_ADD, NumericRound_RTZ, '00001', a, b);
    println r1, " ", f1, " ", r2, " ", f2;
    return 0;
end;
"""


def test_ieee_scalar_hook_binds_fp32_in_every_rounding_mode():
    text = SCALAR_PROGRAM.replace("LEFT", f"'{f32_bits(1.0):032b}'").replace("RIGHT", f"'{f32_bits(0.1):032b}'")
    outputs = {}
    for profile in ("pto-v0", "ieee"):
        out = io.StringIO()
        status, message = run_sources([("scalar.asl", text)], out, profile=profile)
        assert status == 0, message
        outputs[profile] = out.getvalue().split()
    raw_sum = f"0x{f32_bits(1.0) + f32_bits(0.1):016x}"
    assert outputs["pto-v0"] == [raw_sum, "0x00", raw_sum, "0x00"]
    ieee_sum = f"0x{int((np.float32(1.0) + np.float32(0.1)).view(np.uint32)):016x}"
    # round-to-nearest-even is bound to NumPy (inexact: NX); RTZ to the exact sum truncated: the float32
    # below it (NumPy's sum rounded up here, as 1.1000000015 lies nearer the float32 above)
    exact = Fraction(float(np.float32(1.0))) + Fraction(float(np.float32(0.1)))
    nearest = np.float32(1.0) + np.float32(0.1)
    below = nearest if Fraction(float(nearest)) < exact else np.nextafter(nearest, np.float32(0))
    assert Fraction(float(below)) < exact < Fraction(float(np.nextafter(below, np.float32(2))))
    rtz_sum = f"0x{int(below.view(np.uint32)):016x}"
    assert outputs["ieee"] == [ieee_sum, "0x10", rtz_sum, "0x10"]


def test_ieee_recip_of_the_smallest_subnormal_overflows():
    from pto_docs.asl.profiles import FLOAT_TYPES, NX, OF, ieee_unary
    assert ieee_unary("TileUnary_RECIP", FLOAT_TYPES["TileDataType_FP32"], 1) == (0x7F800000, OF | NX)
    assert ieee_unary("TileUnary_RECIP", FLOAT_TYPES["TileDataType_FP64"], 1) == (0x7FF0000000000000, OF | NX)


# -- TFMA and TREM hooks --------------------------------------------------------------------------
def f16_bits(x: float) -> int:
    return int(np.array([x], dtype=np.float16).view(np.uint16)[0])


def test_ieee_fused_multiply_add_rounds_once():
    from pto_docs.asl.profiles import OF, UF, ieee_fused_multiply_add
    fp32 = "TileDataType_FP32"
    assert ieee_fused_multiply_add(fp32, f32_bits(3.0), f32_bits(1.0), f32_bits(2.0)) == (f32_bits(5.0), 0)
    a = 1 + 2.0 ** -23  # (1 + 2^-23)^2 - (1 + 2^-22) = 2^-46 exactly: a separate rounding of the product gives 0
    assert ieee_fused_multiply_add(fp32, f32_bits(-(1 + 2.0 ** -22)), f32_bits(a), f32_bits(a)) == (f32_bits(2.0 ** -46), 0)
    assert ieee_fused_multiply_add(fp32, f32_bits(1.0), f32_bits(1.0), f32_bits(2.0 ** -30))[1] == NX
    big = float(np.finfo(np.float16).max)
    assert ieee_fused_multiply_add("TileDataType_FP16", 0, f16_bits(big), f16_bits(2.0)) == (f16_bits(np.inf), OF | NX)
    bits, flags = ieee_fused_multiply_add(fp32, 0, f32_bits(2.0 ** -70), f32_bits((1 + 2.0 ** -23) * 2.0 ** -60))
    assert flags == UF | NX and 0 < struct.unpack("<f", struct.pack("<I", bits))[0] < 2.0 ** -126
    # exact zero: -0 only for -0 + -0
    assert ieee_fused_multiply_add(fp32, f32_bits(-0.0), f32_bits(-0.0), f32_bits(1.0)) == (f32_bits(-0.0), 0)
    assert ieee_fused_multiply_add(fp32, f32_bits(-2.0), f32_bits(1.0), f32_bits(2.0)) == (f32_bits(0.0), 0)
    assert ieee_fused_multiply_add(fp32, f32_bits(1.0), f32_bits(np.inf), f32_bits(2.0)) == (f32_bits(np.inf), 0)


def test_ieee_floating_modulo_is_the_floor_modulo():
    from pto_docs.asl.profiles import ieee_floating_modulo
    fp32 = "TileDataType_FP32"

    def rem(x, y):
        bits, flags = ieee_floating_modulo(fp32, f32_bits(x), f32_bits(y))
        return struct.unpack("<f", struct.pack("<I", bits))[0], flags
    assert rem(7.0, 3.0) == (1.0, 0) and rem(7.0, -3.0) == (-2.0, 0) and rem(-7.5, 2.0) == (0.5, 0)
    assert rem(5.0, np.inf) == (5.0, 0) and rem(-5.0, np.inf) == (np.inf, 0)
    zero, flags = rem(0.0, -np.inf)
    assert zero == 0 and np.signbit(zero) and flags == 0
    assert rem(6.0, -3.0)[0] == 0 and np.signbit(rem(6.0, -3.0)[0])  # a zero result takes the divisor's sign
    nan, flags = rem(1.0, 0.0)
    assert np.isnan(nan) and flags == NV
    assert np.isnan(rem(np.inf, 2.0)[0]) and rem(np.inf, 2.0)[1] == NV
    assert rem(-(2.0 ** -30), 1.0) == (1.0, NX)  # 1 - 2^-30 rounds to 1


def test_ieee_binds_the_tfma_and_trem_hooks_only_for_the_ieee_types():
    program = """
type TileDataType of enumeration { TileDataType_FP32, TileDataType_S32 };
impdef func TileProfileFusedMultiplyAdd(data_type: TileDataType, addend: bits(64), left: bits(64),
                                        right: bits(64)) => (bits(64), bits(5))
begin
    return (left + right + addend, Zeros{5});
end;
impdef func TileProfileFloatingModulo(data_type: TileDataType, left: bits(64), right: bits(64)) => bits(64)
begin
    return left;
end;
impdef func TileProfileFloatingModuloFlags(data_type: TileDataType, left: bits(64), right: bits(64)) => bits(5)
begin
    return Zeros{5};
end;
func main() => integer
begin
    let (f, ff) = TileProfileFusedMultiplyAdd(TileDataType_FP32, ZeroExtend{64}(C), ZeroExtend{64}(A), ZeroExtend{64}(B));
    println f, " ", ff;
    let (g, gf) = TileProfileFusedMultiplyAdd(TileDataType_S32, ZeroExtend{64}(C), ZeroExtend{64}(A), ZeroExtend{64}(B));
    println g;
    println TileProfileFloatingModulo(TileDataType_FP32, ZeroExtend{64}(A), ZeroExtend{64}(B)), " ",
            TileProfileFloatingModuloFlags(TileDataType_FP32, ZeroExtend{64}(A), ZeroExtend{64}(B));
    return 0;
end;
"""
    text = (program.replace("(A)", f"('{f32_bits(7.0):032b}')").replace("(B)", f"('{f32_bits(-3.0):032b}')")
            .replace("(C)", f"('{f32_bits(1.0):032b}')"))
    lines = {}
    for profile in ("pto-v0", "ieee"):
        out = io.StringIO()
        status, message = run_sources([("hooks.asl", text)], out, profile=profile)
        assert status == 0, message
        lines[profile] = out.getvalue().split("\n")
    raw_sum = f32_bits(7.0) + f32_bits(-3.0) + f32_bits(1.0)
    assert int(lines["pto-v0"][0].split()[0], 0) == raw_sum
    assert int(lines["ieee"][0].split()[0], 0) == f32_bits(-20.0)  # 7 * -3 + 1
    assert int(lines["ieee"][1], 0) == raw_sum == int(lines["pto-v0"][1], 0)  # S32: the ASL's own
    assert int(lines["ieee"][2].split()[0], 0) == f32_bits(-2.0)  # 7 mod -3, floor
    assert int(lines["pto-v0"][2].split()[0], 0) == f32_bits(7.0)
