"""TCVT conformance: expected values by IEEE reasoning, faults, padding, aliasing, properties."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import numpy as np
import pytest
from executor_helpers import FORMATS, decode_bits, run, tile, valid
from hypothesis import given, settings
from hypothesis import strategies as st

from pto_docs.executor import (
    NOT_MODELLED,
    TCVT_PROFILE_NOTES,
    CaseError,
    accepted_data_types,
    check_bundle,
    default_cases,
    operation_class,
    run_case,
    supported_instructions,
)
from pto_docs.executor.case import validate_result

NO_FLAGS = {"NV": False, "DZ": False, "OF": False, "UF": False, "NX": False}
WIDTH = {"FP64": 64, "S64": 64, "U64": 64, "FP32": 32, "TF32": 32, "HF32": 32, "S32": 32, "U32": 32,
         "FP16": 16, "BF16": 16, "S16": 16, "U16": 16, "E4M3": 8, "E5M2": 8, "S8": 8, "U8": 8}
MODES = ("RNE", "RTZ", "RTM", "RTP", "RNA", "RTO", "RHB")


def flags(**on):
    return {**NO_FLAGS, **on}


def cvt(src, elements, dst=None, dest=1, **bundle):
    """Run TCVT on tile 0 sized so that the destination capacity is legal."""
    capacity = 128 * max(1, WIDTH[src] // WIDTH[dst or src])
    if dst is not None:
        bundle["data_type"] = dst
    return run("TCVT", {0: tile(src, elements, capacity=capacity)}, [0], dest, **bundle)


def ok(r):
    assert r["status"] == "ok", r["message"]
    validate_result(r)
    return r


# ------------------------------------------------------------ registry

def test_tcvt_is_registered_and_documented():
    assert "TCVT" in supported_instructions() and "TCVT" not in NOT_MODELLED
    assert operation_class("TCVT") == "elementwise-tile-tile"
    assert accepted_data_types("TCVT") == ("FP64", "FP32", "TF32", "HF32", "FP16", "BF16", "E4M3",
                                           "E5M2", "S64", "S32", "S16", "S8", "U64", "U32", "U16",
                                           "U8")
    assert TCVT_PROFILE_NOTES and all(isinstance(n, str) and n for n in TCVT_PROFILE_NOTES)
    text = " ".join(TCVT_PROFILE_NOTES)
    assert "NV" in text and "ADR 0090" in text and "RTZ" in text


def test_default_cases_cover_rounding_saturation_and_specials():
    cases = default_cases("TCVT")
    assert len(cases) >= 3
    bundles = [c["bundle"] for c in cases]
    assert any(b.get("rounding") for b in bundles)
    assert any(b.get("saturate") for b in bundles)
    results = [ok(run_case(c)) for c in cases]
    assert any(r["status_flags"]["OF"] for r in results)
    assert any(r["status_flags"]["NV"] for r in results)
    for c in cases:
        assert any("\u4e00" <= ch <= "\u9fff" for ch in c["caption"]["zh-CN"])


# ---------------------------------------------------- floating to integer

def test_fp32_to_s32_default_is_rtz():
    r = ok(cvt("FP32", [[1.5, -1.5, 2.9, -2.9, 7.0]], "S32"))
    assert valid(r, 1) == [[1, -1, 2, -2, 7]]
    assert r["tiles"]["1"]["data_type"] == "S32"
    assert r["status_flags"] == flags(NX=True)


def test_exact_float_to_int_sets_no_flags():
    r = ok(cvt("FP32", [[3.0, -0.0, 0.0, -2147483648.0]], "S32"))
    assert valid(r, 1) == [[3, 0, 0, -2147483648]]
    assert r["status_flags"] == NO_FLAGS


@pytest.mark.parametrize("mode,want", [
    ("RNE", [2, -2, 4, -4, 2, -3]),
    ("RTZ", [2, -2, 3, -3, 2, -2]),
    ("RTM", [2, -3, 3, -4, 2, -3]),
    ("RTP", [3, -2, 4, -3, 3, -2]),
    ("RNA", [3, -3, 4, -4, 2, -3]),
    ("RTO", [3, -3, 3, -3, 3, -3]),
    ("RHB", [3, -2, 4, -3, 2, -3]),
])
def test_float_to_int_rounding_modes(mode, want):
    r = ok(cvt("FP32", [[2.5, -2.5, 3.5, -3.5, 2.25, -2.75]], "S32", rounding=mode))
    assert valid(r, 1) == [want]
    assert r["status_flags"] == flags(NX=True)


@pytest.mark.parametrize("alias,mode", [("RDN", "RTM"), ("RUP", "RTP"), (3, "RTM"), (4, "RTP"),
                                        (1, "RNE"), (2, "RTZ"), (5, "RNA"), (6, "RTO"), (7, "RHB")])
def test_rounding_aliases_and_codes(alias, mode):
    a = cvt("FP32", [[2.5, -2.5, 3.25]], "S16", rounding=alias)
    b = cvt("FP32", [[2.5, -2.5, 3.25]], "S16", rounding=mode)
    assert valid(a, 1) == valid(b, 1)


@pytest.mark.parametrize("code", [0, "Default", "NONE"])
def test_rounding_default_selectors(code):
    r = ok(cvt("FP32", [[2.7]], "S32", rounding=code))
    assert valid(r, 1) == [[2]]  # RTZ for floating to integer
    r = ok(cvt("S32", [[16777217]], "FP32", rounding=code))
    assert valid(r, 1) == [[16777216.0]]  # RNE (tie to even) otherwise


def test_nan_and_infinity_to_integer_are_invalid_and_saturate():
    r = ok(cvt("FP32", [["nan"]], "S32"))
    assert valid(r, 1) == [[0]] and r["status_flags"] == flags(NV=True)
    r = ok(cvt("FP32", [["0x7f800001"]], "S32"))  # signalling NaN
    assert valid(r, 1) == [[0]] and r["status_flags"] == flags(NV=True)
    r = ok(cvt("FP32", [["inf", "-inf"]], "S32"))
    assert valid(r, 1) == [[2147483647, -2147483648]] and r["status_flags"] == flags(NV=True)
    r = ok(cvt("FP32", [["inf", "-inf", "nan"]], "U8"))
    assert valid(r, 1) == [[255, 0, 0]] and r["status_flags"] == flags(NV=True)


def test_out_of_range_float_to_int():
    r = ok(cvt("FP32", [[3.0e9, -3.0e9]], "S32"))
    assert valid(r, 1) == [[2147483647, -2147483648]]
    assert r["status_flags"] == flags(NV=True)  # invalid, not inexact
    r = ok(cvt("FP32", [[256.0, -1.0, 255.9]], "U8"))
    assert valid(r, 1) == [[255, 0, 255]] and r["status_flags"] == flags(NV=True, NX=True)
    # rounding happens before the range check
    r = ok(cvt("FP32", [[-0.5]], "U8"))  # RTZ: -0 -> 0, only inexact
    assert valid(r, 1) == [[0]] and r["status_flags"] == flags(NX=True)
    r = ok(cvt("FP32", [[-0.5]], "U8", rounding="RTM"))  # -1 is out of range
    assert valid(r, 1) == [[0]] and r["status_flags"] == flags(NV=True)
    r = ok(cvt("FP32", [[127.5]], "S8", rounding="RNE"))  # rounds to 128: out of range
    assert valid(r, 1) == [[127]] and r["status_flags"] == flags(NV=True)
    r = ok(cvt("FP32", [[3.0e9]], "S32", saturate=True))  # Sat=1 clamp coincides
    assert valid(r, 1) == [[2147483647]] and r["status_flags"] == flags(NV=True)


def test_fp64_to_64_bit_integers_at_the_boundaries():
    r = ok(cvt("FP64", [[2.0 ** 63, -(2.0 ** 63), 2.0 ** 64, 2.0 ** 63 - 1024]], "S64"))
    assert valid(r, 1) == [[2 ** 63 - 1, -2 ** 63, 2 ** 63 - 1, 2 ** 63 - 1024]]
    assert r["status_flags"] == flags(NV=True)
    r = ok(cvt("FP64", [[2.0 ** 64 - 2048, 2.0 ** 64, 1e300]], "U64"))
    assert valid(r, 1) == [[2 ** 64 - 2048, 2 ** 64 - 1, 2 ** 64 - 1]]
    r = ok(cvt("FP64", [[2.0 ** -1074, -(2.0 ** -1074)]], "S64", rounding="RTP"))
    assert valid(r, 1) == [[1, 0]] and r["status_flags"] == flags(NX=True)


# -------------------------------------------------- floating to floating

def test_fp32_to_fp16_overflow_under_each_mode():
    r = ok(cvt("FP32", [[65520.0]], "FP16"))
    assert valid(r, 1, "bits") == [["0x7c00"]] and r["status_flags"] == flags(OF=True, NX=True)
    r = ok(cvt("FP32", [[65519.0]], "FP16"))  # below the rounding threshold
    assert valid(r, 1, "bits") == [["0x7bff"]] and r["status_flags"] == flags(NX=True)
    r = ok(cvt("FP32", [[65520.0]], "FP16", rounding="RTZ"))  # truncation stays finite
    assert valid(r, 1, "bits") == [["0x7bff"]] and r["status_flags"] == flags(NX=True)
    r = ok(cvt("FP32", [[1.0e6, -1.0e6]], "FP16", rounding="RTZ"))
    assert valid(r, 1, "bits") == [["0x7bff", "0xfbff"]]
    assert r["status_flags"] == flags(OF=True, NX=True)
    r = ok(cvt("FP32", [[1.0e6, -1.0e6]], "FP16", rounding="RTP"))
    assert valid(r, 1, "bits") == [["0x7c00", "0xfbff"]]
    r = ok(cvt("FP32", [[1.0e6, -1.0e6]], "FP16", rounding="RTM"))
    assert valid(r, 1, "bits") == [["0x7bff", "0xfc00"]]
    r = ok(cvt("FP32", [[1.0e6, -1.0e6]], "FP16", rounding="RTO"))
    assert valid(r, 1, "bits") == [["0x7bff", "0xfbff"]]
    r = ok(cvt("FP32", [[65520.0, -1.0e6, "inf"]], "FP16", saturate=True))
    assert valid(r, 1, "bits") == [["0x7bff", "0xfbff", "0x7c00"]]  # infinity is exact
    assert r["status_flags"] == flags(OF=True, NX=True)


def test_negative_zero_keeps_its_sign():
    r = ok(cvt("FP32", [[-0.0, 0.0]], "FP16"))
    assert valid(r, 1, "bits") == [["0x8000", "0x0000"]] and r["status_flags"] == NO_FLAGS
    r = ok(cvt("FP16", [[-0.0]], "E4M3"))
    assert valid(r, 1, "bits") == [["0x80"]]
    r = ok(cvt("FP32", [[-0.0]], "U8"))
    assert valid(r, 1) == [[0]] and r["status_flags"] == NO_FLAGS


def test_fp16_to_fp32_is_exact():
    src = [[1.0, "0x0001", "0x03ff", 65504.0, -2.5, "-inf", 2.0 ** -14]]
    r = ok(cvt("FP16", src, "FP32"))
    assert valid(r, 1, "bits") == [["0x3f800000", "0x33800000", "0x387fc000", "0x477fe000",
                                    "0xc0200000", "0xff800000", "0x38800000"]]
    assert r["status_flags"] == NO_FLAGS


def test_nan_conversions_produce_canonical_nans():
    r = ok(cvt("FP32", [["0x7fc00001", "0xffc00000"]], "FP16"))
    assert valid(r, 1, "bits") == [["0x7e00", "0x7e00"]] and r["status_flags"] == NO_FLAGS
    r = ok(cvt("FP32", [["0x7f800001"]], "FP16"))
    assert valid(r, 1, "bits") == [["0x7e00"]] and r["status_flags"] == flags(NV=True)
    r = ok(cvt("FP16", [["0x7d00"]], "FP64"))
    assert valid(r, 1, "bits") == [["0x7ff8000000000000"]] and r["status_flags"] == flags(NV=True)
    r = ok(cvt("E4M3", [["0x7f", "0xff"]], "BF16"))
    assert valid(r, 1, "bits") == [["0x7fc0", "0x7fc0"]] and r["status_flags"] == NO_FLAGS
    r = ok(cvt("FP32", [["0x7f800001"]]))  # same-type conversion quiets too
    assert r["tiles"]["1"]["data_type"] == "FP32"
    assert valid(r, 1, "bits") == [["0x7fc00000"]] and r["status_flags"] == flags(NV=True)


def test_fp32_to_fp16_underflow_and_tininess_after_rounding():
    r = ok(cvt("FP32", [[2.0 ** -24]], "FP16"))
    assert valid(r, 1, "bits") == [["0x0001"]] and r["status_flags"] == NO_FLAGS
    r = ok(cvt("FP32", [[2.0 ** -25]], "FP16"))  # tie to even: +0
    assert valid(r, 1, "bits") == [["0x0000"]] and r["status_flags"] == flags(UF=True, NX=True)
    r = ok(cvt("FP32", [[1.5 * 2.0 ** -25]], "FP16"))
    assert valid(r, 1, "bits") == [["0x0001"]] and r["status_flags"] == flags(UF=True, NX=True)
    # 2^-14 - 2^-26 rounds to the normal 2^-14 even with an unbounded exponent: not tiny
    r = ok(cvt("FP32", [[2.0 ** -14 - 2.0 ** -26]], "FP16"))
    assert valid(r, 1, "bits") == [["0x0400"]] and r["status_flags"] == flags(NX=True)
    # 2^-14 - 2^-25 is exact at 11 bits but below 2^-14: tiny, and inexact on the subnormal grid
    r = ok(cvt("FP32", [[2.0 ** -14 - 2.0 ** -25]], "FP16"))
    assert valid(r, 1, "bits") == [["0x0400"]] and r["status_flags"] == flags(UF=True, NX=True)
    r = ok(cvt("FP32", [[2.0 ** -30]], "FP16", rounding="RTP"))
    assert valid(r, 1, "bits") == [["0x0001"]] and r["status_flags"] == flags(UF=True, NX=True)


def test_narrow_formats_ties_and_reduced_grids():
    r = ok(cvt("FP32", [[1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, 1 + 2.0 ** -9]], "BF16"))
    assert valid(r, 1) == [[1.0, 1 + 2.0 ** -6, 1.0]] and r["status_flags"] == flags(NX=True)
    r = ok(cvt("FP32", [[1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, 1 + 2.0 ** -10]], "TF32"))
    assert valid(r, 1, "bits") == [["0x3f800000", "0x3f804000", "0x3f802000"]]
    r = ok(cvt("FP32", [[1 + 2.0 ** -12]], "HF32", rounding="RTP"))
    assert valid(r, 1, "bits") == [["0x3f801000"]]
    r = ok(cvt("TF32", [[1.5, 3.0]], "FP32"))
    assert valid(r, 1) == [[1.5, 3.0]] and r["status_flags"] == NO_FLAGS


def test_fp8_destinations():
    r = ok(cvt("FP32", [[448.0, 464.0, 465.0, "inf", -500.0]], "E4M3"))
    assert valid(r, 1, "bits") == [["0x7e", "0x7e", "0x7f", "0x7f", "0x7f"]]
    assert r["status_flags"] == flags(OF=True, NX=True)
    r = ok(cvt("FP32", [[500.0, "-inf"]], "E4M3", saturate=True))
    assert valid(r, 1, "bits") == [["0x7e", "0xfe"]] and r["status_flags"] == flags(OF=True, NX=True)
    r = ok(cvt("FP32", [[500.0]], "E4M3", rounding="RTZ"))
    assert valid(r, 1, "bits") == [["0x7e"]] and r["status_flags"] == flags(OF=True, NX=True)
    r = ok(cvt("FP32", [[57344.0, 61440.0, "-inf"]], "E5M2"))
    assert valid(r, 1, "bits") == [["0x7b", "0x7c", "0xfc"]]  # 61440 is the tie: to even (inf)
    assert r["status_flags"] == flags(OF=True, NX=True)
    r = ok(cvt("E5M2", [["0x01", "0x7b"]], "E4M3"))  # 2^-16 underflows, 57344 overflows
    assert valid(r, 1, "bits") == [["0x00", "0x7f"]]
    assert r["status_flags"] == flags(UF=True, OF=True, NX=True)


def test_fp64_to_fp32_and_back():
    r = ok(cvt("FP64", [[0.1, 1e-50, 1e300, 2.0 ** -149]], "FP32"))
    assert valid(r, 1, "bits") == [["0x3dcccccd", "0x00000000", "0x7f800000", "0x00000001"]]
    assert r["status_flags"] == flags(OF=True, UF=True, NX=True)
    r = ok(cvt("FP32", [["0x3dcccccd"]], "FP64"))
    assert valid(r, 1) == [[float(np.float32(0.1))]] and r["status_flags"] == NO_FLAGS


# ------------------------------------------------------ integer sources

@pytest.mark.parametrize("src,dst,vals,wrap,sat", [
    ("S32", "U8", [300, -1, 255, -200], [44, 255, 255, 56], [255, 0, 255, 0]),
    ("U16", "U8", [300, 7], [44, 7], [255, 7]),
    ("S8", "U16", [-1, 5], [65535, 5], [0, 5]),
    ("U8", "S8", [255, 127], [-1, 127], [127, 127]),
    ("S64", "S32", [-2 ** 63, 2 ** 40 + 5], [0, 5], [-2 ** 31, 2 ** 31 - 1]),
    ("U64", "S64", [2 ** 64 - 1, 3], [-1, 3], [2 ** 63 - 1, 3]),
    ("S16", "S64", [-5, 32767], [-5, 32767], [-5, 32767]),
    ("U32", "U64", [2 ** 32 - 1, 0], [2 ** 32 - 1, 0], [2 ** 32 - 1, 0]),
    ("S64", "U64", [-1, 2 ** 63 - 1], [2 ** 64 - 1, 2 ** 63 - 1], [0, 2 ** 63 - 1]),
])
def test_integer_pairs_truncate_or_saturate_without_flags(src, dst, vals, wrap, sat):
    r = ok(cvt(src, [vals], dst))
    assert valid(r, 1) == [wrap] and r["status_flags"] == NO_FLAGS
    r = ok(cvt(src, [vals], dst, saturate=True))
    assert valid(r, 1) == [sat] and r["status_flags"] == NO_FLAGS


def test_integer_to_floating():
    r = ok(cvt("U64", [[2 ** 64 - 1, 2 ** 53 + 1, 0]], "FP64"))
    assert valid(r, 1) == [[2.0 ** 64, 2.0 ** 53, 0.0]] and r["status_flags"] == flags(NX=True)
    assert valid(r, 1, "bits")[0][2] == "0x0000000000000000"
    r = ok(cvt("S32", [[16777217, -16777217, 16777219]], "FP32"))
    assert valid(r, 1) == [[16777216.0, -16777216.0, 16777220.0]]
    r = ok(cvt("S32", [[16777217, -16777217]], "FP32", rounding="RTP"))
    assert valid(r, 1) == [[16777218.0, -16777216.0]]
    r = ok(cvt("U32", [[70000, 65519]], "FP16"))
    assert valid(r, 1, "bits") == [["0x7c00", "0x7bff"]] and r["status_flags"] == flags(OF=True, NX=True)
    r = ok(cvt("U32", [[70000]], "FP16", saturate=True))
    assert valid(r, 1, "bits") == [["0x7bff"]] and r["status_flags"] == flags(OF=True, NX=True)
    r = ok(cvt("S8", [[-128, 3, 17]], "E4M3"))
    assert valid(r, 1) == [[-128.0, 3.0, 16.0]] and r["status_flags"] == flags(NX=True)
    r = ok(cvt("S64", [[-2 ** 63]], "BF16"))
    assert valid(r, 1) == [[-(2.0 ** 63)]] and r["status_flags"] == NO_FLAGS


# ------------------------------------------------- padding and geometry

@pytest.mark.parametrize("dst,pad,want", [("S32", "Max", "0x7fffffff"), ("S32", "Min", "0x80000000"),
                                          ("FP16", "Max", "0x7bff"), ("FP16", "Min", "0xfbff"),
                                          ("U8", "Max", "0xff"), ("E4M3", "Min", "0xfe"),
                                          ("FP64", "Zero", "0x0000000000000000")])
def test_padding_uses_the_destination_type(dst, pad, want):
    r = ok(cvt("FP32", [[1.0]], dst, pad_value=pad))
    t = r["tiles"]["1"]
    assert t["bits"][0][1] == want and t["bits"][t["rows"] - 1][t["columns"] - 1] == want


def test_null_padding_and_geometry():
    r = ok(cvt("FP32", [[1.0, 2.0]], "FP16"))
    t, s = r["tiles"]["1"], r["tiles"]["0"]
    assert (t["rows"], t["columns"], t["valid_rows"], t["valid_columns"]) == \
        (s["rows"], s["columns"], s["valid_rows"], s["valid_columns"])
    assert t["values"][0][2] is None and t["bits"][1][0] is None
    assert s["values"][0][:2] == [1.0, 2.0]  # the source persists


def test_upstream_alias_example_u8_in_place_zero_padding():
    """tile-exec-tcvt-alias-001: in-place U8 conversion keeps both values, Zero padding."""
    src = {"capacity_bytes": 128, "rows": 16, "columns": 8, "valid_rows": 1, "valid_columns": 2,
           "data_type": "U8", "elements": [[7, 9]]}
    r = ok(run("TCVT", {0: src}, [0], 0, data_type="U8", pad_value="Zero"))
    t = r["tiles"]["0"]
    assert t["values"][0][:3] == [7, 9, 0] and t["values"][15][7] == 0


def test_alias_observes_the_source_snapshot_with_a_type_change():
    r = ok(run("TCVT", {0: tile("FP32", [[1.5, 65520.0, -0.0]], capacity=256)}, [0], 0,
               data_type="FP16"))
    t = r["tiles"]["0"]
    assert t["data_type"] == "FP16" and (t["rows"], t["columns"]) == (8, 8)
    assert valid(r, 0, "bits") == [["0x3e00", "0x7c00", "0x8000"]]
    assert set(r["tiles"]) == {"0"}


def test_upstream_bundle_example_u8_to_u16():
    """tile-exec-tcvt-bundle-001 (row-major part): U8 source becomes a U16 destination."""
    src = {"capacity_bytes": 128, "rows": 16, "columns": 8, "valid_rows": 1, "valid_columns": 2,
           "data_type": "U8", "elements": [[7, 9]]}
    text = ("BSTART.VEC TCVT, U8; B.DATR DataType=U16, PadValue=Null; B.DIM LB0=2; B.DIM LB2=8; "
            "B.IOT T1, mask=1111, last, ->T0<256>; BSTOP")
    r = ok(run_case({"tiles": {"1": src}, "bundle_text": text}))
    d = r["tiles"]["0"]
    assert d["data_type"] == "U16" and (d["rows"], d["columns"]) == (16, 8)
    assert valid(r, 0) == [[7, 9]] and valid(r, 1) == [[7, 9]]


def test_existing_destination_is_replaced_by_a_new_allocation():
    tiles = {0: tile("FP32", [[2.5]]), 1: tile("U8", [[1, 2, 3]])}
    r = ok(run("TCVT", tiles, [0], 1, data_type="S32"))
    assert r["tiles"]["1"]["data_type"] == "S32" and valid(r, 1) == [[2]]


def test_omitted_data_type_inherits_and_encoded_zero_is_fp64():
    t = {"0": tile("U8", [[5, 6]])}
    base = "BSTART.VEC TCVT, U8; {datr}B.DIM LB0=2; B.DIM LB2=8; B.IOT T0, mask=0001, last, ->T1; BSTOP"
    r = ok(run_case({"tiles": t, "bundle_text": base.format(datr="")}))
    assert r["tiles"]["1"]["data_type"] == "U8"
    assert r["tiles"]["1"]["values"][0][2] is None  # omitted B.DATR: Null padding
    r = ok(run_case({"tiles": t, "bundle_text": base.format(datr="B.DATR DataType=DTYPE_NONE; ")}))
    assert r["tiles"]["1"]["data_type"] == "U8" and r["tiles"]["1"]["values"][0][2] == 0
    r = ok(run_case({"tiles": t, "bundle_text": base.format(datr="B.DATR DataType=31; ")}))
    assert r["tiles"]["1"]["data_type"] == "U8"
    r = ok(run_case({"tiles": {"0": tile("U8", [[5, 6]], capacity=128)},
                     "bundle_text": base.format(datr="B.DATR DataType=0; ")}))
    assert r["tiles"]["1"]["data_type"] == "FP64" and valid(r, 1) == [[5.0, 6.0]]


def test_bundle_text_controls_match_direct_case():
    t = {"0": tile("FP32", [[2.5, -2.5, 3.0e9]])}
    text = ("BSTART.VEC TCVT, FP32; B.DATR DataType=S32, RMode=RNE, Sat=1, Canonicalize=0, "
            "Layout=NORM, PadValue=Max; B.DIM LB0=3; B.DIM LB2=8; B.IOT T0, mask=0001, last, "
            "->T1<128>; BSTOP")
    r = ok(run_case({"tiles": t, "bundle_text": text}))
    direct = ok(run_case({"tiles": t, "bundle": {"data_type": "S32", "rounding": "RNE",
                                                 "saturate": True, "pad_value": "Max"},
                          "execute": {"instruction": "TCVT", "destination": 1, "sources": [0]}}))
    assert valid(r, 1) == [[2, -2, 2147483647]]
    assert r["digest"] == direct["digest"]
    coded = text.replace("DataType=S32", "DataType=17").replace("RMode=RNE", "RMode=1")
    assert ok(run_case({"tiles": t, "bundle_text": coded}))["digest"] == r["digest"]


# --------------------------------------------------------------- faults

def _assert_fault(r, kind="Fault_TileLegality", tiles=("0",)):
    assert r["status"] == "fault" and r["fault"] == kind, r["message"]
    assert set(r["tiles"]) == set(tiles) and r["status_flags"] == NO_FLAGS
    validate_result(r)


def test_fault_unallocated_and_predicate_sources():
    _assert_fault(run("TCVT", {}, [0], 1, data_type="S32"), tiles=())
    pred = {"kind": "predicate", "capacity_bytes": 128, "rows": 4, "columns": 8, "valid_rows": 1,
            "valid_columns": 2, "elements": [[1, 0]]}
    _assert_fault(run("TCVT", {0: pred}, [0], 1, data_type="U8"))


def test_fault_undefined_or_invalid_source_and_zero_region():
    _assert_fault(cvt("FP32", [[1.0, None]], "S32"))
    _assert_fault(cvt("TF32", [["0x3f800001"]], "FP32"))  # low 13 bits must be zero
    empty = tile("FP32", [[1.0]])
    empty["valid_rows"], empty["valid_columns"] = 0, 0
    empty.pop("elements")
    _assert_fault(run("TCVT", {0: empty}, [0], 1, data_type="S32"))


def test_fault_destination_capacity():
    # a 4x8 FP32 source needs a 64-byte FP16 destination: not a legal capacity
    _assert_fault(run("TCVT", {0: tile("FP32", [[1.0]])}, [0], 1, data_type="FP16"),
                  "Fault_TileAllocation")
    # a TSize whose derived rows differ from the source rows
    _assert_fault(run("TCVT", {0: tile("FP32", [[1.0]], capacity=256)}, [0], 1, data_type="FP16",
                      capacity=256), "Fault_TileAllocation")
    # a 64 KiB U8 source cannot widen to FP16 (128 KiB)
    big = tile("U8", [[1]], capacity=65536, columns=256)
    _assert_fault(run("TCVT", {0: big}, [0], 1, data_type="FP16"), "Fault_TileAllocation")


def test_fault_capacity_exhausted():
    tiles = {i: tile("U8", [[1]], capacity=65536, columns=256) for i in range(4)}
    r = run("TCVT", tiles, [0], 5, data_type="U8")
    _assert_fault(r, "Fault_TileAllocation", tiles=("0", "1", "2", "3"))
    r = ok(run("TCVT", tiles, [0], 0, data_type="U8"))  # renaming in place reuses the budget
    assert valid(r, 0) == [[1]]


def test_fault_inapplicable_controls():
    _assert_fault(run("TADD", {0: tile("FP32", [[1.0]]), 1: tile("FP32", [[1.0]])}, [0, 1], 2,
                      rounding="RTZ"), tiles=("0", "1"))
    _assert_fault(run("TSQRT", {0: tile("FP32", [[1.0]])}, [0], 1, saturate=True))
    _assert_fault(cvt("FP32", [[1.0]], "S32", cmode="LT"))
    # the zero encodings are harmless everywhere
    ok(run("TSQRT", {0: tile("FP32", [[4.0]])}, [0], 1, rounding="Default", saturate=False))


BASE = ("BSTART.VEC TCVT, FP32; B.DATR DataType=S32{extra}; B.DIM LB0=2; B.DIM LB2=8; "
        "B.IOT T0, mask=0001, last, ->T1<128>; BSTOP")


@pytest.mark.parametrize("text", [
    BASE.replace("BSTART.VEC TCVT, FP32", "BSTART.VEC TCVT, FP16"),  # source type mismatch
    BASE.replace("B.IOT T0,", "B.IOR T0; B.IOT T0,"),
    BASE.replace("B.IOT T0,", "B.IOT T0, T0,"),  # a second source
    BASE.replace("B.DIM LB0=2; ", ""),
    BASE.replace("LB0=2", "LB0=0"),
    BASE.replace("LB0=2", "LB0=3"),
    BASE.format(extra=", Canonicalize=1"),
    BASE.format(extra=", CMode=LT"),
    BASE.replace("DataType=S32{extra}", "DataType=15"),  # reserved code
    BASE.replace("DataType=S32{extra}", "DataType=22"),
    BASE.format(extra=", Layout=2"),  # reserved layout code
    BASE.replace("mask=0001, last,", "mask=0001,"),  # the final B.IOT lacks <last>
])
def test_bundle_text_faults(text):
    text = text.replace("{extra}", "")
    r = run_case({"tiles": {"0": tile("FP32", [[1.0, 2.0]])}, "bundle_text": text})
    _assert_fault(r)


@pytest.mark.parametrize("text", [
    BASE.format(extra=", RMode=RXX"),
    BASE.format(extra=", RMode=9"),
    BASE.format(extra=", Sat=2"),
    BASE.format(extra=", Layout=ND2M16"),  # assigned but not modelled
    BASE.replace("DataType=S32{extra}", "DataType=E8M0"),  # assigned but not modelled
])
def test_bundle_text_malformed_or_unmodelled(text):
    with pytest.raises(CaseError) as exc:
        run_case({"tiles": {"0": tile("FP32", [[1.0, 2.0]])}, "bundle_text": text})
    assert exc.value.code == "EXEC-BUNDLE"


@pytest.mark.parametrize("bundle", [{"rounding": "RXX"}, {"rounding": 8}, {"saturate": 1},
                                    {"saturation": True}])
def test_schema_rejects_bad_controls(bundle):
    case = {"tiles": {"0": tile("FP32", [[1.0]])}, "bundle": bundle,
            "execute": {"instruction": "TCVT", "destination": 1, "sources": [0]}}
    with pytest.raises(CaseError) as exc:
        run_case(case)
    assert exc.value.code == "EXEC-SCHEMA"


def test_pe_mask_zero_is_a_strict_noop():
    r = run("TCVT", {0: tile("FP32", [[1.0, None]])}, [0], 1, data_type="S32", pe_mask="0000")
    assert r["status"] == "ok" and set(r["tiles"]) == {"0"} and r["status_flags"] == NO_FLAGS
    text = BASE.replace("DataType=S32{extra}", "DataType=15").replace("mask=0001", "mask=0000")
    r = run_case({"tiles": {"0": tile("FP32", [[1.0, 2.0]])}, "bundle_text": text})
    assert r["status"] == "ok" and set(r["tiles"]) == {"0"}


def test_pe_mask_charges_every_selected_pe():
    r = ok(cvt("FP32", [[1.0]], "S32", pe_mask="1111"))
    assert valid(r, 1) == [[1]]


def test_check_bundle_on_the_contract_example():
    ex = ("BSTART.VEC TCVT, SrcDataType; B.DATR DstDataType, RMode, Sat, Canonicalize, Layout, "
          "PadValue (optional); B.DIM LB0=ValidCol; B.DIM LB1=ValidRow (optional); "
          "B.DIM LB2=Col (optional); B.IOT SrcTile, mask=PE_MASK, <last>, ->DstTile<TSize>; BSTOP")
    assert check_bundle(ex) == []
    assert check_bundle(ex, data_type_symbolic_ok=False) == ["unknown data type SrcDataType"]
    concrete = ex.replace("SrcDataType", "FP32").replace("DstDataType", "DataType=HiF8")
    assert check_bundle(concrete) == []  # HiF4X2/HiF8 etc. are legal TCVT destinations
    assert check_bundle(concrete.replace("DataType=HiF8", "DataType=21")) != []
    assert check_bundle(concrete.replace("RMode,", "RMode=RXX,")) != []
    assert any("CMode" in p for p in check_bundle(concrete.replace("Layout,", "Layout, CMode=LT,")))
    assert any("B.IOR" in p for p in check_bundle(ex.replace("B.IOT", "B.IOR T0; B.IOT")))
    assert any("B.IOT" in p for p in check_bundle(ex.replace("SrcTile,", "SrcTile, Other,")))


# ------------------------------------------------------------ properties

def _int_range(dt):
    w = WIDTH[dt]
    return (-(1 << (w - 1)), (1 << (w - 1)) - 1) if dt[0] == "S" else (0, (1 << w) - 1)


INTS = ["S64", "S32", "S16", "S8", "U64", "U32", "U16", "U8"]


def _int_oracle(v, dst, saturate):
    lo, hi = _int_range(dst)
    if saturate:
        return min(max(v, lo), hi)
    w = WIDTH[dst]
    r = v % (1 << w)
    return r - (1 << w) if dst[0] == "S" and r > hi else r


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(INTS), st.sampled_from(INTS), st.booleans(), st.data())
def test_integer_pairs_match_python_oracle(src, dst, saturate, data):
    lo, hi = _int_range(src)
    vals = data.draw(st.lists(st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, 0, -1 if lo else 1])),
                              min_size=1, max_size=8))
    r = ok(cvt(src, [vals], dst, saturate=saturate))
    assert valid(r, 1) == [[_int_oracle(v, dst, saturate) for v in vals]]
    assert r["status_flags"] == NO_FLAGS


def _f32(raw):
    return struct.unpack("<f", struct.pack("<I", raw))[0]


def _fp16_oracle(raw):
    """FP32 bits -> (FP16 bits, flags) via numpy.float16 scalars (RNE)."""
    x = _f32(raw)
    if math.isnan(x):
        return 0x7E00, flags(NV=not (raw >> 22) & 1)
    with np.errstate(all="ignore"):
        h = np.float16(np.float32(x))
    bits = int(np.array(h).view(np.uint16))
    if math.isinf(x):
        return bits, NO_FLAGS
    of = math.isinf(float(h))
    nx = of or float(h) != x
    m, e = math.frexp(abs(x))
    unbounded = round(m * 2048) / 2048 * 2.0 ** e if x else 0.0
    tiny = x != 0 and unbounded < 2.0 ** -14
    return bits, flags(OF=of, NX=nx, UF=tiny and nx)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 2 ** 32 - 1),
                          st.integers(0x3300_0000, 0x4780_0000),  # FP16 subnormal..overflow
                          st.integers(0xB300_0000, 0xC780_0000)), min_size=1, max_size=8))
def test_fp32_to_fp16_matches_numpy_float16(raws):
    r = ok(cvt("FP32", [[f"0x{x:08x}" for x in raws]], "FP16"))
    expect = [_fp16_oracle(x) for x in raws]
    assert valid(r, 1, "bits") == [[f"0x{b:04x}" for b, _ in expect]]
    assert r["status_flags"] == {k: any(f[k] for _, f in expect) for k in NO_FLAGS}


def _round_int(q: Fraction, mode: str) -> tuple[int, bool]:
    """Exact rounding of a rational to an integer under ``mode``."""
    fl = q.numerator // q.denominator
    frac = q - fl
    if frac == 0:
        return fl, False
    half = Fraction(1, 2)
    up = {"RNE": frac > half or (frac == half and fl % 2 == 1), "RNA": frac > half or (frac == half and q > 0),
          "RHB": frac >= half, "RTP": True, "RTM": False, "RTZ": q < 0, "RTO": False}[mode]
    r = fl + 1 if up else fl
    if mode == "RTO":
        r = fl if fl % 2 else fl + 1
    return r, True


def finite_fp32():
    return st.integers(0, 2 ** 32 - 1).filter(lambda x: (x >> 23) & 0xFF != 0xFF)


def _fp32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def halfway_ints():
    """FP32 values k + 1/2 and k + 1/4: ties and near-ties for every rounding mode."""
    return st.builds(lambda k, f, neg: _fp32_bits((-1 if neg else 1) * (k + f)),
                     st.integers(0, 1000), st.sampled_from([0.5, 0.25, 0.75]), st.booleans())


def tricky_fp32(dst):
    """FP32 bits near the destination's halfway points, minimum normal and maximum."""
    e, m, *_ = FORMATS[dst]
    bias = (1 << (e - 1)) - 1
    drop = 23 - m
    low = st.sampled_from([1 << (drop - 1), (1 << (drop - 1)) + 1, (1 << (drop - 1)) - 1,
                           (1 << drop) - 1, 1]) if drop > 0 else st.just(0)
    exps = st.integers(max(1, 127 - bias - m - 2), min(254, 127 + bias + 2))
    general = st.builds(lambda sign, ex, hi, lo: (sign << 31) | (ex << 23) | ((hi << drop) | lo),
                        st.integers(0, 1), exps, st.integers(0, (1 << m) - 1), low)
    # just below the minimum normal: tininess before and after rounding differ here
    emin = 1 - bias
    below = st.builds(lambda sign, k: (sign << 31) | _fp32_bits(2.0 ** emin * (1 - 2.0 ** -k)),
                      st.integers(0, 1), st.integers(m + 1, m + 3))
    return st.one_of(general, below)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(MODES), st.sampled_from(INTS), st.lists(
    st.one_of(finite_fp32(), halfway_ints(), st.integers(0x3E00_0000, 0x4F80_0000),
              st.integers(0xBE00_0000, 0xCF80_0000)), min_size=1, max_size=6))
def test_fp32_to_integer_matches_exact_oracle(mode, dst, raws):
    lo, hi = _int_range(dst)
    expect, nv, nx = [], False, False
    for raw in raws:
        q = decode_bits(raw, "FP32")
        n, inexact = _round_int(q, mode)
        if lo <= n <= hi:
            expect.append(n)
            nx |= inexact
        else:
            expect.append(lo if q < 0 else hi)
            nv = True
    r = ok(cvt("FP32", [[f"0x{x:08x}" for x in raws]], dst, rounding=mode))
    assert valid(r, 1) == [expect]
    assert r["status_flags"] == flags(NV=nv, NX=nx)


def _float_oracle(q: Fraction, negative: bool, dt: str, mode: str, saturate: bool):
    """Exact rounding of a finite rational onto a floating format: (value, OF, UF, NX)."""
    e, m, low, has_inf, total = FORMATS[dt]
    bias = (1 << (e - 1)) - 1
    emin = 1 - bias
    if has_inf:
        maxf = (2 - Fraction(1, 1 << m)) * Fraction(2) ** ((1 << e) - 2 - bias)
    else:
        maxf = (2 - Fraction(2, 1 << m)) * Fraction(2) ** ((1 << e) - 1 - bias)
    if q == 0:
        return ("-0" if negative else 0), False, False, False

    def rnd(quantum_exp):
        n, inexact = _round_int(q / Fraction(2) ** quantum_exp, mode)
        return n * Fraction(2) ** quantum_exp, inexact
    a = abs(q)
    E = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** E > a:
        E -= 1
    while Fraction(2) ** (E + 1) <= a:
        E += 1
    value, inexact = rnd(max(E, emin) - m)
    unbounded, _ = rnd(E - m)
    tiny = abs(unbounded) < Fraction(2) ** emin
    if abs(value) > maxf:
        to_inf = not saturate and (mode in ("RNE", "RNA", "RHB") or (mode == "RTP" and q > 0)
                                   or (mode == "RTM" and q < 0))
        if to_inf:
            return ("nan" if not has_inf else ("-inf" if q < 0 else "inf")), True, False, True
        return (-maxf if q < 0 else maxf), True, False, True
    if value == 0:
        value = "-0" if q < 0 else 0
    return value, False, tiny and inexact, inexact


def _decoded(raw, dt):
    v = decode_bits(raw, dt)
    if v == 0 and raw >> (FORMATS[dt][4] - 1):
        return "-0"
    return v


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(MODES), st.sampled_from(["FP16", "BF16", "TF32", "HF32", "E5M2", "E4M3"]),
       st.booleans(), st.data())
def test_fp32_to_narrow_floats_match_exact_oracle(mode, dst, saturate, data):
    raws = data.draw(st.lists(st.one_of(finite_fp32(), st.integers(0x3000_0000, 0x4800_0000),
                                        tricky_fp32(dst), tricky_fp32(dst)),
                              min_size=1, max_size=6))
    want, of, uf, nx = [], False, False, False
    for raw in raws:
        q = decode_bits(raw, "FP32")
        v, o, u, x = _float_oracle(q, bool(raw >> 31), dst, mode, saturate)
        want.append(v)
        of, uf, nx = of or o, uf or u, nx or x
    cap_src = 128 * 32 // WIDTH[dst]
    r = ok(run("TCVT", {0: tile("FP32", [[f"0x{x:08x}" for x in raws]], capacity=cap_src)}, [0], 1,
               data_type=dst, rounding=mode, saturate=saturate))
    got = [_decoded(int(b, 16), dst) for b in valid(r, 1, "bits")[0]]
    assert got == want
    assert r["status_flags"] == flags(OF=of, UF=uf, NX=nx)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(MODES), st.sampled_from(["FP16", "BF16", "E4M3", "E5M2", "FP32", "FP64"]),
       st.sampled_from(INTS), st.data())
def test_integer_to_float_matches_exact_oracle(mode, dst, src, data):
    lo, hi = _int_range(src)
    vals = data.draw(st.lists(st.integers(lo, hi), min_size=1, max_size=6))
    want, of, nx = [], False, False
    for v in vals:
        value, o, _u, x = _float_oracle(Fraction(v), False, dst, mode, False)
        want.append(value)
        of, nx = of or o, nx or x
    cap_src = max(128, 128 * WIDTH[src] // WIDTH[dst])
    r = ok(run("TCVT", {0: tile(src, [vals], capacity=cap_src)}, [0], 1, data_type=dst,
               rounding=mode))
    got = [_decoded(int(b, 16), dst) for b in valid(r, 1, "bits")[0]]
    assert got == want
    assert r["status_flags"] == flags(OF=of, NX=nx)
