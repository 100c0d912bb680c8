"""Index pages (home, instructions, units, ADRs, requirements, traceability report); the nav is navigation.py."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

from ..i18n import labels
from ..i18n.long_names import long_name
from . import routes
from .env import Prose
from .parts import PageParts

# ``r`` below: the SiteRenderer (pages.py) whose pages() yields these pages (not imported: pages.py imports this)
SiteRenderer = Any

SURFACE_ORDER = ("tile", "block", "scalar", "arch")


def _surface_key(surface: str) -> tuple[int, str]:
    return (SURFACE_ORDER.index(surface) if surface in SURFACE_ORDER else len(SURFACE_ORDER), surface)


def surface_label(locale: str, surface: str) -> str:
    lab = labels(locale)
    key = f"surface.{surface}"
    return lab.t(key) if key in lab.keys() else surface


def index_pages(r: SiteRenderer, locale: str) -> Iterator[tuple[str, PageParts]]:
    cat = r.catalog
    instructions = sorted(cat.instructions, key=lambda u: (_surface_key(u.surface), u.classification, u.mnemonic or ""))
    units = [u for u in r.units if not u.is_instruction]

    def render(template: str, src: str, **values: Any) -> PageParts:
        return r.render_parts(template, src, locale, **values)

    def row(u, src):
        return {"unit": u, "href": routes.relative(src, routes.unit_src(u)), "summary": Prose(u.id, "/summary", u.summary)}

    pages = r.class_pages()
    src = routes.HOME
    yield src, render("pages/home.md.j2", src, counts={
        "instructions": len(instructions), "units": len(units), "adrs": len(cat.adrs),
        "requirements": len(cat.requirements), "tests": len(cat.tests)},
        has_report=trace_markdown(r, locale) is not None, classes=class_list(pages, locale, src, depth=1))

    src = routes.INSTRUCTION_INDEX
    by_surface: dict[str, list] = defaultdict(list)
    for u in instructions:
        by_surface[u.surface].append(row(u, src))
    yield src, render("pages/instruction_index.md.j2", src,
                      surfaces=[(s, surface_label(locale, s), rows) for s, rows in sorted(by_surface.items(), key=lambda kv: _surface_key(kv[0]))],
                      classes=sorted(Counter((u.surface, "/".join(u.classification)) for u in instructions).items()),
                      engines=sorted(Counter(u.engine or "—" for u in instructions).items()),
                      total=len(instructions), letters=a_to_z(instructions, pages, locale, src),
                      class_options=class_list(pages, locale, src, depth=1))

    for page in pages.values():
        yield page.src, class_page(r, page, pages, locale, render)

    src = routes.UNIT_INDEX
    yield src, render("pages/unit_index.md.j2", src, rows=[row(u, src) for u in units])

    from .data_types_page import data_types_values
    values = data_types_values(cat, locale)
    if values is not None:
        yield routes.DATA_TYPES, render("pages/data_types.md.j2", routes.DATA_TYPES, **values)

    src = routes.ADR_INDEX
    yield src, render("pages/adr_index.md.j2", src, rows=[
        {"adr": cat.adrs[a], "href": routes.relative(src, routes.adr_src(a)), "title": Prose(a, "/title", cat.adrs[a].title)}
        for a in sorted(cat.adrs)])

    yield from requirement_index_pages(r, locale, render)

    report = trace_markdown(r, locale)
    if report is not None:
        yield routes.TRACEABILITY, report_with_findings(r, locale, report)

    from .changes import changes_pages  # (none without the plugin's ``previous``)
    yield from changes_pages(r, locale, render)


def class_title(locale: str, page) -> str:
    """"Scalar / agu": the surface's label and the classification path."""
    return " / ".join([surface_label(locale, page.surface), *page.path])


def class_list(pages: dict, locale: str, src: str, depth: int, surface: str | None = None,
               under: tuple[str, ...] = ()) -> list[dict]:
    """The classification pages ``depth`` segments deep (below ``under`` of ``surface`` when given), in page
    order: label, link, key (for the index filter) and instruction count."""
    out = []
    for (s, path), page in sorted(pages.items(), key=lambda kv: (_surface_key(kv[0][0]), kv[0][1])):
        if len(path) != depth or (surface is not None and (s != surface or path[:len(under)] != under)):
            continue
        out.append({"label": class_title(locale, page), "surface_label": surface_label(locale, s), "path": path,
                    "short": path[-1] if path else surface_label(locale, s),
                    "href": routes.relative(src, page.src), "key": "/".join((s, *path)), "count": len(page.units)})
    return out


def a_to_z(instructions, pages: dict, locale: str, src: str) -> list[tuple[str, list[dict]]]:
    """The instructions by mnemonic, grouped by initial letter (anything else under "#")."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for u in sorted(instructions, key=lambda u: ((u.mnemonic or "").upper(), u.id)):
        initial = (u.mnemonic or "#")[:1].upper()
        top = pages.get((u.surface, tuple(u.classification[:1])))
        full = pages.get((u.surface, tuple(u.classification)))
        groups[initial if "A" <= initial <= "Z" else "#"].append({
            "mnemonic": u.mnemonic or u.id, "href": routes.relative(src, routes.unit_src(u)),
            "name": long_name(u.mnemonic, locale), "surface": u.surface, "surface_label": surface_label(locale, u.surface),
            "class_key": "/".join((u.surface, *u.classification[:1])), "class_label": "/".join(u.classification),
            "class_href": routes.relative(src, (full or top).src) if (full or top) else None})
    return sorted(groups.items(), key=lambda kv: (kv[0] == "#", kv[0]))


def class_page(r: SiteRenderer, page, pages: dict, locale: str, render) -> PageParts:
    src = page.src
    sub = class_list(pages, locale, src, len(page.path) + 1, page.surface, page.path)
    rows = [] if not page.path and sub else [
        {"unit": u, "href": routes.relative(src, routes.unit_src(u)), "name": long_name(u.mnemonic, locale),
         "rest": "/".join(u.classification[len(page.path):]), "summary": Prose(u.id, "/summary", u.summary)}
        for u in page.units]
    return render("pages/class_page.md.j2", src, surface_label=surface_label(locale, page.surface), path=page.path, sub=sub, rows=rows,
                  count=len(page.units), index_href=routes.relative(src, routes.INSTRUCTION_INDEX))


def requirement_page_title(locale: str, page) -> str:
    lab = labels(locale)
    where = surface_label(locale, page.surface) + (f" / {page.segment}" if page.segment else "")
    return lab.t("requirements.page_title", where=where)


def requirement_index_pages(r: SiteRenderer, locale: str, render) -> Iterator[tuple[str, PageParts]]:
    from .requirements_view import page_rows, requirement_pages
    cat = r.catalog
    pages = requirement_pages(cat)
    src = routes.REQUIREMENTS
    summary = [{"surface_label": surface_label(locale, p.surface), "segment": p.segment,
                "href": routes.relative(src, p.src), "count": p.count, "owners": len(p.owners),
                "tests": sum(len(cat.tests_by_requirement.get(rid, ())) for _o, ids in p.owners for rid in ids)}
               for p in pages]
    yield src, render("pages/requirements.md.j2", src, pages=summary, total=len(cat.requirements))
    for p in pages:
        yield p.src, render("pages/requirements_page.md.j2", p.src, title=requirement_page_title(locale, p),
                            groups=page_rows(cat, p), count=p.count,
                            index_href=routes.relative(p.src, routes.REQUIREMENTS))


def report_with_findings(r: SiteRenderer, locale: str, report: str) -> PageParts:
    """The traceability report page with the model-check findings appended (one searchable fragment)."""
    src = routes.TRACEABILITY
    findings = [(f, routes.relative(src, routes.unit_src(r.catalog.units[f.unit_id]), "model-findings"))
                for f in r.data.report_findings]
    lab = labels(locale)
    html = r.env.get_template("partials/findings_report.html.j2").render(L=lab.t, findings=findings, locale=locale)
    heading = f"\n\n## {lab.t('finding.report_title')} {{: #model-findings }}\n\n<!--pto-f:0-->\n"
    return PageParts(report.rstrip("\n") + heading, [html])


def trace_markdown(r: SiteRenderer, locale: str) -> str | None:
    """The traceability report page's Markdown, or None when the page is left out (analysis/sitedata.py)."""
    return r.data.trace_page(locale)
