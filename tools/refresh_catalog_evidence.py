#!/usr/bin/env python3
"""Rewrite the projections and evidence of the embedded sample spec tree ``catalog/``.

The script reads the ASL units, AVS tests and ADRs under ``catalog/`` and rewrites, deterministically:

* ``spec/catalog/{tile-operations,command-forms,scalar-forms}.json`` -- pure projections of the unit
  ``catalog_records`` (entry ``i`` is the record whose ``catalog_indices`` value is ``i``; tile entries also get
  ``classification`` = first classification element and ``engine``);
* ``spec/evidence/adr-index.json``;
* ``spec/evidence/release-traceability-readiness.json``;
* ``spec/release-manifest.json`` (content and expanded-NDF hashes per the pto-spec hash contract).

Every JSON file is written as ``json.dumps(obj, indent=2) + "\\n"``. Hashes are SHA-256 over raw file bytes.

Usage::

    python tools/refresh_catalog_evidence.py                      # rewrite projections and evidence
    python tools/refresh_catalog_evidence.py --check              # verify they are current, write nothing
    python tools/refresh_catalog_evidence.py --check-translations # list missing/stale/extra zh-CN strings

Only the standard library is used. The script exits non-zero when the tree is inconsistent.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tomllib
from pathlib import Path

DEFAULT_ROOT = Path(__file__).resolve().parent.parent / "catalog"

SURFACES = ("arch", "block", "scalar", "tile")
CATALOG_OF_SURFACE = {"tile": "tile-operations", "block": "command-forms", "scalar": "scalar-forms"}
CATALOG_PATHS = {name: f"spec/catalog/{name}.json" for name in CATALOG_OF_SURFACE.values()}
ADR_INDEX = "spec/evidence/adr-index.json"
TRACEABILITY = "spec/evidence/release-traceability-readiness.json"
MANIFEST = "spec/release-manifest.json"
ADR_KEYS = ["id", "title", "status", "authors", "approvers", "created", "accepted", "rejected", "superseded",
            "baseline", "target_releases", "affected_ndf", "affected_units", "resolves", "supersedes",
            "superseded_by", "implementation_issue", "release_impact", "legacy_ids"]
TEST_KEYS = ["id", "source", "requirements", "kind", "summary", "pass_condition", "related_sources"]
CONTRACT_KEYS = {"block_composition", "canonical_assembly", "defaults", "encoding_class", "examples", "exceptions",
                 "field_contracts", "field_zero_meanings", "legality", "memory_effects", "operands", "ordering",
                 "standalone_opcode", "state_effects"}
# Contract arrays whose every element is prose that a translation must cover.
TRANSLATED_CONTRACT_ARRAYS = ("defaults", "legality", "exceptions", "state_effects", "memory_effects", "ordering")
NON_SEMANTIC_KINDS = {"static-invariant", "decode-positive", "decode-negative"}
KIND_TYPE = {"decode-positive": "decode", "decode-negative": "decode", "execution": "exec", "boundary": "bound",
             "fault": "fault", "atomicity": "atomic", "ordering": "order", "state-transition": "state",
             "static-invariant": "static"}
ID_RE = re.compile(r"^PTO-[A-Z0-9]+(-[A-Z0-9]+)*$")
NDF_LEVEL = {"intent": "L0", "contract": "L1", "mechanism": "L2", "executable": "L3"}


class TreeError(Exception):
    pass


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical_sha256(obj) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return sha256_bytes(text.encode("utf-8"))


def dump(obj) -> bytes:
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def slug(mnemonic: str) -> str:
    return re.sub(r"[^A-Z0-9]+", "-", mnemonic.upper()).strip("-")


class Tree:
    def __init__(self, root: Path):
        self.root = root
        self.errors: list[str] = []
        self.units: dict[str, dict] = {}        # unit id -> info
        self.ndf: dict[str, dict] = {}          # clause id -> info
        self.tests: dict[str, dict] = {}        # test id -> info
        self.adrs: dict[str, dict] = {}         # ADR id -> info (template included)
        self.load()

    # -- helpers -------------------------------------------------------------------------
    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def raw(self, rel: str) -> bytes:
        return (self.root / rel).read_bytes()

    def sha(self, rel: str) -> str:
        return sha256_bytes(self.raw(rel))

    def err(self, msg: str) -> None:
        self.errors.append(msg)

    # -- loading -------------------------------------------------------------------------
    def load(self) -> None:
        for path in sorted((self.root / "asl").rglob("*.asl")):
            self.load_unit(self.rel(path))
        for path in sorted((self.root / "tests" / "asl").rglob("*.asl")):
            self.load_test(self.rel(path))
        for path in sorted((self.root / "docs" / "status" / "decisions").glob("*.md")):
            self.load_adr(self.rel(path))
        self.check_links()

    def load_unit(self, rel: str) -> None:
        data = self.raw(rel)
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError:
            self.err(f"{rel}: .asl files must be pure ASCII")
            text = data.decode("utf-8", "replace")
        if "\r" in text or "\t" in text or not text.endswith("\n"):
            self.err(f"{rel}: needs LF line endings, no tabs and a final newline")
        lines = text.split("\n")[:-1]
        first = lines[0] if lines else ""
        if first.startswith("// PTO-INSTRUCTION: "):
            kind, record = "instruction", json.loads(first[len("// PTO-INSTRUCTION: "):])
        elif first.startswith("// PTO-UNIT: "):
            kind, record = "unit", json.loads(first[len("// PTO-UNIT: "):])
        else:
            self.err(f"{rel}: line 1 is neither PTO-INSTRUCTION nor PTO-UNIT")
            return
        uid = record.get("id")
        if uid in self.units:
            self.err(f"{rel}: duplicate unit id {uid}")
        surface = rel.split("/")[1]
        if record.get("surface") != surface:
            self.err(f"{rel}: surface {record.get('surface')!r} does not match directory {surface!r}")
        info = {"id": uid, "kind": kind, "record": record, "source": rel, "surface": surface,
                "documentation": "docs/" + rel[len("asl/"):-len(".asl")] + ".md", "ndf": []}
        if kind == "instruction":
            self.check_instruction(rel, record)
        elif record.get("classification") != rel[len("asl/") + len(surface) + 1:-len(".asl")].split("/"):
            self.err(f"{rel}: PTO-UNIT classification must equal the path segments below the surface")
        self.units[uid] = info
        self.load_ndf(rel, lines, info)
        self.check_doc_regions(rel, lines, kind)

    def check_instruction(self, rel: str, record: dict) -> None:
        expected = f"PTO-{record['surface'].upper()}-{slug(record['mnemonic'])}"
        if record["id"] != expected:
            self.err(f"{rel}: instruction id {record['id']} should be {expected}")
        if set(record["contract"]) != CONTRACT_KEYS:
            self.err(f"{rel}: contract keys differ from the fixed 14")
        if record["surface"] == "tile" and "engine" not in record:
            self.err(f"{rel}: tile instruction without engine")
        if len(record["catalog_indices"]) != len(record["catalog_records"]):
            self.err(f"{rel}: catalog_indices and catalog_records differ in length")
        for rec in record["catalog_records"]:
            for entry in rec.get("encoding", []):
                mask, match = int(entry["mask"], 16), int(entry["match"], 16)
                if match & ~mask:
                    self.err(f"{rel}: encoding {entry['index']} has match bits outside its mask")

    def load_ndf(self, rel: str, lines: list[str], info: dict) -> None:
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.startswith("// NDF-BEGIN: "):
                cid = line[len("// NDF-BEGIN: "):]
                attrs_line = lines[i + 1] if i + 1 < len(lines) else ""
                if not attrs_line.startswith("// ndf: "):
                    self.err(f"{rel}: NDF {cid} lacks its attribute line")
                attrs = dict(tok.split("=", 1) for tok in attrs_line[len("// ndf: "):].split())
                if list(attrs) != ["kind", "level", "layer", "status"] or NDF_LEVEL.get(attrs["kind"]) != attrs["level"]:
                    self.err(f"{rel}: NDF {cid} has malformed attributes")
                body_lines = []
                j = i + 2
                while j < len(lines) and lines[j] != f"// NDF-END: {cid}":
                    body = lines[j]
                    if body.startswith("// "):
                        body = body[3:]
                    elif body.startswith("//"):
                        body = body[2:]
                    body_lines.append(body)
                    j += 1
                if j == len(lines):
                    self.err(f"{rel}: NDF {cid} is not closed")
                if not ID_RE.match(cid) or cid in self.ndf:
                    self.err(f"{rel}: bad or duplicate NDF id {cid}")
                self.ndf[cid] = {"id": cid, "source": rel, "attrs": attrs, "body": "\n".join(body_lines).strip(),
                                 "unit": info["id"]}
                info["ndf"].append(cid)
                i = j
            i += 1

    def check_doc_regions(self, rel: str, lines: list[str], kind: str) -> None:
        names = [l[len("// DOC-BEGIN: "):] for l in lines if l.startswith("// DOC-BEGIN: ")]
        ends = [l[len("// DOC-END: "):] for l in lines if l.startswith("// DOC-END: ")]
        if names != ends:
            self.err(f"{rel}: unbalanced DOC regions")
        if kind == "instruction" and names != ["decode", "operation"]:
            self.err(f"{rel}: instruction units need exactly the decode then operation DOC regions")

    def load_test(self, rel: str) -> None:
        text = self.raw(rel).decode("ascii")
        headers = [l for l in text.split("\n") if l.startswith("// PTO-TEST: ")]
        if len(headers) != 1:
            self.err(f"{rel}: needs exactly one PTO-TEST line")
            return
        hdr = json.loads(headers[0][len("// PTO-TEST: "):])
        if list(hdr) != TEST_KEYS:
            self.err(f"{rel}: PTO-TEST keys must be {TEST_KEYS}")
        if text.count("func main() => integer") != 1:
            self.err(f"{rel}: needs exactly one func main() => integer")
        source = hdr["source"]
        surface = source.split("/")[1]
        stem = Path(rel).name
        if Path(rel).parent.as_posix() != "tests/" + source[:-len(".asl")] or \
                not re.match(rf"^{surface}-{KIND_TYPE.get(hdr['kind'], '?')}-[a-z0-9.-]+-\d{{3}}\.asl$", stem):
            self.err(f"{rel}: path does not follow tests/asl/<source>/<group>-<type>-<name>-NNN.asl")
        if hdr["id"] in self.tests:
            self.err(f"{rel}: duplicate test id {hdr['id']}")
        self.tests[hdr["id"]] = {"header": hdr, "path": rel}

    def load_adr(self, rel: str) -> None:
        text = self.raw(rel).decode("utf-8")
        if not text.startswith("---\n"):
            self.err(f"{rel}: front matter must start on line 1")
            return
        end = text.index("\n---\n", 3)
        front = json.loads(text[4:end + 1])
        body = text[end + len("\n---\n"):].strip()
        if list(front) != ADR_KEYS:
            self.err(f"{rel}: ADR front matter keys/order differ from the fixed 19")
        number = Path(rel).name[:4]
        if front["id"] != f"ADR-{number}":
            self.err(f"{rel}: id {front['id']} does not match the file number")
        h1 = [l for l in body.split("\n") if l.startswith("# ")]
        if len(h1) != 1 or not re.match(rf"^# ADR {number}: .+", h1[0]):
            self.err(f"{rel}: needs exactly one H1 '# ADR {number}: Title'")
        status = front["status"]
        if status == "accepted" and not (front["accepted"] and front["approvers"] and front["affected_ndf"]):
            self.err(f"{rel}: accepted ADR needs a date, an approver and an affected NDF clause")
        if status == "superseded" and not (front["superseded"] and front["superseded_by"]):
            self.err(f"{rel}: superseded ADR needs a date and superseded_by")
        self.adrs[front["id"]] = {"front": front, "body": body, "path": rel}

    # -- cross checks --------------------------------------------------------------------
    def requirement_ids(self) -> dict[str, dict]:
        reqs = {}
        for u in self.units.values():
            if u["kind"] == "instruction":
                rid = f"PTO-INST-{u['surface'].upper()}-{slug(u['record']['mnemonic'])}"
                reqs[rid] = {"id": rid, "executable": True, "owner": u["source"], "status": "accepted", "ndf": None}
        for c in self.ndf.values():
            reqs[c["id"]] = {"id": c["id"], "executable": c["attrs"]["kind"] == "executable", "owner": c["source"],
                             "status": c["attrs"]["status"], "ndf": c}
        return reqs

    def check_links(self) -> None:
        ids = set(self.units)
        for u in self.units.values():
            for dep in u["record"].get("depends_on", []):
                if dep != "generated:decoders" and dep not in ids:
                    self.err(f"{u['source']}: depends_on {dep} is not a unit of this tree")
            contract = u["record"].get("contract", {})
            domains = {d["id"] for v in self.units.values() for d in v["record"].get("field_domains", [])}
            for field, ref in contract.get("field_contracts", {}).items():
                if ref.get("ref") not in domains:
                    self.err(f"{u['source']}: field contract {field} refers to unknown domain {ref.get('ref')}")
        reqs = self.requirement_ids()
        sources = {u["source"] for u in self.units.values()}
        for t in self.tests.values():
            hdr = t["header"]
            if hdr["source"] not in sources:
                self.err(f"{t['path']}: source {hdr['source']} is not a unit")
            for r in hdr["requirements"]:
                if r not in reqs:
                    self.err(f"{t['path']}: unknown requirement {r}")
            for s in hdr["related_sources"]:
                if not (self.root / s).is_file():
                    self.err(f"{t['path']}: related source {s} does not exist")
        for a in self.adrs.values():
            f = a["front"]
            for n in f["affected_ndf"]:
                if n not in reqs:
                    self.err(f"{a['path']}: affected_ndf {n} is unknown")
            for n in f["affected_units"]:
                if n not in ids:
                    self.err(f"{a['path']}: affected_units {n} is unknown")
            for n in f["supersedes"] + f["superseded_by"] + f["resolves"]:
                if n not in self.adrs:
                    self.err(f"{a['path']}: ADR reference {n} is unknown")
        for u in self.units.values():
            if not any(t["header"]["source"] == u["source"] for t in self.tests.values()):
                self.err(f"{u['source']}: unit has no test")
        for rid in reqs:
            if not any(rid in t["header"]["requirements"] for t in self.tests.values()):
                self.err(f"requirement {rid} has no test")

    # -- projections ---------------------------------------------------------------------
    def catalogs(self) -> dict[str, dict]:
        envelopes = {}
        for u in self.units.values():
            proj = u["record"].get("catalog_projection")
            if proj:
                envelopes[proj["catalog"]] = {k: v for k, v in proj.items() if k != "catalog"}
        entries: dict[str, dict[int, dict]] = {name: {} for name in CATALOG_PATHS}
        for u in self.units.values():
            rec = u["record"]
            if u["kind"] != "instruction":
                continue
            name = CATALOG_OF_SURFACE[u["surface"]]
            for index, cat in zip(rec["catalog_indices"], rec["catalog_records"]):
                entry = dict(cat)
                if name == "tile-operations":
                    entry["classification"] = rec["classification"][0]
                    entry["engine"] = rec["engine"]
                if index in entries[name]:
                    self.err(f"{u['source']}: {name} index {index} is used twice")
                entries[name][index] = entry
        out = {}
        for name, by_index in entries.items():
            if sorted(by_index) != list(range(len(by_index))):
                self.err(f"{name}: catalog indices are not contiguous from 0")
            items = [by_index[i] for i in sorted(by_index)]
            doc = dict(envelopes.get(name, {}))
            if name == "tile-operations":
                doc["operation_count"] = len(items)
                doc["operations"] = items
            else:
                fields = [f for form in items for f in form["fields"]]
                doc.update({
                    "form_count": len(items),
                    "form_constraint_count": sum(len(f["constraints"]) for f in items),
                    "operand_field_count": len({f["name"] for f in fields}),
                    "operand_piece_count": sum(len(f["pieces"]) for f in fields),
                    "semantic_handler_count": len({f["semantic_handler"] for f in items}),
                    "forms": items})
                if name == "scalar-forms":
                    doc["family_constraint_count"] = len(doc.get("family_constraints", []))
                    doc["family_constraint_application_count"] = 0
            out[CATALOG_PATHS[name]] = doc
        return out

    def adr_index(self) -> dict:
        records, legacy, open_ids = [], {}, []
        for aid in sorted(self.adrs):
            if aid == "ADR-0000":
                continue
            a = self.adrs[aid]
            rec = dict(a["front"])
            rec["path"] = a["path"]
            records.append(rec)
            for lid in rec["legacy_ids"]:
                legacy[lid] = aid
            if rec["status"] == "draft":
                open_ids.append(aid)
        return {"schema": "pto.adr-index", "records": records, "legacy_map": dict(sorted(legacy.items())),
                "open": open_ids, "summary": {"record_count": len(records), "draft_count": len(open_ids),
                                              "legacy_id_count": len(legacy)}}

    def real_adrs(self):
        return [a["front"] for k, a in sorted(self.adrs.items()) if k != "ADR-0000"]

    def traceability(self, adr_index_sha: str) -> dict:
        reqs = self.requirement_ids()
        tests_by_source: dict[str, list[str]] = {}
        for tid, t in sorted(self.tests.items()):
            tests_by_source.setdefault(t["header"]["source"], []).append(tid)
        adrs = self.real_adrs()
        units = []
        for uid in sorted(self.units):
            u = self.units[uid]
            rec = u["record"]
            own = tests_by_source.get(u["source"], [])
            row = {"id": uid, "surface": u["surface"], "classification": rec["classification"],
                   "source": u["source"], "documentation": u["documentation"],
                   "mnemonic": rec.get("mnemonic") if u["kind"] == "instruction" else None,
                   "tests": own,
                   "semantic_tests": [t for t in own if u["kind"] == "instruction"
                                      and self.tests[t]["header"]["kind"] not in NON_SEMANTIC_KINDS],
                   "readiness_subjects": sorted(a["id"] for a in adrs if uid in a["affected_units"])}
            if u["kind"] == "instruction":
                row["instruction_contract"] = {
                    "artifact": u["source"], "mnemonic": rec["mnemonic"],
                    "ndf_clause": f"PTO-INST-{u['surface'].upper()}-{slug(rec['mnemonic'])}"}
            units.append(row)
        requirements = []
        for rid in sorted(reqs):
            r = reqs[rid]
            requirements.append({
                "id": rid, "executable": r["executable"], "owners": [r["owner"]],
                "tests": sorted(t for t, v in self.tests.items() if rid in v["header"]["requirements"]),
                "readiness_subjects": sorted(a["id"] for a in adrs if rid in a["affected_ndf"])})
        tests = []
        for tid in sorted(self.tests):
            t = self.tests[tid]
            h = t["header"]
            tests.append({"id": tid, "path": t["path"], "source": h["source"], "requirements": h["requirements"],
                          "kind": h["kind"], "sha256": self.sha(t["path"])})
        sources = {u["source"]: self.sha(u["source"]) for u in self.units.values()}
        sources.update({t["path"]: t["sha256"] for t in tests})
        sources[ADR_INDEX] = adr_index_sha
        instructions = [u for u in units if u["mnemonic"] is not None]
        no_semantic = sorted(u["mnemonic"] for u in instructions if not u["semantic_tests"])
        uncovered_units = sorted(u["id"] for u in units if not u["tests"])
        uncovered_exec = sorted(r["id"] for r in requirements if r["executable"] and not r["tests"])
        summary = {
            "unit_count": len(units), "documentation_page_count": len(units), "mnemonic_count": len(instructions),
            "requirement_count": len(requirements),
            "executable_requirement_count": sum(1 for r in requirements if r["executable"]),
            "test_count": len(tests),
            "uncovered_unit_count": len(uncovered_units), "uncovered_units": uncovered_units,
            "uncovered_executable_requirement_count": len(uncovered_exec),
            "uncovered_executable_requirements": uncovered_exec,
            "mnemonic_semantic_gap_count": len(no_semantic), "mnemonics_without_semantic_tests": no_semantic,
            "status": "closed" if not (uncovered_units or uncovered_exec or no_semantic) else "open"}
        if summary["status"] != "closed":
            self.err("traceability is not closed: " + json.dumps(summary))
        return {"schema": "pto.release-traceability.v2",
                "derivation": {"architecture_owner": "asl/{arch,block,scalar,tile}",
                               "adr_projection": ADR_INDEX,
                               "documentation_projection": "docs/{arch,block,scalar,tile}",
                               "instruction_contract_projection": "asl/{block,scalar,tile} PTO-INSTRUCTION contract",
                               "test_projection": "tests/asl/{arch,block,scalar,tile}"},
                "sources": dict(sorted(sources.items())), "units": units, "requirements": requirements,
                "tests": tests, "summary": summary}

    def manifest(self, catalogs: dict[str, dict]) -> dict:
        spec = tomllib.loads(self.raw("specification.toml").decode("utf-8"))
        release = spec["release"]
        inputs = sorted([u["source"] for u in self.units.values()] + ["specification.toml"] + list(CATALOG_PATHS.values())
                        + [ADR_INDEX, TRACEABILITY])
        canonical_inputs = [{"path": p, "sha256": self.sha(p)} for p in inputs]
        content_sha = canonical_sha256({i["path"]: i["sha256"] for i in canonical_inputs})
        reqs = self.requirement_ids()
        expanded = []
        for rid in sorted(reqs):
            r = reqs[rid]
            if r["ndf"] is not None:
                obj = {"id": rid, "status": r["status"], "source": r["owner"], "body": r["ndf"]["body"]}
            else:
                obj = {"id": rid, "status": "accepted", "source": r["owner"], "source_sha256": self.sha(r["owner"])}
            if r["status"] == "accepted":
                expanded.append({"id": rid, "sha256": canonical_sha256(obj)})
        adrs = self.real_adrs()
        tile_ops = catalogs[CATALOG_PATHS["tile-operations"]]["operations"]
        forms = catalogs[CATALOG_PATHS["command-forms"]]["forms"] + catalogs[CATALOG_PATHS["scalar-forms"]]["forms"]
        form_keys = ("form_id", "mnemonic", "asm", "length_bits", "encoding_kind", "encoding", "fields", "constraints")
        tile_projection = sorted(
            ({"family": op["family"], "name": op["name"], "command_mnemonic": op["command_mnemonic"],
              "mode": op.get("mode") if op["family"] == "TEPL" else None, "function": op["function"],
              "selector": int(op["selector"], 16) if op["family"] == "TEPL" else None} for op in tile_ops),
            key=lambda o: (o["family"], -1 if o["selector"] is None else o["selector"], o["name"]))
        encoding_projection = {
            "encoding_abi": release["encoding_abi"], "extension_encoding_reservations": [],
            "scalar_and_command_forms": sorted(({k: f[k] for k in form_keys} for f in forms), key=lambda f: f["form_id"]),
            "system_registers": [], "tile_operations": tile_projection}
        families: dict[str, int] = {}
        for f in catalogs[CATALOG_PATHS["command-forms"]]["forms"]:
            families[f["semantic_family"]] = families.get(f["semantic_family"], 0) + 1
        tile_families: dict[str, int] = {}
        statuses: dict[str, int] = {}
        for op in tile_ops:
            tile_families[op["family"]] = tile_families.get(op["family"], 0) + 1
            statuses[op["contract_status"]] = statuses.get(op["contract_status"], 0) + 1
        return {
            "schema_version": 1, "release": release["architecture_version"],
            "specification_status": release.get("release_status", spec["specification"]["status"]),
            "encoding_abi": release["encoding_abi"], "content_sha256": content_sha,
            "encoding_projection_sha256": canonical_sha256(encoding_projection),
            "hash_contract": {
                "algorithm": "SHA-256",
                "content_projection": "object mapping each canonical input path to its file SHA-256",
                "encoding_projection": "encoding ABI ID plus scalar/command forms, PTO extension-encoding "
                                       "reservations, tile selector/function assignments, and system-register locations",
                "json_encoding": "UTF-8 JSON with lexicographically sorted keys and separators ',' ':'"},
            "catalog_counts": {
                "command_form_families": dict(sorted(families.items())),
                "command_forms": len(catalogs[CATALOG_PATHS["command-forms"]]["forms"]),
                "contract_status_counts": dict(sorted(statuses.items())), "extension_encoding_reservations": 0,
                "pending_base_operations": 0, "scalar_forms": len(catalogs[CATALOG_PATHS["scalar-forms"]]["forms"]),
                "tile_operations": dict(sorted(tile_families.items())), "tile_operations_total": len(tile_ops)},
            "canonical_inputs": canonical_inputs,
            "release_selection": {
                "architecture_version": release["architecture_version"], "blockers": [],
                "excluded_draft_adrs": sorted(a["id"] for a in adrs if a["status"] == "draft"),
                "expanded_ndf": expanded, "included_ndf_statuses": ["accepted"],
                "required_readiness_floor": "executable",
                "selected_adr_ids": sorted(a["id"] for a in adrs if a["status"] == "accepted")}}

    # -- translations --------------------------------------------------------------------
    def translation_requirements(self) -> dict[str, dict[str, str]]:
        """subject id -> {pointer: English text} that a zh-CN translation must cover."""
        need: dict[str, dict[str, str]] = {}
        for uid, u in self.units.items():
            rec = u["record"]
            want: dict[str, str] = {}
            if u["kind"] == "instruction":
                want["/summary"] = rec["summary"]
                c = rec["contract"]
                for key in TRANSLATED_CONTRACT_ARRAYS:
                    for i, text in enumerate(c[key]):
                        want[f"/contract/{key}/{i}"] = text
                for i, op in enumerate(c["operands"]):
                    want[f"/contract/operands/{i}/role"] = op["role"]
                for field, text in c["field_zero_meanings"].items():
                    want["/contract/field_zero_meanings/" + field.replace("~", "~0").replace("/", "~1")] = text
            for i, dom in enumerate(rec.get("field_domains", [])):
                for key in ("role", "zero_meaning", "rejection"):
                    want[f"/field_domains/{i}/{key}"] = dom[key]
            need[uid] = want
        for aid, a in self.adrs.items():
            if aid != "ADR-0000":  # the template is excluded, as from adr-index.json
                need[aid] = {"/title": a["front"]["title"], "/body": a["body"]}
        return need

    def check_translations(self, locale: str = "zh-CN") -> list[str]:
        problems = []
        need = self.translation_requirements()
        tdir = self.root / "translations" / locale
        seen = set()
        for path in sorted(tdir.glob("*.json")):
            doc = json.loads(path.read_text(encoding="utf-8"))
            subject = doc.get("subject")
            seen.add(subject)
            if path.stem != subject or doc.get("schema") != "pto-docs.translation.v1" or doc.get("locale") != locale:
                problems.append(f"{self.rel(path)}: bad header (schema, locale or subject)")
            if subject not in need:
                problems.append(f"{self.rel(path)}: subject {subject} is not a unit or ADR")
                continue
            pointers = [s["pointer"] for s in doc["strings"]]
            if pointers != sorted(pointers):
                problems.append(f"{self.rel(path)}: strings are not sorted by pointer")
            have = {s["pointer"]: s for s in doc["strings"]}
            for pointer, english in need[subject].items():
                s = have.get(pointer)
                if s is None:
                    problems.append(f"{subject}: missing {pointer}")
                elif s["en_sha256"] != sha256_bytes(english.encode("utf-8")):
                    problems.append(f"{subject}: stale {pointer} (English changed since translation)")
                elif not s.get("text"):
                    problems.append(f"{subject}: empty text for {pointer}")
            for pointer in have:
                if pointer not in need[subject]:
                    problems.append(f"{subject}: extra pointer {pointer}")
        for subject in sorted(set(need) - seen):
            problems.append(f"{subject}: no translation file")
        return problems


def build(root: Path) -> tuple[Tree, dict[str, bytes]]:
    """Compute every output; later outputs hash the bytes of earlier ones, as they will be on disk."""
    tree = Tree(root)
    outputs: dict[str, bytes] = {}
    catalogs = tree.catalogs()
    for path, doc in catalogs.items():
        outputs[path] = dump(doc)
    outputs[ADR_INDEX] = dump(tree.adr_index())
    outputs[TRACEABILITY] = dump(tree.traceability(sha256_bytes(outputs[ADR_INDEX])))
    return tree, outputs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT, help="spec tree (default: catalog/)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="verify outputs are current; write nothing")
    mode.add_argument("--check-translations", action="store_true", help="list missing or stale zh-CN strings")
    args = parser.parse_args(argv)
    root = args.root.resolve()

    if args.check_translations:
        tree = Tree(root)
        problems = tree.check_translations()
        for p in problems:
            print(p)
        print(f"{len(problems)} translation problem(s)")
        return 1 if problems else 0

    tree, outputs = build(root)
    stale = []
    for rel, data in outputs.items():
        target = root / rel
        if args.check:
            if not target.is_file() or target.read_bytes() != data:
                stale.append(rel)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    # The manifest hashes the catalogs and evidence, so it is computed from the files now on disk.
    if not args.check or not stale:
        manifest = dump(tree.manifest(tree.catalogs()))
        if args.check:
            if not (root / MANIFEST).is_file() or (root / MANIFEST).read_bytes() != manifest:
                stale.append(MANIFEST)
        else:
            (root / MANIFEST).write_bytes(manifest)
    for e in tree.errors:
        print("error:", e, file=sys.stderr)
    for s in stale:
        print("stale:", s, file=sys.stderr)
    if not tree.errors and not stale:
        print(f"ok: {len(tree.units)} units, {len(tree.ndf)} NDF clauses, {len(tree.tests)} tests, "
              f"{len(tree.adrs)} ADR files" + ("" if args.check else "; evidence rewritten"))
    return 1 if (tree.errors or stale) else 0


if __name__ == "__main__":
    sys.exit(main())
