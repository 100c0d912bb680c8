"""Enumerated field values the tree defines: its field domains (``field_domains`` of unit records, e.g.
``PTO-FIELD-BLOCK-DATATYPE``: code -> meaning) and, from them, the Tile data-type code table.

A data type's code and name come from the DataType field domain; its width and kind from the hardware
conformance profile's ``data_types`` when the tree has one. Everything here is read from the catalog as data
and derived once per catalog."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model.catalog import Catalog
from ..store.memo import Memo

DATA_TYPE_DOMAIN = "PTO-FIELD-BLOCK-DATATYPE"
HARDWARE_PROFILE = "spec/hardware-conformance-profile.json"


@dataclass(frozen=True)
class FieldValue:
    value: int
    meaning: str


@dataclass(frozen=True)
class FieldDomain:
    """One ``field_domains`` item: the values a field may take and what each one means."""

    id: str
    width: int | None
    role: str
    zero_meaning: str
    assigned: tuple[FieldValue, ...]
    reserved: tuple[int, ...]
    rejection: str
    owner: str  # id of the unit whose record defines it
    pointer: str  # JSON pointer of the item in that record

    def meaning(self, value: int) -> str | None:
        for item in self.assigned:
            if item.value == value:
                return item.meaning
        return None


@dataclass(frozen=True)
class DataType:
    code: int
    name: str
    width: int | None  # storage bits, from the hardware profile
    kind: str | None  # the profile's class: floating, packed-floating, scale, signed-integer ...
    lanes: int | None  # logical lanes per storage unit
    format: str | None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _items(value: Any) -> tuple:
    return tuple(value) if isinstance(value, tuple | list) else ()


def _domain(item: Mapping[str, Any], owner: str, pointer: str) -> FieldDomain | None:
    ident = item.get("id")
    if not isinstance(ident, str) or not ident:
        return None
    assigned = []
    for entry in _items(item.get("assigned")):
        if isinstance(entry, Mapping) and _int(entry.get("value")) is not None and isinstance(entry.get("meaning"), str):
            assigned.append(FieldValue(entry["value"], entry["meaning"]))
    reserved = tuple(v for v in _items(item.get("reserved")) if _int(v) is not None)
    return FieldDomain(ident, _int(item.get("width")), _text(item.get("role")), _text(item.get("zero_meaning")),
                       tuple(sorted(assigned, key=lambda v: v.value)), tuple(sorted(reserved)),
                       _text(item.get("rejection")), owner, pointer)


_CACHE = Memo(__name__, "the field domains, data types and type names of the last catalog: name -> (catalog, value)")


def _cached(name: str, catalog: Catalog, make):
    hit = _CACHE.get(name)
    if hit is not None and hit[0] is catalog:
        return hit[1]
    value = make(catalog)
    _CACHE[name] = (catalog, value)
    return value


def field_domains(catalog: Catalog) -> Mapping[str, FieldDomain]:
    """Every field domain of the tree, by id (the first definition wins; units in path order)."""
    def make(cat: Catalog) -> dict[str, FieldDomain]:
        out: dict[str, FieldDomain] = {}
        for unit in sorted(cat.units.values(), key=lambda u: u.path):
            items = unit.record.get("field_domains", ())
            if not isinstance(items, tuple | list):
                continue
            for index, item in enumerate(items):
                domain = _domain(item, unit.id, f"/field_domains/{index}") if isinstance(item, Mapping) else None
                if domain is not None and domain.id not in out:
                    out[domain.id] = domain
        return out
    return _cached("domains", catalog, make)


def data_types(catalog: Catalog) -> tuple[DataType, ...]:
    """The data-type code table, in code order: the DataType field domain's assigned codes, with width and kind
    from the hardware profile where it lists the same code under the same name. Empty when the tree defines no
    DataType domain."""
    def make(cat: Catalog) -> tuple[DataType, ...]:
        domain = field_domains(cat).get(DATA_TYPE_DOMAIN)
        if domain is None:
            return ()
        profile = cat.json(HARDWARE_PROFILE)
        listed = _items(profile.get("data_types")) if isinstance(profile, Mapping) else ()
        facts = {e.get("code"): e for e in listed if isinstance(e, Mapping) and _int(e.get("code")) is not None}
        out = []
        for item in domain.assigned:
            fact = facts.get(item.value)
            if not isinstance(fact, Mapping) or fact.get("name") != item.meaning:
                fact = {}
            out.append(DataType(item.value, item.meaning, _int(fact.get("storage_bits")),
                                fact.get("class") if isinstance(fact.get("class"), str) else None,
                                _int(fact.get("lanes_per_storage")),
                                fact.get("format") if isinstance(fact.get("format"), str) else None))
        return tuple(out)
    return _cached("data_types", catalog, make)


def data_type_name(catalog: Catalog, code: Any) -> str | None:
    """The name of data-type ``code`` (an int, or a decimal / ``0x`` string) as the tree assigns it: ``25`` ->
    ``"U32"``; None for a reserved, unknown or malformed code."""
    if isinstance(code, str):
        text = code.strip().lower()
        try:
            code = int(text, 16) if text.startswith("0x") else int(text, 10)
        except ValueError:
            return None
    if _int(code) is None:
        return None
    by_code = _cached("names", catalog, lambda cat: {t.code: t.name for t in data_types(cat)})
    return by_code.get(code)


def has_data_types(catalog: Catalog) -> bool:
    """Whether the tree defines data-type codes (the site then has a data-type page)."""
    return bool(data_types(catalog))
