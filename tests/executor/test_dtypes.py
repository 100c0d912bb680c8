"""Raw-bit round trips and hand rounding of every modelled data type."""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from executor_helpers import FORMATS, decode_bits, oracle_round, tile
from hypothesis import given, settings
from hypothesis import strategies as st

from pto_docs.executor import dtypes, run_case

ALL = ["FP64", "FP32", "TF32", "HF32", "FP16", "BF16", "E4M3", "E5M2",
       "S64", "S32", "S16", "S8", "U64", "U32", "U16", "U8"]


def _copy_case(dt, raw_rows, columns=8, capacity=None):
    bits = dtypes.get(dt).bits
    capacity = capacity or max(128, len(raw_rows) * columns * bits // 8)
    t = tile(dt, raw_rows, capacity=capacity, columns=columns)
    # TCOLEXPAND copies bit for bit; use it as an identity pass through the model
    return {"tiles": {"0": t}, "execute": {"instruction": "TABS" if False else "TCOLEXPAND",
                                           "destination": 1, "sources": [0]}}


@pytest.mark.parametrize("dt", ["E4M3", "E5M2", "S8", "U8"])
def test_eight_bit_formats_round_trip_exhaustively_through_a_case(dt):
    patterns = [f"0x{v:02x}" for v in range(256)]
    # 256 single-row broadcasts are slow; put all patterns in a 1x256 source instead
    src = tile(dt, [patterns], capacity=256, columns=256)
    r = run_case({"tiles": {"0": src},
                  "execute": {"instruction": "TCOLEXPAND", "destination": 1, "sources": [0]}})
    assert r["status"] == "ok"
    assert r["tiles"]["0"]["bits"][0] == patterns
    assert r["tiles"]["1"]["bits"][0] == patterns


@pytest.mark.parametrize("dt", ALL)
def test_raw_bits_round_trip_every_type(dt):
    d = dtypes.get(dt)
    rng = np.random.default_rng(7)
    raw = [int(x) & d.mask for x in rng.integers(0, 2 ** 63, 16, dtype=np.int64)]
    raw += [0, d.mask, d.sign_bit, d.sign_bit - 1, 1]
    if d.low_zero_bits:
        raw = [x & ~((1 << d.low_zero_bits) - 1) for x in raw]
    digits = d.bits // 4
    pats = [f"0x{x:0{digits}x}" for x in raw]
    src = tile(dt, [pats], capacity=max(128, 32 * d.bits // 8), columns=32)
    r = run_case({"tiles": {"0": src},
                  "execute": {"instruction": "TCOLEXPAND", "destination": 1, "sources": [0]}})
    assert r["tiles"]["1"]["bits"][0][:len(pats)] == pats


@pytest.mark.parametrize("dt", ["FP16", "BF16", "E4M3", "E5M2", "TF32", "HF32"])
def test_decode_matches_independent_decoder_exhaustively(dt):
    e, m, low, has_inf, total = FORMATS[dt]
    n = 1 << (1 + e + m)
    raw = (np.arange(n, dtype=np.uint64) << np.uint64(low))
    got = dtypes.decode(raw, dtypes.get(dt))
    step = max(1, n // 4096) if n > 70000 else 1
    for i in range(0, n, step):
        want = decode_bits(int(raw[i]), dt)
        g = got[i]
        if want == "nan":
            assert np.isnan(g)
        elif want in ("inf", "-inf"):
            assert g == (np.inf if want == "inf" else -np.inf)
        else:
            assert Fraction(float(g)) == want
            assert np.signbit(g) == bool(int(raw[i]) >> (total - 1))


@pytest.mark.parametrize("dt,low", [("TF32", 13), ("HF32", 12)])
def test_tf32_hf32_rounding_exhaustive_against_integer_rne(dt, low):
    """Every FP32 pattern of a sweep of exponents: float path vs integer RNE."""
    d = dtypes.get(dt)
    frac = np.arange(1 << 23, dtype=np.uint64)
    for exp in (0, 1, 100, 127, 254):
        raw = (np.uint64(exp) << np.uint64(23)) | frac
        vals = raw.astype(np.uint32).view(np.float32).astype(np.float64)
        bits, nx, of, uf = dtypes.round_to_format(vals, d)
        # integer round-half-even on the dropped low bits
        half = np.uint64(1 << (low - 1))
        keep = raw >> np.uint64(low)
        rem = raw & np.uint64((1 << low) - 1)
        up = (rem > half) | ((rem == half) & ((keep & np.uint64(1)) == 1))
        want = (keep + up.astype(np.uint64)) << np.uint64(low)
        want = np.where(want >= np.uint64(0x7F800000), np.uint64(0x7F800000), want)
        assert np.array_equal(bits, want), exp
        assert np.array_equal(nx, (rem != 0) | (want == 0x7F800000))
        assert np.array_equal(of, want == np.uint64(0x7F800000))


@pytest.mark.parametrize("dt,caster", [("FP16", np.float16), ("BF16", ml_dtypes.bfloat16),
                                       ("E4M3", ml_dtypes.float8_e4m3fn),
                                       ("E5M2", ml_dtypes.float8_e5m2), ("FP32", np.float32)])
def test_rounding_agrees_with_numpy_and_ml_dtypes_casts(dt, caster):
    d = dtypes.get(dt)
    rng = np.random.default_rng(3)
    vals = rng.standard_normal(5000) * np.exp2(rng.integers(-20, 12, 5000))
    vals = vals[np.abs(vals) < d.max_finite]
    bits, *_ = dtypes.round_to_format(vals, d)
    want = vals.astype(np.float32).astype(caster) if dt not in ("FP32", "FP16") else vals.astype(caster)
    # float64 -> float32 -> narrow double rounding is avoided for FP16/FP32; for the others
    # compare only values exactly representable in float32 (no double rounding there)
    if dt in ("BF16", "E4M3", "E5M2"):
        exact32 = vals.astype(np.float32).astype(np.float64) == vals
        bits, want = bits[exact32], want[exact32]
    width = {8: np.uint8, 16: np.uint16, 32: np.uint32}[d.bits]
    assert np.array_equal(bits, want.view(width).astype(np.uint64))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["FP32", "TF32", "HF32", "FP16", "BF16", "E4M3", "E5M2"]),
       st.integers(-(2 ** 70), 2 ** 70), st.integers(1, 2 ** 70))
def test_rounding_matches_exact_oracle(dt, num, den):
    q = Fraction(num, den)
    v = float(q)
    if Fraction(v) != q:
        return  # only exact float64 inputs: the oracle then judges one rounding
    bits, nx, of, uf = dtypes.round_to_format(np.array([v]), dtypes.get(dt))
    obits, oinexact, oover, otiny = oracle_round(q, dt)
    assert int(bits[0]) == obits
    assert bool(nx[0]) == oinexact
    assert bool(of[0]) == oover
    assert bool(uf[0]) == otiny


def test_pad_patterns_are_max_and_min_finite():
    for name in ["FP64", "FP32", "TF32", "HF32", "FP16", "BF16", "E4M3", "E5M2"]:
        d = dtypes.get(name)
        hi = dtypes.decode(np.array([d.pad_max], np.uint64), d)[0]
        lo = dtypes.decode(np.array([d.pad_min], np.uint64), d)[0]
        assert hi == d.max_finite and lo == -d.max_finite
    assert dtypes.get("E4M3").max_finite == 448.0
    assert dtypes.get("E5M2").max_finite == 57344.0
    assert dtypes.get("FP16").max_finite == 65504.0
