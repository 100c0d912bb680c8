"""Where the ASL model defines each global name (functions, types, globals, enumeration labels): the index the
pages' code blocks link their identifiers through, made once per catalog.

A name declared in several units (an overload, a duplicate) goes to its first declaration in unit path order;
within a unit, the first line that declares it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..asl.names import definitions
from ..model.catalog import Catalog
from ..store.memo import Memo


@dataclass(frozen=True)
class Target:
    unit_id: str
    path: str
    line: int
    kind: str  # "function", "type", "global" or "label"


@dataclass(frozen=True)
class IdentifierIndex:
    targets: Mapping[str, Target]  # name -> where it is defined
    lines: Mapping[str, frozenset[int]]  # unit id -> every line of it that declares a global name (its anchors)

    def get(self, name: str) -> Target | None:
        return self.targets.get(name)

    def answers(self, names: tuple[str, ...]) -> tuple[tuple[str, int] | None, ...]:
        """What a page shows of each of ``names``: (path, line) of its definition, or None (the pages record it as
        a read, render/pages.py, so a page is made again when an answer changes)."""
        get = self.targets.get
        return tuple((t.path, t.line) if (t := get(name)) is not None else None for name in names)


_LAST: list = []  # [(catalog, index)]: the index of the catalog asked last
_DEFINITIONS = Memo(__name__, "a unit file's sha256 -> the global names its text defines (asl.names.definitions): a "
                    "serving reload indexes the saved unit only", limit=8192)


def _definitions(unit) -> list:
    sha = unit.file.sha256
    found = _DEFINITIONS.get(sha)
    if found is None:
        found = _DEFINITIONS[sha] = definitions(unit.file.text)
    return found


def identifier_index(catalog: Catalog) -> IdentifierIndex:
    if _LAST and _LAST[0][0] is catalog:
        return _LAST[0][1]
    targets: dict[str, Target] = {}
    lines: dict[str, frozenset[int]] = {}
    for unit in sorted(catalog.units.values(), key=lambda u: u.path):
        found = _definitions(unit)
        if found:
            lines[unit.id] = frozenset(d.line for d in found)
        for d in found:
            if d.name not in targets:
                targets[d.name] = Target(unit.id, unit.path, d.line, d.kind)
    index = IdentifierIndex(targets, lines)
    _LAST[:] = [(catalog, index)]
    return index
