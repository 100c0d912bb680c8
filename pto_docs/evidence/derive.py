"""Every derived file of a tree that pto-docs maintains, as the bytes it should hold."""

from __future__ import annotations

import json
from typing import Any

from ..model.catalog import Catalog
from ..model.frozen import sha256_bytes
from .manifest import MANIFEST, release_manifest
from .projections import CATALOG_PATHS, catalog_projections
from .readiness import ADR_INDEX, TRACEABILITY, adr_index, traceability

GENERATOR = "pto-docs evidence"
OUTPUTS = (*CATALOG_PATHS.values(), ADR_INDEX, TRACEABILITY, MANIFEST)


def owns_evidence(catalog: Catalog) -> bool:
    """Whether the tree names pto-docs as the generator of its evidence (``[toolchain] evidence_generator``)."""
    toolchain = catalog.specification.get("toolchain") or {}
    return getattr(toolchain, "get", lambda _k: None)("evidence_generator") == GENERATOR


def dump(value: Any) -> bytes:
    """The layout of every derived JSON file: two-space indent, key order kept, a final newline."""
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def derive_evidence(catalog: Catalog) -> tuple[dict[str, bytes], list[str], str]:
    """(path -> bytes for every output, problems, traceability status). Later outputs hash the bytes of earlier
    ones as they will be on disk; the other canonical inputs are hashed as loaded."""
    catalogs, problems = catalog_projections(catalog)
    outputs = {path: dump(doc) for path, doc in catalogs.items()}
    outputs[ADR_INDEX] = dump(adr_index(catalog))
    readiness = traceability(catalog, sha256_bytes(outputs[ADR_INDEX]))
    outputs[TRACEABILITY] = dump(readiness)

    def sha256_of(path: str) -> str:
        if path in outputs:
            return sha256_bytes(outputs[path])
        source = catalog.files.get(path)
        if source is None:
            raise KeyError(f"{path} is a canonical input of the manifest but was not loaded")
        return source.sha256
    outputs[MANIFEST] = dump(release_manifest(catalog, catalogs, sha256_of))
    return outputs, problems, readiness["summary"]["status"]
