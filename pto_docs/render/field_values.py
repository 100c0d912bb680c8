"""Field-value tables of the encoding section: for each field of an instruction with enumerated values (a
``field_contracts`` reference to a field domain of the tree), its values and what each means. A tile operation
shows its carrier's too: the encoded word is the carrier's. DataType values link to the data-type page."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..analysis.data_types import DATA_TYPE_DOMAIN, FieldDomain, field_domains
from ..model.catalog import Catalog, Unit
from . import routes
from .env import Prose

OPEN_AT_MOST = 8  # a table of more values starts collapsed


@dataclass(frozen=True)
class ValueRow:
    value: int
    meaning: str
    href: str | None  # the value's row on the data-type page (DataType values)


@dataclass(frozen=True)
class FieldValues:
    field: str
    domain: str
    width: int | None
    role: Prose | None
    zero: Prose | None
    rejection: Prose | None
    rows: tuple[ValueRow, ...]
    reserved: str  # "15, 21–23, 29–31"
    open: bool


def value_ranges(values: tuple[int, ...]) -> str:
    """Sorted integers as runs: ``(15, 21, 22, 23)`` -> ``"15, 21–23"``."""
    runs: list[list[int]] = []
    for v in sorted(set(values)):
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def _contracts(unit: Unit) -> list[tuple[str, str]]:
    contracts = unit.contract.get("field_contracts") or {}
    out = []
    if isinstance(contracts, Mapping):
        for name, ref in contracts.items():
            target = ref.get("ref") if isinstance(ref, Mapping) else None
            if isinstance(name, str) and isinstance(target, str):
                out.append((name, target))
    return out


def _carrier(catalog: Catalog, unit: Unit) -> Unit | None:
    for record in unit.catalog_records:
        if isinstance(record, Mapping) and isinstance(record.get("command_mnemonic"), str):
            return catalog.find_instruction(record["command_mnemonic"], "block")
    return None


def field_domains_of(catalog: Catalog, unit: Unit) -> dict[str, FieldDomain]:
    """field name -> its domain, for the instruction's own field contracts and its carrier's."""
    domains = field_domains(catalog)
    out: dict[str, FieldDomain] = {}
    carrier = _carrier(catalog, unit)
    for owner in (unit, carrier) if carrier is not None and carrier is not unit else (unit,):
        for name, ref in _contracts(owner):
            if ref in domains and name not in out:
                out[name] = domains[ref]
    return out


def _prose(domain: FieldDomain, key: str, text: str) -> Prose | None:
    return Prose(domain.owner, f"{domain.pointer}/{key}", text) if text else None


@lru_cache(maxsize=256)  # the same tables recur on every page of a depth (the tile operations' DataType)
def _rows(domain: FieldDomain, types_href: str | None) -> tuple[ValueRow, ...]:
    return tuple(ValueRow(v.value, v.meaning, f"{types_href}#code-{v.value}" if types_href else None)
                 for v in domain.assigned)


def field_value_tables(catalog: Catalog, unit: Unit, src: str) -> tuple[FieldValues, ...]:
    out = []
    for name, domain in field_domains_of(catalog, unit).items():
        rows = _rows(domain, routes.relative(src, routes.DATA_TYPES) if domain.id == DATA_TYPE_DOMAIN else None)
        out.append(FieldValues(name, domain.id, domain.width, _prose(domain, "role", domain.role),
                               _prose(domain, "zero_meaning", domain.zero_meaning),
                               _prose(domain, "rejection", domain.rejection), rows, value_ranges(domain.reserved),
                               len(rows) <= OPEN_AT_MOST))
    return tuple(out)
