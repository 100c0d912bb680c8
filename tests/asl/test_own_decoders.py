"""pto-docs avs makes the generated:decoders unit from the tree's encoding records when no --decoders is given
(pto_docs.isa.decoders), on a tree written by this test: decode priority, multi-piece fields, constraints, AGU
metadata, command carriers, tile decode and dispatch, system-register access; a test point calling one of
upstream's Validate* entry points is an error that says how to get them; a --decoders file wins."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from pto_docs.analysis.load import load_catalog
from pto_docs.cli import main
from pto_docs.isa.decoders import generate_decoders
from tests.spec_factory import deep, instruction_record, make_tree, write

PRELUDE = "asl/scalar/model/decoder-prelude.asl"
USER = "asl/scalar/model/decoder-user.asl"
DECODE_TEST = "tests/asl/scalar/model/decoder-user/scalar-static-decode-001.asl"
VALIDATE_TEST = "tests/asl/scalar/model/decoder-user/scalar-static-validate-001.asl"

# What the generated text expects of the hand-written model (names of the pto-spec model, minimal bodies).
PRELUDE_ASL = """
constant PTO_XLEN = 64;
type Word of bits(PTO_XLEN);
type BundleKind of enumeration { BundleKind_Standard, BundleKind_Floating, BundleKind_System,
    BundleKind_TileMemory, BundleKind_TileMatrix, BundleKind_TileElement, BundleKind_FrameTemplate };
type BundleOperationClass of enumeration { BundleOperation_Control, BundleOperation_TileElement,
    BundleOperation_FixedPoint, BundleOperation_TileMemory, BundleOperation_TileMatrix };
type BundleTransfer of enumeration { BundleTransfer_Direct, BundleTransfer_IndirectCall, BundleTransfer_Call,
    BundleTransfer_Return, BundleTransfer_Conditional, BundleTransfer_Indirect, BundleTransfer_Fallthrough };
type SystemRegisterAddress of bits(24);
type SystemRegisterAccess of enumeration { SystemRegisterAccess_ReadOnly, SystemRegisterAccess_WriteOnly,
    SystemRegisterAccess_ReadWrite, SystemRegisterAccess_Unknown };
type AddressUpdateMode of enumeration { AddressUpdate_None, AddressUpdate_PreIndex, AddressUpdate_PostIndex };
type Reg5Selector of integer {0..31};
type TileInstructionClass of enumeration { TileClass_ElementwiseTileTile, TileClass_Other };
type TileExecutionEngine of enumeration { TileEngine_VEC, TileEngine_TLSU, TileEngine_CUBE, TileEngine_SFU };
type TileTEPLAssemblyAlias of enumeration { TileTEPLAlias_TEPL, TileTEPLAlias_VEC, TileTEPLAlias_SFU };
type NumericApplicabilityRuleSet of enumeration { NumericApplicabilityRules_None,
    NumericApplicabilityRules_A2A3MxRejection };
type TileInstructionOperands of record { destination0: integer };
type TileExecutionStatus of enumeration { TileExecution_Executed, TileExecution_Rejected };
type Fault of enumeration { Fault_None, Fault_IllegalInstruction, Fault_TileLegality };
var _LastFault : Fault = Fault_None;
var DemoWritten : integer = 0;

func SetFault(fault: Fault, pc: Word)
begin
    _LastFault = fault;
end;

func ReadPC() => Word
begin
    return Zeros{PTO_XLEN};
end;

func BeginArchitecturalInstructionAttempt()
begin
    _LastFault = Fault_None;
end;

func ResolveTileNumericExecutionControl(operation: integer, operands: TileInstructionOperands) => integer
begin
    return 0;
end;

func TileSourceContentsDefined(tile: integer) => boolean
begin
    return TRUE;
end;

func DemoLegal(destination: integer) => boolean
begin
    return destination < 8;
end;

func DemoHandler(destination: integer)
begin
    DemoWritten = destination;
end;

readonly func ScalarSourceSelectorLegal(selector: Reg5Selector) => boolean
begin
    return selector < 24;
end;

readonly func ScalarDestinationSelectorLegal(selector: Reg5Selector) => boolean
begin
    return selector != 31;
end;
"""

# Word layouts of the demo forms (all 32-bit): opcode bits [6:0], funct bits [14:12].
ADD = 0b0010011            # DEMO.ADD: mask 0x7f (any funct), RegDst [11:7], SrcL [19:15]
ADDI = 0b001 << 12 | ADD   # DEMO.ADDI: mask 0x707f, more fixed bits: wins where both match; imm12 in two pieces
LOAD = 0b0000011           # DEMO.LD: AGU, 8-byte signed load


def field(name, pieces, signedness="encoding-defined"):
    return {"name": name, "width": sum(p[2] for p in pieces), "signedness": signedness,
            "pieces": [{"instruction_lsb": lsb, "value_lsb": vlsb, "width": w} for lsb, vlsb, w in pieces]}


def form(form_id, mnemonic, mask, match, fields, constraints=(), family="ALU", handler="DemoHandlerA", **extra):
    return {"form_id": form_id, "mnemonic": mnemonic, "asm": mnemonic.lower(), "length_bits": 32,
            "encoding_kind": "L32", "encoding": [{"index": 0, "mask": hex(mask), "match": hex(match), "width_bits": 32}],
            "fields": fields, "constraints": list(constraints), "semantic_family": family, "semantic_group": "DEMO",
            "semantic_handler": handler, "semantic_summary": f"{mnemonic} demo.", "status": "accepted", **extra}


def scalar_unit(index: int, record: dict, surface: str = "scalar") -> str:
    unit = deep(instruction_record())
    mnemonic = record["mnemonic"]
    unit.update({"id": f"PTO-{surface.upper()}-{mnemonic.replace('.', '-')}", "surface": surface, "mnemonic": mnemonic,
                 "classification": ["demo"], "depends_on": [], "catalog_indices": [index],
                 "catalog_records": [record], "assembly": [record["asm"]]})
    unit.pop("engine", None)
    unit["contract"]["operands"] = [{"field": f["name"], "role": "demo"} for f in record["fields"]]
    return "// PTO-INSTRUCTION: " + json.dumps(unit, separators=(",", ":")) + "\n"


def avs_point(test_id: str, source: str, body: str) -> str:
    record = {"id": test_id, "source": source, "requirements": [], "kind": "decode-positive", "summary": test_id,
              "pass_condition": "main returns 0", "related_sources": []}
    return "// PTO-TEST: " + json.dumps(record) + "\nfunc main() => integer\nbegin\n" + body + "    return 0;\nend;\n"


@pytest.fixture
def decoder_tree(tmp_path) -> Path:
    root = make_tree(tmp_path / "tree")
    forms = [
        form("demo_add_32_00000001", "DEMO.ADD", 0x7F, ADD,
             [field("RegDst", [(7, 0, 5)]), field("SrcL", [(15, 0, 5)])],
             [{"field": "RegDst", "operator": "not-equal", "value": 10}]),
        form("demo_addi_32_00000002", "DEMO.ADDI", 0x707F, ADDI,
             [field("RegDst", [(7, 0, 5)]), field("simm12", [(20, 0, 7), (27, 7, 5)], "signed")],
             [{"field": "RegDst", "operator": "one-of", "values": [1, 2, 3]}], handler="DemoHandlerB"),
        form("demo_ld_32_00000003", "DEMO.LD", 0x7F, LOAD,
             [field("RegDst", [(7, 0, 5)]), field("SrcL", [(15, 0, 5)])], family="AGU", handler="DemoLoad",
             agu={"action": "Load", "address_kind": "Immediate", "offset_scale": 3, "prefetch_returns_address": False,
                  "signed_load": True, "size_bytes": 8, "update_mode": "PostIndex"}),
    ]
    for index, record in enumerate(forms):
        write(root, f"asl/scalar/demo/{record['mnemonic']}.asl", scalar_unit(index, record))
    carrier = form("bstart_tepl_32_00000004", "BSTART.TEPL", 0x0FFF, 0x0181,
                   [field("Mode", [(12, 0, 2)]), field("Function", [(14, 0, 5)]), field("DataType", [(27, 0, 5)])],
                   family="CMD", handler="ExecuteBundleStart")
    write(root, "asl/block/demo/BSTART.TEPL.asl", scalar_unit(0, carrier, "block"))
    unit_record = {"id": "PTO-SCALAR-MODEL-DECODER-PRELUDE", "surface": "scalar",
                   "classification": ["model", "decoder-prelude"], "depends_on": []}
    write(root, PRELUDE, "// PTO-UNIT: " + json.dumps(unit_record) + "\n" + PRELUDE_ASL)
    user_record = {"id": "PTO-SCALAR-MODEL-DECODER-USER", "surface": "scalar",
                   "classification": ["model", "decoder-user"], "depends_on": ["generated:decoders"]}
    write(root, USER, "// PTO-UNIT: " + json.dumps(user_record) + "\n")
    write(root, "spec/catalog/system-registers.json", json.dumps({"registers": [
        {"access": "RO", "address": "0x0002", "name": "DEMO_ID", "scope": "base"},
        {"access": "RW", "low_index": "0x010", "name": "DEMO_CTX", "scope": "context-family"}]}))
    write(root, "spec/catalog/numeric-profile-applicability.json", json.dumps({"rules": []}))
    both = ADDI | 2 << 7 | 0b1010101 << 20 | 0b10011 << 27  # matches DEMO.ADD and DEMO.ADDI
    write(root, DECODE_TEST, avs_point("PTO-AVS-SCALAR-DEMO-DECODE-001", USER, f"""
    let both = ZeroExtend{{48}}({bits(both, 32)});
    assert DecodeScalarForm(both, 32) == 1;
    assert DecodeScalarForm(ZeroExtend{{48}}({bits(0b010 << 12 | ADD, 32)}), 32) == 0;
    assert DecodeScalarForm(ZeroExtend{{48}}({bits(LOAD, 32)}), 32) == 2;
    assert DecodeScalarForm(Zeros{{48}}, 32) == PTO_SCALAR_FORM_COUNT;
    assert DecodeScalarForm(both, 16) == PTO_SCALAR_FORM_COUNT;
    assert DecodeScalarOperandRaw(both, 1, ScalarField_simm12)[11:0] == '100111010101';
    assert DecodeScalarOperandRaw(both, 1, ScalarField_RegDst)[4:0] == '00010';
    assert DecodeScalarOperandRaw(both, 1, ScalarField_SrcL) == Zeros{{48}};
    assert ScalarOperandPresent(1, ScalarField_simm12) && !ScalarOperandPresent(0, ScalarField_simm12);
    assert ScalarOperandWidth(1, ScalarField_simm12) == 12;
    assert ScalarOperandSignedness(1, ScalarField_simm12) == ScalarField_Signed;
    assert ScalarFormOperandsLegal(both, 1);
    assert !ScalarFormOperandsLegal(ZeroExtend{{48}}({bits(ADDI | 4 << 7, 32)}), 1);
    assert !ScalarFormOperandsLegal(ZeroExtend{{48}}({bits(ADD | 10 << 7, 32)}), 0);
    assert !ScalarRegisterOperandsLegal(ZeroExtend{{48}}({bits(ADD | 30 << 15, 32)}), 0);
    assert !ScalarRegisterOperandsLegal(ZeroExtend{{48}}({bits(ADD | 31 << 7, 32)}), 0);
    assert ScalarRegisterOperandsLegal(both, 1);
    assert ScalarHandlerOfForm(1) == ScalarHandler_DemoHandlerB;
    assert ScalarOperationOfForm(2) == ScalarOperation_DEMO_LD;
    assert ScalarFamilyOfForm(2) == ScalarSemantic_AGU;
    assert ScalarAGUSizeOfForm(2) == 8 && ScalarAGUSignedLoadOfForm(2);
    assert ScalarAGUUpdateModeOfForm(2) == AddressUpdate_PostIndex && ScalarAGUOffsetScaleOfForm(2) == 3;
    assert DecodeCommandForm(ZeroExtend{{64}}({bits(7 << 14 | 0x0181, 32)}), 32) == 0;
    assert CommandFormSelectsTileOperation(0) && CommandTileFamilyOfForm(0) == TileDecode_TEPL;
    assert CommandTileCodeOfForm(ZeroExtend{{64}}({bits(7 << 14 | 0x0181, 32)}), 0) == '000000000111';
    assert CommandBundleKindOfForm(0) == BundleKind_TileElement;
    assert DecodeTileOperation(TileDecode_TEPL, '000000000111') == 0;
    assert DecodeTileOperation(TileDecode_CUBE, '000000000111') == PTO_TILE_OPERATION_COUNT;
    assert TileHandlerOfIndex(0) == TileHandler_DemoHandler && TileEngineOfIndex(0) == TileEngine_VEC;
    var operands : TileInstructionOperands;
    operands.destination0 = 5;
    let (status, value) = ExecuteTileInstruction(TileDecode_TEPL, '000000000111', operands);
    assert status == TileExecution_Executed && DemoWritten == 5;
    operands.destination0 = 9;
    let (rejected, unused) = ExecuteTileInstruction(TileDecode_TEPL, '000000000111', operands);
    assert rejected == TileExecution_Rejected && _LastFault == Fault_TileLegality;
    assert SystemRegisterAccessOf('000000000000000000000010') == SystemRegisterAccess_ReadOnly;
    assert SystemRegisterAccessOf('000000000011000000010000') == SystemRegisterAccess_ReadWrite;
    assert SystemRegisterAccessOf('000000000000000000000011') == SystemRegisterAccess_Unknown;
"""))
    write(root, VALIDATE_TEST, avs_point("PTO-AVS-SCALAR-DEMO-VALIDATE-001", USER, "    ValidateDemoWitnesses();\n"))
    return root


def bits(value: int, width: int) -> str:
    return f"'{value:0{width}b}'"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_without_decoders_the_tree_runs_on_decoders_made_from_its_records(decoder_tree, tmp_path):
    catalog = load_catalog(decoder_tree).catalog
    text = generate_decoders(catalog)
    assert "func Validate" not in text and text.count("\n") < 2000
    code, out, err = run("avs", str(decoder_tree), "--jobs", "1", "-q", "--cache-dir", str(tmp_path / "c"),
                         "--json", str(tmp_path / "avs.json"), "--junit", str(tmp_path / "avs.xml"))
    results = {t["id"]: t for t in json.loads((tmp_path / "avs.json").read_text("utf-8"))["tests"]}
    junit = (tmp_path / "avs.xml").read_text("utf-8")  # not run: skipped, neither an error nor a failure
    assert 'errors="0"' in junit and 'skipped="1"' in junit and junit.count("<skipped ") == 1
    decode = results["PTO-AVS-SCALAR-DEMO-DECODE-001"]
    assert decode["status"] == "pass", decode["message"]
    validate = results["PTO-AVS-SCALAR-DEMO-VALIDATE-001"]
    assert validate["status"] == "needs-decoders"  # not run, not an error: reported as one line, exit 3
    assert "ValidateDemoWitnesses" in validate["message"] and "--decoders FILE" in validate["message"]
    assert code == 3 and "AVS-ERROR" not in out and err == ""
    tree = str(decoder_tree)
    (line,) = [x for x in out.splitlines() if "warning[AVS-NEEDS-DECODERS]" in x]
    assert line.startswith(f"{tree}: ") and " 1 test point calls Validate* " in line
    assert "the tree has no scripts/generate-asl-decoders" in line  # (this tree has none to run)
    assert "1 need decoders (not run)" in out.splitlines()[-1]
    others = [t for i, t in results.items() if i not in ("PTO-AVS-SCALAR-DEMO-DECODE-001", "PTO-AVS-SCALAR-DEMO-VALIDATE-001")]
    assert others and all(t["status"] == "pass" for t in others)


def test_a_decoders_file_wins_over_the_records(decoder_tree, tmp_path):
    catalog = load_catalog(decoder_tree).catalog
    given = generate_decoders(catalog).replace("// generated:decoders made by pto-docs", "// given by the test", 1)
    given += "\nfunc ValidateDemoWitnesses()\nbegin\n    assert DecodeScalarForm(Zeros{48}, 32) == PTO_SCALAR_FORM_COUNT;\nend;\n"
    path = tmp_path / "decoders.asl"
    path.write_text(given, "utf-8")
    code, out, err = run("avs", str(decoder_tree), "--decoders", str(path), "--jobs", "1", "-q",
                         "--cache-dir", str(tmp_path / "c"))
    assert code == 0 and "0 fail, 0 error" in out, out + err
    # a file whose decoders disagree with the records is the one that runs (and here fails the decode test)
    path.write_text(given.replace("then return 1; end;", "then return 0; end;", 1), "utf-8")
    code, out, err = run("avs", str(decoder_tree), "--decoders", str(path), "--jobs", "1", "-q",
                         "--cache-dir", str(tmp_path / "c"))
    assert code == 1 and "PTO-AVS-SCALAR-DEMO-DECODE-001" in out and "1 fail" in out, out + err


def test_records_that_cannot_make_the_decoders_refuse_the_run(decoder_tree, tmp_path):
    (decoder_tree / "spec/catalog/system-registers.json").unlink()
    code, out, err = run("avs", str(decoder_tree), "--cache-dir", str(tmp_path / "c"))
    assert code == 2 and out == ""
    assert "error[AVS-DECODERS]" in err and "system-registers.json" in err and "--decoders FILE" in err


def test_the_needs_decoders_line_gives_the_commands_for_a_tree_with_a_generator(decoder_tree, tmp_path):
    (decoder_tree / "scripts").mkdir()
    (decoder_tree / "scripts" / "generate-asl-decoders").write_text("raise SystemExit(1)\n", "utf-8")  # never run
    code, out, err = run("avs", str(decoder_tree), "--jobs", "1", "-q", "--cache-dir", str(tmp_path / "c"))
    (line,) = [x for x in out.splitlines() if "AVS-NEEDS-DECODERS" in x]
    tree = str(decoder_tree)
    assert code == 3 and (f"`(cd {tree} && python3 scripts/generate-asl-decoders --kind monolithic) > decoders.asl`, "
                          f"then run `pto-docs avs {tree} --decoders decoders.asl`") in line
    assert f"`pto-docs avs {tree} --decoders generate`" in line
