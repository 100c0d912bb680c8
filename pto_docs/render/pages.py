"""The site renderer: every generated page of one catalog, in any language, from page models built once.

``SiteRenderer(catalog, tree, examples)`` builds each unit's page model (highlighted ASL, SVG diagrams, JSON
fragments) the first time a language asks for it and keeps it, so the second language costs only the template
pass. ``pages(locale)`` yields ``(src_uri, markdown)``; ``files()`` yields the non-page files (example cases).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..frozen import pretty_json, sha256_text, thaw
from ..i18n import Localized, Translator, labels
from ..model import Catalog, Unit
from ..sources.tree import SpecTree
from . import routes
from .env import Prose, environment
from .evidence import evidence_view
from .fragments import highlighted, json_block
from .instruction import InstructionModel, build_instruction_model, ndf_views
from .markdown_safe import safe_markdown
from .sitedata import SiteData

BANNER = "<!--pto-translation-banner-->"


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
            "full_asl": highlighted(unit.file.text.rstrip("\n"), "asl", 1),
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

    def _render(self, template: str, src: str, locale: str, tr: _PageTranslator, **values: Any) -> str:
        lab = labels(locale)
        return self.env.get_template(template).render(
            L=lab.t, label_keys=lab.keys(), tr=tr, locale=locale, banner=Markup(BANNER),
            link=lambda to, anchor="": routes.relative(src, to, anchor),
            release=self.catalog.release, **values)

    def _with_banner(self, text: str, locale: str, tr: _PageTranslator) -> str:
        banner = ""
        if tr.stale or tr.missing:
            banner = self.env.get_template("partials/notices.html.j2").render(
                L=labels(locale).t, stale=tr.stale, missing=tr.missing)
        return text.replace(BANNER, banner, 1)

    def unit_page(self, unit: Unit, locale: str) -> str:
        m = self.model(unit)
        tr = _PageTranslator(self.translator(locale))
        src = routes.unit_src(unit)
        if isinstance(m, InstructionModel):
            body = self._render("pages/instruction.md.j2", src, locale, tr, m=m)
        else:
            body = self._render("pages/unit.md.j2", src, locale, tr, m=m)
        body = self._with_banner(body, locale, tr)
        documentation = getattr(m, "documentation", None)
        ledger = self._render("partials/sources.html.j2", src, locale, tr,
                              source_path=unit.path, source_sha256=unit.file.sha256,
                              documentation=documentation,
                              documentation_sha256=getattr(m, "documentation_sha256", None),
                              page_sha256=sha256_text(body))
        return body + "\n" + ledger

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
        text = self._render("pages/adr.md.j2", src, locale, tr, a=adr, title=title, body=body,
                            body_html=safe_markdown(body.text), front=front, links=links)
        return self._with_banner(text, locale, tr)

    def pages(self, locale: str) -> Iterator[tuple[str, str]]:
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
