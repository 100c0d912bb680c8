"""Conformance of the reduce-and-expand operations (expected values by hand)."""

from __future__ import annotations

import pytest
from executor_helpers import run, tile, valid

NO_FLAGS = {"NV": False, "DZ": False, "OF": False, "UF": False, "NX": False}
SRC = [[1, 2, 3, 4], [5, 6, 7, 8], [-1, 0, 9, 9]]


@pytest.mark.parametrize("instr,want", [
    ("TROWSUM", [[10], [26], [17]]), ("TROWPROD", [[24], [1680], [0]]),
    ("TROWMAX", [[4], [8], [9]]), ("TROWMIN", [[1], [5], [-1]]),
    ("TROWARGMAX", [[3], [3], [2]]), ("TROWARGMIN", [[0], [0], [0]]),
    ("TCOLSUM", [[5, 8, 19, 21]]), ("TCOLPROD", [[-5, 0, 189, 288]]),
    ("TCOLMAX", [[5, 6, 9, 9]]), ("TCOLMIN", [[-1, 0, 3, 4]]),
    # column 0 [1, 5, -1]: the ASL never selects a negative signed winner (its ARG step compares the
    # sign-extended MIN with the stored element), so index 0 stays; see test_agrees_with_asl
    ("TCOLARGMAX", [[1, 1, 2, 2]]), ("TCOLARGMIN", [[0, 2, 0, 0]]),
])
def test_integer_reductions(instr, want):
    r = run(instr, {0: tile("S32", SRC)}, [0], 1, pad_value="Zero")
    assert r["status"] == "ok", r["message"]
    assert valid(r, 1) == want
    d = r["tiles"]["1"]
    assert d["data_type"] == "S32"
    if instr.startswith("TROW"):
        assert d["columns"] == 1 and d["valid_columns"] == 1 and d["valid_rows"] == 3
    else:
        assert d["columns"] == 8 and d["valid_rows"] == 1 and d["valid_columns"] == 4


def test_reduction_wraps_and_keeps_first_winner():
    r = run("TROWSUM", {0: tile("U8", [[200, 100, 1]])}, [0], 1)
    assert valid(r, 1) == [[45]]
    r = run("TROWARGMAX", {0: tile("FP32", [[2.0, 7.0, 7.0, -0.0]])}, [0], 1)
    assert valid(r, 1) == [[1]]


def test_float_sum_is_an_ordered_left_fold():
    # (1 + 2^-24) + 2^-24 rounds twice to 1; a tree or wider sum would give 1 + 2^-23
    r = run("TROWSUM", {0: tile("FP32", [[1.0, 2.0 ** -24, 2.0 ** -24]])}, [0], 1)
    assert valid(r, 1) == [[1.0]]
    assert r["status_flags"] == {**NO_FLAGS, "NX": True}
    r = run("TROWSUM", {0: tile("FP32", [[2.0 ** -24, 2.0 ** -24, 1.0]])}, [0], 1)
    assert valid(r, 1) == [[1.0 + 2.0 ** -23]]


def test_float_reduction_special_values():
    r = run("TROWSUM", {0: tile("FP32", [["inf", "-inf"]])}, [0], 1)
    assert valid(r, 1, "bits") == [["0x7fc00000"]] and r["status_flags"]["NV"]
    r = run("TROWSUM", {0: tile("FP32", [[-0.0]])}, [0], 1)  # fold from +0: +0 + -0 = +0
    assert valid(r, 1, "bits") == [["0x00000000"]]
    r = run("TROWMAX", {0: tile("FP32", [["nan", 1.0, 3.0]])}, [0], 1)
    assert valid(r, 1) == [[3.0]]
    r = run("TCOLPROD", {0: tile("FP16", [[300.0], [300.0]])}, [0], 1)
    assert valid(r, 1) == [["inf"]] and r["status_flags"]["OF"]


def test_reduction_faults():
    assert run("TROWSUM", {0: tile("S32", SRC)}, [0], 0)["fault"] == "Fault_TileLegality"
    assert run("TROWARGMAX", {0: tile("S64", [[1]])}, [0], 1)["fault"] == "Fault_TileLegality"
    bad_dest = {0: tile("S32", SRC), 1: tile("S32", [[0, 0]])}
    assert run("TROWSUM", bad_dest, [0], 1)["fault"] == "Fault_TileLegality"
    assert run("TROWSUM", {0: tile("S32", [[1, None]])}, [0], 1)["fault"] == "Fault_TileLegality"
    assert run("TROWARGMAX", {0: tile("S32", SRC)}, [0], 1, data_type="FP32")["fault"] == \
        "Fault_TileLegality"


def test_argmax_to_u32_destination():
    r = run("TROWARGMAX", {0: tile("U8", [[1, 9, 3]])}, [0], 1, data_type="U32")
    assert r["tiles"]["1"]["data_type"] == "U32" and valid(r, 1) == [[1]]


def _bcast_col(dt, row):
    return tile(dt, [row])


def _bcast_row(dt, col):
    return tile(dt, [[v] for v in col], columns=1)


def test_colexpand_copies_bit_for_bit_without_flags():
    dest = {"capacity_bytes": 128, "rows": 4, "columns": 8, "data_type": "FP32",
            "valid_rows": 3, "valid_columns": 3}
    b = _bcast_col("FP32", ["0x7f800001", -0.0, "nan"])
    r = run("TCOLEXPAND", {0: b, 1: dest}, [0], 1, pad_value="Min")
    assert valid(r, 1, "bits") == [["0x7f800001", "0x80000000", "0x7fc00000"]] * 3
    assert r["status_flags"] == NO_FLAGS
    assert r["tiles"]["1"]["bits"][3][0] == "0xff7fffff"


def test_rowexpand_copies_across_columns():
    dest = {"capacity_bytes": 128, "rows": 8, "columns": 16, "data_type": "U8",
            "valid_rows": 2, "valid_columns": 3}
    r = run("TROWEXPAND", {0: _bcast_row("U8", [7, 9]), 1: dest}, [0], 1, pad_value="Zero")
    assert valid(r, 1) == [[7, 7, 7], [9, 9, 9]]


@pytest.mark.parametrize("instr,want", [
    ("TCOLEXPANDADD", [[11, 2, 1, 5], [15, 6, 5, 9], [9, 0, 7, 10]]),
    ("TCOLEXPANDSUB", [[-9, 2, 5, 3], [-5, 6, 9, 7], [-11, 0, 11, 8]]),
    ("TCOLEXPANDMUL", [[10, 0, -6, 4], [50, 0, -14, 8], [-10, 0, -18, 9]]),
    ("TCOLEXPANDMAX", [[10, 2, 3, 4], [10, 6, 7, 8], [10, 0, 9, 9]]),
    ("TCOLEXPANDMIN", [[1, 0, -2, 1], [5, 0, -2, 1], [-1, 0, -2, 1]]),
])
def test_column_expand_binary_integers(instr, want):
    r = run(instr, {0: tile("S32", SRC), 1: _bcast_col("S32", [10, 0, -2, 1])}, [0, 1], 2)
    assert r["status"] == "ok", r["message"]
    assert valid(r, 2) == want


def test_row_expand_div_and_integer_zero_fault():
    r = run("TROWEXPANDDIV", {0: tile("S32", SRC), 1: _bcast_row("S32", [2, -3, 1])}, [0, 1], 2)
    assert valid(r, 2) == [[0, 1, 1, 2], [-1, -2, -2, -2], [-1, 0, 9, 9]]
    r = run("TROWEXPANDDIV", {0: tile("S32", SRC), 1: _bcast_row("S32", [2, 0, 1])}, [0, 1], 2)
    assert r["fault"] == "Fault_TileLegality"
    r = run("TCOLEXPANDDIV", {0: tile("FP32", [[1.0, 0.0]]), 1: _bcast_col("FP32", [0.0, 0.0])},
            [0, 1], 2)
    assert valid(r, 2) == [["inf", "nan"]]
    assert r["status_flags"] == {**NO_FLAGS, "DZ": True, "NV": True}


def test_expdif_same_type_and_upstream_mixed_witnesses():
    r = run("TROWEXPANDEXPDIF", {0: tile("FP32", [[3.0, 2.0]]), 1: _bcast_row("FP32", [3.0])},
            [0, 1], 2)
    import math

    import numpy as np
    assert valid(r, 2) == [[1.0, float(np.float32(math.exp(-1)))]]
    assert r["status_flags"] == {**NO_FLAGS, "NX": True}
    # HardwareNumericMixedExpdifDiscriminator witnesses (asl/arch/features/mx-formats.asl):
    # FP16 2^-7 minus 2^-24 -> 0x3f810100 and BF16 1.0 minus 2^-9 -> 0x402da16e
    r = run("TCOLEXPANDEXPDIF", {0: tile("FP16", [[2.0 ** -7]]), 1: _bcast_col("FP16", [2.0 ** -24])},
            [0, 1], 2, data_type="FP32")
    assert r["tiles"]["2"]["data_type"] == "FP32"
    assert valid(r, 2, "bits") == [["0x3f810100"]]
    r = run("TCOLEXPANDEXPDIF", {0: tile("BF16", [[1.0]]), 1: _bcast_col("BF16", [2.0 ** -9])},
            [0, 1], 2, data_type="FP32")
    assert valid(r, 2, "bits") == [["0x402da16e"]]
    r = run("TCOLEXPANDEXPDIF", {0: tile("FP32", [[1.0]]), 1: _bcast_col("FP32", [1.0])},
            [0, 1], 2, data_type="FP16")
    assert r["fault"] == "Fault_TileLegality"


def test_expand_shape_faults():
    wide = tile("S32", [[1, 2], [3, 4]])
    r = run("TCOLEXPANDADD", {0: tile("S32", SRC), 1: wide}, [0, 1], 2)
    assert r["fault"] == "Fault_TileLegality"
    r = run("TCOLEXPANDADD", {0: tile("S32", SRC), 1: _bcast_col("U32", [1, 2, 3, 4])}, [0, 1], 2)
    assert r["fault"] == "Fault_TileLegality"
    r = run("TCOLEXPANDADD", {0: tile("S32", SRC), 1: _bcast_col("S32", [1, 2, None, 4])}, [0, 1], 2)
    assert r["fault"] == "Fault_TileLegality"


def test_expand_divide_by_infinity_is_exact():
    r = run("TCOLEXPANDDIV", {0: tile("FP64", [[0.0, 1.0]]), 1: tile("FP64", [["inf", "-inf"]])}, [0, 1], 2)
    assert valid(r, 2, "bits") == [["0x0000000000000000", "0x8000000000000000"]]
    assert not any(r["status_flags"].values())
