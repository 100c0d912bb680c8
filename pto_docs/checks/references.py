"""Cross-reference rules over the loaded catalog. Each rule yields diagnostics; none stops the others."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..model.catalog import Catalog, Unit, mnemonic_stem, slug
from ..model.diagnostics import Diagnostic, error, warning
from ..model.frozen import sha256_text, thaw
from ..model.translate_keys import resolve_pointer, subject_record
from ..schemas.jsonpos import offset_of, pointer_of
from ..sources.asl_scan import RECORD_PREFIXES
from ..sources.tree import SpecTree, unsafe_path_reason
from .records import line_col_at

SYNTHETIC_DEPENDENCIES = {"generated:decoders"}
CATALOG_FILES = {
    "tile": ("spec/catalog/tile-operations.json", "operations"),
    "scalar": ("spec/catalog/scalar-forms.json", "forms"),
    "block": ("spec/catalog/command-forms.json", "forms"),
}


def cross_reference_checks(cat: Catalog, tree: SpecTree, memo=None) -> list[Diagnostic]:
    """Every rule over the whole catalog. ``memo`` (a load_memo.LoadMemo) keeps what a rule derives from one
    file alone (the paths recorded in an evidence JSON, the plain form of catalog entries and projections)."""
    diags: list[Diagnostic] = []
    for rule in (_duplicate_ids, _unit_rules, _test_rules, _adr_rules, _translation_rules, _example_rules):
        diags.extend(rule(cat, tree))
    diags.extend(_catalog_projection_rules(cat, tree, memo))
    diags.extend(_evidence_path_rules(cat, tree, memo))
    return diags


def _record_pos(unit_or_test: Any, kind: str, path: list) -> tuple[int, int]:
    """Line/col of ``path`` inside the one-line record of a unit or test."""
    prefix = RECORD_PREFIXES[kind]
    line_text = unit_or_test.file.lines[unit_or_test.line - 1]
    text = line_text[len(prefix):]
    return line_col_at(text, offset_of(text, path), unit_or_test.line, len(prefix) + 1)


def _unit_kind(unit: Unit) -> str:
    return "PTO-INSTRUCTION" if unit.is_instruction else "PTO-UNIT"


# -- ids ------------------------------------------------------------------------------------------
def _duplicate_ids(cat: Catalog, tree: SpecTree) -> Iterator[Diagnostic]:
    seen: dict[str, str] = {}

    def claim(ident: str, where: str, path: str, line: int, what: str) -> Iterator[Diagnostic]:
        if ident in seen and seen[ident] != where:
            yield error(path, line, 1, "DUPLICATE-ID", f"{what} id {ident} is already used by {seen[ident]}")
        else:
            seen.setdefault(ident, where)

    for unit in cat.units.values():
        yield from claim(unit.id, f"{unit.path}:{unit.line}", unit.path, unit.line, "unit")
    for unit in cat.units.values():
        if unit.requirement_id:
            yield from claim(unit.requirement_id, f"{unit.path} (derived requirement)", unit.path, unit.line, "requirement")
        for clause in unit.ndf:
            yield from claim(clause.id, f"{clause.path}:{clause.line}", clause.path, clause.line, "NDF clause")
        for state in unit.states:
            yield from claim(state.id, f"{state.path}:{state.line}", state.path, state.line, "state")
    for test in cat.tests.values():
        yield from claim(test.id, f"{test.path}:{test.line}", test.path, test.line, "test")
    for adr in cat.adrs.values():
        yield from claim(adr.id, adr.path, adr.path, adr.front_line, "ADR")


# -- units ----------------------------------------------------------------------------------------
def expected_unit_path(unit: Unit) -> str | None:
    if unit.is_instruction:
        if not unit.mnemonic:
            return None
        return "/".join(["asl", unit.surface, *unit.classification, mnemonic_stem(unit.mnemonic) + ".asl"])
    if not unit.classification:
        return None
    return "/".join(["asl", unit.surface, *unit.classification]) + ".asl"


def _unit_rules(cat: Catalog, tree: SpecTree) -> Iterator[Diagnostic]:
    state_ids = {s.id for u in cat.units.values() for s in u.states}
    field_domains = {d.get("id") for u in cat.units.values() for d in u.record.get("field_domains", ()) if isinstance(d, Mapping)}
    for unit in cat.units.values():
        kind = _unit_kind(unit)
        top = unit.path.split("/")[1] if unit.path.count("/") >= 2 else ""
        if top != unit.surface:
            yield error(unit.path, *_record_pos(unit, kind, ["surface"]), "PATH-RULE",
                        f"unit surface {unit.surface!r} does not match its directory asl/{top}/", "/surface")
        expected = expected_unit_path(unit)
        if expected and expected != unit.path:
            what = "surface, classification and mnemonic" if unit.is_instruction else "surface and classification"
            yield error(unit.path, *_record_pos(unit, kind, ["classification"]), "PATH-RULE",
                        f"unit path does not agree with its {what}: expected {expected}", "/classification")
        if unit.is_instruction and unit.mnemonic:
            want = f"PTO-{slug(unit.surface)}-{slug(unit.mnemonic)}"
            if unit.id != want:
                yield error(unit.path, *_record_pos(unit, kind, ["id"]), "ID-RULE",
                            f"instruction id {unit.id} should be {want} (PTO-<SURFACE>-<MNEMONIC-SLUG>)", "/id")
        for index, dep in enumerate(unit.depends_on):
            if dep not in cat.units and dep not in SYNTHETIC_DEPENDENCIES:
                yield error(unit.path, *_record_pos(unit, kind, ["depends_on", index]), "XREF-DEPENDS",
                            f"depends_on names unknown unit {dep}", f"/depends_on/{index}")
        if unit.is_instruction:
            yield from _contract_field_refs(unit, field_domains)
        for state in unit.states:
            if state.record.get("owner") not in (None, unit.id):
                yield error(unit.path, state.line, 1, "XREF-STATE", f"state {state.id} names owner {state.record.get('owner')} but sits in unit {unit.id}", "/owner")
            for index, dep in enumerate(state.record.get("depends_on", ())):
                if dep not in state_ids:
                    yield error(unit.path, state.line, 1, "XREF-STATE", f"state {state.id} depends on unknown state {dep}", f"/depends_on/{index}")
    yield from _cycles(cat)


def _contract_field_refs(unit: Unit, domains: set) -> Iterator[Diagnostic]:
    for field, target in unit.contract.get("field_contracts", {}).items():
        ref = target.get("ref") if isinstance(target, Mapping) else None
        if ref and ref not in domains:
            yield error(unit.path, unit.line, 1, "XREF-FIELD", f"field contract {field} points to unknown field domain {ref}",
                        pointer_of(["contract", "field_contracts", field, "ref"]))


def _cycles(cat: Catalog) -> Iterator[Diagnostic]:
    state: dict[str, int] = {}
    for start in sorted(cat.units):
        if state.get(start):
            continue
        stack = [(start, iter(cat.units[start].depends_on))]
        state[start] = 1
        path = [start]
        while stack:
            node, deps = stack[-1]
            for dep in deps:
                if dep not in cat.units:
                    continue
                if state.get(dep) == 1:
                    unit = cat.units[node]
                    cycle = " -> ".join(path[path.index(dep):] + [dep])
                    yield error(unit.path, unit.line, 1, "XREF-CYCLE", f"depends_on forms a cycle: {cycle}", "/depends_on")
                    continue
                if not state.get(dep):
                    state[dep] = 1
                    path.append(dep)
                    stack.append((dep, iter(cat.units[dep].depends_on)))
                    break
            else:
                state[node] = 2
                stack.pop()
                path.pop()


# -- tests ----------------------------------------------------------------------------------------
def _test_rules(cat: Catalog, tree: SpecTree) -> Iterator[Diagnostic]:
    for test in cat.tests.values():
        if not test.source:
            continue
        reason = unsafe_path_reason(test.source)
        if reason:
            yield error(test.path, *_record_pos(test, "PTO-TEST", ["source"]), "PATH-TRAVERSAL", f"source {test.source!r}: {reason}", "/source")
        elif test.source not in cat.unit_by_path:
            yield error(test.path, *_record_pos(test, "PTO-TEST", ["source"]), "XREF-TEST-SOURCE",
                        f"source {test.source} is not an ASL unit of this tree", "/source")
        if not reason and test.source != test.directory_source:
            yield error(test.path, *_record_pos(test, "PTO-TEST", ["source"]), "TEST-PATH-RULE",
                        f"test lives under the directory of {test.directory_source or '(no unit)'} but names source {test.source}", "/source")
        for index, req in enumerate(test.requirements):
            if req not in cat.requirements:
                yield error(test.path, *_record_pos(test, "PTO-TEST", ["requirements", index]), "XREF-REQUIREMENT",
                            f"requirement {req} is neither an NDF clause nor a derived PTO-INST id", f"/requirements/{index}")
        for index, rel in enumerate(test.related_sources):
            reason = unsafe_path_reason(rel)
            if reason:
                yield error(test.path, *_record_pos(test, "PTO-TEST", ["related_sources", index]), "PATH-TRAVERSAL",
                            f"related source {rel!r}: {reason}", f"/related_sources/{index}")
            elif not tree.exists(rel):
                yield error(test.path, *_record_pos(test, "PTO-TEST", ["related_sources", index]), "XREF-RELATED-SOURCE",
                            f"related source {rel} does not exist", f"/related_sources/{index}")


# -- ADRs -----------------------------------------------------------------------------------------
def _adr_rules(cat: Catalog, tree: SpecTree) -> Iterator[Diagnostic]:
    targets = {
        "affected_ndf": (set(cat.requirements), "an NDF clause or requirement"),
        "affected_units": (set(cat.units) | set(cat.requirements), "a unit"),
        "resolves": (set(cat.adrs), "an ADR"),
        "supersedes": (set(cat.adrs), "an ADR"),
        "superseded_by": (set(cat.adrs), "an ADR"),
    }
    for adr in cat.adrs.values():
        text = "\n".join(adr.file.lines[1:adr.body_line - 2])
        for key, (known, what) in targets.items():
            for index, ident in enumerate(adr.front.get(key, ()) or ()):
                if isinstance(ident, str) and ident not in known:
                    line, col = line_col_at(text, offset_of(text, [key, index]), adr.front_line, 1)
                    yield error(adr.path, line, col, "XREF-ADR", f"{key} names {ident}, which is not {what} of this tree", f"/{key}/{index}")
        for index, other in enumerate(adr.front.get("superseded_by", ()) or ()):
            target = cat.adrs.get(other)
            if target and adr.id not in (target.front.get("supersedes") or ()):
                line, col = line_col_at(text, offset_of(text, ["superseded_by", index]), adr.front_line, 1)
                yield warning(adr.path, line, col, "ADR-SUPERSEDE-LINK", f"{adr.id} is superseded by {other}, which does not list it in supersedes", f"/superseded_by/{index}")


# -- spec/catalog projections --------------------------------------------------------------------------
def _catalog_projection_rules(cat: Catalog, tree: SpecTree, memo=None) -> Iterator[Diagnostic]:
    """Every spec/catalog entry must be the projection of its owning unit's record. ``memo`` keeps the plain
    form of each entry (by catalog file) and of each projection (by unit file): the comparisons always re-run."""
    from ..store.load_memo import NoMemo
    memo = memo if memo is not None else NoMemo()
    for surface, (path, key) in CATALOG_FILES.items():
        data = cat.json(path)
        if data is None:
            continue
        entries = data.get(key) if isinstance(data, Mapping) else None
        if not isinstance(entries, tuple):
            yield error(path, 1, 1, "CATALOG-SHAPE", f"catalog has no {key!r} array", f"/{key}")
            continue
        source = cat.json_files[path].file
        text = source.text
        owners: dict[int, tuple[Unit, int]] = {}
        for unit in cat.units.values():
            if unit.surface != surface or not unit.is_instruction:
                continue
            for position, index in enumerate(unit.record.get("catalog_indices", ())):
                records = unit.catalog_records
                if isinstance(index, int) and position < len(records):
                    owners[index] = (unit, position)
        plain = memo.get(("catalog-entries", path, key, source.sha256), lambda entries=entries: tuple(thaw(e) for e in entries))
        for index, thawed in enumerate(plain):
            owner = owners.pop(index, None)
            projected = None if owner is None else memo.get(
                ("catalog-projection", surface, owner[0].path, owner[0].file.sha256, owner[1]),
                lambda owner=owner: _projected(surface, owner[0], owner[0].catalog_records[owner[1]]))
            if owner is None or thawed != projected:
                line, _ = line_col_at(text, offset_of(text, [key, index]))
            if owner is None:
                yield error(path, line, 1, "CATALOG-MISMATCH", f"{key}[{index}] has no owning unit record (catalog_indices)", f"/{key}/{index}")
                continue
            unit = owner[0]
            if thawed != projected:
                keys = sorted(k for k in set(projected) | set(thawed) if projected.get(k) != thawed.get(k))
                yield error(path, line, 1, "CATALOG-MISMATCH",
                            f"{key}[{index}] disagrees with the record in {unit.path} on {', '.join(keys)}", f"/{key}/{index}")
        for index, (unit, _record) in sorted(owners.items()):
            yield error(unit.path, unit.line, 1, "CATALOG-MISMATCH", f"catalog index {index} is missing from {path}", "/catalog_indices")


def _projected(surface: str, unit: Unit, record: Mapping) -> dict:
    projected = thaw(record)
    if surface == "tile":
        projected = {**projected, "classification": unit.classification[0] if unit.classification else None,
                     "engine": unit.engine}
    return projected


# -- paths inside evidence ----------------------------------------------------------------------------
def _evidence_path_rules(cat: Catalog, tree: SpecTree, memo=None) -> Iterator[Diagnostic]:
    for path, entry in cat.json_files.items():
        if memo is None:
            yield from _unsafe_recorded_paths(entry)
        else:
            yield from memo.get(("evidence-paths", path, entry.file.sha256), lambda: tuple(_unsafe_recorded_paths(entry)))


def _unsafe_recorded_paths(entry) -> Iterator[Diagnostic]:
    """The recorded paths of one JSON file that leave the spec root: a function of that file alone."""
    text = entry.file.text
    for pointer_path, value in _recorded_paths(entry.data):
        reason = unsafe_path_reason(value)
        if reason:
            line, col = line_col_at(text, offset_of(text, pointer_path))
            yield error(entry.path, line, col, "PATH-TRAVERSAL", f"recorded path {value!r}: {reason}", pointer_of(pointer_path))


PATH_KEYS = {"path", "source", "documentation", "artifact", "owners", "related_sources"}


def _recorded_paths(data: Any, prefix: tuple = ()) -> Iterator[tuple[list, str]]:
    """Every value that a pto-spec evidence file uses as a repository path."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            here = (*prefix, key)
            if key == "sources" and isinstance(value, Mapping):
                for rel in value:
                    yield [*here, rel], rel
            elif key in PATH_KEYS and isinstance(value, str) and not value.startswith(("http://", "https://")):
                yield list(here), value
            elif key in PATH_KEYS and isinstance(value, tuple):
                for index, item in enumerate(value):
                    if isinstance(item, str):
                        yield [*here, index], item
            else:
                yield from _recorded_paths(value, here)
    elif isinstance(data, tuple):
        for index, value in enumerate(data):
            yield from _recorded_paths(value, (*prefix, index))


# -- translations and examples ---------------------------------------------------------------------------
def _translation_rules(cat: Catalog, tree: SpecTree) -> Iterator[Diagnostic]:
    for (locale, subject), tr in cat.translations.items():
        expected = f"translations/{locale}/{subject}.json"
        if tr.path != expected:
            yield error(tr.path, 1, 1, "TRANSLATION-PATH", f"translation of {subject} for {locale} must live at {expected}")
        record = subject_record(cat, subject)
        if record is None:
            yield error(tr.path, 1, 1, "XREF-TRANSLATION", f"translation subject {subject} is not a unit or ADR of this tree", "/subject")
            continue
        for ts in tr.strings.values():
            english = resolve_pointer(record, ts.pointer)
            if not isinstance(english, str):
                yield error(tr.path, ts.line, 1, "TRANSLATION-POINTER", f"{ts.pointer} does not name an English string of {subject}", "/strings")
            elif sha256_text(english) != ts.en_sha256:
                yield warning(tr.path, ts.line, 1, "TRANSLATION-STALE", f"{subject}{ts.pointer}: the English text changed since it was translated", "/strings")


def _example_rules(cat: Catalog, tree: SpecTree) -> Iterator[Diagnostic]:
    for example in cat.examples:
        folder = example.path.split("/")[1]
        unit = cat.find_instruction(example.instruction)
        if unit is None:
            yield error(example.path, 1, 1, "XREF-EXAMPLE", f"worked example runs {example.instruction}, which is not an instruction of this tree", "/execute/instruction")
        elif folder != example.instruction:
            yield error(example.path, 1, 1, "EXAMPLE-PATH", f"example of {example.instruction} sits in examples/{folder}/", "/execute/instruction")
