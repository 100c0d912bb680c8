"""``spec/release-manifest.json``: content and expanded-NDF hashes per the pto-spec hash contract."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..model.catalog import Catalog
from ..model.frozen import canonical_sha256, thaw
from .projections import CATALOG_PATHS
from .readiness import ADR_INDEX, TRACEABILITY, adr_fronts

MANIFEST = "spec/release-manifest.json"
FORM_KEYS = ("form_id", "mnemonic", "asm", "length_bits", "encoding_kind", "encoding", "fields", "constraints")


def release_manifest(catalog: Catalog, catalogs: dict[str, dict], sha256_of: Callable[[str], str]) -> dict[str, Any]:
    """``sha256_of(path)`` gives the hash of a canonical input as it will be on disk (fresh outputs included)."""
    spec = thaw(catalog.specification)
    release = spec["release"]
    inputs = sorted([u.path for u in catalog.units.values()] + ["specification.toml"]
                    + list(CATALOG_PATHS.values()) + [ADR_INDEX, TRACEABILITY])
    canonical_inputs = [{"path": p, "sha256": sha256_of(p)} for p in inputs]
    adrs = adr_fronts(catalog)
    tile_ops = catalogs[CATALOG_PATHS["tile-operations"]]["operations"]
    command_forms = catalogs[CATALOG_PATHS["command-forms"]]["forms"]
    scalar_forms = catalogs[CATALOG_PATHS["scalar-forms"]]["forms"]
    return {
        "schema_version": 1, "release": release["architecture_version"],
        "specification_status": release.get("release_status", spec["specification"]["status"]),
        "encoding_abi": release["encoding_abi"],
        "content_sha256": canonical_sha256({i["path"]: i["sha256"] for i in canonical_inputs}),
        "encoding_projection_sha256": canonical_sha256(
            _encoding_projection(release["encoding_abi"], tile_ops, command_forms + scalar_forms)),
        "hash_contract": {
            "algorithm": "SHA-256",
            "content_projection": "object mapping each canonical input path to its file SHA-256",
            "encoding_projection": "encoding ABI ID plus scalar/command forms, PTO extension-encoding "
                                   "reservations, tile selector/function assignments, and system-register locations",
            "json_encoding": "UTF-8 JSON with lexicographically sorted keys and separators ',' ':'"},
        "catalog_counts": {
            "command_form_families": dict(sorted(Counter(f["semantic_family"] for f in command_forms).items())),
            "command_forms": len(command_forms),
            "contract_status_counts": dict(sorted(Counter(op["contract_status"] for op in tile_ops).items())),
            "extension_encoding_reservations": 0, "pending_base_operations": 0, "scalar_forms": len(scalar_forms),
            "tile_operations": dict(sorted(Counter(op["family"] for op in tile_ops).items())),
            "tile_operations_total": len(tile_ops)},
        "canonical_inputs": canonical_inputs,
        "release_selection": {
            "architecture_version": release["architecture_version"], "blockers": [],
            "excluded_draft_adrs": sorted(a["id"] for a in adrs if a.get("status") == "draft"),
            "expanded_ndf": _expanded_ndf(catalog, sha256_of), "included_ndf_statuses": ["accepted"],
            "required_readiness_floor": "executable",
            "selected_adr_ids": sorted(a["id"] for a in adrs if a.get("status") == "accepted")}}


def _expanded_ndf(catalog: Catalog, sha256_of: Callable[[str], str]) -> list[dict[str, str]]:
    expanded = []
    for rid, req in sorted(catalog.requirements.items()):
        if req.ndf is not None:
            obj = {"id": rid, "status": req.status, "source": req.owner_path, "body": req.ndf.body}
        else:
            obj = {"id": rid, "status": "accepted", "source": req.owner_path, "source_sha256": sha256_of(req.owner_path)}
        if req.status == "accepted":
            expanded.append({"id": rid, "sha256": canonical_sha256(obj)})
    return expanded


def _encoding_projection(abi: str, tile_ops: list[dict], forms: list[dict]) -> dict[str, Any]:
    def tile(op: dict) -> dict:
        tepl = op["family"] == "TEPL"
        return {"family": op["family"], "name": op["name"], "command_mnemonic": op["command_mnemonic"],
                "mode": op.get("mode") if tepl else None, "function": op["function"],
                "selector": int(op["selector"], 16) if tepl else None}
    tiles = sorted((tile(op) for op in tile_ops),
                   key=lambda o: (o["family"], -1 if o["selector"] is None else o["selector"], o["name"]))
    return {"encoding_abi": abi, "extension_encoding_reservations": [],
            "scalar_and_command_forms": sorted(({k: f[k] for k in FORM_KEYS} for f in forms),
                                               key=lambda f: f["form_id"]),
            "system_registers": [], "tile_operations": tiles}
