"""One language build of the site: what the plugin's events do, with the state of that build.

on_config loads (or reuses) the catalog, fails the build with the validate diagnostics, sets the language
(Material ``theme.language``, search language, localized nav) and, on the primary build, starts every further
language (languages.py). on_files adds the generated pages as virtual files (tiny Markdown, see render/pages.py)
and reuses unchanged pages from the content-addressed cache (cache.py); on_page_content inserts the searchable
HTML fragments after Markdown; on_page_context gives the language switch its target; on_post_page inserts the
heavy fragments after the search plugin has indexed the page; on_post_build waits for the other languages and
publishes the finished site (output.py).

With the cache on (``pto-docs build``, or MkDocs' own ``--dirty``), a build whose tree digest (every byte of the
spec tree, of pto-docs and of the templates; tree_cache.py) matches the last successful build neither loads nor
validates nor renders the tree: its manifest gives the navigation, the page list and the cache keys.
"""

from __future__ import annotations

import copy
import functools
import logging
import os
import shutil
import time
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from ..diagnostics import SpecRootError
from ..i18n import MATERIAL_LANGUAGE, SEARCH_LANGUAGE, labels
from ..progress import current as current_progress
from ..render import routes
from ..render.build_state import BuildState, build_state
from ..render.navigation import navigation
from ..resources import SITE_SRC_DIR, STYLESHEET
from . import output, serve
from .config import DOCS_SECTION, config_path, docs_dir_in_spec_root
from .logs import WarningCounter
from .memory import SiteMemory
from .serve import WrittenPages
from .speedups.minify import minify_chrome

log = logging.getLogger("mkdocs.plugins.pto-docs")


def _not_modified() -> bool:
    return False


class SiteBuild:
    """The state of one language's MkDocs build (the primary one, or a further language started by it)."""

    def __init__(self, options, memory: SiteMemory, *, command: str | None, dirty: bool, locale: str | None = None,
                 progress=None):
        self.memory = memory  # what the process keeps between builds (memory.py; the plugin owns it)
        self.options = options  # the plugin's configuration (config.py PtoDocsConfig)
        self.command = command  # MkDocs' command ("build", "serve"; None: build() called directly)
        self.dirty = dirty  # MkDocs' --dirty (or `pto-docs build` with its cache)
        self.locale = locale  # None on the primary build
        self.progress = progress  # a pto_docs.progress.Progress given by `pto-docs build`
        self.state: BuildState | None = None
        self.parts: dict = {}
        self.written: WrittenPages | None = None  # `mkdocs serve --dirty`: the page files already in the site
        self.signature = ""  # the page-cache build signature of this build (cache.py)
        self.report_fd: int | None = None  # in a pool process's language build: where to send its counts
        self.written_pages: dict | None = None  # serving in place: the page files it wrote (serve.py)
        self.languages = None  # languages.py Languages: the further languages of a primary build
        self.final_site_dir: str | None = None
        self.staging: str | None = None
        self.cache = None
        self.keys: dict[str, str] = {}
        self.reused: dict[str, tuple[str, list]] = {}
        self.page_entries: dict[str, list] = {}  # src_uri -> the page's search entries (built or reused)
        self.doc_files = None  # MkDocs' files of this build (on_env), for the page order of the search index
        self.built: list[str] = []
        self.total = 0
        self.mark = 0
        self.counter = WarningCounter()
        self.search = None
        self.start = time.monotonic()
        self.summary_text: str | None = None
        self.stats: dict | None = None
        self.highlight = None
        self.shapes = None  # speedups/markdown_shapes.py ShapeCache of this build (made in on_files)
        self.preread: dict | None = None  # spec file bytes read by the tree digest, for the loader (then dropped)
        self.digest: str | None = None  # the tree digest (tree_cache.py) of a cached build
        self.manifest: dict | None = None  # the last build's manifest when its digest matches: nothing to load
        self.record: dict | None = None  # what this build derived from the tree, for the next manifest
        self.last_good: BuildState | None = None  # serving: the last tree state that built (plugin.py keeps it)
        self.problems: list[str] | None = None  # serving a tree that fails validation: its diagnostics

    def further(self, locale: str, config) -> SiteBuild:
        """The build of another language, sharing this build's loaded tree state (copy-on-write in a fork)."""
        other = SiteBuild(copy.copy(self.options), self.memory, command=self.command, dirty=self.dirty,
                          locale=locale, progress=self.progress)
        other.final_site_dir = os.path.join(self.final_site_dir or config.site_dir, output.locale_dir(locale, self.primary))
        other.digest = self.digest
        other.state = self.state
        other.problems = self.problems
        return other

    @property
    def primary(self) -> str:
        return self.options.languages[0]

    @property
    def here(self) -> str:
        return self.locale or self.primary

    @property
    def in_place(self) -> bool:
        """``mkdocs serve --dirty``: every language builds straight into the live site directory (no staging, no
        clean; the further languages in forked processes), and reused pages already there are not rewritten
        (serve.py). A plain ``mkdocs serve`` rebuilds every page each time, staged like ``pto-docs build``."""
        return self.command == "serve" and self.dirty and bool(self.options.cache)

    def spec_root(self, config) -> Path:
        return config_path(config, self.options.spec_root)

    def templates_dir(self, config) -> str | None:
        return str(config_path(config, self.options.templates_dir)) if self.options.templates_dir else None

    def cache_dir(self, config) -> str | None:
        if not (self.options.cache and self.dirty):
            return None
        if self.options.cache_dir:
            return str(config_path(config, self.options.cache_dir))
        final = self.final_site_dir or config.site_dir
        return os.path.join(os.path.dirname(os.path.abspath(final)), ".pto-docs-cache")

    # -- configuration -----------------------------------------------------------------------------
    def configure(self, config) -> None:
        """on_config: load the tree (or find it unchanged), set this language's configuration."""
        self.start = time.monotonic()
        primary = self.locale is None
        if primary and self.in_place:
            self.memory.background.before_rebuild()  # the last rebuild's background work is done (serve.py)
        elif primary:
            self.memory.background.finish()
        progress = current_progress()
        locale = self.here
        logging.getLogger("mkdocs").addHandler(self.counter)
        root = self.spec_root(config)
        if not root.is_dir():
            raise PluginError(f"{root}: error[IO-ROOT]: spec root does not exist or is not a directory")
        self.manifest = self._unchanged_tree(config, root)
        if self.manifest is not None:
            self.preread = None  # nothing to load: let the bytes go
        if self.manifest is None and self.state is None:  # (a further language gets the primary build's state)
            self.load(config, root)
        elif primary and self.manifest is not None:  # nothing changed: the last build's diagnostics, unloaded
            for line in self.manifest.get("diagnostics", ()):
                log.info(line)
        config.theme["language"] = MATERIAL_LANGUAGE[locale]
        for name, plugin in config.plugins.items():
            if name.endswith("search") and hasattr(plugin, "config"):
                plugin.config.lang = list(SEARCH_LANGUAGE[locale])
                # Every build gives the search plugin the entries of every page (a reused page's from the page
                # cache), so Material's --dirty merge with the index of the process's previous build (which
                # reorders the index, and would mix in another language's) must not run.
                if hasattr(plugin, "search_index_prev"):
                    plugin.search_index_prev = None
                    plugin.is_dirty = False
                self.search = plugin
        config["nav"] = self.manifest["nav"] if self.manifest is not None else navigation(self.state.renderer, locale)
        back = "../" * output.locale_dir(locale, self.primary).count("/")
        config.extra["alternate"] = [
            {"name": labels(loc).t("language_name"), "lang": loc,
             "link": (back + output.locale_dir(loc, self.primary)) if loc != locale else "./"}
            for loc in self.options.languages]
        config["site_name"] = labels(locale).t("site_name")
        if primary and not self.in_place:
            self.final_site_dir = os.path.abspath(config.site_dir)
            for path in output.remove_stale(self.final_site_dir):
                log.info(f"pto-docs: removed {path}, left by a build that was stopped")
            self.staging = output.staging_dir(self.final_site_dir)
            os.makedirs(os.path.dirname(self.staging), exist_ok=True)
            shutil.rmtree(self.staging, ignore_errors=True)  # (ours: named after this process)
            config["site_dir"] = self.staging
        if primary and self.options.cache and self.dirty:
            self.options.cache_dir = self.cache_dir(config)  # resolved once: the other languages share it
        if SEARCH_LANGUAGE[locale] == ["zh"]:
            import jieba  # Material's Chinese search segmentation talks on its own logger; keep it quiet
            jieba.setLogLevel(logging.WARNING)
        if primary and self.in_place and any(SEARCH_LANGUAGE[loc] == ["zh"] for loc in self.options.languages):
            serve.preload_jieba()
        if primary:
            if self.command != "serve" and self.options.cache_dir and self.dirty and self.state is not None:
                from ..render.fragments import HighlightCache, use_highlight_cache
                self.highlight = HighlightCache(os.path.join(self.options.cache_dir, "highlight.json.z"))
                use_highlight_cache(self.highlight)
            from .languages import Languages
            self.languages = Languages(self, config)
            self.languages.start()
            progress.stage(f"building {self.here}" + "".join(f" + {loc}" for loc in self.languages.forked()))

    def load(self, config, root: Path) -> None:
        if self.locale is None:
            current_progress().stage("loading the spec tree")
        preread, self.preread = self.preread, None  # the bytes the tree digest just read, parsed instead
        try:
            self.state = build_state(root, self.templates_dir(config), preread=preread)
        except (SpecRootError, OSError) as exc:
            raise PluginError(f"{root}: error[IO-ROOT]: {exc}") from exc
        diags = self.state.diagnostics
        errors = [d for d in diags if d.is_error or self.options.strict]
        if (errors or self.state.renderer is None) and self.command == "serve" and self.last_good is not None:
            self._serve_last_good(root, errors)
            return
        if self.locale is None:  # report once, on the primary build
            for d in diags:
                (log.error if d in errors else log.info)(d.format())
        if errors or self.state.renderer is None:
            raise PluginError(f"pto-docs: {len(errors)} validation error(s) in {root}; see the diagnostics above")

    def _serve_last_good(self, root: Path, errors: list) -> None:
        """Serving, and the saved tree fails validation: the build goes on with the last good tree state (its
        pages are all in the page cache, nothing is rewritten), so the server keeps answering; every page
        shows the diagnostics (serve.banner_css in our stylesheet) and one error names the root cause. MkDocs'
        logger is not used for it: a strict configuration would fail the build on it."""
        errors = serve.root_cause_first(errors)
        self.problems = [d.format() for d in errors]
        first = self.problems[0] if self.problems else f"{root}: the tree could not be rendered"
        more = f" (and {len(errors) - 1} more, shown on every page)" if len(errors) > 1 else ""
        logging.getLogger("pto_docs.serve").error(f"{first}{more}; serving the last good site")
        for line in self.problems[1:]:
            log.debug(line)
        self.state = self.last_good

    def _unchanged_tree(self, config, root: Path) -> dict | None:
        """The manifest of the last build when the tree, pto-docs and everything else it read are unchanged."""
        cache_dir = self.cache_dir(config) if self.command != "serve" else None
        if not cache_dir:
            return None
        from .tree_cache import TreeManifest, tree_digest
        if self.digest is None:
            if self.locale is None:
                current_progress().stage("hashing the spec tree")
            settings = {k: v for k, v in dict(self.options).items() if k not in ("cache_dir",)}
            self.preread = {} if self.locale is None else None
            outputs = (self.final_site_dir or config.site_dir, cache_dir)
            self.digest = tree_digest(root, self.templates_dir(config), settings, keep=self.preread, outputs=outputs)
        return TreeManifest(cache_dir, self.here).load(self.digest)

    # -- pages ---------------------------------------------------------------------------------------
    def docs_dir_files(self, files, config) -> None:
        """The pages of a docs_dir inside the spec root (upstream's docs/, the sources of its own portal):
        ``docs: ignore`` leaves them out; ``docs: include`` keeps them under docs/ (never on a generated route).
        Our stylesheet is added when docs_dir does not hold it."""
        if docs_dir_in_spec_root(config, self.spec_root(config)):
            docs_dir = os.path.abspath(config.docs_dir)
            for file in [f for f in files if f.abs_src_path and Path(f.abs_src_path).is_relative_to(docs_dir)]:
                files.remove(file)
                if self.options.docs == "include":
                    files.append(File.generated(config, DOCS_SECTION + file.src_uri, abs_src_path=file.abs_src_path))
        existing = files.get_file_from_path(STYLESHEET)
        if self.command == "serve":  # written on every rebuild: it carries the diagnostics banner, or not
            source = existing.abs_src_path if existing is not None else str(SITE_SRC_DIR / STYLESHEET)
            if existing is not None:
                files.remove(existing)
            css = Path(source).read_text("utf-8") + (serve.banner_css(self.problems) if self.problems is not None else "")
            files.append(File.generated(config, STYLESHEET, content=css))
        elif existing is None:
            files.append(File.generated(config, STYLESHEET, abs_src_path=str(SITE_SRC_DIR / STYLESHEET)))

    def files(self, files, config):
        from .cache import PageCache, build_signature
        if self.search is not None and self.options.fast_search:  # after the search plugin's on_config
            from .speedups import search_fast
            search_fast.install(self.search)
        if self.options.markdown_shapes:
            from .speedups.markdown_shapes import ShapeCache
            self.shapes = ShapeCache(config)
        self.docs_dir_files(files, config)
        renderer = self.state.renderer if self.state is not None else None
        locale = self.here
        cache_dir = self.cache_dir(config)
        self.cache = PageCache(cache_dir, locale, self.memory.packs) if cache_dir else None
        in_place = self.in_place and self.cache is not None
        self.written = WrittenPages(config.site_dir, self.memory.written) if in_place else None
        signature = build_signature(config, locale) if self.cache else ""
        self.parts, self.keys, self.reused, self.built = {}, {}, {}, []
        if self.manifest is not None:
            if self._reuse_everything(files, config, signature):
                return files
            self.manifest = None  # the theme or configuration changed, or a page left the pack: build it all
            self.load(config, self.spec_root(config))
            config["nav"] = navigation(self.state.renderer, locale)
            renderer = self.state.renderer
            signature = build_signature(config, locale)
        self.signature = signature
        record = self.record = {"pages": [], "files": [], "notes": [], "signature": signature,
                                "nav": config.nav, "diagnostics": [d.format() for d in self.state.diagnostics]}
        for src_uri, parts in renderer.pages(locale):
            existing = files.get_file_from_path(src_uri)
            if existing is not None:
                files.remove(existing)
            file = File.generated(config, src_uri, content=parts.markdown)
            if self.cache is not None:
                key = self.memory.keys.key(signature, src_uri, parts)
                hit = self.cache.entries(key)
                self.keys[src_uri] = key
                record["pages"].append([src_uri, parts.markdown, key])
                if hit is not None:
                    self.reused[src_uri] = (key, hit)
                    file.is_modified = _not_modified  # MkDocs' dirty mode skips the page; on_env writes it
            if src_uri not in self.reused:
                self.parts[src_uri] = parts
            files.append(file)
        for path, data in renderer.files():
            files.append(File.generated(config, path, content=data))
            record["files"].append([path, data.decode("utf-8")])
        self.total = len(self.parts) + len(self.reused)
        self.tick()
        stale = renderer.stale_report(locale)
        missing = renderer.missing_report(locale)
        if stale:
            record["notes"].append(f"pto-docs: {len(stale)} {locale} translation(s) out of date (English shown): " + ", ".join(stale))
        if missing and locale != "en":
            record["notes"].append(f"pto-docs: {len(missing)} {locale} string(s) untranslated (English shown)")
        for note in record["notes"]:
            log.info(note)
        return files

    def _reuse_everything(self, files, config, signature: str) -> bool:
        """Nothing changed since the last build: every page comes from the page pack, nothing is rendered."""
        manifest = self.manifest
        self.signature = signature
        if self.cache is None or manifest.get("signature") != signature:
            return False
        if any(key not in self.cache.old for _src, _md, key in manifest["pages"]):
            return False
        for src_uri, markdown, key in manifest["pages"]:
            existing = files.get_file_from_path(src_uri)
            if existing is not None:
                files.remove(existing)
            file = File.generated(config, src_uri, content=markdown)
            file.is_modified = _not_modified
            self.keys[src_uri] = key
            self.reused[src_uri] = (key, self.cache.entries(key))
            files.append(file)
        for path, text in manifest["files"]:
            files.append(File.generated(config, path, content=text.encode("utf-8")))
        for note in manifest.get("notes", ()):
            log.info(note)
        self.total = len(self.reused)
        self.tick()
        return True

    def env(self, env, config, files):
        from mkdocs import utils

        from .speedups.nav_cache import NavCache
        env.globals["pto_nav"] = NavCache(env, config, enabled=self.options.nav_cache)
        entries = self.search.search_index.entries if self.search is not None and hasattr(self.search, "search_index") else None
        if self.in_place:
            env.bytecode_cache = self.memory.bytecode  # the theme compiled once per serving process
        if self.written is not None and "404.html" in config.theme.static_templates:
            self._keep_404(config)
        for src_uri, (key, page_entries) in self.reused.items():
            dest = files.get_file_from_path(src_uri).abs_dest_path
            if self.written is None or not self.written.holds(dest, key):
                utils.write_file(self.cache.html(key).encode("utf-8", errors="xmlcharrefreplace"), dest)
                if self.written is not None:
                    self.written.wrote(dest, key)
            if entries is not None:
                entries.extend([dict(entry) for entry in page_entries])  # (the search plugin only reads them)
            self.page_entries[src_uri] = page_entries
        self.mark = len(entries) if entries is not None else 0
        self.doc_files = files
        return env

    def page_markdown(self, markdown, page):
        if self.shapes is not None and page.file.src_uri in self.parts:
            page.render = functools.partial(self.shapes.render, page)  # MkDocs calls page.render next
        return markdown

    def _keep_404(self, config) -> None:
        """Serving: the theme's 404 page shows only the navigation and the site configuration, all of which the
        build signature covers (cache.py), so while that is unchanged the 404.html already in the site
        is kept instead of drawn again (the whole navigation, on every rebuild)."""
        dest = os.path.join(config.site_dir, "404.html")
        key = "404.html\0" + self.signature
        if self.written.holds(dest, key):
            config.theme.static_templates.discard("404.html")
        else:
            self.written.wrote(dest, key)  # MkDocs draws it right after this event

    def page_content(self, html, page):
        parts = self.parts.get(page.file.src_uri)
        return parts.fill_search(html) if parts is not None else html

    def page_context(self, context, page):
        locale = self.here
        up = "../" * routes.depth(page.url)
        back = "../" * output.locale_dir(locale, self.primary).count("/")
        context["pto_locale"] = locale
        context["pto_alternates"] = [
            {"name": labels(loc).t("language_name"), "lang": loc, "current": loc == locale,
             "href": (up + back + output.locale_dir(loc, self.primary) + page.url) or "./"}
            for loc in self.options.languages]
        return context

    def post_page(self, output_html, page):
        src_uri = page.file.src_uri
        entries = []  # the search entries of this page (the search plugin added them in on_page_context)
        if self.search is not None and hasattr(self.search, "search_index"):
            all_entries = self.search.search_index.entries
            entries = all_entries[self.mark:]
            self.mark = len(all_entries)
        self.page_entries[src_uri] = entries
        parts = self.parts.get(src_uri)
        if parts is None:
            return output_html
        output_html = minify_chrome(parts.fill_heavy(output_html))
        if self.cache is not None and src_uri in self.keys:
            self.cache.put(self.keys[src_uri], output_html, copy.deepcopy(entries))
        if self.written is not None:  # MkDocs writes the page right after this event
            self.written.wrote(page.file.abs_dest_path, self.keys.get(src_uri))
        self.built.append(src_uri)
        self.tick()
        return output_html

    def tick(self) -> None:
        done = len(self.built) + len(self.reused)
        if self.report_fd is not None:
            if done == self.total or done % 25 == 0:
                from .languages import report
                report(self.report_fd, {"done": done, "total": self.total})
            return
        current_progress().count(self.here, done, self.total)
        if self.languages is not None:
            self.languages.poll()

    # -- end of the build ------------------------------------------------------------------------------
    def order_search_index(self) -> None:
        """Before the search plugin writes its index: the entries in page order, as a clean build adds them
        (reused pages' entries were added first, in on_env), so every build path gives the same index bytes."""
        if not self.reused or self.search is None or not hasattr(self.search, "search_index") or self.doc_files is None:
            return
        self.search.search_index.entries = [entry for file in self.doc_files.documentation_pages()
                                             for entry in self.page_entries.get(file.src_uri, ())]

    def post_build(self, config) -> None:
        output.prune_theme_assets(config.site_dir, SEARCH_LANGUAGE[self.here])
        written = self.written.finish() if self.written is not None else None
        logging.getLogger("mkdocs").removeHandler(self.counter)
        self.stats = {"locale": self.here, "pages": self.total, "built": sorted(self.built),
                      "reused": sorted(self.reused), "warnings": self.counter.count}
        if self.report_fd is not None:  # a language built in a pool process: languages.py returns the result
            self.written_pages = written  # what it wrote into the live site, for the next rebuild (serve.py)
            if not self.in_place:  # (serving: saved by a second task, after the parent has the result)
                self.save_cache(config)
            return
        if not (self.in_place and self.locale is None):  # (serving: after the rebuild, in languages.py)
            self.save_cache(config)
        if self.highlight is not None and self.locale is None:
            from ..render.fragments import use_highlight_cache
            self.state.renderer.prepare()  # every model built: the cache keeps exactly what this tree uses
            if self.highlight.new:  # (empty when the models came from an earlier build in this process)
                self.highlight.save()
            use_highlight_cache(None)
            self.highlight = None
        if self.locale is not None:  # a further language built in this process
            return
        results = [self.stats] + self.languages.finish(config)
        cache_dir = self.cache_dir(config)
        if cache_dir and (self.cache is not None or any(r.get("reused") for r in results)):
            output.write_build_report(cache_dir, results)
        if self.staging is not None:
            output.publish(config.site_dir, self.final_site_dir)
        pages = sum(r["pages"] for r in results)
        warnings = sum(r["warnings"] for r in results)
        reused = sum(len(r["reused"]) for r in results)
        where = self.final_site_dir or config.site_dir
        self.summary_text = (f"pto-docs: {pages} pages in {len(results)} languages ({', '.join(r['locale'] for r in results)}), "
                             f"{warnings} warning{'s' if warnings != 1 else ''}, {reused} reused from the cache, "
                             f"{time.monotonic() - self.start:.1f} s -> {where}")
        if self.progress is None:  # under `mkdocs build`; `pto-docs build` prints it after MkDocs' last line
            current_progress().summary(self.summary_text)
        if self.in_place:
            self.languages.after_rebuild(config)

    def save_cache(self, config) -> None:
        if self.cache is None:
            return
        self.cache.save()
        cache_dir = self.cache_dir(config)
        if not cache_dir or not self.digest:
            return
        # The no-change fast path: recorded only after a build without warnings or errors (a reused page would
        # not repeat its warnings); a build with warnings removes the old manifest.
        from .tree_cache import TreeManifest
        manifest = TreeManifest(cache_dir, self.here)
        if self.counter.count:
            manifest.remove()
        elif self.record is not None:
            manifest.save(self.digest, **self.record)

    def build_error(self) -> None:
        logging.getLogger("mkdocs").removeHandler(self.counter)
        if self.written is not None and self.written.started:
            self.written.abandon()  # some page files may be of this failed build: write them all next time
        if self.locale is not None:
            return
        if self.languages is not None:
            self.languages.stop()
        if self.in_place:
            self.memory.background.after_rebuild([])
        if self.staging is not None and os.path.isdir(self.staging):
            shutil.rmtree(self.staging, ignore_errors=True)
        current_progress().clear()
