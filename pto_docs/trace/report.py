"""build_report: the traceability report (``pto-docs.traceability.v1``) of one loaded spec tree.

Everything comes from the already-loaded Catalog; each file is hashed once (``tree.sha256`` caches).
The report holds no timestamp and no machine path: a date appears only when SOURCE_DATE_EPOCH is set.
"""

from __future__ import annotations

import datetime as _dt
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from .. import __version__
from ..i18n.messages import say
from ..model.catalog import Catalog
from ..model.frozen import canonical_json, canonical_sha256, thaw
from ..model.translate_keys import subject_record
from . import hashing as H
from .coverage import coverage
from .gate import Finding, Policy, apply_policy, finding
from .links import (
    check_links,
    current_links,
    english_fingerprint,
    fingerprints,
    lock_document,
    translation_id,
)
from .lock import LOCK_NAME, LockError, ReviewLock, read_lock

REPORT_SCHEMA = "pto-docs.traceability.v1"
AUTO = "auto"
SUMMARY_KEYS = ("unit_count", "documentation_page_count", "mnemonic_count", "requirement_count",
                "executable_requirement_count", "test_count", "uncovered_unit_count",
                "uncovered_executable_requirement_count", "mnemonic_semantic_gap_count")


def source_date(environ: Mapping[str, str]) -> str | None:
    """The UTC date of SOURCE_DATE_EPOCH, None when unset. Raises ValueError when it is not an integer."""
    value = environ.get("SOURCE_DATE_EPOCH")
    if value is None or value == "":
        return None
    if not value.strip().isdigit():
        raise ValueError(f"SOURCE_DATE_EPOCH must be a non-negative integer, not {value!r}")
    return _dt.datetime.fromtimestamp(int(value), tz=_dt.UTC).date().isoformat()


def report_bytes(report: Mapping[str, Any]) -> bytes:
    """The canonical serialisation: sorted keys, separators ',' ':', UTF-8, one final newline."""
    return (canonical_json(report) + "\n").encode("utf-8")


def build_report(catalog: Catalog, tree, examples: Iterable = (), *, lock: ReviewLock | None | str = AUTO,
                 check: bool = False, policy: Policy | None = None, date: str | None = None,
                 diagnostics: Iterable = (), extra_findings: Iterable[tuple[str, str, str, str]] = (),
                 checked: Iterable[str] = (),
                 avs: Mapping[str, Any] | None = None,
                 avs_examples: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The whole report as plain JSON data. ``lock="auto"`` reads ``pto-docs.review-lock.json`` of the root.
    ``avs``: a ``pto-docs.avs.v1`` document (``pto-docs avs --json``) whose results join the test rows;
    ``avs_examples``: its worked examples when it was recorded with ``--examples``
    (``bridge.avs_examples.report_examples``)."""
    policy = policy or Policy()
    examples = tuple(examples)
    lock_error = None
    if lock == AUTO:
        try:
            lock = read_lock(catalog.root)
        except LockError as exc:
            lock, lock_error = None, str(exc)
        except OSError as exc:
            lock, lock_error = None, f"cannot read: {exc.strerror or exc}"
    builder = _Builder(catalog, tree, examples, lock)
    report = builder.build()
    raw = builder.raw_findings
    raw.extend(extra_findings)
    if avs is not None:
        raw.extend(_join_avs(report, catalog, avs, lock if isinstance(lock, ReviewLock) else None, avs_examples))
    if lock_error:
        raw.append(("lock-invalid", LOCK_NAME, LOCK_NAME, lock_error))
    elif check and lock is None:
        raw.append(("lock-missing", LOCK_NAME, LOCK_NAME, say("lock_missing")))
    for d in diagnostics:
        raw.append(("load-error" if d.is_error else "load-warning", d.code, d.path,
                    d.message + (f" (at {d.pointer})" if d.pointer else ""), d.line, d.col))
    findings = apply_policy(raw, policy)
    report["findings"] = [f.as_finding_json() for f in findings]
    report["policy"] = policy.effective(also=checked)
    report["options"] = {"check": bool(check), "lock": LOCK_NAME if lock is not None else None,
                         "lock_sha256": lock.sha256 if lock is not None else None}
    errors = sum(1 for f in findings if f.severity == "error")
    report["summary"]["findings"] = {"error": errors, "warning": len(findings) - errors}
    report["summary"]["verdict"] = "fail" if errors else "pass"
    consulted = builder.consulted
    if lock is not None and lock.sha256:
        consulted[LOCK_NAME] = lock.sha256
    if avs is not None:
        consulted["(pto-docs avs results)"] = canonical_sha256(avs)
    report["release"]["inputs_sha256"] = canonical_sha256(dict(sorted(consulted.items())))
    if date:
        report["release"]["date"] = date
    return report


def _join_avs(report: dict[str, Any], catalog: Catalog, avs: Mapping[str, Any], lock: ReviewLock | None = None,
              avs_examples: Mapping[str, Any] | None = None) -> list[tuple[str, str, str, str]]:
    """Each loaded test row gains its AVS status; the report gains the counts; the findings of every point that
    did not pass on the current tree are returned. Results recorded with ``--examples`` add the worked examples
    of every instruction (avs_examples.py), their coverage and their findings."""
    from .avs_status import avs_findings, avs_statuses, avs_summary
    statuses = avs_statuses(catalog, avs)
    for row in report["tests"]:
        status = statuses.get(row.get("id") or "") if row.get("loaded") else None
        if status is not None:
            row["avs"] = {"status": status.status, "message": status.message}
    report["avs"] = {"profile": avs.get("profile", ""), "counts": avs_summary(statuses)}
    raw = avs_findings(catalog, statuses)
    if any("steps" in r for r in avs.get("tests", ())):
        from .avs_example_report import example_section
        section, found = example_section(catalog, _recorded_examples(avs_examples), lock)
        report["avs"]["examples"] = section
        raw.extend(found)
    return raw


def findings_of(report: Mapping[str, Any]) -> list[Finding]:
    return [finding(f["path"], f["code"], f["id"], f["message"], f["severity"], f.get("line", 0), f.get("col", 0))
            for f in report["findings"]]


def stamp_document(catalog: Catalog, examples: Iterable = (), avs: Mapping[str, Any] | None = None,
                   avs_examples: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The review lock that records the current state of every link (and, given AVS results recorded with
    ``--examples`` and their worked examples ``avs_examples``, the digests of every instruction's worked
    examples)."""
    fp = fingerprints(catalog)
    doc = lock_document(catalog, fp, current_links(catalog, fp, tuple(examples)))
    if avs is not None and any("steps" in r for r in avs.get("tests", ())):
        from .avs_example_report import example_pins
        doc["items"]["avs_examples"] = example_pins(_recorded_examples(avs_examples))
    return doc


def _recorded_examples(avs_examples: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if avs_examples is None:
        raise ValueError("AVS results recorded with --examples need their worked examples (avs_examples): "
                         "bridge.avs_examples.report_examples")
    return avs_examples


def _short(sha: str | None) -> str:
    return (sha[:12] + "…") if sha else "none"


class _Builder:
    def __init__(self, catalog: Catalog, tree, examples: tuple, lock: ReviewLock | None) -> None:
        self.cat = catalog
        self.tree = tree
        self.examples = examples
        self.lock = lock
        self.records = H.core_records(catalog)
        self.raw_findings: list[tuple[str, str, str, str]] = []
        self.consulted: dict[str, str] = {p: f.sha256 for p, f in catalog.files.items()}
        if lock is not None:
            for group in ("units", "tests", "adrs"):
                for entry in lock.items.get(group, {}).values():
                    self.records.add(entry.get("path"), H.REVIEW_LOCK, entry.get("sha256"))
        trace = catalog.json(H.TRACEABILITY)
        trace = trace if isinstance(trace, Mapping) else {}
        self.trace_units = {u["source"]: u for u in H._items(trace.get("units")) if isinstance(u.get("source"), str)}
        self.trace_tests = {t["path"]: t for t in H._items(trace.get("tests")) if isinstance(t.get("path"), str)}
        self.recorded_summary = thaw(trace["summary"]) if isinstance(trace.get("summary"), Mapping) else None

    # -- helpers ------------------------------------------------------------------------------------
    def sha(self, path: str) -> str | None:
        now = H.safe_sha256(self.tree, path)
        if now is not None:
            self.consulted[path] = now
        return now

    def entry(self, path: str, **extra: Any) -> dict[str, Any]:
        e = H.file_entry(path, self.sha(path), self.records.get(path))
        e.update(extra)
        return e

    def recorded_paths(self, kind: str) -> set[str]:
        if not hasattr(self, "_by_kind"):
            self._by_kind: dict[str, set[str]] = defaultdict(set)
            for path in self.records.by_path:
                self._by_kind[H.kind_of_path(path)].add(path)
        return self._by_kind.get(kind, set())

    def hash_findings(self, kind: str, entries: list[dict[str, Any]], id_key: str = "id") -> None:
        recorded_kind = any(e["recorded_in"] for e in entries)
        for e in entries:
            status = e["status"]
            if status == H.MATCH or (status == H.UNRECORDED and not recorded_kind):
                continue
            ident = e.get(id_key) or e["path"]
            self.raw_findings.append((f"{kind}-{status}", ident, e["path"], self._hash_message(e)))

    @staticmethod
    def _hash_message(e: Mapping[str, Any]) -> str:
        status = e["status"]
        where = ", ".join(e["recorded_in"])
        if status == H.STALE:
            if "conflicts" in e:
                parts = ", ".join(f"{k} {_short(v)}" for k, v in e["conflicts"].items())
                return say("hash_conflict", now=_short(e['sha256']), parts=parts)
            return say("hash_stale", now=_short(e['sha256']), where=where, recorded=_short(e['recorded_sha256']))
        if status == H.RECORDED_ONLY:
            return say("hash_recorded_only", where=where, recorded=_short(e['recorded_sha256']))
        if status == H.MISSING:
            return say("hash_missing")
        return say("hash_unrecorded")

    # -- sections ----------------------------------------------------------------------------------
    def build(self) -> dict[str, Any]:
        cat = self.cat
        self.fp = fingerprints(cat)
        self.links = current_links(cat, self.fp, self.examples)
        units = self.units()
        docs = self.documentation()
        tests = self.tests()
        adrs = self.adrs()
        evidence = self.evidence()
        files = self.files()
        requirements = self.requirements()
        translations = self.translations()
        examples = self.worked_examples()
        aggregates = H.aggregate_checks(cat, self.tree, self.records)
        for a in aggregates:
            if a["status"] != H.MATCH:
                self.raw_findings.append(("aggregate-stale", a["id"], a["path"],
                                          say("aggregate_stale", basis=a['basis'], now=_short(a['sha256']),
                                              recorded=_short(a['recorded_sha256']))))
        cov = coverage(cat)
        self.coverage_findings(cov)
        links = self.link_section()
        summary = self.summary(units, docs, tests, adrs, evidence, files, requirements, translations, examples, cov, links)
        release = cat.release
        return {
            "schema": REPORT_SCHEMA,
            "generator": {"name": "pto-docs", "version": __version__},
            "release": {"version": release.version, "status": release.status, "encoding_abi": release.encoding_abi,
                        "commit": release.commit, "dirty": release.dirty, "tag": release.tag},
            "summary": summary,
            "units": units, "documentation": docs, "tests": tests, "adrs": adrs, "evidence": evidence,
            "files": files, "requirements": requirements, "translations": translations, "examples": examples,
            "aggregates": aggregates, "coverage": cov, "links": links,
        }

    def units(self) -> list[dict[str, Any]]:
        cat = self.cat
        lock_ids = {e.get("path"): uid for uid, e in (self.lock.items.get("units", {}) if self.lock else {}).items()}
        out = []
        for path in sorted(set(cat.unit_by_path) | self.recorded_paths("unit")):
            uid = cat.unit_by_path.get(path)
            unit = cat.units.get(uid) if uid else None
            if unit is None:
                uid = _str((self.trace_units.get(path) or {}).get("id")) or lock_ids.get(path)
            out.append(self.entry(path, id=uid, loaded=unit is not None,
                                  kind=unit.kind if unit else None, surface=unit.surface if unit else None,
                                  mnemonic=unit.mnemonic if unit else None,
                                  tests=list(cat.tests_by_unit.get(uid, ())) if uid else []))
        self.hash_findings("unit", out)
        return out

    def documentation(self) -> list[dict[str, Any]]:
        cat = self.cat
        owner: dict[str, str | None] = {}
        for path, uid in cat.unit_by_path.items():
            doc = H.documentation_path(path)
            if doc:
                owner[doc] = uid
        for unit in self.trace_units.values():
            if isinstance(unit.get("documentation"), str):
                owner.setdefault(unit["documentation"], _str(unit.get("id")))
        for path in self.recorded_paths("documentation"):
            owner.setdefault(path, None)
        out = [self.entry(path, unit=owner[path]) for path in sorted(owner)]
        present = any(e["sha256"] for e in out)
        kept = []
        for e in out:
            if e["status"] == H.MISSING and not present:
                continue  # the tree keeps no generated pages at all: pto-docs renders them itself
            kept.append(e)
        self.hash_findings("documentation", kept, "unit")
        return kept

    def tests(self) -> list[dict[str, Any]]:
        cat = self.cat
        by_path = {t.path: t for t in cat.tests.values()}
        lock_ids = {e.get("path"): tid for tid, e in (self.lock.items.get("tests", {}) if self.lock else {}).items()}
        out = []
        for path in sorted(set(by_path) | self.recorded_paths("test")):
            test = by_path.get(path)
            if test is not None:
                out.append(self.entry(path, id=test.id, loaded=True, unit=cat.unit_by_path.get(test.source),
                                      source=test.source, kind=test.kind, requirements=list(test.requirements)))
            else:
                rec = self.trace_tests.get(path) or {}
                out.append(self.entry(path, id=_str(rec.get("id")) or lock_ids.get(path), loaded=False, unit=None,
                                      source=_str(rec.get("source")), kind=_str(rec.get("kind")),
                                      requirements=_strings(rec.get("requirements"))))
        self.hash_findings("test", out)
        return out

    def adrs(self) -> list[dict[str, Any]]:
        cat = self.cat
        by_path = {a.path: a for a in cat.adrs.values()}
        out = []
        for path in sorted(set(by_path) | self.recorded_paths("adr")):
            adr = by_path.get(path)
            front = adr.front if adr else {}
            out.append(self.entry(path, id=adr.id if adr else path.rsplit("/", 1)[-1][:4], loaded=adr is not None,
                                  title=adr.title if adr else None, adr_status=adr.status if adr else None,
                                  affected_ndf=sorted(set(_strings(front.get("affected_ndf")))),
                                  affected_units=sorted(set(_strings(front.get("affected_units"))))))
        self.hash_findings("adr", out)
        return out

    def evidence(self) -> list[dict[str, Any]]:
        cat = self.cat
        paths = {p for p in cat.files if H.kind_of_path(p) == "evidence"} | self.recorded_paths("evidence")
        required: set[str] = set()
        inputs = cat.json(H.RELEASE_INPUTS)
        if isinstance(inputs, Mapping):
            for item in H._items(inputs.get("evidence")):
                if isinstance(item.get("path"), str) and H.kind_of_path(item["path"]) == "evidence":
                    required.add(item["path"])
        core_present = [p for p in H.CORE_RECORDERS if p in cat.files]
        expected = set(self.lock.recorders) if self.lock is not None else set()
        if core_present:
            expected |= {H.TRACEABILITY, H.MANIFEST}  # the two always travel together
        required |= expected
        paths |= required
        out = []
        for path in sorted(paths):
            entry = cat.json_files.get(path)
            data = entry.data if entry else None
            header = None
            if isinstance(data, Mapping):
                header = data.get("schema") if isinstance(data.get("schema"), str) else None
            e = self.entry(path, schema=header, parsed=entry is not None)
            if path not in H.CORE_RECORDERS and entry is not None:
                e["inputs"] = H.evidence_inputs(path, data, entry.file.text, self.tree)
                for pair in e["inputs"]["stale_pairs"]:
                    self.raw_findings.append(("evidence-input-stale", pair["path"], path,
                                              say("input_stale", pointer=pair['pointer'],
                                                  recorded=_short(pair['recorded_sha256']), now=_short(pair['sha256']))))
            if e["status"] == H.MISSING and path not in required:
                continue
            out.append(e)
        recorded_kind = any(e["recorded_in"] for e in out)
        for e in out:
            if e["path"] in expected and e["sha256"] is None:
                self.raw_findings.append(("recorder-missing", e["path"], e["path"],
                                          say("recorder_missing")))
                continue
            if e["status"] != H.MATCH and not (e["status"] == H.UNRECORDED and not recorded_kind):
                self.raw_findings.append((f"evidence-{e['status']}", e["path"], e["path"], self._hash_message(e)))
        return out

    def files(self) -> list[dict[str, Any]]:
        out = [self.entry(path) for path in sorted(self.recorded_paths("file"))]
        self.hash_findings("file", out, "path")
        return out

    def requirements(self) -> list[dict[str, Any]]:
        cat = self.cat
        recorded = H.recorded_requirement_digests(cat)
        locked = self.lock.items.get("requirements", {}) if self.lock else {}
        out = []
        for rid in sorted(set(cat.requirements) | set(recorded) | set(locked)):
            req = cat.requirements.get(rid)
            rec: dict[str, str] = {}
            if rid in recorded:
                rec["manifest.release_selection.expanded_ndf"] = recorded[rid]
            if rid in locked and H.is_sha(locked[rid].get("sha256")):
                rec[H.REVIEW_LOCK] = locked[rid]["sha256"]
            now = self.fp.requirements.get(rid) if req else None
            path = req.owner_path if req else (locked.get(rid, {}).get("path") or "")
            e = H.file_entry(path, now, rec)
            e.update(id=rid, origin=req.origin if req else None, ndf_kind=req.ndf.kind if req and req.ndf else None,
                     executable=req.executable if req else None, requirement_status=req.status if req else None,
                     owner=req.owner if req else None, tests=list(cat.tests_by_requirement.get(rid, ())),
                     adrs=list(cat.adrs_by_ndf.get(rid, ())))
            out.append(e)
        recorded_kind = any(e["recorded_in"] for e in out)
        for e in out:
            status = e["status"]
            if status == H.MATCH or (status == H.UNRECORDED and not recorded_kind):
                continue
            message = {H.STALE: say("requirement_stale", now=_short(e['sha256']), where=", ".join(e['recorded_in']),
                                    recorded=_short(e['recorded_sha256'])),
                       H.RECORDED_ONLY: say("requirement_recorded_only"),
                       H.UNRECORDED: say("requirement_unrecorded")}.get(status, status)
            self.raw_findings.append((f"requirement-{status}", e["id"], e["path"], message))
        return out

    def translations(self) -> list[dict[str, Any]]:
        cat = self.cat
        out = []
        for (locale, subject), tr in sorted(cat.translations.items()):
            pointers = sorted(tr.strings)
            english, hashes = english_fingerprint(cat, subject, pointers)
            recorded = canonical_sha256({p: tr.strings[p].en_sha256 for p in pointers})
            stale = [p for p in pointers if hashes.get(p) is not None and hashes[p] != tr.strings[p].en_sha256]
            unresolved = [p for p in pointers if hashes.get(p) is None]
            status = H.MISSING if subject_record(cat, subject) is None else H.status_of(english, [recorded])
            tid = translation_id(locale, subject)
            out.append({"id": tid, "locale": locale, "subject": subject, "path": tr.path,
                        "file_sha256": self.sha(tr.path), "sha256": english, "recorded_sha256": recorded,
                        "recorded_in": [tr.path], "status": status, "strings": len(pointers),
                        "stale_pointers": stale, "unresolved_pointers": unresolved})
            if status == H.MISSING:
                self.raw_findings.append(("translation-orphaned", tid, tr.path, say("translation_orphaned", subject=subject)))
            elif status == H.STALE:
                detail = ", ".join((stale + unresolved)[:5]) + (" …" if len(stale) + len(unresolved) > 5 else "")
                self.raw_findings.append(("translation-stale", tid, tr.path,
                                          f"{len(stale)} of {len(pointers)} strings stale against their English"
                                          + (f", {len(unresolved)} no longer resolve" if unresolved else "")
                                          + f": {detail}"))
        return out

    def worked_examples(self) -> list[dict[str, Any]]:
        pins = {}
        if self.lock is not None:
            for lid, stamp in self.lock.links.items():
                if lid.startswith("example-instruction "):
                    key = lid[len("example-instruction "):].split(" -> ", 1)[0]
                    pins[key] = (stamp.get("digest"), lid.split(" -> ", 1)[-1])
        out = []
        seen = set()
        for ex in sorted(self.examples, key=lambda e: e.key):
            seen.add(ex.key)
            from .links import id_end
            pin = pins.get(id_end(ex.key), (None, None))[0]
            status = H.status_of(ex.digest, [pin] if H.is_sha(pin) else [])
            path = ex.source_path or (self.cat.units[ex.unit_id].path if ex.unit_id in self.cat.units else "")
            out.append({"key": ex.key, "instruction": ex.instruction, "unit": ex.unit_id, "origin": ex.origin,
                        "path": path, "sha256": ex.digest, "recorded_sha256": pin if H.is_sha(pin) else None,
                        "recorded_in": [LOCK_NAME] if H.is_sha(pin) else [], "status": status, "problem": ex.problem})
            if ex.problem or ex.digest is None:
                self.raw_findings.append(("example-failed", ex.key, path, ex.problem or say("example_no_digest")))
            elif status == H.STALE:
                self.raw_findings.append(("example-digest-mismatch", ex.key, path,
                                          say("example_mismatch", now=_short(ex.digest), pinned=_short(pin))))
            elif status == H.UNRECORDED and self.lock is not None:
                self.raw_findings.append(("example-unpinned", ex.key, path, say("example_unpinned")))
        for key, (pin, unit) in sorted(pins.items()):
            if key not in seen:
                out.append({"key": key, "instruction": key.split("/", 1)[0], "unit": unit, "origin": None, "path": "",
                            "sha256": None, "recorded_sha256": pin if H.is_sha(pin) else None,
                            "recorded_in": [LOCK_NAME], "status": H.RECORDED_ONLY, "problem": None})
        return out

    def coverage_findings(self, cov: Mapping[str, Any]) -> None:
        cat = self.cat
        raw = self.raw_findings
        for uid in cov["untested_units"]:
            raw.append(("unit-untested", uid, cat.units[uid].path, say("unit_untested")))
        for rid in cov["uncovered_executable_requirements"]:
            raw.append(("requirement-uncovered", rid, cat.requirements[rid].owner_path, say("requirement_uncovered")))
        for e in cov["unknown_requirement_references"]:
            raw.append(("test-unknown-requirement", e["test"], e["path"], say("unknown_requirement", requirement=e['requirement'])))
        for e in cov["unowned_requirements"]:
            raw.append(("requirement-unowned", e["requirement"], e["path"], say("requirement_unowned", owner=e['owner'] or '(none)')))
        for e in cov["adr_unknown_links"]:
            raw.append(("adr-unknown-link", e["adr"], e["path"], say("adr_unknown_link", field=e['field'], target=e['target'])))
        for e in cov["inactive_adrs_cited"]:
            raw.append(("adr-cited-inactive", e["adr"], e["path"],
                        say("adr_cited_inactive", status=e['adr_status'], cited_by=e['cited_by'], where=e['where'])))

    def link_section(self) -> dict[str, Any] | None:
        if self.lock is None:
            return {"stamped": False, "count": len(self.links), "counts": None, "problems": [], "coverage_suspect": [],
                    "by_kind": dict(sorted(Counter(link.kind for link in self.links.values()).items()))}
        result = check_links(self.cat, self.fp, self.links, self.lock)
        for p in result.problems:
            code = {"suspect": "link-suspect", "unstamped": "link-unstamped", "removed": "link-removed"}[p["status"]]
            self.raw_findings.append((code, p["id"], p["path"], "; ".join(p["reasons"])))
        for c in result.coverage_suspect:
            self.raw_findings.append(("coverage-suspect", c["requirement"], c["path"], c["reason"]))
        return {"stamped": True, "count": len(self.links), "counts": result.counts, "problems": result.problems,
                "coverage_suspect": result.coverage_suspect, "changed": result.changed,
                "by_kind": dict(sorted(Counter(link.kind for link in self.links.values()).items()))}

    def summary(self, units, docs, tests, adrs, evidence, files, requirements, translations, examples, cov, links):
        cat = self.cat
        now = {
            "unit_count": len(cat.units),
            # pages kept in docs/ when the tree keeps them; otherwise the one page per unit that pto-docs renders
            "documentation_page_count": (sum(1 for d in docs if d["sha256"] and d["unit"] in cat.units)
                                         if docs else len(cat.units)),
            "mnemonic_count": len({(u.surface, u.mnemonic) for u in cat.units.values() if u.is_instruction and u.mnemonic}),
            "requirement_count": len(cat.requirements),
            "executable_requirement_count": sum(1 for r in cat.requirements.values() if r.executable),
            "test_count": len(cat.tests),
            "uncovered_unit_count": len(cov["untested_units"]),
            "uncovered_executable_requirement_count": len(cov["uncovered_executable_requirements"]),
            "mnemonic_semantic_gap_count": len(cov["mnemonics_without_semantic_tests"]),
        }
        recorded = self.recorded_summary
        disagreements = {}
        if recorded is not None:
            for key in SUMMARY_KEYS:
                if key in recorded and isinstance(recorded[key], int) and recorded[key] != now[key]:
                    disagreements[key] = {"now": now[key], "recorded": recorded[key]}
                    self.raw_findings.append(("summary-mismatch", key, H.TRACEABILITY,
                                              say("summary_mismatch", key=key, now=now[key], recorded=recorded[key])))
        hashes = {}
        for kind, entries in (("units", units), ("documentation", docs), ("tests", tests), ("adrs", adrs),
                              ("evidence", evidence), ("files", files), ("requirements", requirements),
                              ("translations", translations), ("examples", examples)):
            counts = Counter(e["status"] for e in entries)
            hashes[kind] = {s: counts.get(s, 0) for s in H.STATUSES}
        recorders: dict[str, dict[str, int]] = defaultdict(lambda: {H.MATCH: 0, H.STALE: 0, H.RECORDED_ONLY: 0})
        for path, recs in self.records.by_path.items():
            actual = H.safe_sha256(self.tree, path)
            for recorder, sha in recs.items():
                recorders[recorder.split("#")[0]][H.status_of(actual, [sha])] += 1
        for e in requirements:
            if "manifest.release_selection.expanded_ndf" in e["recorded_in"]:
                rec = e["conflicts"]["manifest.release_selection.expanded_ndf"] if "conflicts" in e else e["recorded_sha256"]
                recorders["manifest.release_selection.expanded_ndf"][H.status_of(e["sha256"], [rec])] += 1
        return {
            **now,
            "uncovered_units": cov["untested_units"],
            "uncovered_executable_requirements": cov["uncovered_executable_requirements"],
            "mnemonics_without_semantic_tests": cov["mnemonics_without_semantic_tests"],
            "adr_count": len(cat.adrs),
            "evidence_file_count": sum(1 for e in evidence if e["sha256"]),
            "translation_count": len(cat.translations),
            "worked_example_count": len(self.examples),
            "recorded": {k: recorded[k] for k in sorted(recorded)} if recorded is not None else None,
            "agrees_with_recorded": (not disagreements) if recorded is not None else None,
            "disagreements": disagreements,
            "hashes": hashes,
            "recorders": {k: recorders[k] for k in sorted(recorders)},
            "links": (links or {}).get("counts"),
        }


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, tuple | list) else []
