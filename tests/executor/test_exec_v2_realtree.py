"""`pto-docs exec` of v2 cases on a real PTO-ISA/pto-spec checkout: the tile operations the NumPy executor does not
model (TTRANS, TCONCAT, TGATHER, TPARTADD/MAX/MIN/MUL) run through their ASL contract functions, a scalar word is
decoded by our encoding model and executed, and malformed cases get a diagnostic and exit 2. The expected values are
computed here from the operations' definitions, not copied from a run.

Every case but the first shares one load of the tree and its linked models (``shared_real_exec``,
tests/executor/conftest.py); the first runs the command with nothing shared."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

pytestmark = pytest.mark.realtree

U16 = "TileDataType_U16"
U8 = "TileDataType_U8"


def tile(index, cap, rows, cols, vrows, vcols, dtype=U16):
    return f"ConfigureTile({index}, {cap}, {rows}, {cols}, {vrows}, {vcols}, {dtype}, TileLayout_RowMajor, TileLocation_Any);"


def writes(index, grid):
    return [f"WriteTileElement({index}, {r}, {c}, Zeros{{PTO_XLEN}} + {v});"
            for r, row in enumerate(grid) for c, v in enumerate(row) if v is not None]


def reads(index, rows, cols):
    return [f"ReadTileElement({index}, {r}, {c})" for r in range(rows) for c in range(cols)]


def exec_case(tmp_path, case, root, decoders) -> tuple[int, dict | None, str]:
    from pto_docs.cli import main
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case), "utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["exec", str(path), "--spec-root", str(root), "--decoders", str(decoders),
                     "--cache-dir", str(tmp_path.parent / "asl-cache")])
    return code, (json.loads(out.getvalue()) if code == 0 else None), err.getvalue()


def grid_of(result, index, rows, cols):
    return [[int(result["read"][f"ReadTileElement({index}, {r}, {c})"], 16) for c in range(cols)] for r in range(rows)]


A = [[1, 2, 3], [4, 5, 6]]
B = [[10, 20, 30], [40, 50, 60]]


def test_ttrans_transposes(real_tree_root, real_decoders, tmp_path):
    case = {"schema": "pto-docs.case.v2",
            "setup": [tile(1, 128, 32, 4, 2, 3, U8), tile(2, 128, 32, 4, 3, 2, U8), *writes(1, A)],
            "instruction": {"call": "InstructionContractExecute_TTRANS", "arguments": ["2", "1"]},
            "read": reads(2, 3, 2)}
    code, result, err = exec_case(tmp_path, case, real_tree_root, real_decoders)
    assert code == 0, err
    assert result["status"] == "ok" and result["fault"] == "Fault_None"
    assert grid_of(result, 2, 3, 2) == [list(col) for col in zip(*A)]
    assert any(c[0].startswith("_Tiles[2].payload") for c in result["changed"])
    assert result["profile"] == "ieee" and len(result["digest"]) == 64


@pytest.mark.usefixtures("shared_real_exec")
def test_tconcat_joins_columns(real_tree_root, real_decoders, tmp_path):
    left, right = [[1, 2], [3, 4]], [[5], [6]]
    case = {"schema": "pto-docs.case.v2",
            "setup": [tile(1, 128, 32, 4, 2, 2, U8), tile(2, 128, 32, 4, 2, 1, U8), tile(3, 128, 32, 4, 2, 3, U8),
                      *writes(1, left), *writes(2, right)],
            "instruction": {"call": "InstructionContractExecute_TCONCAT", "arguments": ["3", "1", "2"]},
            "read": reads(3, 2, 3)}
    code, result, err = exec_case(tmp_path, case, real_tree_root, real_decoders)
    assert code == 0, err
    assert grid_of(result, 3, 2, 3) == [a + b for a, b in zip(left, right)]


@pytest.mark.usefixtures("shared_real_exec")
def test_tgather_gathers_by_index(real_tree_root, real_decoders, tmp_path):
    source = [[0, 1], [10, 11], [20, 21]]
    index = [[2, 0], [1, 2]]
    case = {"schema": "pto-docs.case.v2",
            "setup": [tile(40, 128, 4, 2, 3, 2), tile(41, 128, 2, 2, 2, 2, "TileDataType_U32"), tile(42, 128, 2, 2, 2, 2),
                      *writes(40, source), *writes(41, index)],
            "instruction": {"call": "InstructionContractExecute_TGATHER", "arguments": ["42", "40", "41"]},
            "read": reads(42, 2, 2)}
    code, result, err = exec_case(tmp_path, case, real_tree_root, real_decoders)
    assert code == 0, err
    got = grid_of(result, 42, 2, 2)
    # each destination element is taken from the source as the index tile names it: the spec's own AVS point
    # (tile-exec-tgather-rows-001) reads it as source[index][column]
    assert got == [[source[index[r][c]][c] for c in range(2)] for r in range(2)]


@pytest.mark.usefixtures("shared_real_exec")
@pytest.mark.parametrize("mnemonic,combine", [("TPARTADD", lambda a, b: a + b), ("TPARTMAX", max),
                                              ("TPARTMIN", min), ("TPARTMUL", lambda a, b: a * b)])
def test_partial_operations_combine_where_both_are_valid(real_tree_root, real_decoders, tmp_path, mnemonic, combine):
    wide, narrow = [[1, 2, 7]], [[3, 4]]
    case = {"schema": "pto-docs.case.v2",
            "setup": [tile(20, 128, 16, 4, 1, 3, "TileDataType_S16"), tile(21, 128, 16, 4, 1, 3, "TileDataType_S16"),
                      tile(22, 128, 32, 2, 1, 2, "TileDataType_S16"), *writes(21, wide), *writes(22, narrow)],
            "instruction": {"call": f"InstructionContractExecute_{mnemonic}", "arguments": ["20", "21", "22"]},
            "read": reads(20, 1, 3)}
    code, result, err = exec_case(tmp_path, case, real_tree_root, real_decoders)
    assert code == 0, err
    # the union of the two valid regions: combined where both hold an element, else the one that does
    assert grid_of(result, 20, 1, 3) == [[combine(1, 3), combine(2, 4), 7]]


@pytest.mark.usefixtures("shared_real_exec")
def test_a_scalar_word_is_decoded_by_our_encoding_model_and_executed(real_load, real_tree_root, real_decoders, tmp_path):
    from pto_docs.bridge.avs_examples import Decoder
    unit = real_load.catalog.find_instruction("SWI", "scalar")
    form = unit.catalog_records[0]
    word = int(form["encoding"][0]["match"], 16)
    fields = {f["name"]: f for f in form["fields"]}
    for name, value in (("SrcL", 4), ("SrcR", 2)):
        for piece in fields[name]["pieces"]:
            word |= ((value >> piece["value_lsb"]) & ((1 << piece["width"]) - 1)) << piece["instruction_lsb"]
    assert Decoder(real_load.catalog).decode(word, 32)[0][0].id == unit.id
    case = {"schema": "pto-docs.case.v2",
            "setup": ["WriteGPR(2, Zeros{PTO_XLEN} + 512);", "WriteGPR(4, Zeros{PTO_XLEN} + 0x11223344);"],
            "instruction": {"word": f"0x{word:08x}", "length_bits": 32},
            "read": ["LoadUnsigned(Zeros{PTO_XLEN} + 512, 4)"]}
    code, result, err = exec_case(tmp_path, case, real_tree_root, real_decoders)
    assert code == 0, err
    assert result["decoded"]["mnemonic"] == "SWI" and result["decoded"]["fields"]["SrcR"] == 2
    assert result["entry"] == "ExecuteScalarInstruction" and result["result"] == "ScalarExecution_Executed"
    assert int(result["read"]["LoadUnsigned(Zeros{PTO_XLEN} + 512, 4)"], 16) == 0x11223344
    assert ["_PC", "0x0000000000000000", "0x0000000000000004"] in result["changed"]


@pytest.mark.usefixtures("shared_real_exec")
def test_assembly_text_runs_like_its_word(real_tree_root, real_decoders, tmp_path):
    """SWI written as text: the assembler gives the word (SrcL a2 = 4, SrcR a0 = 2, simm12 8), which runs as a given
    word would; the offset is in the form's units (SWI scales simm12 by its 4-byte access), so 512 + 8 * 4."""
    setup = ["WriteGPR(2, Zeros{PTO_XLEN} + 512);", "WriteGPR(4, Zeros{PTO_XLEN} + 0x11223344);"]
    read = ["LoadUnsigned(Zeros{PTO_XLEN} + 544, 4)"]
    text_case = {"schema": "pto-docs.case.v2", "setup": setup, "instruction": {"asm": "swi a2, [a0, 8]"}, "read": read}
    code, by_text, err = exec_case(tmp_path, text_case, real_tree_root, real_decoders)
    assert code == 0, err
    assert by_text["decoded"]["mnemonic"] == "SWI" and by_text["decoded"]["asm_text"] == "swi a2, [a0, 8]"
    assert by_text["decoded"]["fields"] == {"SrcL": 4, "SrcR": 2, "simm12": 8}
    assert int(by_text["read"][read[0]], 16) == 0x11223344
    word_case = {"schema": "pto-docs.case.v2", "setup": setup, "read": read,
                 "instruction": {"word": by_text["decoded"]["word"], "length_bits": 32}}
    code, by_word, err = exec_case(tmp_path, word_case, real_tree_root, real_decoders)
    assert code == 0, err
    assert by_word["changed"] == by_text["changed"] and by_word["result"] == by_text["result"] == "ScalarExecution_Executed"


@pytest.mark.usefixtures("shared_real_exec")
@pytest.mark.parametrize("case,message", [
    ({"schema": "pto-docs.case.v2", "instruction": {"asm": "swi x5, [a0, 8]"}}, "'x5' is not a source register"),
    ({"schema": "pto-docs.case.v2", "instruction": {"asm": "swi a2, [a0, 4096]"}}, "out of range -2048..2047"),
    ({"schema": "pto-docs.case.v2", "instruction": {"asm": "frob a0"}}, "unknown mnemonic 'frob'"),
    ({"schema": "pto-docs.case.v2", "instruction": {"call": "NoSuchThing"}}, "no subprogram NoSuchThing"),
    ({"schema": "pto-docs.case.v2", "instruction": {"word": "0x0", "length_bits": 32}}, "decodes to no form"),
    ({"schema": "pto-docs.case.v2", "setup": ["this is not ASL"], "instruction": {"call": "TTRANS", "arguments": ["1", "0"]}},
     "the setup is not ASL"),
    ({"schema": "pto-docs.case.v2", "instruction": {"call": "TTRANS", "arguments": ["1); Evil("]}}, "EXEC-SCHEMA"),
    ({"schema": "pto-docs.case.v2", "instruction": {"call": "TTRANS"}, "extra": 1}, "EXEC-SCHEMA"),
    ({"schema": "pto-docs.case.v2", "setup": ["let x = Ones{1 << 62};"], "instruction": {"call": "TTRANS", "arguments": ["1", "0"]}},
     "a bitvector of 4611686018427387904 bits is beyond the limit of 16,777,216 bits"),
])
def test_a_case_that_cannot_run_gets_one_diagnostic_and_exit_2(real_tree_root, real_decoders, tmp_path, case, message):
    code, _result, err = exec_case(tmp_path, case, real_tree_root, real_decoders)
    assert code == 2 and message in err and "Traceback" not in err, err
