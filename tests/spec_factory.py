"""Build small pto-spec-layout trees for tests. Every byte here is written by the tests themselves."""

from __future__ import annotations

import copy
import json
from pathlib import Path

UNIT_PATH = "asl/tile/elementwise-tile-tile/arithmetic/TDEMO.asl"
MODEL_PATH = "asl/tile/model/demo-state.asl"
TEST_PATH = "tests/asl/tile/elementwise-tile-tile/arithmetic/TDEMO/tile-exec-tdemo-basic-001.asl"
MODEL_TEST_PATH = "tests/asl/tile/model/demo-state/tile-static-demo-state-001.asl"
ADR_PATH = "docs/status/decisions/0001-demo-decision.md"


def instruction_record() -> dict:
    return {
        "id": "PTO-TILE-TDEMO", "surface": "tile", "mnemonic": "TDEMO",
        "summary": "Combine two demonstration tiles element by element.",
        "classification": ["elementwise-tile-tile", "arithmetic"],
        "depends_on": ["PTO-TILE-MODEL-DEMO-STATE"],
        "assembly": ["TDEMO <bundle operands>"],
        "block": ["BSTART.VEC TDEMO, DataType", "B.DIM LB0=ValidCol", "B.IOT SrcLeft, SrcRight, ->DstTile", "BSTOP"],
        "catalog_indices": [0],
        "catalog_records": [{
            "name": "TDEMO", "family": "TEPL", "command_mnemonic": "BSTART.TEPL", "function": 7, "mode": 0,
            "selector": "0x007", "arguments": [{"operand": "destination0"}],
            "operands": [{"field": "destination0", "role": "destination"}],
            "state_effects": ["operand:destination0:destination"],
            "datr_contract": {"allowed_nonzero_fields": [], "pad_union": "pad-value"},
            "semantic_handler": "DemoHandler", "legality_handler": "DemoLegal", "effect_contract": "DemoEffect",
            "fault_contract": "ExecuteTileInstruction", "restart_contract": "DemoRestart",
            "disposition": "accepted-direct-operation", "contract_status": "reviewed-complete"}],
        "contract": {
            "block_composition": ["BSTART.VEC TDEMO, DataType", "BSTOP"], "canonical_assembly": ["TDEMO <bundle operands>"],
            "defaults": ["Omitted LB1 means one row."], "examples": ["BSTART.VEC TDEMO, FP32; B.DIM LB0=4; BSTOP"],
            "exceptions": ["Bad shapes fault before effects."], "legality": ["DataType is one of FP32 or FP16."],
            "memory_effects": ["none"], "ordering": ["Sources are read before the destination is written."],
            "state_effects": ["The destination is published at once."],
            "operands": [{"field": "destination0", "role": "new Local destination"}],
            "encoding_class": "selector-encoded-block-operation", "standalone_opcode": False,
            "field_contracts": {}, "field_zero_meanings": {}},
        "engine": "VEC",
    }


def unit_record() -> dict:
    return {"id": "PTO-TILE-MODEL-DEMO-STATE", "surface": "tile", "classification": ["model", "demo-state"], "depends_on": []}


def test_record(path_source: str = UNIT_PATH, requirements: list | None = None, test_id: str = "PTO-AVS-TILE-TDEMO-BASIC-001") -> dict:
    return {"id": test_id, "source": path_source,
            "requirements": ["PTO-INST-TILE-TDEMO"] if requirements is None else requirements,
            "kind": "execution", "summary": "TDEMO combines two tiles", "pass_condition": "every element matches",
            "related_sources": [MODEL_PATH]}


def adr_front() -> dict:
    return {"id": "ADR-0001", "title": "Demo decision", "status": "accepted", "authors": ["tests"], "approvers": ["tests"],
            "created": "2026-01-01", "accepted": "2026-01-02", "rejected": None, "superseded": None,
            "baseline": "0" * 40, "target_releases": ["0.1.0"], "affected_ndf": ["PTO-TDEMO-CONTRACT-001"],
            "affected_units": ["PTO-TILE-TDEMO"], "resolves": [], "supersedes": [], "superseded_by": [],
            "implementation_issue": None, "release_impact": "not-required", "legacy_ids": []}


REVIEW = {"review_method": "formal-definition-read", "outcome": "FORMAL-COMPLETE", "reviewed_fields": ["assembly", "encoding"]}


def unit_text(record: dict | None = None, *, ndf_body: str = "TDEMO MUST combine both sources before publishing.") -> str:
    record = instruction_record() if record is None else record
    return "\n".join([
        "// PTO-INSTRUCTION: " + json.dumps(record, separators=(",", ":")),
        "// PTO-REVIEW: " + json.dumps(REVIEW, separators=(",", ":")),
        "// NDF-BEGIN: PTO-TDEMO-CONTRACT-001",
        "// ndf: kind=contract level=L1 layer=tile status=accepted",
        *("// " + line for line in ndf_body.split("\n")),
        "// NDF-END: PTO-TDEMO-CONTRACT-001",
        "// DOC-BEGIN: decode",
        "readonly func InstructionContractOperation_TDEMO() => TileOperation",
        "begin",
        "    return TileOperation_TDEMO;",
        "end;",
        "// DOC-END: decode",
        "// DOC-BEGIN: operation",
        "func InstructionContractExecute_TDEMO()",
        "begin",
        "    pass;",
        "end;",
        "// DOC-END: operation",
        "",
    ])


def test_text(record: dict | None = None) -> str:
    record = test_record() if record is None else record
    return "// PTO-TEST: " + json.dumps(record, separators=(",", ":")) + "\nfunc main() => integer\nbegin\n    return 0;\nend;\n"


def adr_text(front: dict | None = None) -> str:
    front = adr_front() if front is None else front
    return "---\n" + json.dumps(front, indent=2) + "\n---\n# ADR 0001: Demo decision\n\n## Context\n\nA demo.\n"


def write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def make_tree(root: Path) -> Path:
    """A minimal tree that loads with zero diagnostics."""
    write(root, "specification.toml", '[release]\narchitecture_version = "0.1.0"\nrelease_status = "release-candidate"\n')
    write(root, UNIT_PATH, unit_text())
    write(root, MODEL_PATH, "// PTO-UNIT: " + json.dumps(unit_record()) + "\n")
    write(root, TEST_PATH, test_text())
    write(root, MODEL_TEST_PATH, test_text(test_record(MODEL_PATH, ["PTO-TDEMO-CONTRACT-001"], "PTO-AVS-TILE-DEMO-STATE-STATIC-001")))
    write(root, ADR_PATH, adr_text())
    return root


def deep(record: dict) -> dict:
    return copy.deepcopy(record)
