"""The model-check findings pages and diagnostics share, each computed once per load and remembered across
loads while what it reads is unchanged (``memo``: a load_memo.LoadMemo; None computes afresh).

- FLAGS-PROSE (flags.py) reads every unit's ASL text and the NDF clauses' places;
- SEMANTICS-PROSE (semantics.py) has its own verdict key (the units the witness can reach);
- EXAMPLE-ASM (examples.py and findings.py, per instruction for the pages) reads the records only.

A serving reload after a save of one unit so recomputes only what that save can change.
"""

from __future__ import annotations

from ..model.catalog import Catalog


def _memo(memo):
    from ..store.load_memo import NoMemo
    return memo if memo is not None else NoMemo()


def units_key(catalog: Catalog) -> tuple:
    """Every unit's path and sha256, and every NDF clause's place: what a text check of the ASL reads."""
    return (tuple(sorted((u.path, u.file.sha256) for u in catalog.units.values())),
            tuple((c.id, c.path, c.line) for c in catalog.ndf_clauses))


def flags(catalog: Catalog, memo=None) -> tuple:
    from .flags import flags_findings
    return _memo(memo).get(("flags-findings", units_key(catalog)), lambda: tuple(flags_findings(catalog)))


def semantics(catalog: Catalog) -> tuple:
    """Remembered by semantics_check itself (its verdict key), not by the load memo."""
    from .semantics import semantics_findings
    return semantics_findings(catalog)


def assembly(catalog: Catalog, memo=None) -> dict:
    """unit id -> the EXAMPLE-ASM findings of that instruction (checks.findings.Finding tuple)."""
    from .examples import records_key
    from .findings import assembly_findings_by_unit
    return _memo(memo).get(("assembly-findings", records_key(catalog)), lambda: assembly_findings_by_unit(catalog))
