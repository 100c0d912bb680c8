"""Conformance of the elementwise-tile-tile operations (expected values by hand)."""

from __future__ import annotations

import math

import pytest
from executor_helpers import run, tile, valid

from pto_docs.executor import accepted_data_types, operation_class, supported_instructions

NO_FLAGS = {"NV": False, "DZ": False, "OF": False, "UF": False, "NX": False}


def flags(**on):
    return {**NO_FLAGS, **on}


# ------------------------------------------------------------ normal values

@pytest.mark.parametrize("instr,dt,a,b,want", [
    ("TADD", "U64", [[3, 5]], [[4, 6]], [[7, 11]]),
    ("TADD", "U8", [[200, 255]], [[100, 1]], [[44, 0]]),
    ("TADD", "S8", [[127, -128]], [[1, -1]], [[-128, 127]]),
    ("TSUB", "U16", [[0, 10]], [[1, 3]], [[65535, 7]]),
    ("TMUL", "U8", [[200, 16]], [[2, 16]], [[144, 0]]),
    ("TMUL", "S64", [[3, -4]], [[5, 6]], [[15, -24]]),
    ("TMUL", "S32", [[65536, -1]], [[65536, -2147483648]], [[0, -2147483648]]),
    ("TDIV", "S32", [[7, -7, -2147483648]], [[2, 2, -1]], [[3, -3, -2147483648]]),
    ("TDIV", "U8", [[255, 7]], [[16, 8]], [[15, 0]]),
    ("TREM", "S16", [[7, -7, 7, -7]], [[3, 3, -3, -3]], [[1, 2, -2, -1]]),
    ("TREM", "U32", [[10, 3]], [[4, 5]], [[2, 3]]),
    ("TMAX", "S8", [[-1, 5]], [[1, -5]], [[1, 5]]),
    ("TMAX", "U8", [[255, 5]], [[1, 6]], [[255, 6]]),
    ("TMIN", "S16", [[-32768, 5]], [[0, -5]], [[-32768, -5]]),
    ("TAND", "U8", [[0xF0, 0xFF]], [[0x3C, 0x0F]], [[0x30, 0x0F]]),
    ("TOR", "S8", [[-128, 1]], [[1, 2]], [[-127, 3]]),
    ("TXOR", "U64", [[2 ** 64 - 1, 5]], [[1, 5]], [[2 ** 64 - 2, 0]]),
    ("TSHL", "U8", [[1, 3]], [[7, 9]], [[128, 6]]),
    ("TSHL", "S32", [[1, 1]], [[31, 32]], [[-2147483648, 1]]),
    ("TSHR", "S8", [[-128, -1]], [[1, 7]], [[-64, -1]]),
    ("TSHR", "U8", [[128, 255]], [[1, 7]], [[64, 1]]),
    ("TADD", "FP32", [[1.5, 0.25]], [[2.25, -0.25]], [[3.75, 0.0]]),
    ("TSUB", "FP16", [[1.0, 2.0]], [[0.5, 2.0]], [[0.5, 0.0]]),
    ("TMUL", "BF16", [[3.0, -0.5]], [[0.5, 4.0]], [[1.5, -2.0]]),
    ("TDIV", "FP64", [[1.0, 9.0]], [[4.0, 3.0]], [[0.25, 3.0]]),
    ("TREM", "FP32", [[5.5, -5.5, 5.5]], [[2.0, 2.0, -2.0]], [[1.5, 0.5, -0.5]]),
    ("TADD", "E4M3", [[1.0, 2.0]], [[0.5, 4.0]], [[1.5, 6.0]]),
    ("TMUL", "E5M2", [[2.0, 1.5]], [[3.0, 2.0]], [[6.0, 3.0]]),
    ("TADD", "TF32", [[1.0, 3.0]], [[1.0, 0.5]], [[2.0, 3.5]]),
])
def test_binary_values(instr, dt, a, b, want):
    r = run(instr, {0: tile(dt, a), 1: tile(dt, b)}, [0, 1], 2)
    assert r["status"] == "ok", r["message"]
    assert valid(r, 2) == want


@pytest.mark.parametrize("instr,dt,a,want", [
    ("TABS", "S8", [[-128, -5, 5]], [[-128, 5, 5]]),
    ("TABS", "U8", [[200, 0, 1]], [[200, 0, 1]]),
    ("TNEG", "U8", [[1, 0, 255]], [[255, 0, 1]]),
    ("TNEG", "S16", [[-32768, 5, 0]], [[-32768, -5, 0]]),
    ("TNOT", "U16", [[0, 0x1234, 0xFFFF]], [[0xFFFF, 0xEDCB, 0]]),
    ("TNOT", "S8", [[0, -1, 5]], [[-1, 0, -6]]),
    ("TRELU", "S32", [[-7, 0, 9]], [[0, 0, 9]]),
    ("TRELU", "U8", [[200, 0, 1]], [[200, 0, 1]]),
    ("TABS", "FP32", [[-1.5, -0.0, "-inf"]], [[1.5, 0.0, "inf"]]),
    ("TNEG", "FP16", [[1.0, 0.0, "inf"]], [[-1.0, -0.0, "-inf"]]),
    ("TRELU", "FP32", [[-3.0, -0.0, 2.0]], [[0.0, 0.0, 2.0]]),
    ("TSQRT", "FP32", [[4.0, 2.25, 0.0]], [[2.0, 1.5, 0.0]]),
    ("TSQRT", "FP64", [[16.0, 0.25, 1e-300 * 1e-300 * 0 + 9.0]], [[4.0, 0.5, 3.0]]),
    ("TRSQRT", "FP16", [[4.0, 0.25, 16.0]], [[0.5, 2.0, 0.25]]),
    ("TRECIP", "BF16", [[2.0, -4.0, 0.5]], [[0.5, -0.25, 2.0]]),
    ("TEXP", "FP32", [[0.0, -0.0]], [[1.0, 1.0]]),
    ("TLOG", "FP32", [[1.0]], [[0.0]]),
])
def test_unary_values(instr, dt, a, want):
    r = run(instr, {0: tile(dt, a)}, [0], 1)
    assert r["status"] == "ok", r["message"]
    assert valid(r, 1) == want


def test_negative_zero_is_preserved_bitwise():
    r = run("TSQRT", {0: tile("FP32", [[-0.0]])}, [0], 1)
    assert valid(r, 1, "bits") == [["0x80000000"]]
    assert r["status_flags"] == NO_FLAGS
    r = run("TABS", {0: tile("FP16", [["0xfe01"]])}, [0], 1)  # sign cleared, NaN payload kept
    assert valid(r, 1, "bits") == [["0x7e01"]]
    assert r["status_flags"] == NO_FLAGS


def test_exp_and_log_of_common_values_are_correctly_rounded_fp32():
    r = run("TEXP", {0: tile("FP32", [[1.0, -1.0]])}, [0], 1)
    got = valid(r, 1)[0]
    import numpy as np
    assert got == [float(np.float32(math.e)), float(np.float32(1 / math.e))]
    assert r["status_flags"] == flags(NX=True)
    r = run("TLOG", {0: tile("FP32", [[8.0]])}, [0], 1)
    assert valid(r, 1)[0] == [float(np.float32(math.log(8.0)))]


# ------------------------------------------------------------ special values

@pytest.mark.parametrize("instr,dt,a,b,want_bits,want_flags", [
    ("TADD", "FP32", [["inf"]], [["-inf"]], [["0x7fc00000"]], flags(NV=True)),
    ("TADD", "FP32", [[1.0]], [[2.0 ** -30]], [["0x3f800000"]], flags(NX=True)),
    ("TADD", "FP32", [[3.4028234663852886e38]], [[3.4028234663852886e38]], [["0x7f800000"]],
     flags(OF=True, NX=True)),
    ("TADD", "FP32", [[1.0]], [["0x7f800001"]], [["0x7fc00000"]], flags(NV=True)),  # sNaN
    ("TADD", "FP32", [[1.0]], [["0x7fc00001"]], [["0x7fc00000"]], NO_FLAGS),  # qNaN
    ("TSUB", "FP32", [[1.0]], [[1.0]], [["0x00000000"]], NO_FLAGS),
    ("TSUB", "FP32", [[-0.0]], [[0.0]], [["0x80000000"]], NO_FLAGS),
    ("TMUL", "FP32", [[0.0]], [["inf"]], [["0x7fc00000"]], flags(NV=True)),
    ("TMUL", "FP32", [[2.0 ** -100]], [[2.0 ** -100]], [["0x00000000"]], flags(UF=True, NX=True)),
    ("TMUL", "FP16", [[2.0 ** -14]], [[0.5]], [["0x0200"]], NO_FLAGS),  # exact subnormal
    ("TMUL", "E4M3", [[448.0]], [[2.0]], [["0x7f"]], flags(OF=True, NX=True)),  # no inf: NaN
    ("TMUL", "E5M2", [[57344.0]], [[2.0]], [["0x7c"]], flags(OF=True, NX=True)),
    ("TDIV", "FP32", [[1.0]], [[0.0]], [["0x7f800000"]], flags(DZ=True)),
    ("TDIV", "FP32", [[-1.0]], [[0.0]], [["0xff800000"]], flags(DZ=True)),
    ("TDIV", "FP32", [[0.0]], [[0.0]], [["0x7fc00000"]], flags(NV=True)),
    ("TDIV", "FP32", [[1.0]], [[3.0]], [["0x3eaaaaab"]], flags(NX=True)),
    ("TDIV", "FP64", [[1.0]], [[3.0]], [["0x3fd5555555555555"]], flags(NX=True)),
    ("TREM", "FP32", [[1.0]], [[0.0]], [["0x7fc00000"]], flags(NV=True)),
    ("TMAX", "FP32", [["nan"]], [[3.0]], [["0x40400000"]], NO_FLAGS),
    ("TMAX", "FP32", [["nan"]], [["nan"]], [["0x7fc00000"]], NO_FLAGS),
    ("TMAX", "FP32", [["0x7f800001"]], [[3.0]], [["0x40400000"]], flags(NV=True)),
    ("TMAX", "FP32", [[-0.0]], [[0.0]], [["0x00000000"]], NO_FLAGS),
    ("TMAX", "FP32", [[-0.0]], [[-0.0]], [["0x80000000"]], NO_FLAGS),
    ("TMIN", "FP32", [[0.0]], [[-0.0]], [["0x80000000"]], NO_FLAGS),
    ("TMIN", "FP16", [["-inf"]], [[1.0]], [["0xfc00"]], NO_FLAGS),
])
def test_binary_special_values(instr, dt, a, b, want_bits, want_flags):
    r = run(instr, {0: tile(dt, a), 1: tile(dt, b)}, [0, 1], 2)
    assert r["status"] == "ok", r["message"]
    assert valid(r, 2, "bits") == want_bits
    # ExecuteTileBinary publishes no status flags (TileProfileBinary discards them) ...
    assert r["status_flags"] == NO_FLAGS
    # ... while the element operation still computes them (TileProfileBinaryWithFlags, used by TADDS).
    import numpy as np

    from pto_docs.executor import dtypes, numeric
    bits = [np.array([[int(x, 16) for x in row] for row in valid(r, i, "bits")], np.uint64) for i in (0, 1)]
    _, element_flags = numeric.binary(instr[1:], bits[0], bits[1], dtypes.get(dt))
    assert {k: bool(np.any(v)) for k, v in element_flags.items()} == want_flags


@pytest.mark.parametrize("instr,dt,a,want_bits,want_flags", [
    ("TSQRT", "FP32", [["inf"]], [["0x7f800000"]], NO_FLAGS),
    ("TSQRT", "FP32", [[-1.0]], [["0x7fc00000"]], flags(NV=True)),
    ("TSQRT", "FP32", [["-inf"]], [["0x7fc00000"]], flags(NV=True)),
    ("TSQRT", "FP32", [["0x7f800001"]], [["0x7fc00000"]], flags(NV=True)),
    ("TSQRT", "FP32", [["0x7fc00001"]], [["0x7fc00000"]], NO_FLAGS),
    ("TSQRT", "FP32", [[2.0]], [["0x3fb504f3"]], flags(NX=True)),
    ("TRSQRT", "FP32", [[0.0]], [["0x7f800000"]], flags(DZ=True)),
    ("TRSQRT", "FP32", [[-0.0]], [["0xff800000"]], flags(DZ=True)),
    ("TRSQRT", "FP32", [["inf"]], [["0x00000000"]], NO_FLAGS),
    ("TRSQRT", "E4M3", [[0.0]], [["0x7f"]], flags(DZ=True)),
    ("TRECIP", "FP32", [[-0.0]], [["0xff800000"]], flags(DZ=True)),
    ("TRECIP", "FP32", [["-inf"]], [["0x80000000"]], NO_FLAGS),
    ("TRECIP", "E4M3", [[-0.0]], [["0x7f"]], flags(DZ=True)),
    ("TRECIP", "FP16", [["0x0001"]], [["0x7c00"]], flags(OF=True, NX=True)),
    ("TLOG", "FP32", [[0.0]], [["0xff800000"]], flags(DZ=True)),
    ("TLOG", "FP32", [[-2.0]], [["0x7fc00000"]], flags(NV=True)),
    ("TLOG", "E4M3", [[0.0]], [["0x7f"]], flags(DZ=True)),
    ("TLOG", "FP32", [["inf"]], [["0x7f800000"]], NO_FLAGS),
    ("TEXP", "FP32", [["-inf"]], [["0x00000000"]], NO_FLAGS),
    ("TEXP", "FP32", [["inf"]], [["0x7f800000"]], NO_FLAGS),
    ("TEXP", "FP32", [[100.0]], [["0x7f800000"]], flags(OF=True, NX=True)),
    ("TEXP", "FP32", [[-200.0]], [["0x00000000"]], flags(UF=True, NX=True)),
    ("TEXP", "FP16", [["0x7d00"]], [["0x7e00"]], flags(NV=True)),  # sNaN
    ("TRELU", "FP32", [["0x7f800001"]], [["0x7fc00000"]], flags(NV=True)),
    ("TRELU", "FP32", [["-inf"]], [["0x00000000"]], NO_FLAGS),
    ("TNEG", "FP32", [["0x7f800001"]], [["0xff800001"]], NO_FLAGS),
])
def test_unary_special_values(instr, dt, a, want_bits, want_flags):
    r = run(instr, {0: tile(dt, a)}, [0], 1)
    assert r["status"] == "ok", r["message"]
    assert valid(r, 1, "bits") == want_bits
    assert r["status_flags"] == want_flags


def test_tfma_single_rounding_and_invalid_cases():
    # (1 + 2^-23) * (1 - 2^-23) = 1 - 2^-46 ; minus 1 is exactly -2^-46 when fused
    a = tile("FP32", [[1 + 2.0 ** -23, 0.0, "inf", 2.0]])
    b = tile("FP32", [[1 - 2.0 ** -23, "inf", 1.0, 3.0]])
    c = tile("FP32", [[-1.0, 1.0, "-inf", 1.0]])
    r = run("TFMA", {0: a, 1: b, 2: c}, [0, 1, 2], 3)
    assert valid(r, 3)[0][0] == -(2.0 ** -46)
    assert valid(r, 3, "bits")[0][1:3] == ["0x7fc00000", "0x7fc00000"]
    assert valid(r, 3)[0][3] == 7.0
    assert r["status_flags"] == flags(NV=True)


def test_tfma_integer_wraps():
    t = {0: tile("U8", [[200]]), 1: tile("U8", [[2]]), 2: tile("U8", [[10]])}
    assert valid(run("TFMA", t, [0, 1, 2], 3), 3) == [[154]]


def test_tfma_fp64_exact_fusion():
    a = tile("FP64", [[1 + 2.0 ** -52]])
    b = tile("FP64", [[1 - 2.0 ** -52]])
    c = tile("FP64", [[-1.0]])
    r = run("TFMA", {0: a, 1: b, 2: c}, [0, 1, 2], 3)
    assert valid(r, 3) == [[-(2.0 ** -104)]]
    assert r["status_flags"] == NO_FLAGS


# ------------------------------------------------------------ compare/select

def _pred(rows, columns, elements, capacity=128):
    return {"kind": "predicate", "capacity_bytes": capacity, "rows": rows, "columns": columns,
            "valid_rows": len(elements), "valid_columns": len(elements[0]), "elements": elements}


@pytest.mark.parametrize("cmode,want", [("EQ", [0, 1, 0, 1]), ("NE", [1, 0, 1, 0]),
                                        ("LT", [1, 0, 0, 0]), ("LE", [1, 1, 0, 1]),
                                        ("GT", [0, 0, 0, 0]), ("GE", [0, 1, 0, 1])])
def test_tcmp_modes_with_nan_and_signed_zero(cmode, want):
    a = tile("FP32", [[1.0, 2.0, "nan", -0.0]])
    b = tile("FP32", [[2.0, 2.0, 1.0, 0.0]])
    r = run("TCMP", {0: a, 1: b}, [0, 1], 2, cmode=cmode, pad_value="Max")
    assert r["tiles"]["2"]["kind"] == "predicate"
    assert valid(r, 2) == [want]
    assert r["tiles"]["2"]["values"][0][4] == 1  # Max padding writes one bits
    assert r["tiles"]["2"]["values"][1][0] == 1


def test_tcmp_signed_vs_unsigned_and_snan_flag():
    r = run("TCMP", {0: tile("S8", [[-1]]), 1: tile("S8", [[1]])}, [0, 1], 2, cmode="LT")
    assert valid(r, 2) == [[1]]
    r = run("TCMP", {0: tile("U8", [[255]]), 1: tile("U8", [[1]])}, [0, 1], 2, cmode="LT")
    assert valid(r, 2) == [[0]]
    r = run("TCMP", {0: tile("FP32", [["0x7f800001"]]), 1: tile("FP32", [[1.0]])}, [0, 1], 2,
            cmode="NE")
    assert valid(r, 2) == [[1]] and r["status_flags"]["NV"]


def test_tsel_copies_raw_bits_without_flags():
    t = {0: _pred(4, 8, [[1, 0, 1]]), 1: tile("FP32", [[1.0, 2.0, "0x7f800001"]]),
         2: tile("FP32", [[-1.0, "0x7f800001", 3.0]])}
    r = run("TSEL", t, [0, 1, 2], 3, pad_value="Zero")
    assert valid(r, 3, "bits") == [["0x3f800000", "0x7f800001", "0x7f800001"]]
    assert r["status_flags"] == NO_FLAGS


def test_tsel_rejects_numeric_mask():
    t = {0: tile("FP32", [[1.0]]), 1: tile("FP32", [[1.0]]), 2: tile("FP32", [[2.0]])}
    r = run("TSEL", t, [0, 1, 2], 3)
    assert r["status"] == "fault" and r["fault"] == "Fault_TileLegality"


# ------------------------------------------------------------------ padding

@pytest.mark.parametrize("dt,pad,want", [
    ("S64", "Min", "0x8000000000000000"), ("S64", "Max", "0x7fffffffffffffff"),
    ("U16", "Max", "0xffff"), ("U16", "Min", "0x0000"), ("FP32", "Max", "0x7f7fffff"),
    ("FP32", "Min", "0xff7fffff"), ("FP16", "Max", "0x7bff"), ("BF16", "Min", "0xff7f"),
    ("E4M3", "Max", "0x7e"), ("E5M2", "Min", "0xfb"), ("TF32", "Max", "0x7f7fe000"),
    ("HF32", "Min", "0xff7ff000"), ("FP64", "Max", "0x7fefffffffffffff"), ("S8", "Zero", "0x00"),
    ("S8", "00", "0x00"), ("S8", "01", "0x7f"), ("S8", "10", "0x80"),
])
def test_padding_kinds(dt, pad, want):
    one = 1 if dt[0] in "SU" else 1.0
    r = run("TADD", {0: tile(dt, [[one]]), 1: tile(dt, [[one]])}, [0, 1], 2, pad_value=pad)
    t = r["tiles"]["2"]
    assert t["bits"][0][1] == want and t["bits"][t["rows"] - 1][t["columns"] - 1] == want


@pytest.mark.parametrize("pad", [None, "Null", "11"])
def test_null_padding_leaves_undefined(pad):
    bundle = {} if pad is None else {"pad_value": pad}
    r = run("TMUL", {0: tile("S64", [[3]], columns=2), 1: tile("S64", [[5]], columns=2)},
            [0, 1], 2, **bundle)
    t = r["tiles"]["2"]
    assert t["values"][0][0] == 15
    assert t["values"][0][1] is None and t["bits"][0][1] is None
    assert all(v is None for row in t["values"][1:] for v in row)


def test_upstream_tmul_padding_example():
    """tests/asl/.../TMUL/tile-state-tmul-padding-001: Min padding of S64 is the minimum."""
    t = {i: {"capacity_bytes": 128, "rows": 8, "columns": 2, "valid_rows": 1, "valid_columns": 1,
             "data_type": "S64"} for i in range(3)}
    t[0]["elements"], t[1]["elements"] = [[3]], [[5]]
    r = run("TMUL", t, [0, 1], 2, pad_value="Min")
    assert r["tiles"]["2"]["values"][0] == [15, -2 ** 63]
    assert r["tiles"]["2"]["rows"] == 8


# ------------------------------------------------------------ PE_MASK/alias

def test_pe_mask_zero_is_a_strict_noop_even_for_illegal_operations():
    tiles = {0: tile("FP32", [[1.0]]), 1: tile("U8", [[1]])}  # mismatched types
    r = run("TADD", tiles, [0, 1], 2, pe_mask="0000")
    assert r["status"] == "ok" and r["fault"] is None
    assert set(r["tiles"]) == {"0", "1"}
    assert r["status_flags"] == NO_FLAGS
    base = run("TSQRT", {0: tile("FP32", [[-1.0]])}, [0], 0, pe_mask="0000")
    assert valid(base, 0) == [[-1.0]] and base["status_flags"] == NO_FLAGS


def test_destination_aliasing_a_source_reads_old_values():
    r = run("TSUB", {0: tile("S32", [[10, 20]]), 1: tile("S32", [[1, 2]])}, [0, 1], 0)
    assert valid(r, 0) == [[9, 18]]
    r = run("TADD", {0: tile("U8", [[3, 4]])}, [0, 0], 0)
    assert valid(r, 0) == [[6, 8]]
    r = run("TSQRT", {0: tile("FP32", [[9.0, 16.0]])}, [0], 0, pad_value="Zero")
    assert valid(r, 0) == [[3.0, 4.0]]


# ------------------------------------------------------------------ faults

def _unchanged(before_case, result):
    return set(result["tiles"]) == set(before_case)


@pytest.mark.parametrize("name,tiles,instr,srcs,bundle,kind", [
    ("unsupported type", {0: tile("FP32", [[1.0]]), 1: tile("FP32", [[1.0]])}, "TAND", [0, 1], {},
     "Fault_TileLegality"),
    ("unsupported sfu type", {0: tile("S32", [[4]])}, "TSQRT", [0], {}, "Fault_TileLegality"),
    ("type mismatch", {0: tile("FP32", [[1.0]]), 1: tile("S32", [[1]])}, "TADD", [0, 1], {},
     "Fault_TileLegality"),
    ("shape mismatch", {0: tile("U8", [[1, 2]]), 1: tile("U8", [[1]])}, "TADD", [0, 1], {},
     "Fault_TileLegality"),
    ("physical mismatch", {0: tile("U8", [[1]], columns=8), 1: tile("U8", [[1]], columns=16)},
     "TADD", [0, 1], {}, "Fault_TileLegality"),
    ("undefined source", {0: tile("U8", [[1, None]]), 1: tile("U8", [[1, 2]])}, "TADD", [0, 1],
     {}, "Fault_TileLegality"),
    ("unwritten source", {0: {**tile("U8", [[1]]), "elements": None}, 1: tile("U8", [[1]])},
     "TADD", [0, 1], {}, "Fault_TileLegality"),
    ("unallocated source", {0: tile("U8", [[1]])}, "TADD", [0, 5], {}, "Fault_TileLegality"),
    ("integer zero divisor", {0: tile("S32", [[7, 1]]), 1: tile("S32", [[1, 0]])}, "TDIV", [0, 1],
     {}, "Fault_TileLegality"),
    ("integer zero modulus", {0: tile("U8", [[7]]), 1: tile("U8", [[0]])}, "TREM", [0, 1], {},
     "Fault_TileLegality"),
    ("invalid TF32 encoding", {0: tile("TF32", [["0x3f800001"]])}, "TSQRT", [0], {},
     "Fault_TileLegality"),
    ("zero dimension", {0: tile("U8", [[]]), 1: tile("U8", [[]])}, "TADD", [0, 1], {},
     "Fault_TileLegality"),
    ("capacity exhausted", {i: tile("U8", [[1]], capacity=65536, columns=256) for i in range(4)},
     "TADD", [0, 1], {}, "Fault_TileAllocation"),
    ("capacity with wide mask", {0: tile("U8", [[1]], capacity=65536, columns=256)}, "TNOT", [0],
     {"pe_mask": "1111"}, "Fault_TileAllocation"),
])
def test_faults_leave_state_unchanged(name, tiles, instr, srcs, bundle, kind):
    for t in tiles.values():
        if t.get("elements") is None:
            t.pop("elements", None)
            if t["valid_rows"] == 0:
                pass
    if name == "zero dimension":
        for t in tiles.values():
            t["valid_rows"], t["valid_columns"] = 1, 0
            t["elements"] = [[]]
    r = run(instr, tiles, srcs, 9, **bundle)
    assert r["status"] == "fault", name
    assert r["fault"] == kind, (name, r["message"])
    assert "9" not in r["tiles"]
    assert r["status_flags"] == NO_FLAGS
    for k, t in tiles.items():
        assert r["tiles"][str(k)]["valid_rows"] == t["valid_rows"]


def test_fault_state_is_bitwise_unchanged_when_destination_exists():
    tiles = {0: tile("S32", [[1, 2]]), 1: tile("S32", [[0, 1]]), 2: tile("S32", [[7, 7]])}
    r = run("TDIV", tiles, [0, 1], 2)
    assert r["status"] == "fault"
    assert valid(r, 2) == [[7, 7]]


def test_destination_capacity_too_small_is_an_allocation_fault():
    r = run("TADD", {0: tile("FP32", [[1.0]], capacity=256), 1: tile("FP32", [[1.0]], capacity=256)},
            [0, 1], 2, capacity=128)
    assert r["fault"] == "Fault_TileAllocation"
    r = run("TADD", {0: tile("FP32", [[1.0]]), 1: tile("FP32", [[1.0]])}, [0, 1], 2, capacity=100)
    assert r["fault"] == "Fault_TileAllocation"


def test_existing_mismatched_destination_is_a_legality_fault():
    tiles = {0: tile("FP32", [[1.0]]), 1: tile("FP32", [[1.0]]), 2: tile("FP16", [[1.0]])}
    assert run("TADD", tiles, [0, 1], 2)["fault"] == "Fault_TileLegality"


# -------------------------------------------------------------- catalogue

def test_supported_set_and_classes():
    ew = {m for m in supported_instructions() if operation_class(m) == "elementwise-tile-tile"}
    re_ = {m for m in supported_instructions() if operation_class(m) == "reduce-and-expand"}
    assert len(ew) == 25 and "TCVT" in ew
    assert operation_class("TCVT") == "elementwise-tile-tile"
    assert len(supported_instructions()) == 53
    assert len(re_) == 28
    assert accepted_data_types("TSQRT") == ("FP64", "FP32", "TF32", "HF32", "FP16", "BF16",
                                            "E4M3", "E5M2")
    assert "U64" in accepted_data_types("TMUL")
    assert "FP32" not in accepted_data_types("TAND")
    assert set(accepted_data_types("TROWARGMAX")) == {"FP32", "FP16", "BF16", "S32", "S16", "S8",
                                                      "U32", "U16", "U8"}


@pytest.mark.parametrize("raw", ["0xc439", "0xc43b"])  # exp(-740): float64 subnormal; exp(-748): float64 zero
def test_exp_underflow_far_below_bf16_raises_uf(raw):
    r = run("TEXP", {0: tile("BF16", [[raw]])}, [0], 1)
    assert valid(r, 1, "bits") == [["0x0000"]]
    assert r["status_flags"] == flags(UF=True, NX=True)


# ------------------------------------------------- invalid TF32/HF32 encodings

@pytest.mark.parametrize("instr", ["TADD", "TSUB", "TMUL", "TDIV", "TREM"])
def test_arithmetic_on_an_invalid_tf32_encoding_is_an_invalid_operation(instr):
    """TileOperandsLegal_ExecuteTileBinary checks encodings only for MAX/MIN: the arithmetic operations run, and
    an operand with nonzero required-zero low bits gives the canonical NaN (element by element)."""
    a = tile("TF32", [["0x3f800001", "0x40000000"]])  # 1.0 with a low bit set (invalid), 2.0
    b = tile("TF32", [["0x3f800000", "0x3f800000"]])
    r = run(instr, {0: a, 1: b}, [0, 1], 2)
    assert r["status"] == "ok", r["message"]
    got = valid(r, 2, "bits")[0]
    assert got[0] == "0x7fc00000"
    assert got[1] != "0x7fc00000"  # 2 op 1 is an ordinary value
    assert r["status_flags"] == NO_FLAGS  # ExecuteTileBinary publishes no flags (see the README)


def test_max_on_an_invalid_tf32_encoding_faults():
    a = tile("HF32", [["0x3f800001"]])
    b = tile("HF32", [["0x3f800000"]])
    r = run("TMAX", {0: a, 1: b}, [0, 1], 2)
    assert (r["status"], r["fault"]) == ("fault", "Fault_TileLegality")
