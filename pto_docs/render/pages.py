"""The site renderer: every generated page of one catalog, in any language, from page models built once.

``SiteRenderer(catalog, tree, examples)`` builds each unit's page model (highlighted ASL, SVG diagrams, JSON
fragments) the first time a language asks for it and keeps it, so the second language costs only the template
pass. ``pages(locale)`` yields ``(src_uri, PageParts)``; ``files()`` yields the non-page files (example cases).

A page is rendered as :class:`PageParts`: a tiny Markdown document (the headings, so MkDocs builds the table of
contents and permalinks, plus placeholder comments) and the pre-rendered, autoescaped HTML fragments the
placeholders stand for. ``<!--pto-f:N-->`` marks a *searchable* fragment (the plugin inserts it after Markdown,
in ``on_page_content``, so Material's search indexes it); ``<!--pto-h:N-->`` marks a *heavy*, non-searchable
one (highlighted ASL, sources, SVG, JSON, tile tables), inserted in ``on_post_page`` after the search plugin
has read the page. Neither Python-Markdown nor the search parser ever walks the large HTML. Record text cannot
forge a placeholder: every record string is escaped, so it never contains ``<!--``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from ..frozen import pretty_json, sha256_text, thaw
from ..i18n import Localized, Translator, labels
from ..model import Catalog, Unit
from ..sources.tree import SpecTree
from . import routes
from .env import Prose, environment
from .evidence import evidence_view
from .fragments import json_block, plain_asl
from .instruction import InstructionModel, build_instruction_model, ndf_views
from .markdown_safe import adr_html, safe_markdown
from .sitedata import SiteData

BANNER = "<!--pto-translation-banner-->"
SEARCHABLE = re.compile(r"<!--pto-f:(\d+)-->")
HEAVY = re.compile(r"<!--pto-h:(\d+)-->")


@dataclass
class PageParts:
    """One generated page: tiny Markdown + searchable fragments + heavy fragments (see the module doc)."""

    markdown: str
    search: list[str] = field(default_factory=list)
    heavy: list[str] = field(default_factory=list)

    def fill_search(self, html: str) -> str:
        return SEARCHABLE.sub(lambda m: self.search[int(m.group(1))], html) if self.search else html

    def fill_heavy(self, html: str) -> str:
        return HEAVY.sub(lambda m: self.heavy[int(m.group(1))], html) if self.heavy else html

    def assembled(self) -> str:
        """The page as one text (Markdown with every fragment in place): for tests and the page hash."""
        return self.fill_heavy(self.fill_search(self.markdown))

    def dump(self) -> str:
        """The Markdown, then every fragment under a separator line (the reviewed golden form of a page)."""
        out = [self.markdown]
        out += [f"\n<!-- ===== pto-f:{i} ===== -->\n{f}\n" for i, f in enumerate(self.search)]
        out += [f"\n<!-- ===== pto-h:{i} ===== -->\n{f}\n" for i, f in enumerate(self.heavy)]
        return "".join(out)

    def size(self) -> int:
        return len(self.markdown) + sum(map(len, self.search)) + sum(map(len, self.heavy))


class Collector:
    """Template helpers that take HTML out of the Markdown: ``{% call frag() %}`` (searchable block),
    ``{% call heavy() %}`` (heavy block) and ``H(markup)`` (a heavy pre-rendered value, once per page)."""

    def __init__(self) -> None:
        self.search: list[str] = []
        self.heavy_parts: list[str] = []
        self._seen: dict[int, int] = {}

    def frag(self, caller) -> Markup:
        html = str(caller()).strip("\n")
        if not html.strip():
            return Markup("")
        self.search.append(html)
        return Markup(f"\n\n<!--pto-f:{len(self.search) - 1}-->\n\n")

    def _heavy(self, html: str) -> Markup:
        self.heavy_parts.append(html)
        return Markup(f"<!--pto-h:{len(self.heavy_parts) - 1}-->")

    def heavy(self, caller) -> Markup:
        return self._heavy(str(caller()).strip("\n"))

    def H(self, value: Markup) -> Markup:
        index = self._seen.get(id(value))
        if index is None:
            self.heavy_parts.append(str(value))
            index = self._seen[id(value)] = len(self.heavy_parts) - 1
        return Markup(f"<!--pto-h:{index}-->")

    def parts(self, markdown: str) -> PageParts:
        return PageParts(re.sub(r"\n{3,}", "\n\n", markdown), self.search, self.heavy_parts)


@dataclass(frozen=True)
class DependsLink:
    id: str
    href: str | None


class _PageTranslator:
    """Counts, for one page, the prose shown stale or untranslated (for the page banner)."""

    def __init__(self, translator: Translator):
        self.translator = translator
        self.stale = 0
        self.missing = 0

    def __call__(self, prose: Prose) -> Localized:
        loc = self.translator(prose.subject, prose.pointer, prose.english)
        if loc.state == "stale":
            self.stale += 1
        elif loc.state == "missing":
            self.missing += 1
        return loc


class SiteRenderer:
    def __init__(self, catalog: Catalog, tree: SpecTree, examples: tuple = (), templates_dir: str | None = None):
        self.catalog = catalog
        self.data = SiteData.build(catalog, tree, examples)
        self.env = environment(templates_dir)
        self._models: dict[str, Any] = {}
        self.translators: dict[str, Translator] = {}
        self.units = sorted(catalog.units.values(), key=lambda u: routes.unit_src(u))

    # -- models (language independent, built once) -------------------------------------------------
    def model(self, unit: Unit) -> Any:
        cached = self._models.get(unit.id)
        if cached is None:
            cached = build_instruction_model(self.data, unit) if unit.is_instruction else self._unit_model(unit)
            self._models[unit.id] = cached
        return cached

    def _unit_model(self, unit: Unit) -> dict[str, Any]:
        src = routes.unit_src(unit)
        depends = tuple(DependsLink(d, routes.relative(src, routes.unit_src(self.catalog.units[d]))
                                    if d in self.catalog.units else None) for d in unit.depends_on)
        return {
            "unit": unit, "src": src, "depends": depends,
            "states": tuple({"id": s.id, "json": json_block(thaw(s.record))} for s in unit.states),
            "ndf": ndf_views(unit),
            "full_asl": plain_asl(unit.file.text.rstrip("\n")),
            "evidence": evidence_view(self.data, unit, src),
            "record_fields": len(unit.record),
            "record_json": json_block(thaw(unit.record)),
            "trace_json": json_block(self.data.trace_row(unit)),
        }

    # -- rendering ---------------------------------------------------------------------------------
    def translator(self, locale: str) -> Translator:
        if locale not in self.translators:
            self.translators[locale] = Translator(self.catalog, locale)
        return self.translators[locale]

    def _render(self, template: str, src: str, locale: str, tr: _PageTranslator, out: Collector | None = None,
                **values: Any) -> str:
        lab = labels(locale)
        out = out or Collector()
        return self.env.get_template(template).render(
            L=lab.t, label_keys=lab.keys(), tr=tr, locale=locale, banner=Markup(BANNER),
            link=lambda to, anchor="": routes.relative(src, to, anchor),
            release=self.catalog.release, frag=out.frag, heavy=out.heavy, H=out.H, **values)

    def _with_banner(self, text: str, locale: str, tr: _PageTranslator) -> str:
        banner = ""
        if tr.stale or tr.missing:
            banner = self.env.get_template("partials/notices.html.j2").render(
                L=labels(locale).t, stale=tr.stale, missing=tr.missing)
        return text.replace(BANNER, banner, 1)

    def render_parts(self, template: str, src: str, locale: str, **values: Any) -> PageParts:
        """A whole page from one template (index pages): Markdown with its fragments, banner in place."""
        tr = _PageTranslator(self.translator(locale))
        out = Collector()
        text = self._render(template, src, locale, tr, out, **values)
        return out.parts(self._with_banner(text, locale, tr))

    def unit_page(self, unit: Unit, locale: str) -> PageParts:
        m = self.model(unit)
        tr = _PageTranslator(self.translator(locale))
        src = routes.unit_src(unit)
        out = Collector()
        template = "pages/instruction.md.j2" if isinstance(m, InstructionModel) else "pages/unit.md.j2"
        body = self._with_banner(self._render(template, src, locale, tr, out, m=m), locale, tr)
        above = out.parts(body).assembled()  # the page's content above the ledger, fragments in place
        documentation = getattr(m, "documentation", None)
        ledger = self._render("partials/sources.html.j2", src, locale, tr, out,
                              source_path=unit.path, source_sha256=unit.file.sha256,
                              documentation=documentation,
                              documentation_sha256=getattr(m, "documentation_sha256", None),
                              page_sha256=sha256_text(above))
        return out.parts(body + "\n" + ledger)

    def adr_page(self, adr_id: str, locale: str) -> str:
        adr = self.catalog.adrs[adr_id]
        src = routes.adr_src(adr_id)
        tr = _PageTranslator(self.translator(locale))
        title = tr(Prose(adr.id, "/title", adr.title)) if adr.title else Localized("", "source")
        body = tr(Prose(adr.id, "/body", adr.body))
        links = {}
        for key in ("affected_units",):
            for uid in adr.front.get(key, ()) or ():
                if uid in self.catalog.units:
                    links[uid] = routes.relative(src, routes.unit_src(self.catalog.units[uid]))
        for key in ("supersedes", "superseded_by", "resolves"):
            for aid in adr.front.get(key, ()) or ():
                if isinstance(aid, str) and aid in self.catalog.adrs:
                    links[aid] = routes.relative(src, routes.adr_src(aid))
        front = [(k, thaw(v)) for k, v in adr.front.items() if k != "title"]
        out = Collector()
        text = self._render("pages/adr.md.j2", src, locale, tr, out, a=adr, title=title, body=body,
                            body_html=adr_html(safe_markdown(body.text)), front=front, links=links)
        return out.parts(self._with_banner(text, locale, tr))

    def prepare(self) -> None:
        """Build every unit's page model now (before a fork, so both language processes share them)."""
        for unit in self.units:
            self.model(unit)

    def page_count(self) -> int:
        from .indexes import trace_available
        return len(self.units) + len(self.catalog.adrs) + 5 + (1 if trace_available() else 0)

    def pages(self, locale: str) -> Iterator[tuple[str, PageParts]]:
        from .indexes import index_pages
        for unit in self.units:
            yield routes.unit_src(unit), self.unit_page(unit, locale)
        for adr_id in sorted(self.catalog.adrs):
            yield routes.adr_src(adr_id), self.adr_page(adr_id, locale)
        yield from index_pages(self, locale)

    def files(self) -> Iterator[tuple[str, bytes]]:
        """Non-page files of the site: each worked example's case JSON, downloadable from its page."""
        for examples in self.data.examples.values():
            for ex in examples:
                name = ex.key.split("/", 1)[-1]
                case = thaw(ex.case)
                if ex.caption:
                    case["caption"] = thaw(ex.caption)
                yield routes.example_file(ex.instruction, name), pretty_json(case).encode("utf-8")

    def stale_report(self, locale: str) -> list[str]:
        t = self.translators.get(locale)
        if t is None:
            return []
        return [f"{subject}{pointer}" for subject, pointer in sorted(t.stale)]

    def missing_report(self, locale: str) -> list[str]:
        t = self.translators.get(locale)
        return [f"{s}{p}" for s, p in sorted(t.missing)] if t else []
