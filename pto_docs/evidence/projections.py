"""The catalog projections ``spec/catalog/*.json``: entry ``i`` is the unit catalog record whose index is ``i``."""

from __future__ import annotations

from typing import Any

from ..model.catalog import Catalog
from ..model.frozen import thaw

CATALOG_OF_SURFACE = {"tile": "tile-operations", "block": "command-forms", "scalar": "scalar-forms"}
CATALOG_PATHS = {name: f"spec/catalog/{name}.json" for name in CATALOG_OF_SURFACE.values()}


def catalog_projections(catalog: Catalog) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """The three catalog documents by path, and the problems found (a reused or missing index)."""
    problems: list[str] = []
    envelopes: dict[str, dict] = {}
    for unit in catalog.units.values():
        projection = thaw(unit.record.get("catalog_projection"))
        if projection:
            envelopes[projection["catalog"]] = {k: v for k, v in projection.items() if k != "catalog"}
    entries: dict[str, dict[int, dict]] = {name: {} for name in CATALOG_PATHS}
    for unit in catalog.instructions:
        record = thaw(unit.record)
        name = CATALOG_OF_SURFACE.get(unit.surface)
        if name is None:
            continue
        for index, entry in zip(record.get("catalog_indices", ()), record.get("catalog_records", ())):
            entry = dict(entry)
            if name == "tile-operations":
                entry["classification"] = record["classification"][0]
                entry["engine"] = record.get("engine")
            if index in entries[name]:
                problems.append(f"{unit.path}: {name} index {index} is used twice")
            entries[name][index] = entry
    documents = {}
    for name, by_index in entries.items():
        if sorted(by_index) != list(range(len(by_index))):
            problems.append(f"{CATALOG_PATHS[name]}: catalog indices are not contiguous from 0")
        items = [by_index[i] for i in sorted(by_index)]
        document = dict(envelopes.get(name, {}))
        if name == "tile-operations":
            document["operation_count"] = len(items)
            document["operations"] = items
        else:
            document.update(_form_counts(items))
            if name == "scalar-forms":
                document["family_constraint_count"] = len(document.get("family_constraints", []))
                document["family_constraint_application_count"] = 0
        documents[CATALOG_PATHS[name]] = document
    return documents, problems


def _form_counts(forms: list[dict]) -> dict[str, Any]:
    fields = [f for form in forms for f in form["fields"]]
    return {
        "form_count": len(forms),
        "form_constraint_count": sum(len(form["constraints"]) for form in forms),
        "operand_field_count": len({f["name"] for f in fields}),
        "operand_piece_count": sum(len(f["pieces"]) for f in fields),
        "semantic_handler_count": len({form["semantic_handler"] for form in forms}),
        "forms": forms,
    }
