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

import dataclasses
import hashlib
import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup

from ..analysis.sitedata import SiteData
from ..i18n import Localized, Translator, labels
from ..i18n.long_names import long_name, search_terms
from ..model.catalog import Catalog, Unit
from ..model.frozen import pretty_json, sha256_text, thaw
from ..sources.tree import SpecTree
from . import routes
from .adr_links import front_links
from .adr_links import rewrite as rewrite_adr_links
from .classes import class_links
from .env import Prose, compile_templates, environment
from .evidence import evidence_view
from .fragments import json_block
from .heavy_html import HeavyBlocks
from .instruction import CostlyParts, InstructionModel, build_instruction_model, costly_parts
from .markdown_safe import adr_html, safe_markdown
from .page_helpers import PageHelpers
from .parts import HEAVY, SEARCHABLE, Collector, PageParts

__all__ = ["HEAVY", "SEARCHABLE", "Collector", "PageParts", "SiteRenderer"]

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
        self.seen: list[tuple[str, str, str]] = []  # (state, subject, pointer), replayed when the page is reused

    def __call__(self, prose: Prose) -> Localized:
        loc = self.translator(prose.subject, prose.pointer, prose.english)
        if loc.state == "stale":
            self.stale += 1
            self.seen.append(("stale", prose.subject, prose.pointer))
        elif loc.state == "missing":
            self.missing += 1
            self.seen.append(("missing", prose.subject, prose.pointer))
        return loc


def _tree_digest_without_units(tree: SpecTree) -> str:
    """Every file of the tree except the ASL units (their own pages key on them), and every file read on demand."""
    digest = hashlib.sha256(b"pto-docs page inputs 1\n")
    for path in sorted(tree.files):
        if not (path.startswith("asl/") and path.endswith(".asl")):
            digest.update(f"{path}\0{tree.files[path].sha256}\n".encode())
    for path in sorted(tree.raw_hashes):
        if path.startswith("asl/") and path.endswith(".asl"):
            continue
        digest.update(f"raw\0{path}\0{tree.raw_hashes[path]}\n".encode())
    return digest.hexdigest()


def _unit_skeleton(unit: Unit) -> Any:
    """What of a unit can reach *another* unit's page: its kind, path, records and NDF attributes (not its ASL
    text)."""
    return [unit.id, unit.kind, unit.path, thaw(unit.record), thaw(unit.review) if unit.review is not None else None,
            [thaw(s.record) for s in unit.states],
            [[c.id, c.kind, c.level, c.layer, c.status, c.clause_sha256] for c in unit.ndf]]


class SiteRenderer:
    """``previous`` (the renderer of the last build in this process, e.g. ``mkdocs serve``) lends its page
    models and rendered pages to this one wherever their inputs are unchanged: a unit page's inputs are its
    unit file, everything of the tree outside ``asl/`` (tests, ADRs, evidence, translations, examples, files
    read on demand), the records of every unit, its worked examples, the release identity, the templates and
    the language; an ADR page's and an index page's inputs are the same without a unit file."""

    def __init__(self, data: SiteData, templates_dir: str | None = None, previous: SiteRenderer | None = None,
                 id_index: bytes | None = None, env=None):
        """``data``: what the pages share, made by the analysis (analysis/state.py; SiteData.build);
        ``id_index``: the id lookup of the search box when already made (else made when first needed); ``env``:
        the page templates' environment (render/env.py environment) of ``templates_dir`` when already made."""
        catalog, tree = data.catalog, data.tree
        self.catalog = catalog
        self.data = data
        self.id_index: bytes | None = id_index
        self._avs_key = data.avs_key
        self.env = env if env is not None else environment(templates_dir)
        self._models: dict[str, Any] = {}
        self._costly: dict[str, CostlyParts] = {}  # instruction units' costly model parts made by a helper process
        # ADR body Markdown (links rewritten) -> its safe HTML: the same for every language showing the same text,
        # so the English bodies are made once, by prepare()'s helper, before the languages fork
        self._adr_bodies: dict[str, Markup] = {}
        self.translators: dict[str, Translator] = {}
        self.units = sorted(catalog.units.values(), key=lambda u: routes.unit_src(u))
        self.stats = {"models": 0, "pages": 0, "reused_models": 0, "reused_pages": 0, "reused_index_pages": 0}
        # page key -> (PageParts, translation notes): what this renderer rendered or took over
        self.rendered: dict[str, tuple[PageParts, tuple, frozenset]] = {}
        self._previous = previous
        self._global: str | None = None
        self._templates_now: str | None = None  # the templates key during one pages() pass
        self._skeletons: dict[str, tuple[Unit, str]] = {}  # unit id -> (unit, its skeleton JSON), for global_key
        self._unit_keys: dict[str, str] = {}
        self._templates_dir = templates_dir
        self._class_pages: dict | None = None
        self.link_problems: list = []  # ADR links that resolve to no page (render/adr_links.py), each once
        # files a page model or page reads on demand (documentation hashes, ...): (op, path, answer) per unit,
        # checked against this tree before a unit's model or page is taken over
        self._reads: list | None = None
        self.unit_reads: dict[str, frozenset] = {}
        self._record_reads(tree)
        self.global_key()

    def _record_reads(self, tree: SpecTree) -> None:
        from ..analysis.asl_index import identifier_index
        catalog = self.catalog
        # where the ASL model defines names: a page's code links depend on it (render/asl_links.py)
        tree.asl_definitions = lambda names: identifier_index(catalog).answers(names)
        for op in ("sha256", "exists", "asl_definitions"):
            plain = getattr(tree, op)

            def recording(rel, _plain=plain, _op=op):
                answer = _plain(rel)
                if self._reads is not None:
                    self._reads.append((_op, rel, answer))
                return answer
            setattr(tree, op, recording)

    def _reads_hold(self, reads) -> bool:
        tree = self.data.tree
        return all(getattr(tree, op)(rel) == answer for op, rel, answer in reads)

    def _reading(self, unit_id: str, build):
        outer, self._reads = self._reads, []
        try:
            value = build()
        finally:
            reads, self._reads = self._reads, outer
            if outer is not None:
                outer.extend(reads)
        self.unit_reads[unit_id] = self.unit_reads.get(unit_id, frozenset()) | frozenset(reads)
        return value

    # -- input keys ----------------------------------------------------------------------------
    def global_key(self) -> str:
        if self._global is None:
            digest = hashlib.sha256(_tree_digest_without_units(self.data.tree).encode())
            # each unit's skeleton as JSON; a unit object the loader reused (same file, load_memo.py) keeps the
            # text the previous renderer made of it
            earlier = self._previous._skeletons if self._previous is not None else {}
            for u in sorted(self.catalog.units.values(), key=lambda u: u.id):
                hit = earlier.get(u.id)
                text = hit[1] if hit is not None and hit[0] is u else json.dumps(_unit_skeleton(u), default=repr, sort_keys=True)
                self._skeletons[u.id] = (u, text)
                digest.update(text.encode() + b"\n")
            # the release identity without the checkout's dirty flag, which only the home page shows (the page
            # keys add it back whenever a template mentions it: see templates_key)
            rel = self.catalog.release
            release = ({k: v for k, v in dataclasses.asdict(rel).items() if k != "dirty"}
                       if dataclasses.is_dataclass(rel) else repr(rel))
            digest.update(json.dumps(release, default=repr, sort_keys=True).encode())
            digest.update(f"\0avs:{self._avs_key}".encode())  # the AVS results every unit page shows
            # the teaching examples come from running the whole model: their results' digests
            digest.update(f"\0teaching:{sorted((k, t.result.get('digest')) for k, t in self.data.teaching.items())!r}"
                          .encode())
            # SEMANTICS-PROSE findings come from running the whole model, not from one unit's file
            digest.update(f"\0semantics:{self.data.semantics!r}".encode())
            history = getattr(self.data, "history", None)  # what changed since the previous release (changes.py)
            digest.update(f"\0history:{history.key if history is not None else ''}".encode())
            self._global = digest.hexdigest()
        return self._global

    def unit_key(self, unit: Unit) -> str:
        key = self._unit_keys.get(unit.id)
        if key is None:
            examples = repr(self.data.examples.get(unit.id, ()))
            key = hashlib.sha256(f"{self.global_key()}\0{unit.id}\0{unit.path}\0{unit.file.sha256}\0{examples}".encode()).hexdigest()
            self._unit_keys[unit.id] = key
        return key

    def templates_key(self) -> str:
        from .env import TEMPLATES_DIR
        digest = hashlib.sha256()
        root = Path(self._templates_dir or TEMPLATES_DIR)
        shows_dirty = False
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            data = path.read_bytes()
            shows_dirty = shows_dirty or b"dirty" in data
            digest.update(str(path.relative_to(root)).encode() + b"\0" + hashlib.sha256(data).digest())
        if shows_dirty:
            digest.update(f"\0dirty\0{getattr(self.catalog.release, 'dirty', None)}".encode())
        return digest.hexdigest()

    def _reusable(self, key: str, locale: str, stat: str = "reused_pages") -> PageParts | None:
        hit = self.rendered.get(key)
        if hit is None and self._previous is not None:
            hit = self._previous.rendered.get(key)
            if hit is not None:
                if not self._reads_hold(hit[2]):
                    return None
                self.rendered[key] = hit
        if hit is None:
            return None
        translator = self.translator(locale)
        for state, subject, pointer in hit[1]:
            (translator.stale if state == "stale" else translator.missing).add((subject, pointer))
        self.stats[stat] += 1
        return hit[0]

    def take_rendered(self, entries: dict) -> None:
        """Adopt pages rendered elsewhere (a forked language build) from this same catalog."""
        self.rendered.update(entries)

    # -- models (language independent, built once) -------------------------------------------------
    def model(self, unit: Unit) -> Any:
        cached = self._models.get(unit.id)
        if cached is None:
            prev = self._previous
            if (prev is not None and unit.id in prev._models and prev._unit_keys.get(unit.id) == self.unit_key(unit)
                    and self._reads_hold(prev.unit_reads.get(unit.id, ()))):
                cached = prev._models[unit.id]
                self.unit_reads[unit.id] = prev.unit_reads.get(unit.id, frozenset())
                self.stats["reused_models"] += 1
            else:
                costly = self._costly.pop(unit.id, None)
                cached = self._reading(unit.id, lambda: build_instruction_model(self.data, unit, costly)
                                       if unit.is_instruction else self._unit_model(unit))
                self.stats["models"] += 1
            self.unit_key(unit)
            self._models[unit.id] = cached
        return cached

    def _unit_model(self, unit: Unit) -> dict[str, Any]:
        from ..analysis.asl_index import identifier_index
        from .asl_links import linked_listing
        from .findings import flags_notices
        from .requirements_view import requirement_href
        src = routes.unit_src(unit)
        full_asl, listed = linked_listing(unit.file.text.rstrip("\n"), identifier_index(self.catalog), self.catalog, src,
                                          unit.id)
        self.data.tree.asl_definitions(tuple(sorted(listed)))  # what the links depend on: a read (_record_reads)
        depends = tuple(DependsLink(d, routes.relative(src, routes.unit_src(self.catalog.units[d]))
                                    if d in self.catalog.units else None) for d in unit.depends_on)
        return {
            "unit": unit, "src": src, "depends": depends,
            "states": tuple({"id": s.id, "json": json_block(thaw(s.record))} for s in unit.states),
            "ndf": unit.ndf,
            "full_asl": full_asl,
            "evidence": evidence_view(self.data, unit, src),
            "record_fields": len(unit.record),
            "record_json": json_block(thaw(unit.record)),
            "trace_json": json_block(self.data.trace_row(unit)),
            "ndf_req_hrefs": {c.id: requirement_href(self.catalog, src, c.id) for c in unit.ndf},
            "flags": flags_notices(self.catalog, self.data.flags, unit, src, via=False),
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
        helpers = PageHelpers(lab.t, tr)
        blocks = HeavyBlocks(out.heavy_html, out.H, lab.t)
        return self.env.get_template(template).render(
            L=lab.t, label_keys=lab.keys(), tr=tr, locale=locale, banner=Markup(BANNER),
            link=lambda to, anchor="": routes.relative(src, to, anchor),
            release=self.catalog.release, frag=out.frag, heavy=out.heavy, H=out.H,
            prose=helpers.prose, sha=helpers.sha, heading=helpers.heading, V=helpers.value,
            evidence_test=blocks.evidence_test, avs_example=blocks.avs_example,
            long_name=lambda mnemonic: long_name(mnemonic, locale),
            search_terms=lambda mnemonic: search_terms(mnemonic, locale),
            class_links=lambda unit: class_links(self.class_pages(), unit, src), **values)

    def class_pages(self) -> dict:
        """The classification pages of this catalog (render/classes.py), made once."""
        if self._class_pages is None:
            from .classes import class_pages
            self._class_pages = class_pages(self.catalog)
        return self._class_pages

    def _with_banner(self, text: str, locale: str, tr: _PageTranslator, out: Collector) -> str:
        """The translation banner in place of its marker, as a searchable fragment: its counts differ from page
        to page, and the Markdown of a page stays the same for every page of its kind (site/speedups/markdown_shapes.py)."""
        banner = ""
        if tr.stale or tr.missing:
            html = self.env.get_template("partials/notices.html.j2").render(
                L=labels(locale).t, stale=tr.stale, missing=tr.missing)
            banner = out.frag(lambda: html).strip("\n")
        return text.replace(BANNER, banner, 1)

    def render_parts(self, template: str, src: str, locale: str, **values: Any) -> PageParts:
        """A whole page from one template (index pages): Markdown with its fragments, banner in place.

        Its ``values`` must come from the tree outside ``asl/`` and the units' records only (what global_key
        covers, as for an ADR page: titles, summaries, classifications, paths, NDF attributes; never a unit's
        ASL text or line numbers), so an edit inside a unit's code reuses the page rendered before."""
        templates = self._templates_now or self.templates_key()
        key = hashlib.sha256(f"index\0{self.global_key()}\0{template}\0{src}\0{locale}\0{templates}".encode()).hexdigest()
        hit = self._reusable(key, locale, stat="reused_index_pages")
        if hit is not None:
            return hit
        reads, self._reads = self._reads, []
        try:
            tr = _PageTranslator(self.translator(locale))
            out = Collector()
            text = self._render(template, src, locale, tr, out, **values)
            parts = out.parts(self._with_banner(text, locale, tr, out))
        finally:
            reads, self._reads = frozenset(self._reads), reads
        self.rendered[key] = (parts, tuple(tr.seen), reads)
        return parts

    def unit_page(self, unit: Unit, locale: str, templates: str | None = None) -> PageParts:
        key = hashlib.sha256(f"unit\0{self.unit_key(unit)}\0{locale}\0{templates or self.templates_key()}".encode()).hexdigest()
        hit = self._reusable(key, locale)
        if hit is not None:
            return hit
        parts, seen = self._reading(unit.id, lambda: self._unit_page(unit, locale))
        self.rendered[key] = (parts, seen, self.unit_reads.get(unit.id, frozenset()))
        return parts

    def _unit_page(self, unit: Unit, locale: str) -> tuple[PageParts, tuple]:
        self.stats["pages"] += 1
        m = self.model(unit)
        tr = _PageTranslator(self.translator(locale))
        src = routes.unit_src(unit)
        out = Collector()
        template = "pages/instruction.md.j2" if isinstance(m, InstructionModel) else "pages/unit.md.j2"
        from .changes import instruction_note
        body = self._with_banner(self._render(template, src, locale, tr, out, m=m,
                                              release_change=instruction_note(self, unit, src)), locale, tr, out)
        above = out.parts(body).assembled()  # the page's content above the ledger, fragments in place
        documentation = getattr(m, "documentation", None)
        ledger = self._render("partials/sources.html.j2", src, locale, tr, out,
                              source_path=unit.path, source_sha256=unit.file.sha256,
                              documentation=documentation,
                              documentation_sha256=getattr(m, "documentation_sha256", None),
                              page_sha256=sha256_text(above))
        return out.parts(body + "\n" + ledger), tuple(tr.seen)

    def adr_page(self, adr_id: str, locale: str, templates: str | None = None) -> PageParts:
        key = hashlib.sha256(f"adr\0{self.global_key()}\0{adr_id}\0{locale}\0{templates or self.templates_key()}".encode()).hexdigest()
        hit = self._reusable(key, locale)
        if hit is not None:
            return hit
        reads, self._reads = self._reads, []
        try:
            parts, seen = self._adr_page(adr_id, locale)
        finally:
            reads, self._reads = frozenset(self._reads), reads
        self.rendered[key] = (parts, seen, reads)
        return parts

    def _adr_page(self, adr_id: str, locale: str) -> tuple[PageParts, tuple]:
        self.stats["pages"] += 1
        adr = self.catalog.adrs[adr_id]
        src = routes.adr_src(adr_id)
        tr = _PageTranslator(self.translator(locale))
        title = tr(Prose(adr.id, "/title", adr.title)) if adr.title else Localized("", "source")
        body = tr(Prose(adr.id, "/body", adr.body))
        links = front_links(self.catalog, adr, src)
        front = [(k, thaw(v)) for k, v in adr.front.items() if k != "title"]
        body_text, problems = rewrite_adr_links(body.text, adr, self.catalog, src)
        for problem in problems:
            if problem not in self.link_problems:
                self.link_problems.append(problem)
                # logged like the tree's other warnings (INFO in the build log): a strict build does not fail on a
                # spec's dead link, which the page shows as text
                logging.getLogger("mkdocs.plugins.pto-docs").info(problem.format())
        out = Collector()
        text = self._render("pages/adr.md.j2", src, locale, tr, out, a=adr, title=title, body=body,
                            body_html=self.adr_body_html(body_text), front=front, links=links)
        return out.parts(self._with_banner(text, locale, tr, out)), tuple(tr.seen)

    def adr_body_html(self, body_text: str) -> Markup:
        html = self._adr_bodies.get(body_text)
        if html is None:
            html = self._adr_bodies[body_text] = adr_html(safe_markdown(body_text))
        return html

    def prepare(self, made=None) -> None:
        """Build every unit's page model and compile the page templates now (before a fork, so both language
        processes share them).

        ``made``: (claim, result, early) of a helper process making the costly parts of instruction models
        (:func:`~.instruction.costly_parts`) and the HTML of the ADR bodies (:func:`helper_parts`) meanwhile:
        ``claim(unit id)`` is False for a unit the helper has taken, ``result()`` gives what it made and ``early``
        is what was made while waiting for it (site/model_helper.py, site/load_helper.py)."""
        if made is not None:
            claim, result, early = made
            self._costly.update(early)
            for unit in self.units:  # in page order; claim(id) is False once the helper has taken the unit
                if unit.id not in self._models and (not unit.is_instruction or claim(unit.id)):
                    self.model(unit)
            self.adopt(*result())
        for unit in self.units:
            self.model(unit)
        self.compile_templates()

    def compile_templates(self) -> None:
        """Compile every page template now (render/env.py compile_templates; nothing to do for those of an
        environment given compiled)."""
        compile_templates(self.env)

    def adopt(self, costly: dict[str, CostlyParts], bodies: dict[str, Markup], highlighted: dict[str, str]) -> None:
        from .fragments import adopt_highlighted
        adopt_highlighted(highlighted)
        self._costly.update(costly)
        for text, html in bodies.items():
            self._adr_bodies.setdefault(text, html)

    def page_count(self) -> int:
        from ..analysis.data_types import has_data_types
        from .changes import removed_sources
        from .requirements_view import requirement_pages
        history = (1 + len(removed_sources(self))) if getattr(self.data, "history", None) is not None else 0
        return (len(self.units) + len(self.catalog.adrs) + 6 + len(requirement_pages(self.catalog))  # (+ the report)
                + has_data_types(self.catalog) + history + len(self.class_pages()))

    def pages(self, locale: str) -> Iterator[tuple[str, PageParts]]:
        from .indexes import index_pages
        templates = self.templates_key()
        for unit in self.units:
            yield routes.unit_src(unit), self.unit_page(unit, locale, templates)
        for adr_id in sorted(self.catalog.adrs):
            yield routes.adr_src(adr_id), self.adr_page(adr_id, locale, templates)
        self._templates_now = templates  # (the index pages: read once per pass like the pages above)
        try:
            yield from index_pages(self, locale)
        finally:
            self._templates_now = None

    def files(self) -> Iterator[tuple[str, bytes]]:
        """Non-page files of the site: each worked example's case JSON, downloadable from its page, and the id
        lookup of the search box (render/id_index.py)."""
        from .id_index import PATH, id_index_json
        if self.id_index is None:
            self.id_index = id_index_json(self.catalog, self.data.examples)
        yield PATH, self.id_index
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


# -- what a helper process makes (site/model_helper.py forks it) --------------------------------------------
def english_adr_bodies(catalog: Catalog) -> dict[str, Markup]:
    """Every ADR's English body (links rewritten) -> its HTML, as the English pages show it."""
    return {text: adr_html(safe_markdown(text)) for text in
            (rewrite_adr_links(adr.body, adr, catalog, routes.adr_src(adr_id))[0] for adr_id, adr in catalog.adrs.items())}


def helper_parts(data: SiteData, unit_ids: Iterable[str]) -> tuple[dict, dict, dict]:
    """What a helper process makes: the English ADR bodies' HTML, the costly parts of ``unit_ids`` (a list, or the
    units a helper claims one by one), and the highlight cache entries it used (fragments.py), for its parent's
    cache."""
    from .fragments import highlight_keys, highlighted_since
    catalog = data.catalog
    before = highlight_keys()
    bodies = english_adr_bodies(catalog)
    costly = {uid: costly_parts(data, catalog.units[uid]) for uid in unit_ids}
    return costly, bodies, highlighted_since(before)
