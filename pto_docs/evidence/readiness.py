"""``spec/evidence/adr-index.json`` and ``spec/evidence/release-traceability-readiness.json``."""

from __future__ import annotations

from typing import Any

from ..model.catalog import Catalog, Unit
from ..model.frozen import thaw

ADR_INDEX = "spec/evidence/adr-index.json"
TRACEABILITY = "spec/evidence/release-traceability-readiness.json"
TEMPLATE_ADR = "ADR-0000"
NON_SEMANTIC_KINDS = {"static-invariant", "decode-positive", "decode-negative"}


def adr_fronts(catalog: Catalog) -> list[dict[str, Any]]:
    """Every ADR's front matter in id order, the template excluded."""
    return [thaw(adr.front) for aid, adr in sorted(catalog.adrs.items()) if aid != TEMPLATE_ADR]


def adr_index(catalog: Catalog) -> dict[str, Any]:
    records, legacy, open_ids = [], {}, []
    for aid, adr in sorted(catalog.adrs.items()):
        if aid == TEMPLATE_ADR:
            continue
        record = thaw(adr.front)
        record["path"] = adr.path
        records.append(record)
        for legacy_id in record.get("legacy_ids", ()):
            legacy[legacy_id] = aid
        if record.get("status") == "draft":
            open_ids.append(aid)
    return {"schema": "pto.adr-index", "records": records, "legacy_map": dict(sorted(legacy.items())),
            "open": open_ids, "summary": {"record_count": len(records), "draft_count": len(open_ids),
                                          "legacy_id_count": len(legacy)}}


def documentation_path(unit: Unit) -> str:
    return "docs/" + unit.path[len("asl/"):-len(".asl")] + ".md"


def traceability(catalog: Catalog, adr_index_sha256: str) -> dict[str, Any]:
    tests = catalog.tests
    adrs = adr_fronts(catalog)
    units = [_unit_row(catalog, uid, adrs) for uid in sorted(catalog.units)]
    requirements = [
        {"id": rid, "executable": req.executable, "owners": [req.owner_path],
         "tests": sorted(tid for tid, t in tests.items() if rid in t.requirements),
         "readiness_subjects": sorted(a["id"] for a in adrs if rid in a.get("affected_ndf", ()))}
        for rid, req in sorted(catalog.requirements.items())]
    test_rows = [{"id": tid, "path": t.path, "source": t.source, "requirements": list(t.requirements),
                  "kind": t.kind, "sha256": t.file.sha256} for tid, t in sorted(tests.items())]
    sources = {u.path: u.file.sha256 for u in catalog.units.values()}
    sources.update({t["path"]: t["sha256"] for t in test_rows})
    sources[ADR_INDEX] = adr_index_sha256
    return {"schema": "pto.release-traceability.v2",
            "derivation": {"architecture_owner": "asl/{arch,block,scalar,tile}",
                           "adr_projection": ADR_INDEX,
                           "documentation_projection": "docs/{arch,block,scalar,tile}",
                           "instruction_contract_projection": "asl/{block,scalar,tile} PTO-INSTRUCTION contract",
                           "test_projection": "tests/asl/{arch,block,scalar,tile}"},
            "sources": dict(sorted(sources.items())), "units": units, "requirements": requirements,
            "tests": test_rows, "summary": _summary(units, requirements, test_rows)}


def _unit_row(catalog: Catalog, uid: str, adrs: list[dict]) -> dict[str, Any]:
    unit = catalog.units[uid]
    own = [tid for tid, t in sorted(catalog.tests.items()) if t.source == unit.path]
    row = {"id": uid, "surface": unit.surface, "classification": list(unit.classification),
           "source": unit.path, "documentation": documentation_path(unit),
           "mnemonic": unit.mnemonic if unit.is_instruction else None,
           "tests": own,
           "semantic_tests": [tid for tid in own if unit.is_instruction
                              and catalog.tests[tid].kind not in NON_SEMANTIC_KINDS],
           "readiness_subjects": sorted(a["id"] for a in adrs if uid in a.get("affected_units", ()))}
    if unit.is_instruction:
        row["instruction_contract"] = {"artifact": unit.path, "mnemonic": unit.mnemonic,
                                       "ndf_clause": unit.requirement_id}
    return row


def _summary(units: list[dict], requirements: list[dict], tests: list[dict]) -> dict[str, Any]:
    instructions = [u for u in units if u["mnemonic"] is not None]
    no_semantic = sorted(u["mnemonic"] for u in instructions if not u["semantic_tests"])
    uncovered_units = sorted(u["id"] for u in units if not u["tests"])
    uncovered_exec = sorted(r["id"] for r in requirements if r["executable"] and not r["tests"])
    return {
        "unit_count": len(units), "documentation_page_count": len(units), "mnemonic_count": len(instructions),
        "requirement_count": len(requirements),
        "executable_requirement_count": sum(1 for r in requirements if r["executable"]),
        "test_count": len(tests),
        "uncovered_unit_count": len(uncovered_units), "uncovered_units": uncovered_units,
        "uncovered_executable_requirement_count": len(uncovered_exec),
        "uncovered_executable_requirements": uncovered_exec,
        "mnemonic_semantic_gap_count": len(no_semantic), "mnemonics_without_semantic_tests": no_semantic,
        "status": "closed" if not (uncovered_units or uncovered_exec or no_semantic) else "open"}
