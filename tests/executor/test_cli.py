"""End-to-end tests of exec_command, case loading, schemas, digest and bundle text."""

from __future__ import annotations

import hashlib
import io
import json
import sys

import pytest
from executor_helpers import BRIEF_CASE, tile, valid

from pto_docs.executor import (
    CaseError,
    check_bundle,
    default_cases,
    exec_command,
    load_case,
    parse_bundle_text,
    run_case,
    supported_instructions,
)
from pto_docs.executor.case import validate_result, validate_schema


def _exec(path, stdin_text=None, monkeypatch=None):
    out, err = io.StringIO(), io.StringIO()
    if stdin_text is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin_text.encode())))
    code = exec_command(str(path), out, err)
    return code, out.getvalue(), err.getvalue()


def test_json_case_file(tmp_path):
    p = tmp_path / "case.json"
    p.write_text(json.dumps(BRIEF_CASE))
    code, out, err = _exec(p)
    assert code == 0 and err == ""
    assert out.endswith("\n")
    result = json.loads(out)
    validate_result(result)
    assert result["status"] == "ok"
    t = result["tiles"]["2"]
    assert (t["rows"], t["columns"]) == (4, 4)
    assert t["values"][0][:2] == [12, 80]
    assert t["values"][0][2] == 0 and t["bits"][3][3] == "0x0000000000000000"  # U64 Min = 0
    assert out == json.dumps(result, indent=2, sort_keys=True) + "\n"


def test_yaml_case_file_and_stdin(tmp_path, monkeypatch):
    yaml_text = """
tiles:
  "0": {capacity_bytes: 128, rows: 1, columns: 8, valid_rows: 1, valid_columns: 3,
        data_type: FP32, elements: [[4.0, -0.0, inf]]}
bundle: {pad_value: Zero}
execute: {instruction: TSQRT, destination: 1, sources: [0]}
"""
    p = tmp_path / "case.yaml"
    p.write_text(yaml_text)
    code, out, _ = _exec(p)
    assert code == 0
    r = json.loads(out)
    assert r["tiles"]["1"]["values"][0][:3] == [2.0, -0.0, "inf"]
    code2, out2, _ = _exec("-", yaml_text, monkeypatch)
    assert code2 == 0 and json.loads(out2)["digest"] == r["digest"]


@pytest.mark.parametrize("text,code", [
    ('{"tiles": {', "EXEC-SYNTAX"),
    ("tiles: [unclosed", "EXEC-SYNTAX"),
    ('{"tiles": {}, "execute": {"instruction": "TADD", "destination": 0, "sources": [0]}, "x": 1}',
     "EXEC-SCHEMA"),
    ('{"tiles": {"0": {"capacity_bytes": 100, "rows": 1, "columns": 4, "valid_rows": 1, '
     '"valid_columns": 1, "data_type": "U8"}}, '
     '"execute": {"instruction": "TNOT", "destination": 1, "sources": [0]}}', "EXEC-SHAPE"),
    ('{"tiles": {"0": {"capacity_bytes": 128, "rows": 1, "columns": 3, "valid_rows": 1, '
     '"valid_columns": 1, "data_type": "U8"}}, '
     '"execute": {"instruction": "TNOT", "destination": 1, "sources": [0]}}', "EXEC-SHAPE"),
    ('{"tiles": {"0": {"capacity_bytes": 128, "rows": 99, "columns": 8, "valid_rows": 1, '
     '"valid_columns": 1, "data_type": "U64"}}, '
     '"execute": {"instruction": "TNOT", "destination": 1, "sources": [0]}}', "EXEC-SHAPE"),
    ('{"tiles": {"0": {"capacity_bytes": 128, "rows": 1, "columns": 8, "valid_rows": 1, '
     '"valid_columns": 1, "data_type": "U8", "elements": [[300]]}}, '
     '"execute": {"instruction": "TNOT", "destination": 1, "sources": [0]}}', "EXEC-VALUE"),
    ('{"tiles": {}, "execute": {"instruction": "TFOO", "destination": 1, "sources": [0]}}',
     "EXEC-SEMANTIC"),
    ('{"tiles": {}, "execute": {"instruction": "TADD", "destination": 1, "sources": [0]}}',
     "EXEC-SEMANTIC"),
    ("[1, 2]", "EXEC-SCHEMA"),
])
def test_malformed_cases_exit_2_with_one_line_diagnostic(tmp_path, text, code):
    p = tmp_path / "bad.json"
    p.write_text(text)
    rc, out, err = _exec(p)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"{p}:") and f"error[{code}]" in err and "(at /" in err


def test_diagnostic_points_at_the_offending_line(tmp_path):
    text = '{\n  "tiles": {\n    "0": {"capacity_bytes": 128, "rows": 1, "columns": 8,\n' \
           '          "valid_rows": 1, "valid_columns": 1, "data_type": "U8",\n' \
           '          "elements": [[256]]}\n  },\n' \
           '  "execute": {"instruction": "TNOT", "destination": 1, "sources": [0]}\n}\n'
    p = tmp_path / "line.json"
    p.write_text(text)
    rc, _, err = _exec(p)
    assert rc == 2
    assert err.startswith(f"{p}:5:") and "/tiles/0/elements/0/0" in err


def test_unreadable_inputs(tmp_path):
    rc, _, err = _exec(tmp_path / "missing.json")
    assert rc == 2 and "error[EXEC-IO]" in err and "Traceback" not in err
    p = tmp_path / "latin1.json"
    p.write_bytes(b'{"tiles": "\xff"}')
    rc, _, err = _exec(p)
    assert rc == 2 and "error[EXEC-IO]" in err


def test_fault_is_a_result_with_exit_0(tmp_path):
    case = json.loads(json.dumps(BRIEF_CASE))
    case["tiles"]["1"]["data_type"] = "S64"
    p = tmp_path / "fault.json"
    p.write_text(json.dumps(case))
    rc, out, _ = _exec(p)
    r = json.loads(out)
    assert rc == 0 and r["status"] == "fault" and r["fault"] == "Fault_TileLegality"
    assert set(r["tiles"]) == {"0", "1"}


def test_digest_is_sha256_of_canonical_result_and_deterministic():
    r1, r2 = run_case(BRIEF_CASE), run_case(json.loads(json.dumps(BRIEF_CASE)))
    body = {k: v for k, v in r1.items() if k != "digest"}
    canon = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert r1["digest"] == hashlib.sha256(canon).hexdigest() == r2["digest"]
    other = json.loads(json.dumps(BRIEF_CASE))
    other["tiles"]["0"]["elements"] = [[3, 6]]
    assert run_case(other)["digest"] != r1["digest"]


def test_caption_and_schema_keys_are_accepted_and_ignored():
    case = {**BRIEF_CASE, "schema": "pto-docs.case.v1", "caption": {"en": "x", "zh-CN": "例"}}
    assert run_case(case)["digest"] == run_case(BRIEF_CASE)["digest"]
    with pytest.raises(CaseError) as exc:
        run_case({**BRIEF_CASE, "caption": {"en": "x"}})
    assert exc.value.pointer.startswith("/caption")


def test_load_case_errors_carry_lines():
    with pytest.raises(CaseError) as exc:
        load_case('{\n  "a": ,\n}', "x.json")
    assert exc.value.line == 2
    with pytest.raises(CaseError):
        load_case("a: [1,\n", "x.yaml")
    assert load_case("tiles: {}\n")["tiles"] == {}


def test_bundle_text_runs_like_the_direct_call():
    tiles = {"0": tile("FP16", [[1.0, 2.0]]), "1": tile("FP16", [[3.0, 0.5]])}
    text = ("BSTART.VEC TMUL, FP16; B.DATR PadValue=Min; B.DIM LB0=2; B.DIM LB2=8; "
            "B.IOT T0, T1, mask=0001, last, ->T2<128>; BSTOP")
    r = run_case({"tiles": tiles, "bundle_text": text})
    assert r["status"] == "ok" and valid(r, 2) == [[3.0, 1.0]]
    assert r["tiles"]["2"]["bits"][0][2] == "0xfbff"
    direct = run_case({"tiles": tiles, "bundle": {"pad_value": "Min"},
                       "execute": {"instruction": "TMUL", "destination": 2, "sources": [0, 1]}})
    assert direct["digest"] == r["digest"]


@pytest.mark.parametrize("text", [
    "BSTART.VEC TMUL, FP16; B.IOT T0, T1, mask=0001, last, ->T2<128>; BSTOP",  # no LB0
    "BSTART.VEC TMUL, FP16; B.DIM LB0=0; B.IOT T0, T1, mask=0001, last, ->T2<128>; BSTOP",
    "BSTART.VEC TMUL, FP16; B.DIM LB0=3; B.IOT T0, T1, mask=0001, last, ->T2<128>; BSTOP",
    "BSTART.VEC TMUL, FP16; B.DIM LB0=2; B.DIM LB2=8; B.IOR T0; B.IOT T0, T1, mask=0001, last, ->T2; BSTOP",
    "BSTART.VEC TMUL, FP32; B.DIM LB0=2; B.DIM LB2=8; B.IOT T0, T1, mask=0001, last, ->T2<128>; BSTOP",
    "BSTART.VEC TAND, FP16; B.DIM LB0=2; B.DIM LB2=8; B.IOT T0, T1, mask=0001, last, ->T2<128>; BSTOP",
    "BSTART.VEC TMUL, FP16; B.DATR CMode=LT; B.DIM LB0=2; B.DIM LB2=8; B.IOT T0, T1, last, ->T2; BSTOP",
])
def test_bundle_text_faults(text):
    tiles = {"0": tile("FP16", [[1.0, 2.0]]), "1": tile("FP16", [[3.0, 0.5]])}
    r = run_case({"tiles": tiles, "bundle_text": text})
    assert r["status"] == "fault" and r["fault"] == "Fault_TileLegality", r["message"]


def test_bundle_text_mask_zero_is_noop_and_symbolic_text_is_malformed():
    tiles = {"0": tile("FP16", [[1.0]])}
    r = run_case({"tiles": tiles, "bundle_text":
                  "BSTART.VEC TAND, FP16; B.IOT T0, T0, mask=0000, last, ->T2; BSTOP"})
    assert r["status"] == "ok" and set(r["tiles"]) == {"0"}
    with pytest.raises(CaseError):
        run_case({"tiles": tiles, "bundle_text":
                  "BSTART.VEC TMUL, DataType; B.DIM LB0=ValidCol; "
                  "B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>; BSTOP"})


def test_check_bundle_on_contract_examples():
    ex = ("BSTART.VEC TMUL, U64; B.DIM LB0=ValidCol; "
          "B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>; BSTOP")
    assert check_bundle(ex) == []  # the model's TMUL set includes U64
    assert any("U64" in p for p in check_bundle(ex.replace("TMUL", "TSQRT").replace("VEC", "SFU")
                                                .replace("SrcLeft, SrcRight", "SrcTile")))
    sq = ("BSTART.SFU TSQRT, DataType; B.DATR PadValue (optional); B.DIM LB0=ValidCol; "
          "B.DIM LB1=ValidRow (optional); B.DIM LB2=Col (optional); "
          "B.IOT SrcTile, mask=PE_MASK, <last>, ->DstTile<TSize>; BSTOP")
    assert check_bundle(sq) == []
    assert check_bundle(sq, data_type_symbolic_ok=False) != []
    assert any("unknown" in p for p in check_bundle(ex.replace("TMUL", "TFROB")))
    assert any("LB0" in p for p in check_bundle(ex.replace("B.DIM LB0=ValidCol; ", "")))
    assert any("B.IOR" in p for p in check_bundle(ex.replace("B.IOT", "B.IOR T0; B.IOT")))
    fma = ("BSTART.VEC TFMA, FP32; B.DIM LB0=4; B.IOT A, B, mask=PE_MASK; "
           "B.IOT C, mask=PE_MASK, <last>, ->D<TSize>; BSTOP")
    assert check_bundle(fma) == []
    assert check_bundle(fma.replace("B.IOT A, B, mask=PE_MASK; ", "")) != []
    pb = parse_bundle_text(ex)
    assert pb.mnemonic == "TMUL" and pb.data_type == "U64" and pb.dims == {"LB0": "ValidCol"}


def test_default_cases_validate_and_run_ok():
    for m in sorted(supported_instructions()):
        cases = default_cases(m)
        assert cases, m
        for case in cases:
            validate_schema(case)
            assert set(case["caption"]) == {"en", "zh-CN"}
            assert any("\u4e00" <= ch <= "\u9fff" for ch in case["caption"]["zh-CN"])
            assert case["bundle"]["pad_value"] in ("Zero", "Max", "Min", "Null")
            r = run_case(case)
            assert r["status"] == "ok", (m, r["message"])
            validate_result(r)
            dest = r["tiles"][str(case["execute"]["destination"])]
            assert dest["valid_rows"] * dest["valid_columns"] < dest["rows"] * dest["columns"], m
