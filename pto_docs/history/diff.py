"""What changed between two loaded releases of a spec tree: a pure function of two catalogs.

:func:`diff_analyses` compares instructions (by mnemonic), units, NDF clauses, requirements, tests and ADRs and
returns a :class:`ReleaseDiff` (frozen). Each changed instruction lists its changes aspect by aspect
(:mod:`.aspects`), each with the old and the new value. :meth:`ReleaseDiff.document` is the
``pto-docs.diff.v1`` JSON document (schemas/diff.schema.json).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from ..model.catalog import Catalog, Unit
from ..model.frozen import thaw
from .aspects import ASPECTS, data_types, field_changes, normalised_asl

DIFF_SCHEMA = "pto-docs.diff.v1"


@dataclass(frozen=True)
class Side:
    """One release of the comparison: the spec as named on the command line, its declared version, its commit."""

    label: str
    version: str
    commit: str | None = None


@dataclass(frozen=True)
class Change:
    aspect: str  # one of aspects.ASPECTS
    field: str  # a JSON pointer into the record, an NDF clause id, a test id, or "semantics" / "data types"
    old: Any  # None: absent in the old release
    new: Any  # None: absent in the new release


@dataclass(frozen=True)
class InstructionEntry:
    mnemonic: str
    unit: str
    surface: str
    path: str
    summary: str


@dataclass(frozen=True)
class InstructionChange:
    mnemonic: str
    unit: str
    surface: str
    old_path: str
    new_path: str
    record_changed: bool  # the // PTO-INSTRUCTION: record differs
    changes: tuple[Change, ...]

    @property
    def aspects(self) -> tuple[str, ...]:
        seen = {c.aspect for c in self.changes}
        return tuple(a for a in ASPECTS if a in seen)


@dataclass(frozen=True)
class IdDiff:
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        return {"added": len(self.added), "removed": len(self.removed), "changed": len(self.changed)}


@dataclass(frozen=True)
class ReleaseDiff:
    old: Side
    new: Side
    added: tuple[InstructionEntry, ...]
    removed: tuple[InstructionEntry, ...]
    changed: tuple[InstructionChange, ...]
    units: IdDiff = field(default_factory=IdDiff)
    ndf_clauses: IdDiff = field(default_factory=IdDiff)
    requirements: IdDiff = field(default_factory=IdDiff)
    tests: IdDiff = field(default_factory=IdDiff)
    adrs: IdDiff = field(default_factory=IdDiff)

    def change_of(self, mnemonic: str) -> InstructionChange | None:
        return next((c for c in self.changed if c.mnemonic == mnemonic), None)

    def counts(self) -> dict[str, dict[str, int]]:
        out = {"instructions": {"added": len(self.added), "removed": len(self.removed), "changed": len(self.changed)}}
        for name in ("units", "ndf_clauses", "requirements", "tests", "adrs"):
            out[name] = getattr(self, name).counts()
        return out

    def document(self) -> dict[str, Any]:
        """The ``pto-docs.diff.v1`` document (serialise with trace.report.report_bytes: canonical JSON)."""
        def side(s: Side) -> dict:
            return {"label": s.label, "version": s.version, "commit": s.commit}

        def entry(e: InstructionEntry) -> dict:
            return {"mnemonic": e.mnemonic, "unit": e.unit, "surface": e.surface, "path": e.path,
                    "summary": e.summary}

        def changed(c: InstructionChange) -> dict:
            return {"mnemonic": c.mnemonic, "unit": c.unit, "surface": c.surface, "old_path": c.old_path,
                    "new_path": c.new_path, "record_changed": c.record_changed, "aspects": list(c.aspects),
                    "changes": [{"aspect": x.aspect, "field": x.field, "old": x.old, "new": x.new}
                                for x in c.changes]}

        doc: dict[str, Any] = {
            "schema": DIFF_SCHEMA, "generator": {"name": "pto-docs", "version": __version__},
            "old": side(self.old), "new": side(self.new), "summary": self.counts(),
            "instructions": {"added": [entry(e) for e in self.added], "removed": [entry(e) for e in self.removed],
                             "changed": [changed(c) for c in self.changed]}}
        for name in ("units", "ndf_clauses", "requirements", "tests", "adrs"):
            ids = getattr(self, name)
            doc[name] = {"added": list(ids.added), "removed": list(ids.removed), "changed": list(ids.changed)}
        return doc


def _catalog(value) -> Catalog:
    """A Catalog from a catalog, a LoadResult, an analysis.state.Analysis or a history.release.LoadedRelease."""
    while not isinstance(value, Catalog):
        nxt = getattr(value, "catalog", None) or getattr(value, "result", None)
        if nxt is None:
            raise TypeError(f"not a loaded spec tree: {type(value).__name__}")
        value = nxt
    return value


def _by_mnemonic(cat: Catalog) -> dict[str, Unit]:
    out: dict[str, Unit] = {}
    for unit in sorted(cat.instructions, key=lambda u: (u.surface != "block", u.id)):
        if unit.mnemonic and unit.mnemonic not in out:
            out[unit.mnemonic] = unit
    return out


def _entry(unit: Unit) -> InstructionEntry:
    return InstructionEntry(unit.mnemonic or "", unit.id, unit.surface, unit.path, unit.summary)


def _ndf_value(clause) -> dict:
    return {"kind": clause.kind, "level": clause.level, "layer": clause.layer, "status": clause.status,
            "body": clause.body}


def _instruction_change(old_cat: Catalog, new_cat: Catalog, old: Unit, new: Unit) -> InstructionChange:
    changes = [Change(*c) for c in field_changes(old.record, new.record)]
    record_changed = thaw(old.record) != thaw(new.record)
    types_old, types_new = data_types(old.record), data_types(new.record)
    if types_old != types_new:
        changes.append(Change("data_types", "data types", types_old, types_new))
    asl_old, asl_new = normalised_asl(old.file.text), normalised_asl(new.file.text)
    if asl_old != asl_new:
        changes.append(Change("semantics", "semantics", asl_old, asl_new))
    ndf_old = {c.id: _ndf_value(c) for c in old.ndf}
    ndf_new = {c.id: _ndf_value(c) for c in new.ndf}
    for cid in sorted(ndf_old.keys() | ndf_new.keys()):
        if ndf_old.get(cid) != ndf_new.get(cid):
            changes.append(Change("ndf", cid, ndf_old.get(cid), ndf_new.get(cid)))
    tests_old = {t: _test_value(old_cat, t) for t in old_cat.tests_by_unit.get(old.id, ())}
    tests_new = {t: _test_value(new_cat, t) for t in new_cat.tests_by_unit.get(new.id, ())}
    for tid in sorted(tests_old.keys() | tests_new.keys()):
        a, b = tests_old.get(tid), tests_new.get(tid)
        if a is None or b is None or a["sha256"] != b["sha256"]:
            changes.append(Change("tests", tid, a, b))
    order = {a: i for i, a in enumerate(ASPECTS)}
    changes.sort(key=lambda c: (order[c.aspect], c.field))
    return InstructionChange(new.mnemonic or "", new.id, new.surface, old.path, new.path, record_changed,
                             tuple(changes))


def _test_value(cat: Catalog, tid: str) -> dict:
    test = cat.tests[tid]
    return {"path": test.path, "sha256": test.file.sha256}


def _ids(old: Mapping[str, Any], new: Mapping[str, Any]) -> IdDiff:
    """Ids added, removed, and present in both with a different value (values compared with ==)."""
    return IdDiff(tuple(sorted(new.keys() - old.keys())), tuple(sorted(old.keys() - new.keys())),
                  tuple(sorted(k for k in old.keys() & new.keys() if old[k] != new[k])))


def _unit_value(unit: Unit) -> tuple:
    return (thaw(unit.record), normalised_asl(unit.file.text), tuple(sorted((c.id, c.clause_sha256) for c in unit.ndf)))


def diff_analyses(old, new, *, old_side: Side | None = None, new_side: Side | None = None) -> ReleaseDiff:
    """Compare two loaded releases (Catalog, LoadResult, Analysis or LoadedRelease). ``old_side`` and
    ``new_side`` name them in the document; by default their labels are their declared versions."""
    old_side = old_side or getattr(old, "side", None)
    new_side = new_side or getattr(new, "side", None)
    a, b = _catalog(old), _catalog(new)
    old_side = old_side or Side(a.release.version, a.release.version)
    new_side = new_side or Side(b.release.version, b.release.version)
    before, after = _by_mnemonic(a), _by_mnemonic(b)
    added = tuple(_entry(after[m]) for m in sorted(after.keys() - before.keys()))
    removed = tuple(_entry(before[m]) for m in sorted(before.keys() - after.keys()))
    changed = []
    for mnemonic in sorted(before.keys() & after.keys()):
        change = _instruction_change(a, b, before[mnemonic], after[mnemonic])
        if change.changes or change.record_changed:
            changed.append(change)
    units = _ids({k: _unit_value(u) for k, u in a.units.items()}, {k: _unit_value(u) for k, u in b.units.items()})
    ndf = _ids({c.id: _ndf_value(c) for c in a.ndf_clauses}, {c.id: _ndf_value(c) for c in b.ndf_clauses})
    reqs = _ids({r.id: _requirement_value(r) for r in a.requirements.values()},
                {r.id: _requirement_value(r) for r in b.requirements.values()})
    tests = _ids({t.id: t.file.sha256 for t in a.tests.values()}, {t.id: t.file.sha256 for t in b.tests.values()})
    adrs = _ids({d.id: (thaw(d.front), d.body) for d in a.adrs.values()},
                {d.id: (thaw(d.front), d.body) for d in b.adrs.values()})
    return ReleaseDiff(old_side, new_side, added, removed, tuple(changed), units, ndf, reqs, tests, adrs)


def _requirement_value(req) -> tuple:
    return (req.origin, req.executable, req.status, req.owner, req.ndf.clause_sha256 if req.ndf else None)
