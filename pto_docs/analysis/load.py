"""One parse of a spec tree: sources -> schema checks -> immutable Catalog -> cross-reference checks.

Every per-file step (a unit, test, ADR, JSON, translation or example file into its record object and its own
diagnostics) goes through a :class:`~pto_docs.store.load_memo.LoadMemo` when one is given, so a reload after a save
(``mkdocs serve``) re-parses only the changed files; whatever looks across files always re-runs. The result is
the same as a load without a memo.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from ..checks.records import check_record, line_col_at
from ..model.catalog import (
    Adr,
    Catalog,
    DocRegion,
    ExampleCase,
    JsonFile,
    NdfClause,
    Requirement,
    SourceFile,
    StateRecord,
    TestPoint,
    TranslatedString,
    Translation,
    Unit,
    derived_requirement_id,
)
from ..model.diagnostics import Diagnostic, error, sort_diagnostics
from ..model.frozen import freeze
from ..runtime.gc_pause import full_collections_paused
from ..sources.adrs import adr_title, is_template, parse_adr, parse_adr_markdown
from ..sources.asl_scan import scan_asl
from ..sources.formats import ADR_MARKDOWN, CURRENT, formats_of
from ..sources.release import parse_specification, release_identity
from ..sources.tree import SpecTree
from ..store.load_memo import LoadMemo, NoMemo

UNIT_KINDS = ("PTO-INSTRUCTION", "PTO-UNIT", "PTO-REVIEW", "PTO-STATE")
EXECUTABLE_NDF_KINDS = {"executable"}


@dataclass(frozen=True)
class LoadResult:
    catalog: Catalog
    diagnostics: tuple[Diagnostic, ...]
    tree: SpecTree

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]


def load_catalog(root: str | Path, memo: LoadMemo | None = None, previous: SpecTree | None = None,
                 preread: dict | None = None) -> LoadResult:
    """Read and check a spec tree. Raises SpecRootError only when the root itself is unusable.

    ``memo`` (kept by the caller between loads, who ends each load with ``memo.finish()``) answers the per-file
    steps of unchanged files; ``previous`` (the last load's tree) lends its decoded texts of byte-identical files."""
    with full_collections_paused():  # a loaded tree: a large structure that lives on (gc_pause.py)
        return _load_catalog(root, memo, previous, preread)


def _load_catalog(root, memo, previous, preread) -> LoadResult:
    from ..checks.references import cross_reference_checks  # the rules live in validate.py

    memo = memo if memo is not None else NoMemo()
    tree = SpecTree.open(root, previous=previous, preread=preread)
    diags: list[Diagnostic] = list(tree.diagnostics)
    spec, spec_diags = parse_specification(tree.get("specification.toml"), "specification.toml" in tree.raw_hashes)
    diags += spec_diags
    formats = formats_of(spec)  # the record formats of the release the tree declares (sources/formats.py)
    units = _load_units(tree, diags, memo, formats)
    tests = _load_tests(tree, diags, memo)
    adrs = _load_adrs(tree, diags, memo, formats)
    json_files = _load_json(tree, diags, memo)
    translations = _load_translations(tree, diags, memo)
    examples = _load_examples(tree, diags, memo)
    requirements = _requirements(units)
    catalog = _index(Catalog(
        root=str(tree.root),
        release=release_identity(spec, tree.root),
        files=MappingProxyType(dict(tree.files)),
        units=MappingProxyType(units),
        requirements=MappingProxyType(requirements),
        tests=MappingProxyType(tests),
        adrs=MappingProxyType(adrs),
        json_files=MappingProxyType(json_files),
        translations=MappingProxyType(translations),
        examples=tuple(examples),
        specification=freeze(spec),
    ))
    diags += cross_reference_checks(catalog, tree, memo)
    return LoadResult(catalog, tuple(sort_diagnostics(diags)), tree)


# -- units --------------------------------------------------------------------------------------
def _load_units(tree: SpecTree, diags: list[Diagnostic], memo=NoMemo, formats=CURRENT) -> dict[str, Unit]:
    units: dict[str, Unit] = {}
    kind = formats.instruction_kind
    step, parse = ("unit", _unit_from_file) if kind == "PTO-INSTRUCTION" else \
        (f"unit/{kind}", lambda file, diags: _unit_from_file(file, diags, kind))
    for file in tree.under("asl"):
        if not file.path.endswith(".asl"):
            continue
        unit, problems = memo.per_file(step, file, parse)
        diags += problems
        if unit is None:
            continue
        if unit.id in units:
            other = units[unit.id]
            diags.append(error(file.path, unit.line, 1, "DUPLICATE-ID", f"unit id {unit.id} is also defined in {other.path}:{other.line}", "/id"))
            continue
        units[unit.id] = unit
    return units


def _unit_from_file(file: SourceFile, diags: list[Diagnostic], instruction_kind: str = "PTO-INSTRUCTION") -> Unit | None:
    scan = scan_asl(file.path, file.text, UNIT_KINDS)
    diags += scan.diagnostics
    meta = [r for r in scan.records if r.kind in ("PTO-INSTRUCTION", "PTO-UNIT")]
    if not meta:
        if not any(d.code == "JSON-SYNTAX" for d in scan.diagnostics):
            diags.append(error(file.path, 1, 1, "UNIT-RECORD-MISSING", "ASL unit has no '// PTO-INSTRUCTION:' or '// PTO-UNIT:' record"))
        return None
    for extra in meta[1:]:
        diags.append(error(file.path, extra.line, 1, "UNIT-RECORD-DUPLICATE", f"ASL unit has a second metadata record (first on line {meta[0].line})"))
    for raw in scan.records:
        if raw.data is not None:
            kind = instruction_kind if raw.kind == "PTO-INSTRUCTION" else raw.kind
            diags += check_record(kind, raw.data, file.path, raw.line, raw.col, raw.text)
    reviews = scan.of_kind("PTO-REVIEW")
    for extra in reviews[1:]:
        diags.append(error(file.path, extra.line, 1, "REVIEW-DUPLICATE", "ASL unit has more than one PTO-REVIEW record"))
    head = meta[0]
    record = head.data
    if not isinstance(record, dict) or not isinstance(record.get("id"), str) or not isinstance(record.get("surface"), str):
        return None
    kind = "instruction" if head.kind == "PTO-INSTRUCTION" else "unit"
    clauses = []
    for raw in scan.ndf:
        attrs = raw.attrs
        diags += check_record("NDF", attrs, file.path, raw.attrs_line or raw.line, 1) if attrs else []
        clauses.append(NdfClause(
            id=raw.id, kind=attrs.get("kind", ""), level=attrs.get("level", ""), layer=attrs.get("layer", ""),
            status=attrs.get("status", ""), body=raw.body, path=file.path, line=raw.line, end_line=raw.end_line,
            clause_sha256=raw.clause_sha256, executable=attrs.get("kind") in EXECUTABLE_NDF_KINDS))
    states = tuple(StateRecord(str(r.data.get("id", "")), file.path, r.line, freeze(r.data))
                   for r in scan.of_kind("PTO-STATE") if isinstance(r.data, dict))
    mnemonic = record.get("mnemonic") if kind == "instruction" else None
    return Unit(
        id=record["id"], kind=kind, surface=record["surface"],
        mnemonic=mnemonic if isinstance(mnemonic, str) else None,
        summary=record.get("summary", "") if isinstance(record.get("summary"), str) else "",
        classification=tuple(str(c) for c in _list(record.get("classification"))),
        depends_on=tuple(str(c) for c in _list(record.get("depends_on"))),
        path=file.path, line=head.line, record=freeze(record),
        review=freeze(reviews[0].data) if reviews and isinstance(reviews[0].data, dict) else None,
        states=states, ndf=tuple(clauses),
        regions=tuple(DocRegion(r.name, file.path, r.begin_line, r.end_line, r.text) for r in scan.regions),
        file=file)


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


# -- tests --------------------------------------------------------------------------------------
def _load_tests(tree: SpecTree, diags: list[Diagnostic], memo=NoMemo) -> dict[str, TestPoint]:
    tests: dict[str, TestPoint] = {}
    for file in tree.under("tests/asl"):
        if not file.path.endswith(".asl"):
            continue
        parsed, problems = memo.per_file("test", file, _test_from_file)
        diags += problems
        if parsed is None:
            continue
        test, col = parsed
        if test.id in tests:
            other = tests[test.id]
            diags.append(error(file.path, test.line, col, "DUPLICATE-ID", f"test id {test.id} is also defined in {other.path}:{other.line}", "/id"))
            continue
        tests[test.id] = test
    return tests


def _test_from_file(file: SourceFile, diags: list[Diagnostic]) -> tuple[TestPoint, int] | None:
    """The test point of one file and the column of its record (for a duplicate-id diagnostic)."""
    scan = scan_asl(file.path, file.text, ("PTO-TEST",))
    diags += [d for d in scan.diagnostics if d.code == "JSON-SYNTAX" or d.code == "RECORD-NOT-OBJECT"]
    records = scan.of_kind("PTO-TEST")
    if not records:
        if not scan.diagnostics:
            diags.append(error(file.path, 1, 1, "TEST-RECORD-MISSING", "test file has no '// PTO-TEST:' record"))
        return None
    for extra in records[1:]:
        diags.append(error(file.path, extra.line, 1, "TEST-RECORD-DUPLICATE", f"test file has a second PTO-TEST record (first on line {records[0].line})"))
    raw = records[0]
    if raw.data is None:
        return None
    diags += check_record("PTO-TEST", raw.data, file.path, raw.line, raw.col, raw.text)
    data = raw.data
    if not isinstance(data.get("id"), str):
        return None
    test = TestPoint(
        id=data["id"], path=file.path, source=data.get("source") if isinstance(data.get("source"), str) else "",
        requirements=tuple(r for r in _list(data.get("requirements")) if isinstance(r, str)),
        kind=str(data.get("kind", "")), summary=str(data.get("summary", "")),
        pass_condition=str(data.get("pass_condition", "")),
        related_sources=tuple(r for r in _list(data.get("related_sources")) if isinstance(r, str)),
        line=raw.line, record=freeze(data), file=file)
    return test, raw.col


# -- ADRs ---------------------------------------------------------------------------------------
def _load_adrs(tree: SpecTree, diags: list[Diagnostic], memo=NoMemo, formats=CURRENT) -> dict[str, Adr]:
    adrs: dict[str, Adr] = {}
    step, parse = ("adr/markdown", _markdown_adr_from_file) if formats.adr == ADR_MARKDOWN else ("adr", _adr_from_file)
    for file in tree.under("docs/status/decisions"):
        if not file.path.endswith(".md") or is_template(file) or file.path.endswith("/index.md"):
            continue
        adr, problems = memo.per_file(step, file, parse)
        diags += problems
        if adr is None:
            continue
        adr_id = adr.id
        if adr_id in adrs:
            diags.append(error(file.path, adr.front_line, 1, "DUPLICATE-ID", f"ADR id {adr_id} is also defined in {adrs[adr_id].path}", "/id"))
            continue
        adrs[adr_id] = adr
    return adrs


def _adr_from_file(file: SourceFile, diags: list[Diagnostic]) -> Adr | None:
    raw, problems = parse_adr(file)
    diags += problems
    if raw is None or raw.front is None:
        return None
    front_text = "\n".join(file.text.split("\n")[1:raw.body_line - 2])
    diags += check_record("ADR", raw.front, file.path, raw.front_line, 1, front_text)
    adr_id = raw.front.get("id")
    if not isinstance(adr_id, str):
        return None
    number = file.path.rsplit("/", 1)[-1][:4]
    if adr_id != f"ADR-{number}":
        diags.append(error(file.path, *_front_pos(front_text, ["id"], raw.front_line), "ADR-FILE-ID",
                           f"ADR id {adr_id} does not match its file name number {number}", "/id"))
    return Adr(id=adr_id, title=adr_title(raw.front, raw.body), status=str(raw.front.get("status", "")),
               path=file.path, front=freeze(raw.front), front_line=raw.front_line, body=raw.body,
               body_line=raw.body_line, file=file)


def _markdown_adr_from_file(file: SourceFile, diags: list[Diagnostic]) -> Adr | None:
    raw, problems = parse_adr_markdown(file)
    diags += problems
    if raw is None:
        return None
    number = raw.front["id"][4:]
    if raw.front["number"] is not None and raw.front["number"] != number:
        diags.append(error(file.path, raw.front_line, 1, "ADR-FILE-ID", f"ADR number {raw.front['number']} of its "
                           f"title does not match its file name number {number}"))
    return Adr(id=raw.front["id"], title=raw.front["title"], status=raw.front["status"], path=file.path,
               front=freeze(raw.front), front_line=raw.front_line, body=raw.body, body_line=raw.body_line,
               file=file)


def _front_pos(text: str, path: list, first_line: int) -> tuple[int, int]:
    from ..schemas.jsonpos import offset_of
    return line_col_at(text, offset_of(text, path), first_line, 1)


# -- spec/ JSON, translations, examples -----------------------------------------------------------
JSON_SCHEMAS_BY_PATH = {
    "spec/evidence/release-traceability-readiness.json": "TRACEABILITY",
    "spec/release-manifest.json": "MANIFEST",
}


def parse_json_file(file: SourceFile, diags: list[Diagnostic]) -> Any:
    try:
        from ..schemas.strict_parse import loads_json
        return loads_json(file.text)
    except json.JSONDecodeError as exc:
        diags.append(error(file.path, exc.lineno, exc.colno, "JSON-SYNTAX", f"not valid JSON: {exc.msg}"))
    except RecursionError:
        diags.append(error(file.path, 1, 1, "JSON-SYNTAX", "JSON nests too deeply"))
    return None


def _load_json(tree: SpecTree, diags: list[Diagnostic], memo=NoMemo) -> dict[str, JsonFile]:
    out: dict[str, JsonFile] = {}
    for file in tree.under("spec"):
        if not file.path.endswith(".json"):
            continue
        entry, problems = memo.per_file("json", file, _json_from_file)
        diags += problems
        if entry is not None:
            out[file.path] = entry
    return out


def _json_from_file(file: SourceFile, diags: list[Diagnostic]) -> JsonFile | None:
    data = parse_json_file(file, diags)
    if data is None:
        return None
    kind = JSON_SCHEMAS_BY_PATH.get(file.path)
    if kind:
        diags += check_record(kind, data, file.path, 1, 1, file.text)
    return JsonFile(file.path, freeze(data), file)


def _load_translations(tree: SpecTree, diags: list[Diagnostic], memo=NoMemo) -> dict[tuple[str, str], Translation]:
    out: dict[tuple[str, str], Translation] = {}
    for file in tree.under("translations"):
        if not file.path.endswith(".json"):
            continue
        translation, problems = memo.per_file("translation", file, _translation_from_file)
        diags += problems
        if translation is None:
            continue
        key = (translation.locale, translation.subject)
        if key in out:
            diags.append(error(file.path, 1, 1, "DUPLICATE-ID", f"{key[0]} translation of {key[1]} is also in {out[key].path}"))
            continue
        out[key] = translation
    return out


def _translation_from_file(file: SourceFile, diags: list[Diagnostic]) -> Translation | None:
    data = parse_json_file(file, diags)
    if data is None:
        return None
    problems = check_record("TRANSLATION", data, file.path, 1, 1, file.text)
    diags += problems
    if problems or not isinstance(data, dict):
        return None
    strings: dict[str, TranslatedString] = {}
    for index, item in enumerate(data["strings"]):
        line, _ = line_col_at(file.text, _offset(file.text, ["strings", index]))
        if item["pointer"] in strings:
            diags.append(error(file.path, line, 1, "DUPLICATE-ID", f"pointer {item['pointer']} is translated twice", f"/strings/{index}/pointer"))
            continue
        strings[item["pointer"]] = TranslatedString(item["pointer"], item["en_sha256"], item["text"], line)
    return Translation(data["locale"], data["subject"], file.path, MappingProxyType(strings), file)


def _offset(text: str, path: list) -> int:
    from ..schemas.jsonpos import offset_of
    return offset_of(text, path)


def _load_examples(tree: SpecTree, diags: list[Diagnostic], memo=NoMemo) -> list[ExampleCase]:
    out: list[ExampleCase] = []
    for file in tree.under("examples"):
        example, problems = memo.per_file("example", file, _example_from_file)
        diags += problems
        if example is not None:
            out.append(example)
    return out


def _example_from_file(file: SourceFile, diags: list[Diagnostic]) -> ExampleCase | None:
    parts = file.path.split("/")
    if len(parts) != 3:
        diags.append(error(file.path, 1, 1, "EXAMPLE-PATH", "worked examples live at examples/<MNEMONIC>/<name>.json|yaml"))
        return None
    if file.path.endswith(".json"):
        data = parse_json_file(file, diags)
    else:
        try:
            from ..schemas.strict_parse import load_yaml
            data = load_yaml(file.text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            diags.append(error(file.path, (mark.line + 1) if mark else 1, (mark.column + 1) if mark else 1,
                               "YAML-SYNTAX", f"not valid YAML: {getattr(exc, 'problem', exc)}"))
            return None
    if not isinstance(data, dict):
        if data is not None:
            diags.append(error(file.path, 1, 1, "RECORD-NOT-OBJECT", "a worked example must be a case object"))
        return None
    execute = data.get("execute") if isinstance(data.get("execute"), dict) else {}
    instruction = execute.get("instruction") if isinstance(execute.get("instruction"), str) else parts[1]
    name = parts[2].rsplit(".", 1)[0]
    return ExampleCase(name, instruction, file.path, freeze(data), file)


# -- requirements and indexes ---------------------------------------------------------------------
def _requirements(units: dict[str, Unit]) -> dict[str, Requirement]:
    reqs: dict[str, Requirement] = {}
    for unit in units.values():
        for clause in unit.ndf:
            reqs.setdefault(clause.id, Requirement(clause.id, "ndf", clause.executable, clause.status, unit.id, unit.path, clause))
        if unit.is_instruction and unit.mnemonic:
            rid = derived_requirement_id(unit.surface, unit.mnemonic)
            reqs.setdefault(rid, Requirement(rid, "instruction", True, "accepted", unit.id, unit.path, None))
    return reqs


def _group(pairs: Iterable[tuple[str, str]]) -> MappingProxyType:
    grouped: dict[str, list[str]] = defaultdict(list)
    for key, value in pairs:
        if value not in grouped[key]:
            grouped[key].append(value)
    return MappingProxyType({k: tuple(sorted(v)) for k, v in grouped.items()})


def _index(cat: Catalog) -> Catalog:
    from dataclasses import replace
    unit_by_path = {u.path: u.id for u in cat.units.values()}
    by_unit = _group((unit_by_path[t.source], t.id) for t in cat.tests.values() if t.source in unit_by_path)
    by_req = _group((r, t.id) for t in cat.tests.values() for r in t.requirements)
    adrs_by_unit = _group((u, a.id) for a in cat.adrs.values() for u in a.front.get("affected_units", ()) if isinstance(u, str))
    adrs_by_ndf = _group((n, a.id) for a in cat.adrs.values() for n in a.front.get("affected_ndf", ()) if isinstance(n, str))
    by_mnemonic = {(u.surface, u.mnemonic): u.id for u in cat.units.values() if u.is_instruction and u.mnemonic}
    return replace(cat, unit_by_path=MappingProxyType(unit_by_path), tests_by_unit=by_unit, tests_by_requirement=by_req,
                   adrs_by_unit=adrs_by_unit, adrs_by_ndf=adrs_by_ndf, instruction_by_mnemonic=MappingProxyType(by_mnemonic),
                   forms_by_mnemonic=forms_index(cat))


def forms_index(cat: Catalog) -> MappingProxyType:
    """Each encoded form's mnemonic -> the unit carrying it and its forms of that mnemonic: the first unit in the
    order block units first, then by id (a later unit's forms of a mnemonic already taken are not its)."""
    index: dict[str, tuple[str, list]] = {}
    for unit in sorted((u for u in cat.units.values() if u.is_instruction), key=lambda u: (u.surface != "block", u.id)):
        for rec in unit.catalog_records:
            if isinstance(rec, Mapping) and "encoding" in rec and isinstance(rec.get("mnemonic"), str):
                entry = index.setdefault(rec["mnemonic"], (unit.id, []))
                if entry[0] == unit.id:
                    entry[1].append(rec)
    return MappingProxyType({name: (uid, tuple(forms)) for name, (uid, forms) in index.items()})
