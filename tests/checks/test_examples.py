"""Contract prose and examples are checked against the reference executor (warnings; errors under --strict)."""

from __future__ import annotations

import json
from pathlib import Path

from pto_docs.cli import main
from tests import spec_factory as sf

TADD_PATH = "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"
ALL16 = "FP64, FP32, TF32, HF32, FP16, BF16, E4M3, E5M2, S64, S32, S16, S8, U64, U32, U16, or U8"


def tadd_tree(tmp_path, legality: str, example: str):
    root = sf.make_tree(tmp_path)
    (root / sf.UNIT_PATH).unlink()
    (root / sf.TEST_PATH).unlink()
    record = sf.instruction_record()
    record.update(id="PTO-TILE-TADD", mnemonic="TADD", summary="Add two tiles.")
    record["catalog_records"][0]["name"] = "TADD"
    record["block"] = ["BSTART.VEC TADD, DataType", "B.DIM LB0=ValidCol", "B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>", "BSTOP"]
    record["contract"]["legality"] = [legality]
    record["contract"]["examples"] = [example]
    text = sf.unit_text(record).replace("TDEMO", "TADD")
    sf.write(root, TADD_PATH, text)
    test = sf.test_record(path_source=TADD_PATH, requirements=["PTO-INST-TILE-TADD"], test_id="PTO-AVS-TILE-TADD-BASIC-001")
    sf.write(root, "tests/asl/tile/elementwise-tile-tile/arithmetic/TADD/tile-exec-tadd-basic-001.asl", sf.test_text(test))
    model_test = sf.test_record(sf.MODEL_PATH, ["PTO-TADD-CONTRACT-001"], "PTO-AVS-TILE-DEMO-STATE-STATIC-001")
    sf.write(root, sf.MODEL_TEST_PATH, sf.test_text(model_test))
    front = sf.adr_front()
    front["affected_ndf"] = ["PTO-TADD-CONTRACT-001"]
    front["affected_units"] = ["PTO-TILE-TADD"]
    sf.write(root, sf.ADR_PATH, sf.adr_text(front))
    return root


GOOD_EXAMPLE = "BSTART.VEC TADD, FP16; B.DIM LB0=ValidCol; B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>; BSTOP"


def test_consistent_unit_is_clean(tmp_path, capsys):
    root = tadd_tree(tmp_path, f"DataType is one of {ALL16}.", GOOD_EXAMPLE)
    assert main(["validate", str(root), "--strict"]) == 0, capsys.readouterr().err


def test_prose_data_types_that_disagree_with_the_model(tmp_path, capsys):
    root = tadd_tree(tmp_path, "DataType is one of S32, U32, FP32, S16, U16, FP16, or BF16.", GOOD_EXAMPLE)
    assert main(["validate", str(root)]) == 0
    err = capsys.readouterr().err
    line = next(ln for ln in err.splitlines() if "DATATYPE-PROSE" in ln)
    assert line.startswith(f"{TADD_PATH}:1:1: warning[DATATYPE-PROSE]")
    assert "FP64" in line and line.endswith("(at /contract/legality/0)")
    assert main(["validate", str(root), "--strict"]) == 1


def test_illegal_contract_example(tmp_path, capsys):
    root = tadd_tree(tmp_path, f"DataType is one of {ALL16}.", GOOD_EXAMPLE.replace("FP16", "QQ9"))
    main(["validate", str(root), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    codes = [(d["code"], d["pointer"]) for d in doc["diagnostics"]]
    assert ("EXAMPLE-ILLEGAL", "/contract/examples/0") in codes


def test_malformed_authored_example_is_an_error(tmp_path, capsys):
    root = tadd_tree(tmp_path, f"DataType is one of {ALL16}.", GOOD_EXAMPLE)
    sf.write(root, "examples/TADD/broken.json", json.dumps({"tiles": {}, "execute": {"instruction": "TADD", "destination": 1,
                                                                                        "sources": [0, 0]}, "colour": 1}))
    assert main(["validate", str(root)]) == 1
    assert "examples/TADD/broken.json:1:1: error[EXAMPLE-CASE]" in capsys.readouterr().err


def test_example_asm_findings_follow_record_edits_through_the_load_memo(tmp_path):
    """A reload (mkdocs serve) reuses the EXAMPLE-ASM verdicts only while every record line is unchanged."""
    import shutil

    from pto_docs.analysis.load import load_catalog
    from pto_docs.checks.consistency import consistency_diagnostics
    from pto_docs.store.load_memo import LoadMemo
    root = tmp_path / "tree"
    shutil.copytree(Path(__file__).resolve().parents[2] / "catalog", root)
    memo = LoadMemo()

    def asm_findings(previous=None):
        loaded = load_catalog(root, memo, previous=previous)
        found = [d for d in consistency_diagnostics(loaded.catalog, memo) if d.code == "EXAMPLE-ASM"]
        memo.finish()
        return loaded, found
    loaded, found = asm_findings()
    assert found == []
    unit = root / "asl" / "scalar" / "agu" / "SWI.asl"
    unit.write_text(unit.read_text("utf-8") + "// an edit outside the record\n", "utf-8")
    loaded, found = asm_findings(loaded.tree)
    assert found == [] and memo.hits
    text = unit.read_text("utf-8")
    assert '"examples":["swi SrcL, [SrcR, simm]' in text
    unit.write_text(text.replace('"examples":["swi SrcL, [SrcR, simm]', '"examples":["swi a0, a1, a2, a3, a4, a5', 1), "utf-8")
    _, found = asm_findings(loaded.tree)
    assert len(found) == 1 and "swi a0, a1" in found[0].message


def test_a_bundle_line_in_placeholders_with_a_wrong_shape_is_example_asm(tmp_path):
    """In a bundle, another instruction's line written only in placeholders must still have the mnemonic, operand count
    and brackets of one of that instruction's syntaxes (the sample tree has BSTART.TEPL: Mode, Function, DataType)."""
    import shutil

    from pto_docs.analysis.load import load_catalog
    from pto_docs.checks.examples import assembly_diagnostics
    root = tmp_path / "tree"
    shutil.copytree(Path(__file__).resolve().parents[2] / "catalog", root)
    unit = root / TADD_PATH
    text = unit.read_text("utf-8")
    good = '"examples":["BSTART.VEC TADD, S32; '
    assert good in text

    def findings(second: str):
        unit.write_text(text.replace(good, good + second + "; ", 1), "utf-8")
        return [d for d in assembly_diagnostics(load_catalog(root).catalog) if d.code == "EXAMPLE-ASM"]
    assert findings("BSTART.TEPL Mode, Function, DataType") == []  # the carrier's own template: descriptive
    found = findings("BSTART.TEPL Mode, Function, DataType, Extra")
    assert len(found) == 1 and "'BSTART.TEPL Mode, Function, DataType, Extra' does not assemble" in found[0].message
    assert "takes 3 operands" in found[0].message and found[0].pointer == "/contract/examples/0"
    found = findings("BSTART.TEPX Mode, Function, DataType")
    assert len(found) == 1 and "unknown mnemonic 'BSTART.TEPX'" in found[0].message
