"""The link model, stamping and suspect-link checking with propagation (both directions).

Every link stores the hash of *both* ends at review time (Doorstop stores only the parent's):

* ``requirement-unit``     requirement -> owning unit
* ``test-unit``            test -> owning unit (its ``source``)
* ``test-requirement``     test -> each requirement it names
* ``adr-requirement``      ADR -> each NDF clause / PTO-INST requirement in ``affected_ndf``
* ``adr-unit``             ADR -> each unit in ``affected_units``
* ``translation-english``  translation -> the English strings it translates
* ``example-instruction``  worked example -> instruction unit; also pins the result digest

Fingerprints: units, tests, ADRs and translation files by their raw-byte sha256; requirements by their
``expanded_ndf`` digest; the English side of a translation by the canonical sha256 of
{pointer: sha256(English text)}; an example by the canonical sha256 of its case.

Propagation: a changed unit makes suspect every link of its tests, examples and translations; a changed
(or deleted) test makes the coverage of each requirement it names suspect.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..i18n.messages import say
from ..model.catalog import Catalog
from ..model.frozen import canonical_sha256, sha256_text, thaw
from ..model.translate_keys import resolve_pointer, subject_record
from .hashing import CORE_RECORDERS, requirement_digest
from .lock import LOCK_SCHEMA, ReviewLock

CLEAN, SUSPECT, UNSTAMPED, REMOVED = "clean", "suspect", "unstamped", "removed"
LINK_KINDS = ("adr-requirement", "adr-unit", "example-instruction", "requirement-unit", "test-requirement",
              "test-unit", "translation-english")


@dataclass(frozen=True)
class Link:
    kind: str
    source: str
    target: str
    source_sha: str | None
    target_sha: str | None
    path: str  # file of the source end
    unit: str | None = None  # unit whose change propagates to this link
    digest: str | None = None  # example links: the result digest

    @property
    def id(self) -> str:
        return f"{self.kind} {id_end(self.source)} -> {id_end(self.target)}"


def id_end(text: str) -> str:
    """One end of a link id with '%', whitespace and control characters percent-encoded, so that any file name
    gives an id of the lock's ``KIND END -> END`` shape (ordinary ids are unchanged)."""
    if text and text.isprintable() and " " not in text and "%" not in text:
        return text  # (the one printable whitespace character is the space: checked over all of Unicode)
    return "".join(ch if ch.isprintable() and not ch.isspace() and ch != "%"
                   else "".join(f"%{b:02X}" for b in ch.encode("utf-8")) for ch in text) or "%00"


@dataclass
class Fingerprints:
    units: dict[str, str | None] = field(default_factory=dict)
    requirements: dict[str, str | None] = field(default_factory=dict)
    tests: dict[str, str] = field(default_factory=dict)
    adrs: dict[str, str] = field(default_factory=dict)
    translations: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (file sha, English sha)


def english_fingerprint(catalog: Catalog, subject: str, pointers) -> tuple[str | None, dict[str, str | None]]:
    """(canonical sha of {pointer: sha256(English)}, the per-pointer hashes); None when the subject is gone."""
    record = subject_record(catalog, subject)
    if record is None:
        return None, {}
    hashes: dict[str, str | None] = {}
    for pointer in pointers:
        english = resolve_pointer(record, pointer)
        hashes[pointer] = sha256_text(english) if isinstance(english, str) else None
    return canonical_sha256(hashes), hashes


def translation_id(locale: str, subject: str) -> str:
    return f"{locale}/{subject}"


def fingerprints(catalog: Catalog) -> Fingerprints:
    fp = Fingerprints()
    for uid, unit in catalog.units.items():
        fp.units[uid] = unit.file.sha256
    for rid, req in catalog.requirements.items():
        fp.requirements[rid] = requirement_digest(req, fp.units.get(req.owner))
    for tid, test in catalog.tests.items():
        fp.tests[tid] = test.file.sha256
    for aid, adr in catalog.adrs.items():
        fp.adrs[aid] = adr.file.sha256
    for (locale, subject), tr in catalog.translations.items():
        english, _ = english_fingerprint(catalog, subject, sorted(tr.strings))
        fp.translations[translation_id(locale, subject)] = (tr.file.sha256, english)
    return fp


def example_case_sha(example) -> str:
    return canonical_sha256(thaw(example.case))


def current_links(catalog: Catalog, fp: Fingerprints, examples) -> dict[str, Link]:
    links: list[Link] = []
    for rid, req in catalog.requirements.items():
        if req.owner in catalog.units:
            links.append(Link("requirement-unit", rid, req.owner, fp.requirements[rid], fp.units[req.owner],
                              req.owner_path, req.owner))
    unit_by_path = catalog.unit_by_path
    for tid, test in catalog.tests.items():
        owner = unit_by_path.get(test.source)
        if owner:
            links.append(Link("test-unit", tid, owner, fp.tests[tid], fp.units[owner], test.path, owner))
        for rid in dict.fromkeys(test.requirements):
            if rid in catalog.requirements:
                links.append(Link("test-requirement", tid, rid, fp.tests[tid], fp.requirements[rid], test.path, owner))
    for aid, adr in catalog.adrs.items():
        for rid in dict.fromkeys(_strings(adr.front.get("affected_ndf"))):
            if rid in catalog.requirements:
                links.append(Link("adr-requirement", aid, rid, fp.adrs[aid], fp.requirements[rid], adr.path))
        for uid in dict.fromkeys(_strings(adr.front.get("affected_units"))):
            if uid in catalog.units:
                links.append(Link("adr-unit", aid, uid, fp.adrs[aid], fp.units[uid], adr.path, uid))
    for (locale, subject), tr in catalog.translations.items():
        file_sha, english = fp.translations[translation_id(locale, subject)]
        if english is not None:
            links.append(Link("translation-english", translation_id(locale, subject), subject, file_sha, english,
                              tr.path, subject if subject in catalog.units else None))
    for example in examples:
        if example.unit_id in catalog.units:
            links.append(Link("example-instruction", example.key, example.unit_id, example_case_sha(example),
                              fp.units[example.unit_id], example.source_path or catalog.units[example.unit_id].path,
                              example.unit_id, example.digest))
    return {link.id: link for link in links}


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, tuple | list) else []


# -- stamping ---------------------------------------------------------------------------------------------
def lock_document(catalog: Catalog, fp: Fingerprints, links: Mapping[str, Link]) -> dict[str, Any]:
    items: dict[str, dict[str, dict[str, Any]]] = {
        "units": {uid: {"path": u.path, "sha256": fp.units[uid]} for uid, u in catalog.units.items()},
        "requirements": {rid: {"path": r.owner_path, "sha256": fp.requirements[rid]}
                         for rid, r in catalog.requirements.items() if fp.requirements[rid]},
        "tests": {tid: {"path": t.path, "sha256": fp.tests[tid]} for tid, t in catalog.tests.items()},
        "adrs": {aid: {"path": a.path, "sha256": fp.adrs[aid]} for aid, a in catalog.adrs.items()},
        "translations": {},
    }
    for (locale, subject), tr in catalog.translations.items():
        tid = translation_id(locale, subject)
        file_sha, english = fp.translations[tid]
        items["translations"][tid] = {"path": tr.path, "sha256": file_sha, "english_sha256": english}
    stamped: dict[str, dict[str, Any]] = {}
    for lid, link in links.items():
        entry: dict[str, Any] = {"from": link.source_sha, "to": link.target_sha}
        if link.kind == "example-instruction":
            entry["digest"] = link.digest
        stamped[lid] = entry
    recorders = sorted(p for p in CORE_RECORDERS if p in catalog.files)
    return {"schema": LOCK_SCHEMA, "release": catalog.release.version, "recorders": recorders, "items": items,
            "links": stamped}


# -- checking ---------------------------------------------------------------------------------------------
@dataclass
class LinkCheck:
    counts: dict[str, int]
    problems: list[dict[str, Any]]  # every link that is not clean
    coverage_suspect: list[dict[str, Any]]
    changed: dict[str, list[str]]  # kind -> ids whose fingerprint differs from the stamp


def check_links(catalog: Catalog, fp: Fingerprints, links: Mapping[str, Link], lock: ReviewLock) -> LinkCheck:
    changed_units = _changed(lock, "units", fp.units)
    changed_tests = _changed(lock, "tests", fp.tests)
    changed_reqs = _changed(lock, "requirements", fp.requirements)
    counts = {CLEAN: 0, SUSPECT: 0, UNSTAMPED: 0, REMOVED: 0}
    problems: list[dict[str, Any]] = []
    for lid, link in links.items():
        stamp = lock.links.get(lid)
        if stamp is None:
            counts[UNSTAMPED] += 1
            problems.append(_problem(link, UNSTAMPED, [say("link_never_reviewed")]))
            continue
        reasons = []
        src_kind, dst_kind = link.kind.split("-", 1)
        if stamp.get("from") != link.source_sha:
            reasons.append(say("link_end_changed", kind=src_kind, ident=link.source))
        if stamp.get("to") != link.target_sha:
            reasons.append(say("link_end_changed", kind=dst_kind, ident=link.target))
        if link.unit and link.unit in changed_units and link.unit not in (link.source, link.target):
            reasons.append(say("link_propagated", unit=link.unit))
        if reasons:
            counts[SUSPECT] += 1
            problems.append(_problem(link, SUSPECT, reasons))
        else:
            counts[CLEAN] += 1
    for lid in lock.links:
        if lid not in links:
            kind, _, rest = lid.partition(" ")
            source, _, target = rest.partition(" -> ")
            counts[REMOVED] += 1
            problems.append({"id": lid, "kind": kind, "source": source, "target": target, "path": _stamped_path(lock, kind.split("-")[0], source),
                             "status": REMOVED, "reasons": [say("link_removed")]})
    coverage_suspect: dict[tuple[str, str], dict[str, Any]] = {}
    for tid in changed_tests:
        named = set(catalog.tests[tid].requirements) if tid in catalog.tests else set()
        prefix = f"test-requirement {tid} -> "
        named |= {lid[len(prefix):] for lid in lock.links if lid.startswith(prefix)}
        how = "deleted" if tid not in catalog.tests else "changed"
        for rid in sorted(named):
            coverage_suspect[(rid, tid)] = {"requirement": rid, "test": tid,
                                            "path": catalog.tests[tid].path if tid in catalog.tests else _stamped_path(lock, "test", tid),
                                            "reason": say("test_deleted", test=tid) if how == "deleted"
                                            else say("link_end_changed", kind="test", ident=tid)}
    problems.sort(key=lambda p: p["id"])
    return LinkCheck(counts, problems, [coverage_suspect[k] for k in sorted(coverage_suspect)],
                     {"units": sorted(changed_units), "tests": sorted(changed_tests), "requirements": sorted(changed_reqs)})


def _changed(lock: ReviewLock, kind: str, now: Mapping[str, str | None]) -> set[str]:
    stamped = lock.items.get(kind, {})
    out = {i for i, sha in now.items() if i in stamped and stamped[i].get("sha256") != sha}
    out |= {i for i in stamped if i not in now}
    return out


def _stamped_path(lock: ReviewLock, kind: str, ident: str) -> str:
    group = {"test": "tests", "adr": "adrs", "requirement": "requirements", "translation": "translations"}.get(kind)
    entry = lock.item(group, ident) if group else None
    return entry.get("path", "") if entry else ""


def _problem(link: Link, status: str, reasons: list[str]) -> dict[str, Any]:
    return {"id": link.id, "kind": link.kind, "source": link.source, "target": link.target, "path": link.path,
            "status": status, "reasons": reasons}
