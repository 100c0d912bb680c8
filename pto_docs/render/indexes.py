"""Index pages (home, instructions, units, ADRs, requirements, traceability report); the nav is navigation.py."""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..i18n import labels
from . import routes
from .env import Prose

if TYPE_CHECKING:
    from .pages import PageParts, SiteRenderer

SURFACE_ORDER = ("tile", "block", "scalar", "arch")


def _surface_key(surface: str) -> tuple[int, str]:
    return (SURFACE_ORDER.index(surface) if surface in SURFACE_ORDER else len(SURFACE_ORDER), surface)


def surface_label(locale: str, surface: str) -> str:
    lab = labels(locale)
    key = f"surface.{surface}"
    return lab.t(key) if key in lab.keys() else surface


def index_pages(r: SiteRenderer, locale: str) -> Iterator[tuple[str, PageParts]]:
    from .pages import PageParts
    cat = r.catalog
    instructions = sorted(cat.instructions, key=lambda u: (_surface_key(u.surface), u.classification, u.mnemonic or ""))
    units = [u for u in r.units if not u.is_instruction]

    def render(template: str, src: str, **values: Any) -> PageParts:
        return r.render_parts(template, src, locale, **values)

    def row(u, src):
        return {"unit": u, "href": routes.relative(src, routes.unit_src(u)), "summary": Prose(u.id, "/summary", u.summary)}

    src = routes.HOME
    yield src, render("pages/home.md.j2", src, counts={
        "instructions": len(instructions), "units": len(units), "adrs": len(cat.adrs),
        "requirements": len(cat.requirements), "tests": len(cat.tests)},
        has_report=trace_markdown(r, locale) is not None)

    src = routes.INSTRUCTION_INDEX
    by_surface: dict[str, list] = defaultdict(list)
    for u in instructions:
        by_surface[u.surface].append(row(u, src))
    yield src, render("pages/instruction_index.md.j2", src,
                      surfaces=[(s, surface_label(locale, s), rows) for s, rows in sorted(by_surface.items(), key=lambda kv: _surface_key(kv[0]))],
                      classes=sorted(Counter((u.surface, "/".join(u.classification)) for u in instructions).items()),
                      engines=sorted(Counter(u.engine or "—" for u in instructions).items()),
                      total=len(instructions))

    src = routes.UNIT_INDEX
    yield src, render("pages/unit_index.md.j2", src, rows=[row(u, src) for u in units])

    src = routes.ADR_INDEX
    yield src, render("pages/adr_index.md.j2", src, rows=[
        {"adr": cat.adrs[a], "href": routes.relative(src, routes.adr_src(a)), "title": Prose(a, "/title", cat.adrs[a].title)}
        for a in sorted(cat.adrs)])

    src = routes.REQUIREMENTS
    req_rows = []
    for rid in sorted(cat.requirements):
        req = cat.requirements[rid]
        owner = cat.units.get(req.owner)
        anchor = rid if req.origin == "ndf" else ""
        req_rows.append({
            "req": req,
            "owner_href": routes.relative(src, routes.unit_src(owner), anchor) if owner else None,
            "tests": [(t, routes.relative(src, routes.unit_src(cat.unit_for_path(cat.tests[t].source)), t)
                       if cat.unit_for_path(cat.tests[t].source) else None)
                      for t in cat.tests_by_requirement.get(rid, ())],
        })
    yield src, render("pages/requirements.md.j2", src, rows=req_rows)

    report = trace_markdown(r, locale)
    if report is not None:
        yield routes.TRACEABILITY, PageParts(report)


def trace_available() -> bool:
    try:
        from ..trace import build_report, report_markdown  # noqa: F401
    except ImportError:
        return False
    return True


def trace_markdown(r: SiteRenderer, locale: str) -> str | None:
    """The traceability report page, when the trace package is installed (it owns the page's content).

    Computed once per renderer and language; a failure of the report code leaves the page out (logged)
    rather than failing the site build.
    """
    if not trace_available():
        return None
    cache = r.__dict__.setdefault("_trace_pages", {})
    if locale in cache:
        return cache[locale]
    from ..trace import build_report, report_markdown
    try:
        if "_trace_report" not in r.__dict__:
            examples = tuple(ex for group in r.data.examples.values() for ex in group)
            r._trace_report = build_report(r.catalog, r.data.tree, examples)
        cache[locale] = report_markdown(r._trace_report, locale)
    except Exception as exc:  # the report is another package's; keep the site building without it
        logging.getLogger("mkdocs.plugins.pto-docs").info(f"pto-docs: traceability report page left out: {exc!r}")
        cache[locale] = None
    return cache[locale]
