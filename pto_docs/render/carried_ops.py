"""The operations a carrier selects: for a block ``BSTART.*`` page, every tile operation whose catalog record names it
as ``command_mnemonic`` (its Mode:Function map for BSTART.TEPL), each a link to the operation's page.

An assembly alias of a carrier (``alias_of`` with an ``alias_engine``: BSTART.VEC, BSTART.SFU) lists the
operations of its carrier that run on its engine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model.catalog import Catalog, Unit
from . import routes
from .env import Prose


@dataclass(frozen=True)
class CarriedOperation:
    mode: int | None
    function: int | None
    selector: str | None
    name: str
    engine: str | None
    href: str
    summary: Prose


@dataclass(frozen=True)
class CarriedView:
    carrier: str  # the carrier the records name (BSTART.TEPL for its aliases)
    engine: str | None  # the alias' engine, when the page is an alias'
    by_mode: bool  # the records select by Mode and Function (show both columns)
    operations: tuple[CarriedOperation, ...]


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _carried_by(catalog: Catalog) -> dict[str, list[tuple[Unit, Mapping[str, Any]]]]:
    out: dict[str, list[tuple[Unit, Mapping[str, Any]]]] = {}
    for unit in catalog.instructions:
        for record in unit.catalog_records:
            if isinstance(record, Mapping) and isinstance(record.get("command_mnemonic"), str):
                out.setdefault(record["command_mnemonic"], []).append((unit, record))
    return out


_LAST: list = []  # [(catalog, carrier -> its operations)]


def carried_operations(catalog: Catalog, unit: Unit) -> CarriedView | None:
    """What ``unit`` (a block instruction) carries, or None when it carries nothing."""
    if unit.surface != "block" or not unit.is_instruction or not unit.mnemonic:
        return None
    if not (_LAST and _LAST[0][0] is catalog):
        _LAST[:] = [(catalog, _carried_by(catalog))]
    carried = _LAST[0][1]
    carrier, engine = unit.mnemonic, None
    alias, alias_engine = unit.record.get("alias_of"), unit.record.get("alias_engine")
    if isinstance(alias, str) and alias and isinstance(alias_engine, str) and alias_engine:
        carrier, engine = alias, alias_engine
    entries = [(u, r) for u, r in carried.get(carrier, ()) if engine is None or u.engine == engine]
    if not entries:
        return None
    src = routes.unit_src(unit)
    ops = []
    for op_unit, record in entries:
        selector = record.get("selector")
        ops.append(CarriedOperation(
            _int(record.get("mode")), _int(record.get("function")), selector if isinstance(selector, str) else None,
            str(record.get("name") or op_unit.mnemonic), op_unit.engine if isinstance(op_unit.engine, str) else None,
            routes.relative(src, routes.unit_src(op_unit)), Prose(op_unit.id, "/summary", op_unit.summary)))
    ops.sort(key=lambda o: (o.mode if o.mode is not None else -1, o.function if o.function is not None else -1, o.name))
    return CarriedView(carrier, engine, any(o.mode is not None for o in ops), tuple(ops))
