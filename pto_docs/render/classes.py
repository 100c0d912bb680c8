"""Classification pages: one page per surface and per classification prefix of the instructions
(``instructions/scalar/agu/all/``, ``instructions/tile/reduce-and-expand/all/``, ...), each listing the
instructions beneath it, in the folder its instructions' pages live in. An instruction page's classification
labels link to them, the navigation puts each first in its section (so the breadcrumbs' section links open it).

A page whose URL another page of the site already has (a hostile tree: an instruction file named like a folder,
or two classification names that sanitise to the same URL segment) is left out, and its labels stay text."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ..model.catalog import Catalog, Unit
from . import routes

INDEX_PAGES = (routes.HOME, routes.INSTRUCTION_INDEX, routes.UNIT_INDEX, routes.ADR_INDEX, routes.REQUIREMENTS,
               routes.TRACEABILITY)


@dataclass(frozen=True)
class ClassPage:
    surface: str
    path: tuple[str, ...]  # the classification prefix; () for the surface's own page
    src: str
    units: tuple[Unit, ...]  # every instruction beneath, by mnemonic


STEM = "all"  # not index.md: the navigation draws a section's index page in full on each of its pages (speedups/
# nav_cache.py draws an ordinary page's once per group), and a page per class was 4 s more CPU on the real tree


def class_src(surface: str, path: tuple[str, ...]) -> str:
    return "/".join(["instructions", routes._segment(surface), *(routes._segment(p) for p in path), STEM + ".md"])


def class_pages(catalog: Catalog) -> dict[tuple[str, tuple[str, ...]], ClassPage]:
    """(surface, classification prefix) -> its page, for every prefix of every instruction's classification."""
    members: dict[tuple[str, tuple[str, ...]], list[Unit]] = defaultdict(list)
    for u in catalog.instructions:
        for depth in range(len(u.classification) + 1):
            members[(u.surface, tuple(u.classification[:depth]))].append(u)
    taken = {routes.url_of(routes.unit_src(u)) for u in catalog.units.values()}
    taken |= {routes.url_of(src) for src in INDEX_PAGES}
    taken |= {routes.url_of(routes.adr_src(a)) for a in catalog.adrs}
    by_url: dict[str, list] = defaultdict(list)
    for key in members:
        by_url[routes.url_of(class_src(*key))].append(key)
    out = {}
    for url, keys in by_url.items():
        if len(keys) != 1 or url in taken:
            continue
        (key,) = keys
        units = tuple(sorted(members[key], key=lambda u: (u.mnemonic or "", u.id)))
        out[key] = ClassPage(key[0], key[1], class_src(*key), units)
    return dict(sorted(out.items()))


def class_links(pages: dict, unit: Unit, from_src: str) -> list[tuple[str, str | None]]:
    """(label, href or None) for each segment of ``unit``'s classification: the page of the prefix it ends."""
    out = []
    for depth in range(1, len(unit.classification) + 1):
        page = pages.get((unit.surface, tuple(unit.classification[:depth])))
        out.append((unit.classification[depth - 1], routes.relative(from_src, page.src) if page else None))
    return out
