"""`pto-docs exec` of bundle text on a real PTO-ISA/pto-spec checkout: a TPARTADD bundle written as contract block lines
are (its carrier, B.DIM, B.IOT, BSTOP), assembled by our assembler and run instruction by instruction through
ExecuteCommandInstruction. The expected result is computed here from the instructions' definitions: B.DIM's value is
the GPR plus uimm (zero + n = n), B.IOT's Local tile operand hand#n is tile hand*16 + n - 1 (hands T, U, M, N), its
->T<1> destination is tile 0, and TPARTADD combines where both sources hold an element and copies the other's."""

from __future__ import annotations

import pytest

from tests.executor.test_exec_v2_realtree import exec_case

pytestmark = [pytest.mark.realtree, pytest.mark.usefixtures("shared_real_exec")]

HANDS = "TUMN"


def local_tile(name: str) -> int:
    hand, number = name.split("#")
    return HANDS.index(hand) * 16 + int(number) - 1


def s16_tile(index, rows, cols, vcols):
    return (f"ConfigureTile({index}, 128, {rows}, {cols}, 1, {vcols}, TileDataType_S16, TileLayout_RowMajor, "
            "TileLocation_Any);")


def test_a_tpartadd_bundle_written_as_text_runs_through_its_commands(real_tree_root, real_decoders, tmp_path):
    left, right = "M#1", "M#2"
    wide, narrow = [5, -2, 9], [3, 4]
    a, b = local_tile(left), local_tile(right)
    setup = [s16_tile(a, 16, 4, 3), s16_tile(b, 32, 2, 2),
             *(f"WriteTileElement({a}, 0, {c}, Zeros{{PTO_XLEN}} + {v & 0xffff});" for c, v in enumerate(wide)),
             *(f"WriteTileElement({b}, 0, {c}, Zeros{{PTO_XLEN}} + {v & 0xffff});" for c, v in enumerate(narrow))]
    text = (f"BSTART.SFU TPARTADD, S16; B.DIM zero, {len(wide)}, ->LB0; B.DIM zero, 4, ->LB2; "
            f"B.IOT {left}, {right}, mask=0001, last, ->T<1>; BSTOP")
    case = {"schema": "pto-docs.case.v2", "setup": setup, "instruction": {"asm": text},
            "read": [f"ReadTileElement(0, 0, {c})" for c in range(len(wide))]}
    code, result, err = exec_case(tmp_path, case, real_tree_root, real_decoders)
    assert code == 0, err
    rows = result["bundle"]
    assert [r["mnemonic"] for r in rows] == ["BSTART.TEPL", "B.DIM", "B.DIM", "B.IOT", "BSTOP"]
    assert all(r["executed"] and r["entry"] == "ExecuteCommandInstruction" and r["fault"] == "Fault_None" for r in rows)
    assert all(r["result"] == "CommandExecution_Executed" for r in rows)
    assert rows[3]["fields"]["SrcTile0"] == a and rows[3]["fields"]["SrcTile1"] == b and rows[3]["fields"]["L"] == 1
    assert result["status"] == "ok" and result["fault_at"] is None and result["fault"] == "Fault_None"
    expected = [w + n for w, n in zip(wide, narrow)] + wide[len(narrow):]
    got = [int(result["read"][f"ReadTileElement(0, 0, {c})"], 16) for c in range(len(wide))]
    assert [(v ^ 0x8000) - 0x8000 for v in (g & 0xffff for g in got)] == expected
    changed = {c[0]: c[1:] for c in result["changed"]}
    assert changed["_Tiles[0].allocated"] == ["FALSE", "TRUE"]
    assert changed["_PC"][1] == f"0x{4 * len(rows):016x}"  # five 32-bit commands retired in order
    marked = [a[0] for a in result["after"] if a[2]]
    assert "_Tiles[0].allocated" in marked and not any(name.startswith(f"_Tiles[{a}]") for name in marked)


def test_a_second_tile_sequence_after_last_faults_and_ends_the_bundle(real_tree_root, real_decoders, tmp_path):
    """B.IOT after the sequence closed by `last` is Fault_BundleControl (the B.IOT handler of the command
    dispatch): the run stops there, so BSTOP never runs and no destination is allocated."""
    text = "BSTART.SFU TPARTADD, S16; B.IOT M#1, M#2, mask=0001, last, ->T<1>; B.IOT M#3, mask=0001, last; BSTOP"
    case = {"schema": "pto-docs.case.v2", "instruction": {"asm": text}}
    code, result, err = exec_case(tmp_path, case, real_tree_root, real_decoders)
    assert code == 0, err
    assert result["fault_at"] == 3 and result["fault"] == "Fault_BundleControl"
    assert [r["executed"] for r in result["bundle"]] == [True, True, True, False]
    assert result["bundle"][2]["result"] == "CommandExecution_Rejected"
    assert not any(c[0].startswith("_Tiles[0]") for c in result["changed"])


def test_a_bad_instruction_in_bundle_text_is_named_by_position(real_tree_root, real_decoders, tmp_path):
    text = "BSTART.SFU TPARTADD, S16; B.DIM zero, 3, ->LB9; BSTOP"
    code, _result, err = exec_case(tmp_path, {"schema": "pto-docs.case.v2", "instruction": {"asm": text}},
                                   real_tree_root, real_decoders)
    assert code == 2 and "instruction 2 of 3 ('B.DIM zero, 3, ->LB9')" in err and "Traceback" not in err, err
