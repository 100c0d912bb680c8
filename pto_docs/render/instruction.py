"""Page model of an instruction unit (plain data + pre-escaped fragments), built once for every language."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..analysis.sitedata import SiteData
from ..model.catalog import NdfClause, Unit
from ..model.frozen import thaw
from ..model.translate_keys import CONTRACT_PROSE
from . import routes
from .assembly import AssemblyView, assembly_view
from .avs_examples_view import avs_example_views
from .encoding_view import EncodingView, encoding_view
from .env import Prose
from .evidence import EvidenceView, evidence_view
from .examples_view import ExampleView, example_views
from .fragments import highlighted, json_block
from .state_view import teaching_view


@dataclass(frozen=True)
class SymbolRow:
    field: str
    bits: str
    signedness: str
    role: Prose | None
    zero: Prose | None


@dataclass(frozen=True)
class AslRegion:
    name: str
    path: str
    start: int
    end: int
    html: Markup


@dataclass(frozen=True)
class Link:
    label: str
    href: str | None


@dataclass(frozen=True)
class InstructionModel:
    unit: Unit
    src: str
    summary: Prose
    assembly: AssemblyView
    symbols: tuple[SymbolRow, ...]
    encoding: EncodingView
    contract: Mapping[str, tuple[Prose, ...]]
    contract_operands: tuple[tuple[str, Prose | None], ...]
    examples: tuple[ExampleView, ...]
    regions: tuple[AslRegion, ...]
    full_asl: Markup
    ndf: tuple[NdfClause, ...]
    evidence: EvidenceView
    record_fields: int
    record_json: Markup
    trace_json: Markup
    documentation: str | None
    documentation_sha256: str | None
    carriers: tuple[Link, ...] = ()
    line_hrefs: tuple[str | None, ...] = ()
    depends: tuple[Link, ...] = ()
    requirement: Link | None = None
    ndf_req_hrefs: Mapping[str, str | None] = dataclasses.field(default_factory=dict)
    findings: tuple = ()
    avs_examples: tuple = ()  # render.avs_examples_view.AvsExampleView, from plugin avs_results (--examples)
    flags_via: tuple = ()  # render.findings.FlagsNotice: a FLAGS-PROSE finding of a function its execution calls
    semantics: tuple = ()  # render.findings.SemanticsNotice: a SEMANTICS-PROSE finding of this instruction
    zero_meanings: tuple[tuple[str, Prose], ...] = ()  # (field, what its encoded zero means), in record order
    teaching: Any = None  # render.state_view.TeachingView: the instruction's own executed example
    carried: Any = None  # render.carried_ops.CarriedView: the operations a carrier (BSTART.*) selects
    field_values: tuple = ()  # render.field_values.FieldValues: the enumerated fields' value tables


def _escape_token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def symbol_rows(unit: Unit, encoding_forms: list[Mapping[str, Any]]) -> tuple[SymbolRow, ...]:
    contract = unit.contract
    operands = [o for o in contract.get("operands", ()) if isinstance(o, Mapping)]
    role_of = {str(o.get("field")): (i, o.get("role")) for i, o in enumerate(operands)}
    zeros = contract.get("field_zero_meanings", {}) or {}

    def role(name: str) -> Prose | None:
        index, text = role_of.get(name, (None, None))
        return Prose(unit.id, f"/contract/operands/{index}/role", text) if isinstance(text, str) else None

    def zero(name: str) -> Prose | None:
        text = zeros.get(name)
        pointer = "/contract/field_zero_meanings/" + _escape_token(name)
        return Prose(unit.id, pointer, text) if isinstance(text, str) else None

    rows: list[SymbolRow] = []
    seen: set[str] = set()
    for form in encoding_forms:
        for field in form.get("fields", ()) or ():
            name = str(field.get("name", ""))
            if not name or name in seen:
                continue
            seen.add(name)
            rows.append(SymbolRow(name, str(field.get("width", "")), str(field.get("signedness", "")) or "—",
                                  role(name), zero(name)))
    for operand in operands:
        name = str(operand.get("field", ""))
        if name and name not in seen:
            seen.add(name)
            rows.append(SymbolRow(name, "—", "—", role(name), zero(name)))
    return tuple(rows)


def _forms_for_symbols(data: SiteData, unit: Unit) -> list[Mapping[str, Any]]:
    records = [r for r in unit.catalog_records if isinstance(r, Mapping)]
    tile = [r for r in records if "command_mnemonic" in r]
    if tile:
        carrier = data.catalog.find_instruction(str(tile[0]["command_mnemonic"]), "block")
        if carrier is not None:
            return [r for r in carrier.catalog_records if isinstance(r, Mapping) and "fields" in r][:1]
        return []
    return [r for r in records if "fields" in r]


def _unit_link(data: SiteData, src: str, mnemonic: str) -> Link:
    target = data.catalog.find_instruction(mnemonic, "block") or data.catalog.find_instruction(mnemonic)
    return Link(mnemonic, routes.relative(src, routes.unit_src(target)) if target is not None else None)


def relations(data: SiteData, unit: Unit, src: str, lines) -> dict[str, Any]:
    """Links from an instruction page: its carrier(s), the unit of each bundle line, depends_on, requirements."""
    from .requirements_view import requirement_href
    cat = data.catalog
    carriers: list[str] = []
    for record in unit.catalog_records:
        if isinstance(record, Mapping) and isinstance(record.get("command_mnemonic"), str):
            carriers.append(record["command_mnemonic"])
    line_hrefs = []
    for line in lines:
        head = line.text.split(" ", 1)[0].rstrip(",")
        link = _unit_link(data, src, head) if head and head != unit.mnemonic else Link(head, None)
        line_hrefs.append(link.href)
        if head.startswith("BSTART.") and head not in carriers:
            carriers.append(head)
    depends = tuple(Link(d, routes.relative(src, routes.unit_src(cat.units[d])) if d in cat.units else None)
                    for d in unit.depends_on)
    rid = unit.requirement_id
    return {
        "carriers": tuple(_unit_link(data, src, c) for c in carriers if c != unit.mnemonic),
        "line_hrefs": tuple(line_hrefs),
        "depends": depends,
        "requirement": Link(rid, requirement_href(cat, src, rid)) if rid and rid in cat.requirements else None,
        "ndf_req_hrefs": {c.id: requirement_href(cat, src, c.id) for c in unit.ndf},
    }


@dataclass(frozen=True)
class CostlyParts:
    """The parts of an instruction's page model that cost most to make (Pygments, the register diagrams, the
    JSON blocks: four fifths of a model), and that are plain values: another process can make them."""

    regions: tuple[AslRegion, ...]
    encoding: EncodingView
    record_json: Markup
    trace_json: Markup
    full_asl: Markup = Markup("")  # the whole unit, its names linked, its declaring lines anchors
    asl_names: tuple[str, ...] = ()  # every name the regions and the listing show (linked or not)


def costly_parts(data: SiteData, unit: Unit, trace: dict[str, Any] | None = None) -> CostlyParts:
    """``trace``: the unit's traceability row when the caller has it already."""
    from ..analysis.asl_index import identifier_index
    from .asl_links import link_names, linked_listing, name_tokens
    index, src = identifier_index(data.catalog), routes.unit_src(unit)
    regions, names = [], set()
    for r in unit.regions:
        if r.name in ("decode", "operation"):
            html = highlighted(r.text.rstrip("\n"), "asl", r.begin_line + 1)
            names.update(name_tokens(html))
            regions.append(AslRegion(r.name, r.path, r.begin_line + 1, r.end_line - 1,
                                     link_names(html, index, data.catalog, src, unit.id, r.begin_line + 1)))
    full_asl, listed = linked_listing(unit.file.text.rstrip("\n"), index, data.catalog, src, unit.id)
    names.update(listed)
    return CostlyParts(
        regions=tuple(regions),
        encoding=encoding_view(data.catalog, unit),
        record_json=json_block(thaw(unit.record)),
        trace_json=json_block(trace if trace is not None else data.trace_row(unit)),
        asl_names=tuple(sorted(names)),
        full_asl=full_asl)


def build_instruction_model(data: SiteData, unit: Unit, costly: CostlyParts | None = None) -> InstructionModel:
    """``costly``: the unit's :func:`costly_parts` made beforehand (render/pages.py, ``prepare``), else made here."""
    contract = unit.contract
    prose: dict[str, tuple[Prose, ...]] = {}
    for key in CONTRACT_PROSE:
        items = contract.get(key, ()) or ()
        prose[key] = tuple(Prose(unit.id, f"/contract/{key}/{i}", t) for i, t in enumerate(items) if isinstance(t, str))
    zeros = contract.get("field_zero_meanings", {}) or {}
    zero_meanings = tuple((str(k), Prose(unit.id, "/contract/field_zero_meanings/" + _escape_token(k), v))
                          for k, v in zeros.items() if isinstance(v, str))
    prose["field_zero_meanings"] = tuple(p for _k, p in zero_meanings)
    operands = tuple(
        (str(o.get("field", "")), Prose(unit.id, f"/contract/operands/{i}/role", o["role"]) if isinstance(o.get("role"), str) else None)
        for i, o in enumerate(contract.get("operands", ()) or ()) if isinstance(o, Mapping))
    src = routes.unit_src(unit)
    trace = data.trace_row(unit)
    costly = costly or costly_parts(data, unit, trace)
    # the code's links depend on where other units define the names: asked through the tree, so the renderer
    # records the answers with the page (render/pages.py) and makes the page again when one changes
    lookup = getattr(data.tree, "asl_definitions", None)
    if lookup is not None:
        lookup(costly.asl_names)
    documentation = trace.get("documentation") if isinstance(trace.get("documentation"), str) else None
    assembly = assembly_view(unit)
    from .carried_ops import carried_operations
    from .field_values import field_value_tables
    from .findings import flags_notices, semantics_notices
    return InstructionModel(
        unit=unit, src=src,
        summary=Prose(unit.id, "/summary", unit.summary),
        assembly=assembly,
        symbols=symbol_rows(unit, _forms_for_symbols(data, unit)),
        encoding=costly.encoding,
        contract=prose,
        contract_operands=operands,
        examples=example_views(data.examples.get(unit.id, ())),
        regions=costly.regions,
        full_asl=costly.full_asl,
        ndf=unit.ndf,
        evidence=evidence_view(data, unit, src),
        record_fields=len(unit.record),
        record_json=costly.record_json,
        trace_json=costly.trace_json,
        documentation=documentation,
        documentation_sha256=data.tree.sha256(documentation) if documentation else None,
        findings=data.findings_of(unit),
        flags_via=flags_notices(data.catalog, data.flags_via(unit), unit, src, via=True),
        semantics=semantics_notices(data.catalog, data.semantics, unit, src),
        zero_meanings=zero_meanings,
        avs_examples=avs_example_views(data.catalog, unit, data.avs_examples.get(unit.id, ()), src),
        teaching=teaching_view(data.teaching[unit.id]) if unit.id in data.teaching else None,
        carried=carried_operations(data.catalog, unit),
        field_values=field_value_tables(data.catalog, unit, src),
        **relations(data, unit, src, assembly.lines),
    )


