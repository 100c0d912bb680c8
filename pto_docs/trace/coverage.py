"""Coverage over the loaded catalog: who tests what, and every hole or dangling reference."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..model.catalog import Catalog

ADR_ID = re.compile(r"\bADR-[0-9]{4}\b")
NON_SEMANTIC_KINDS = frozenset({"decode-positive", "decode-negative", "static-invariant"})
INACTIVE_ADR_STATUSES = frozenset({"draft", "superseded", "rejected"})


def tests_of_unit(catalog: Catalog, unit_id: str) -> tuple[str, ...]:
    return catalog.tests_by_unit.get(unit_id, ())


def semantic_tests(catalog: Catalog, unit_id: str) -> list[str]:
    return [t for t in tests_of_unit(catalog, unit_id) if catalog.tests[t].kind not in NON_SEMANTIC_KINDS]


def coverage(catalog: Catalog) -> dict[str, Any]:
    """Every coverage table of the report; each list is sorted so the report is deterministic."""
    units = catalog.units
    reqs = catalog.requirements
    untested_units = sorted(u.id for u in units.values() if not tests_of_unit(catalog, u.id))
    uncovered = sorted(r.id for r in reqs.values() if r.executable and not catalog.tests_by_requirement.get(r.id))
    unknown_refs = sorted(
        ({"test": t.id, "path": t.path, "requirement": rid}
         for t in catalog.tests.values() for rid in dict.fromkeys(t.requirements) if rid not in reqs),
        key=lambda e: (e["path"], e["requirement"]))
    unowned = sorted(({"requirement": r.id, "owner": r.owner, "path": r.owner_path}
                      for r in reqs.values() if r.owner not in units), key=lambda e: e["requirement"])
    gaps = sorted(u.mnemonic or u.id for u in units.values() if u.is_instruction and not semantic_tests(catalog, u.id))
    return {
        "untested_units": untested_units,
        "uncovered_executable_requirements": uncovered,
        "unknown_requirement_references": unknown_refs,
        "unowned_requirements": unowned,
        "adr_unknown_links": adr_unknown_links(catalog),
        "inactive_adrs_cited": inactive_adrs_cited(catalog),
        "mnemonics_without_semantic_tests": gaps,
    }


def adr_unknown_links(catalog: Catalog) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for adr in catalog.adrs.values():
        front = adr.front
        for field, known in (("affected_ndf", catalog.requirements), ("affected_units", catalog.units),
                             ("resolves", catalog.adrs), ("supersedes", catalog.adrs),
                             ("superseded_by", catalog.adrs)):
            values = front.get(field, ())
            if not isinstance(values, tuple):
                continue
            for target in dict.fromkeys(values):
                if isinstance(target, str) and target not in known:
                    out.append({"adr": adr.id, "path": adr.path, "field": field, "target": target})
    # ADR ids named in ASL text (NDF "Decisions:" trailers, comments) that no ADR defines
    for path, adr_id in _asl_citations(catalog):
        if adr_id not in catalog.adrs:
            out.append({"adr": adr_id, "path": path, "field": "asl-citation", "target": adr_id})
    return sorted(out, key=lambda e: (e["path"], e["field"], e["target"]))


def _asl_citations(catalog: Catalog) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for holder in (*catalog.units.values(), *catalog.tests.values()):
        text = holder.file.text
        if "ADR-" in text:
            for adr_id in dict.fromkeys(ADR_ID.findall(text)):
                found.append((holder.path, adr_id))
    return found


def inactive_adrs_cited(catalog: Catalog) -> list[dict[str, str]]:
    """Draft, superseded or rejected ADRs cited as current decisions."""
    status = {a.id: a.status for a in catalog.adrs.values()}
    out: list[dict[str, str]] = []

    def check(citing: str, path: str, where: str, adr_id: Any) -> None:
        if isinstance(adr_id, str) and status.get(adr_id) in INACTIVE_ADR_STATUSES:
            out.append({"adr": adr_id, "adr_status": status[adr_id], "cited_by": citing, "path": path, "where": where})

    test_by_path = {t.path: t.id for t in catalog.tests.values()}
    for path, adr_id in _asl_citations(catalog):
        check(catalog.unit_by_path.get(path) or test_by_path.get(path, path), path, "asl-text", adr_id)
    for adr in catalog.adrs.values():
        if adr.status == "accepted":
            for target in adr.front.get("resolves", ()) or ():
                check(adr.id, adr.path, "resolves", target)
    manifest = catalog.json("spec/release-manifest.json")
    if isinstance(manifest, Mapping) and isinstance(manifest.get("release_selection"), Mapping):
        for adr_id in manifest["release_selection"].get("selected_adr_ids", ()) or ():
            check("release_selection", "spec/release-manifest.json", "selected_adr_ids", adr_id)
    return sorted(out, key=lambda e: (e["path"], e["where"], e["adr"]))

