"""Recorded versus actual hashes: who records what, and the status of every path, digest and aggregate.

A *recorder* is a place in the spec tree that records the sha256 of a file (the traceability ``sources``,
the manifest ``canonical_inputs``, the review lock, ...). Statuses of one subject:

* ``match``          every record equals the hash now;
* ``stale``          some record differs from the hash now (or the records disagree with each other);
* ``recorded-only``  the tree records a hash but the file is absent (e.g. the 5 MB closure file);
* ``missing``        the model needs the file, it is absent and nothing records it;
* ``unrecorded``     the file is present and nothing records it.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..model.catalog import Catalog, Requirement
from ..model.frozen import canonical_sha256, thaw

MATCH, STALE, MISSING, RECORDED_ONLY, UNRECORDED = "match", "stale", "missing", "recorded-only", "unrecorded"
STATUSES = (MATCH, STALE, MISSING, RECORDED_ONLY, UNRECORDED)

TRACEABILITY = "spec/evidence/release-traceability-readiness.json"
MANIFEST = "spec/release-manifest.json"
GATE = "spec/evidence/release-gate-readiness.json"
READINESS = "spec/evidence/architecture-readiness.json"
RELEASE_SELECTION = "spec/release-selection.json"
RELEASE_INPUTS = "spec/release-inputs.json"
ADR_DIR = "docs/status/decisions/"
CORE_RECORDERS = (TRACEABILITY, MANIFEST, GATE, READINESS)
REVIEW_LOCK = "review-lock"

HEX64 = re.compile(r"[0-9a-f]{64}\Z")
SURFACES = ("arch", "block", "scalar", "tile")


def is_sha(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and HEX64.match(value) is not None


def safe_sha256(tree, path: str) -> str | None:
    """tree.sha256 that never raises: a recorded path the OS cannot even stat counts as absent."""
    try:
        return tree.sha256(path)
    except (OSError, ValueError):
        return None


def status_of(now: str | None, recorded: Iterable[str]) -> str:
    values = set(recorded)
    if now is None:
        return RECORDED_ONLY if values else MISSING
    if not values:
        return UNRECORDED
    return MATCH if values == {now} else STALE


def documentation_path(unit_path: str) -> str | None:
    """docs/<path under asl/ with .md> for asl/<...>.asl."""
    if unit_path.startswith("asl/") and unit_path.endswith(".asl"):
        return "docs/" + unit_path[4:-4] + ".md"
    return None


def kind_of_path(path: str) -> str:
    if path.startswith("asl/") and path.endswith(".asl"):
        return "unit"
    if path.startswith("tests/asl/") and path.endswith(".asl"):
        return "test"
    if path.startswith(ADR_DIR) and path.endswith(".md") and "/" not in path[len(ADR_DIR):]:
        return "adr"
    if path.startswith(tuple(f"docs/{s}/" for s in SURFACES)) and path.endswith(".md"):
        return "documentation"
    if path.startswith("spec/") and path.endswith(".json"):
        return "evidence"
    return "file"


# -- recorders ------------------------------------------------------------------------------------------
class Records:
    """path -> {recorder id: recorded sha256}; recorders are named by where the hash sits."""

    def __init__(self) -> None:
        self.by_path: dict[str, dict[str, str]] = defaultdict(dict)
        self.counts: dict[str, int] = defaultdict(int)

    def add(self, path: Any, recorder: str, sha: Any) -> None:
        if not isinstance(path, str) or not is_sha(sha):
            return
        slot = self.by_path[path]
        if recorder in slot and slot[recorder] != sha:
            # one recorder naming a path twice with two hashes: keep the disagreement visible
            recorder = f"{recorder}#{sum(1 for k in slot if k.startswith(recorder))}"
        slot[recorder] = sha
        self.counts[recorder.split("#")[0]] += 1

    def get(self, path: str) -> Mapping[str, str]:
        return self.by_path.get(path, {})


def _items(value: Any) -> Iterator[Mapping[str, Any]]:
    if isinstance(value, tuple | list):
        for item in value:
            if isinstance(item, Mapping):
                yield item


def core_records(catalog: Catalog) -> Records:
    """Every file hash the release evidence records (the exact-head checks of pto-spec)."""
    records = Records()
    trace = catalog.json(TRACEABILITY)
    if isinstance(trace, Mapping):
        sources = trace.get("sources")
        if isinstance(sources, Mapping):
            for path, sha in sources.items():
                records.add(path, "traceability.sources", sha)
        for test in _items(trace.get("tests")):
            records.add(test.get("path"), "traceability.tests", test.get("sha256"))
    manifest = catalog.json(MANIFEST)
    if isinstance(manifest, Mapping):
        for item in _items(manifest.get("canonical_inputs")):
            records.add(item.get("path"), "manifest.canonical_inputs", item.get("sha256"))
        for item in _items(manifest.get("owned_artifacts")):
            records.add(item.get("path"), "manifest.owned_artifacts", item.get("sha256"))
        profile = manifest.get("hardware_conformance_profile")
        if isinstance(profile, Mapping):
            records.add(profile.get("path"), "manifest.hardware_conformance_profile", profile.get("sha256"))
    gate = catalog.json(GATE)
    if isinstance(gate, Mapping) and isinstance(gate.get("sources"), Mapping):
        for path, sha in gate["sources"].items():
            records.add(path, "release-gate.sources", sha)
    readiness = catalog.json(READINESS)
    if isinstance(readiness, Mapping) and isinstance(readiness.get("sources"), Mapping):
        for name, item in readiness["sources"].items():
            if isinstance(item, Mapping) and "path" in item:
                records.add(item.get("path"), f"architecture-readiness.sources.{name}", item.get("sha256"))
    return records


def file_entry(path: str, now: str | None, recorded: Mapping[str, str]) -> dict[str, Any]:
    """The hash part of a report entry: path, sha256 now, what the tree records and the status."""
    values = sorted(set(recorded.values()))
    entry: dict[str, Any] = {
        "path": path,
        "sha256": now,
        "recorded_sha256": values[0] if len(values) == 1 else None,
        "recorded_in": sorted(recorded),
        "status": STALE if len(values) > 1 and now is not None else status_of(now, values),
    }
    if len(values) > 1:
        entry["conflicts"] = {k: recorded[k] for k in sorted(recorded)}
    return entry


# -- requirement digests (release_selection.expanded_ndf) ----------------------------------------------
def requirement_digest(req: Requirement, unit_sha: str | None) -> str | None:
    """The manifest's expanded_ndf digest of a requirement, recomputed from the tree as it is now."""
    if req.ndf is not None:
        return canonical_sha256({"id": req.id, "status": req.status, "source": req.owner_path, "body": req.ndf.body})
    if unit_sha is None:
        return None
    return canonical_sha256({"id": req.id, "status": "accepted", "source": req.owner_path, "source_sha256": unit_sha})


def recorded_requirement_digests(catalog: Catalog) -> dict[str, str]:
    manifest = catalog.json(MANIFEST)
    out: dict[str, str] = {}
    if isinstance(manifest, Mapping) and isinstance(manifest.get("release_selection"), Mapping):
        for item in _items(manifest["release_selection"].get("expanded_ndf")):
            if isinstance(item.get("id"), str) and is_sha(item.get("sha256")):
                out[item["id"]] = item["sha256"]
    return out


# -- aggregates ---------------------------------------------------------------------------------------------
def aggregate_checks(catalog: Catalog, tree, records: Records) -> list[dict[str, Any]]:
    """Digests over several inputs: content_sha256, policy_sha256, the ADR aggregate."""
    out: list[dict[str, Any]] = []

    def add(ident: str, path: str, pointer: str, now: str | None, recorded: Any, basis: str) -> None:
        if recorded is None and now is None:
            return
        rec = recorded if is_sha(recorded) else None
        out.append({"id": ident, "path": path, "pointer": pointer, "sha256": now, "recorded_sha256": rec,
                    "status": status_of(now, [rec] if rec else []), "basis": basis})

    manifest = catalog.json(MANIFEST)
    if isinstance(manifest, Mapping):
        inputs = [i for i in _items(manifest.get("canonical_inputs")) if isinstance(i.get("path"), str)]
        if "content_sha256" in manifest or inputs:
            recorded_map = {i["path"]: i.get("sha256") for i in inputs}
            now_map = {}
            for path, sha in recorded_map.items():
                actual = safe_sha256(tree, path)
                now_map[path] = actual if actual is not None else sha  # absent: its recorded hash stands in
            add("manifest.content_sha256", MANIFEST, "/content_sha256", canonical_sha256(now_map),
                manifest.get("content_sha256"), "canonical JSON of {path: sha256} over canonical_inputs, hashed now")
            add("manifest.content_sha256.recorded-inputs", MANIFEST, "/content_sha256",
                canonical_sha256(recorded_map), manifest.get("content_sha256"),
                "canonical JSON of {path: sha256} over canonical_inputs as recorded")
        selection = manifest.get("release_selection")
        policy = catalog.json(RELEASE_SELECTION)
        if isinstance(selection, Mapping) and "policy_sha256" in selection:
            add("manifest.release_selection.policy_sha256", MANIFEST, "/release_selection/policy_sha256",
                canonical_sha256(thaw(policy)) if policy is not None else None, selection.get("policy_sha256"),
                f"canonical JSON of {RELEASE_SELECTION}")
    readiness = catalog.json(READINESS)
    if isinstance(readiness, Mapping) and isinstance(readiness.get("sources"), Mapping):
        adr = readiness["sources"].get("adr_records")
        if isinstance(adr, Mapping) and "sha256" in adr:
            add("architecture-readiness.adr_records", READINESS, "/sources/adr_records/sha256",
                adr_aggregate(catalog, tree), adr.get("sha256"),
                f"sha256 over {ADR_DIR}*.md sorted by path, each fed as path NUL bytes NUL")
    return sorted(out, key=lambda e: e["id"])


def adr_aggregate(catalog: Catalog, tree) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in catalog.files if kind_of_path(p) == "adr"):
        data = _raw_bytes(tree, path)
        if data is None:
            continue
        digest.update(path.encode("utf-8") + b"\0" + data + b"\0")
    return digest.hexdigest()


def _raw_bytes(tree, path: str) -> bytes | None:
    return tree.raw_bytes(path)


# -- recorded inputs of the other evidence files ---------------------------------------------------------
INPUT_MAPPING_KEYS = ("sources", "source_hashes")


def input_pairs(data: Any) -> Iterator[tuple[str, str, str]]:
    """(JSON pointer, path, recorded sha256) of every input hash an evidence file records."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, Mapping):
            path, sha = node.get("path"), node.get("sha256")
            if isinstance(path, str) and is_sha(sha):
                yield pointer, path, sha
            for key, value in node.items():
                here = f"{pointer}/{_escape(key)}"
                if key in INPUT_MAPPING_KEYS and isinstance(value, Mapping):
                    for rel, digest in value.items():
                        if is_sha(digest):
                            yield f"{here}/{_escape(rel)}", rel, digest
                        elif isinstance(digest, Mapping | tuple):
                            stack.append((f"{here}/{_escape(rel)}", digest))
                elif isinstance(value, Mapping | tuple):
                    stack.append((here, value))
        elif isinstance(node, tuple | list):
            for index, value in enumerate(node):
                if isinstance(value, Mapping | tuple | list):
                    stack.append((f"{pointer}/{index}", value))


def _escape(token: Any) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def evidence_inputs(path: str, data: Any, text: str, tree) -> dict[str, Any]:
    """Counts and stale pairs of one evidence file's recorded input hashes (third-party generators)."""
    counts = {MATCH: 0, STALE: 0, RECORDED_ONLY: 0}
    stale: list[dict[str, Any]] = []
    if '"sha256"' in text or "source_hashes" in text or '"sources"' in text:
        for pointer, rel, sha in input_pairs(data):
            now = safe_sha256(tree, rel)
            status = status_of(now, [sha])
            counts[status] += 1
            if status == STALE:
                stale.append({"pointer": pointer, "path": rel, "sha256": now, "recorded_sha256": sha})
    total = sum(counts.values())
    stale.sort(key=lambda e: (e["path"], e["pointer"]))
    return {"count": total, **{k.replace("-", "_"): v for k, v in counts.items()},
            "status": (STALE if counts[STALE] else (MATCH if counts[MATCH] else (RECORDED_ONLY if total else UNRECORDED))),
            "stale_pairs": stale}
