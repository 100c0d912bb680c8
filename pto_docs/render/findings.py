"""FLAGS-PROSE and SEMANTICS-PROSE findings (checks/flags.py, checks/semantics.py) as page data, with the links of
the page that shows them; the model-check findings themselves are checks/findings.py's."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.catalog import Catalog, Unit


@dataclass(frozen=True)
class FlagsNotice:
    """FLAGS-PROSE (flags_check.py) as page data: on the unit that holds the Execute* function, and on every
    instruction whose ``InstructionContractExecute_<M>`` calls it."""

    function: str
    path: str
    line: int
    href: str | None  # the page of the unit holding the function
    discarder: str
    discarder_path: str
    discarder_line: int
    with_flags: str
    clause: str
    clause_href: str | None


def flags_notices(catalog: Catalog, findings, unit: Unit, src: str, *, via: bool) -> tuple[FlagsNotice, ...]:
    """The notices of ``unit``: its own findings, or (``via``) ``findings`` as they are, those of the functions its
    execution calls (SiteData.flags_via)."""
    from . import routes
    out = []
    for f in findings:
        if not via and f.path != unit.path:
            continue
        owner = catalog.unit_for_path(f.path)
        href = routes.relative(src, routes.unit_src(owner)) + f"#flags-{f.function}" if owner is not None else None
        clause_owner = catalog.unit_for_path(f.clause_path)
        clause_href = routes.relative(src, routes.unit_src(clause_owner), f.clause) if clause_owner is not None else None
        out.append(FlagsNotice(f.function, f.path, f.line, href, f.discarder, f.discarder_path, f.discarder_line,
                               f.with_flags, f.clause, clause_href))
    return tuple(out)


@dataclass(frozen=True)
class SemanticsNotice:
    """SEMANTICS-PROSE (semantics_check.py) as page data, on the instruction it concerns: the witness, what the
    ASL wrote and what the prose's rule gives, with links to the handler's unit and the NDF clause."""

    finding: object  # semantics_check.SemanticsFinding
    handler_href: str | None
    clause_href: str | None


def semantics_notices(catalog: Catalog, findings, unit: Unit, src: str) -> tuple[SemanticsNotice, ...]:
    from . import routes
    out = []
    for f in findings:
        if f.unit_id != unit.id:
            continue
        owner = catalog.unit_for_path(f.handler_path) if f.handler_path else None
        handler_href = routes.relative(src, routes.unit_src(owner)) if owner is not None else None
        clause_owner = catalog.unit_for_path(f.clause_path) if f.clause else None
        clause_href = routes.relative(src, routes.unit_src(clause_owner), f.clause) if clause_owner is not None else None
        out.append(SemanticsNotice(f, handler_href, clause_href))
    return tuple(out)
