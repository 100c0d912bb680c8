"""`pto-docs exec` of v2 cases on the embedded catalog, whose ASL model runs without generated decoders: an SWI word
decoded by our encoding model stores its bytes, a call of any subprogram is recorded like an instruction, and v1
cases still run on the NumPy executor."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from pto_docs.analysis.load import load_catalog
from pto_docs.bridge.avs_examples import Decoder
from tests.conftest import REPO


def run(tmp_path, case) -> tuple[int, dict | None, str]:
    from pto_docs.cli import main
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case), "utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["exec", str(path), "--spec-root", str(REPO / "catalog"), "--cache-dir", str(tmp_path / "cache")])
    return code, (json.loads(out.getvalue()) if code == 0 else None), err.getvalue()


def swi_word(src_l: int, src_r: int, simm12: int) -> int:
    catalog = load_catalog(REPO / "catalog").catalog
    form = catalog.find_instruction("SWI").catalog_records[0]
    word = int(form["encoding"][0]["match"], 16)
    for field in form["fields"]:
        value = {"SrcL": src_l, "SrcR": src_r, "simm12": simm12}[field["name"]]
        for piece in field["pieces"]:
            word |= ((value >> piece["value_lsb"]) & ((1 << piece["width"]) - 1)) << piece["instruction_lsb"]
    assert Decoder(catalog).decode(word, 32)[0][0].mnemonic == "SWI"
    return word


def test_an_swi_word_stores_its_source_at_the_scaled_address(tmp_path):
    word = swi_word(5, 6, 2)  # [x6 + 2*4]
    case = {"schema": "pto-docs.case.v2",
            "setup": ["WriteGPR(5, Zeros{64} + 0x11223344);", "WriteGPR(6, Zeros{64} + 16);"],
            "instruction": {"word": f"0x{word:08x}", "length_bits": 32},
            "read": [f"ReadMemoryByte(Zeros{{64}} + {16 + 8 + i})" for i in range(4)]}
    code, result, err = run(tmp_path, case)
    assert code == 0, err
    assert result["decoded"]["mnemonic"] == "SWI" and result["decoded"]["fields"] == {"SrcL": 5, "SrcR": 6, "simm12": 2}
    assert [int(result["read"][f"ReadMemoryByte(Zeros{{64}} + {24 + i})"], 16) for i in range(4)] == [0x44, 0x33, 0x22, 0x11]
    changed = {c[0]: c[1:] for c in result["changed"]}
    assert changed["_Memory[24..27]"] == ["0x00 0x00 0x00 0x00", "0x44 0x33 0x22 0x11"]
    assert result["fault"] == "Fault_None" and len(result["digest"]) == 64


def test_a_misaligned_swi_faults_without_a_memory_effect(tmp_path):
    word = swi_word(5, 6, 0)
    case = {"schema": "pto-docs.case.v2", "setup": ["WriteGPR(6, Zeros{64} + 17);"],
            "instruction": {"word": f"0x{word:08x}", "length_bits": 32}}
    code, result, err = run(tmp_path, case)
    assert code == 0, err
    assert result["fault"] == "Fault_DataAlignment"
    assert not [c for c in result["changed"] if c[0].startswith("_Memory")]


def test_a_call_of_any_subprogram_is_recorded_like_an_instruction(tmp_path):
    case = {"schema": "pto-docs.case.v2", "instruction": {"call": "WriteGPR", "arguments": ["3", "Zeros{64} + 7"]}}
    code, result, err = run(tmp_path, case)
    assert code == 0, err
    assert result["entry"] == "WriteGPR" and result["changed"] == [["_GPR[3]", "0x0000000000000000", "0x0000000000000007"]]


def test_a_v1_case_still_runs_on_the_numpy_executor(tmp_path):
    case = {"tiles": {"0": {"capacity_bytes": 128, "rows": 4, "columns": 4, "valid_rows": 1, "valid_columns": 2,
                            "data_type": "U64", "elements": [[3, 5]]},
                      "1": {"capacity_bytes": 128, "rows": 4, "columns": 4, "valid_rows": 1, "valid_columns": 2,
                            "data_type": "U64", "elements": [[7, 11]]}},
            "execute": {"instruction": "TMUL", "destination": 2, "sources": [0, 1]}}
    code, result, err = run(tmp_path, case)
    assert code == 0, err
    assert "tiles" in result and "schema" not in result


# -- bundle text: several ';'-separated instructions, run in order ------------------------------------------------
def bundle_case(text, setup=(), read=()):
    return {"schema": "pto-docs.case.v2", "setup": list(setup), "instruction": {"asm": text}, "read": list(read)}


def test_bundle_text_runs_each_instruction_in_order_and_reports_the_whole_bundle(tmp_path):
    # a0..a7 are selectors 2..9, so a3 = 5, a4 = 6; SWI scales simm12 by its 4-byte access: [16 + 2*4]
    setup = ["WriteGPR(5, Zeros{64} + 0x11223344);", "WriteGPR(6, Zeros{64} + 16);"]
    code, result, err = run(tmp_path, bundle_case("BSTART.VEC TADD, FP16; swi a3, [a4, 2]; L.BSTOP", setup,
                                                   ["ReadMemoryByte(Zeros{64} + 24)"]))
    assert code == 0, err
    rows = result["bundle"]
    assert [r["mnemonic"] for r in rows] == ["BSTART.TEPL", "SWI", "L.BSTOP"] and all(r["executed"] for r in rows)
    assert [r["entry"] for r in rows] == ["ExecuteCommandInstruction", "ExecuteScalarInstruction",
                                          "ExecuteCommandInstruction"]
    assert rows[1]["fields"] == {"SrcL": 5, "SrcR": 6, "simm12": 2} and rows[1]["asm_text"] == "swi a3, [a4, 2]"
    assert [r["length_bits"] for r in rows] == [32, 32, 64]
    # the catalog's start opens a bundle that its stop commits: open inside, closed and counted after the whole
    assert ["_BundleActive", "FALSE", "TRUE"] in rows[0]["changed"] and ["_BundleActive", "TRUE", "FALSE"] in rows[2]["changed"]
    changed = {c[0]: c[1:] for c in result["changed"]}
    assert "_BundleActive" not in changed and changed["_BundlesCommitted"] == ["0", "1"]
    assert changed["_Memory[24..27]"] == ["0x00 0x00 0x00 0x00", "0x44 0x33 0x22 0x11"]
    assert changed["_PC"][1] == f"0x{4 + 4 + 8:016x}"  # every retired instruction advances the PC by its length
    after = {a[0]: a[1:] for a in result["after"]}
    assert after["_Memory[24..27]"] == ["0x44 0x33 0x22 0x11", True] and after["_GPR[5..6]"][1] is False
    assert result["fault_at"] is None and result["fault"] == "Fault_None" and result["read"]["ReadMemoryByte(Zeros{64} + 24)"] == "0x44"
    assert len(result["digest"]) == 64


def test_a_bundle_stops_at_the_instruction_that_faults(tmp_path):
    setup = ["WriteGPR(6, Zeros{64} + 17);"]  # misaligned for a 4-byte store
    code, result, err = run(tmp_path, bundle_case("BSTART.VEC TMUL, FP32; swi a3, [a4, 0]; L.BSTOP", setup))
    assert code == 0, err
    assert result["fault_at"] == 2 and result["fault"] == "Fault_DataAlignment"
    assert [r["executed"] for r in result["bundle"]] == [True, True, False]
    assert result["bundle"][1]["fault"] == "Fault_DataAlignment" and "result" not in result["bundle"][2]
    changed = {c[0] for c in result["changed"]}
    assert "_BundleActive" in changed and "_BundlesCommitted" not in changed  # the stop never ran


def test_one_instruction_with_a_trailing_semicolon_is_the_single_instruction_result(tmp_path):
    code, result, err = run(tmp_path, bundle_case("swi a3, [a4, 2];"))
    assert code == 0, err
    assert "bundle" not in result and result["decoded"]["mnemonic"] == "SWI"


@pytest.mark.parametrize("text,message", [
    ("swi a3, [a4, 2]; frob a0; L.BSTOP", "instruction 2 of 3 ('frob a0'): does not assemble: unknown mnemonic 'frob'"),
    ("BSTART.VEC TADD, FP16; swi a3, [a4, 4096]", "instruction 2 of 2 ('swi a3, [a4, 4096]')"),
    ("swi a3, [a4, 2];; L.BSTOP", "instruction 2 of the bundle text is empty"),
])
def test_a_bad_instruction_in_bundle_text_is_named_by_position_and_exits_2(tmp_path, text, message):
    code, _result, err = run(tmp_path, bundle_case(text))
    assert code == 2 and message in err and "Traceback" not in err, err
    assert err.count("\n") == 1


def test_bundle_text_takes_no_single_entry_point(tmp_path):
    case = bundle_case("swi a3, [a4, 2]; L.BSTOP")
    case["instruction"]["entry"] = "ExecuteScalarInstruction"
    code, _result, err = run(tmp_path, case)
    assert code == 2 and "leave entry out" in err and "Traceback" not in err
