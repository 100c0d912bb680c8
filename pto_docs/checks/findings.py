"""Model-check findings (checks/examples.py) as data: the pages show them on the instruction they concern and
list them on the traceability report page, so a contradiction in the spec is visible to readers, not only in the
build log (render/findings.py makes the notices of FLAGS-PROSE and SEMANTICS-PROSE).

A finding carries its code, the spec text it is about (a legality sentence, a contract example, the block
composition; English, as all spec prose) and what the model accepts, as data the templates localize.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.catalog import Catalog, Unit
from ..model.prose import Prose


@dataclass(frozen=True)
class Finding:
    code: str
    mnemonic: str
    unit_id: str
    pointer: str
    spec_text: Prose
    listed: tuple[str, ...] = ()  # DATATYPE-PROSE: the types the sentence lists
    accepted: tuple[str, ...] = ()  # the types the model (the ASL) accepts
    also: tuple[str, ...] = ()  # accepted but not listed
    rejects: tuple[str, ...] = ()  # listed but not accepted
    detail: str = ""  # EXAMPLE-ILLEGAL / BLOCK-ILLEGAL: the model's reason (English, like the executor's output)
    segment: str = ""  # EXAMPLE-ASM: the line that does not assemble (detail is "segment: reason")
    reason: str = ""  # the checker's own reason (detail without the segment), which the pages say in their language


def _spec_text(unit: Unit, pointer: str) -> Prose:
    parts = pointer.strip("/").split("/")
    contract = unit.contract
    if parts[:1] == ["contract"] and len(parts) == 3 and parts[2].isdigit():
        items = contract.get(parts[1], ()) or ()
        index = int(parts[2])
        if index < len(items) and isinstance(items[index], str):
            return Prose(unit.id, pointer, items[index])
    if pointer == "/block":
        lines = [line for line in unit.record.get("block", ()) if isinstance(line, str)]
        return Prose(unit.id, "", "; ".join(lines))
    return Prose(unit.id, "", "")


def findings_of(unit: Unit, catalog: Catalog | None = None, assembly: dict | None = None,
                memo=None) -> tuple[Finding, ...]:
    """The findings of one instruction: the reference executor's (tile instructions it models) and, given the
    catalog, the assembler's (EXAMPLE-ASM, every instruction; ``assembly``: model_checks.assembly, when the
    caller has them already). ``memo``: the load's memo, which holds the executor's verdicts of the unit's
    examples once the consistency checks have run (examples.unit_check)."""
    if assembly is None and catalog is not None and unit.is_instruction:
        assembly = assembly_findings_by_unit(catalog, (unit,))
    out = list(assembly.get(unit.id, ())) if assembly is not None and unit.is_instruction else []
    return tuple(out) + _model_findings(unit, memo)


def assembly_findings_by_unit(catalog: Catalog, units=None) -> dict[str, tuple[Finding, ...]]:
    """EXAMPLE-ASM findings of ``units`` (default: every instruction), by unit id; one assembler for them all."""
    from ..isa.assembler import Assembler
    assembler, instruction_ids = Assembler(catalog), frozenset(u.id for u in catalog.instructions)
    return {u.id: found for u in (catalog.instructions if units is None else units)
            if (found := _assembly_findings(u, catalog, assembler, instruction_ids))}


def _assembly_findings(unit: Unit, catalog: Catalog, assembler, instruction_ids: frozenset) -> tuple[Finding, ...]:
    from .examples import assembly_lines
    out = []
    for pointer, segment, verdict, message, _owner in assembly_lines(catalog, unit, assembler, instruction_ids):
        if verdict == "mismatch":
            english = unit.contract.get("examples", ())[int(pointer.rsplit("/", 1)[1])] \
                if pointer.startswith("/contract/") else unit.record.get("block", ())[int(pointer.rsplit("/", 1)[1])]
            out.append(Finding("EXAMPLE-ASM", unit.mnemonic or "", unit.id, pointer, Prose(unit.id, pointer, english),
                               detail=f"{segment}: {message}", segment=segment, reason=message))
    return tuple(out)


def _model_findings(unit: Unit, memo=None) -> tuple[Finding, ...]:
    from ..executor import accepted_data_types, supported_instructions
    if not unit.is_instruction or unit.surface != "tile" or unit.mnemonic not in supported_instructions():
        return ()
    from .examples import prose_data_types, unit_check
    accepted = tuple(accepted_data_types(unit.mnemonic))
    out = []
    for d in unit_check(unit, memo):
        text = _spec_text(unit, d.pointer)
        if d.code == "DATATYPE-PROSE":
            listed = prose_data_types(text.english) or set()
            out.append(Finding(d.code, unit.mnemonic or "", unit.id, d.pointer, text,
                               listed=tuple(t for t in _order(listed, accepted)), accepted=accepted,
                               also=tuple(t for t in accepted if t not in listed),
                               rejects=tuple(sorted(listed - set(accepted)))))
        else:
            detail = d.message.split(": ", 1)[1] if ": " in d.message else d.message
            out.append(Finding(d.code, unit.mnemonic or "", unit.id, d.pointer, text, accepted=accepted, detail=detail,
                               reason=detail))
    return tuple(out)


def _order(listed: set[str], accepted: tuple[str, ...]) -> list[str]:
    """The listed types in the model's order, then any the model does not know, alphabetically."""
    return [t for t in accepted if t in listed] + sorted(listed - set(accepted))


def catalog_findings(catalog: Catalog, assembly: dict | None = None) -> tuple[Finding, ...]:
    if assembly is None:
        assembly = assembly_findings_by_unit(catalog)
    return tuple(f for u in sorted(catalog.instructions, key=lambda u: (u.mnemonic or "", u.id))
                 for f in findings_of(u, catalog, assembly))
