"""Requirements split into pages a reader can scroll: one page per surface, and per first classification
segment of the owning unit when a surface holds more than :data:`MAX_PER_PAGE` requirements.

Every requirement keeps a stable anchor (its id) on exactly one page; :func:`requirement_href` is the one
place that knows which, so owner pages, test rows and index pages link to the row itself.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ..model.catalog import Catalog
from ..store.memo import Memo
from . import routes

MAX_PER_PAGE = 250
SURFACE_ORDER = ("tile", "block", "scalar", "arch")


@dataclass(frozen=True)
class RequirementPage:
    surface: str
    segment: str  # "" when the whole surface is one page
    src: str
    owners: tuple[tuple[str, tuple[str, ...]], ...]  # (owner unit id, its requirement ids), in reading order

    @property
    def count(self) -> int:
        return sum(len(ids) for _owner, ids in self.owners)


def _surface_key(surface: str) -> tuple[int, str]:
    return (SURFACE_ORDER.index(surface) if surface in SURFACE_ORDER else len(SURFACE_ORDER), surface)


def _place(cat: Catalog, rid: str) -> tuple[str, str, str]:
    req = cat.requirements[rid]
    owner = cat.units.get(req.owner)
    surface = owner.surface if owner is not None else "other"
    segment = owner.classification[0] if owner is not None and owner.classification else "other"
    return surface, segment, req.owner


_MEMO = Memo(__name__, "the requirement pages of a catalog: id(catalog) -> (catalog, pages, requirement -> src)",
             limit=4)


def _memo(cat: Catalog) -> tuple[tuple[RequirementPage, ...], dict[str, str]]:
    known = _MEMO.get(id(cat))
    if known is not None and known[0] is cat:  # (the catalog is kept in the entry, so its id is not reused meanwhile)
        return known[1], known[2]
    pages = _build(cat)
    where = {rid: page.src for page in pages for _owner, ids in page.owners for rid in ids}
    _MEMO.pop(id(cat), None)
    _MEMO[id(cat)] = (cat, pages, where)
    return pages, where


def requirement_pages(cat: Catalog) -> tuple[RequirementPage, ...]:
    return _memo(cat)[0]


def _build(cat: Catalog) -> tuple[RequirementPage, ...]:
    by_surface: dict[str, dict[str, dict[str, list[str]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for rid in sorted(cat.requirements):
        surface, segment, owner = _place(cat, rid)
        by_surface[surface][segment][owner].append(rid)
    pages: list[RequirementPage] = []
    for surface in sorted(by_surface, key=_surface_key):
        segments = by_surface[surface]
        total = sum(len(ids) for owners in segments.values() for ids in owners.values())
        if total <= MAX_PER_PAGE:
            merged: dict[str, list[str]] = {}
            for segment in sorted(segments):
                merged.update(segments[segment])
            pages.append(_page(surface, "", merged))
        else:
            pages.extend(_page(surface, segment, segments[segment]) for segment in sorted(segments))
    return tuple(pages)


def _page(surface: str, segment: str, owners: dict[str, list[str]]) -> RequirementPage:
    seg = routes._segment
    src = f"requirements/{seg(surface)}/{seg(segment)}.md" if segment else f"requirements/{seg(surface)}.md"
    return RequirementPage(surface, segment, src, tuple((o, tuple(ids)) for o, ids in sorted(owners.items())))


def requirement_href(cat: Catalog, from_src: str, rid: str) -> str | None:
    """The link from page ``from_src`` to the row of requirement ``rid`` (None for an unknown id)."""
    src = _memo(cat)[1].get(rid)
    return routes.relative(from_src, src, rid) if src else None


def page_rows(cat: Catalog, page: RequirementPage) -> list[dict]:
    """The owner groups of one requirements page, each row with its owner and test links."""
    src = page.src
    groups = []
    for owner_id, ids in page.owners:
        owner = cat.units.get(owner_id)
        owner_src = routes.unit_src(owner) if owner is not None else None
        rows = []
        for rid in ids:
            req = cat.requirements[rid]
            anchor = rid if req.origin == "ndf" else "ndf"
            tests = []
            for t in cat.tests_by_requirement.get(rid, ()):
                test_unit = cat.unit_for_path(cat.tests[t].source)
                tests.append((t, routes.relative(src, routes.unit_src(test_unit), t) if test_unit else None))
            rows.append({"req": req, "owner_href": routes.relative(src, owner_src, anchor) if owner_src else None,
                         "tests": tests})
        groups.append({"owner": owner_id, "href": routes.relative(src, owner_src) if owner_src else None, "rows": rows})
    return groups
