"""`pto-docs exec` of v2 cases on the embedded catalog, whose ASL model runs without generated decoders: an SWI word
decoded by our encoding model stores its bytes, a call of any subprogram is recorded like an instruction, and v1
cases still run on the NumPy executor."""

from __future__ import annotations

import contextlib
import io
import json

from pto_docs.avs_examples import Decoder
from pto_docs.load import load_catalog
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
            "read": [f"ReadMemoryByte({16 + 8 + i})" for i in range(4)]}
    code, result, err = run(tmp_path, case)
    assert code == 0, err
    assert result["decoded"]["mnemonic"] == "SWI" and result["decoded"]["fields"] == {"SrcL": 5, "SrcR": 6, "simm12": 2}
    assert [int(result["read"][f"ReadMemoryByte({24 + i})"], 16) for i in range(4)] == [0x44, 0x33, 0x22, 0x11]
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
