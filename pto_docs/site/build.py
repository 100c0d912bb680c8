"""One language build of the site: the state of that build and what the plugin's events do with it.

on_config loads (or reuses) the catalog, fails the build with the validate diagnostics (or, serving, keeps the
last good tree), sets the language (Material ``theme.language``, search language, localized nav) and, on the
primary build, starts every further language (languages.py). The page events are in pages.py.
on_post_build waits for the other languages and publishes the finished site (output.py).

With the cache on (``pto-docs build``, or MkDocs' own ``--dirty``), a build whose tree digest (every byte of the
spec tree, of pto-docs and of the templates; tree_cache.py) matches the last successful build neither loads nor
validates nor renders the tree: its manifest gives the navigation, the page list and the cache keys.
"""

from __future__ import annotations

import copy
import logging
import os
import shutil
import time
from pathlib import Path

from mkdocs.exceptions import PluginError

from ..i18n import MATERIAL_LANGUAGE, SEARCH_LANGUAGE, labels
from ..model.diagnostics import SpecRootError
from ..render.footer import footer_identity
from ..render.navigation import navigation
from ..runtime.gc_pause import FullCollectionPause
from ..runtime.progress import current as current_progress
from . import output, serve, template_cache
from .config import config_path
from .logs import WarningCounter
from .memory import SiteMemory
from .pages import PageEvents
from .rendering import BuildState, build_state
from .serve import WrittenPages

log = logging.getLogger("mkdocs.plugins.pto-docs")


class SiteBuild(PageEvents):
    """The state of one language's MkDocs build (the primary one, or a further language started by it)."""

    def __init__(self, options, memory: SiteMemory, *, command: str | None, dirty: bool, locale: str | None = None,
                 progress=None):
        self.memory = memory  # what the process keeps between builds (memory.py; the plugin owns it)
        self.options = options  # the plugin's configuration (config.py PtoDocsConfig)
        self.command = command  # MkDocs' command ("build", "serve"; None: build() called directly)
        self.dirty = dirty  # MkDocs' --dirty (or `pto-docs build` with its cache)
        self.locale = locale  # None on the primary build
        self.progress = progress  # a pto_docs.runtime.progress.Progress given by `pto-docs build`
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
        self.kept_templates = None  # template_cache.CompiledTemplates of this build (configure), or None
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
        self.last_good: tuple[Path, BuildState] | None = None  # serving: the last spec root and tree state that built
        self.problems: list[str] | None = None  # serving a tree that fails validation: its diagnostics
        self.stamp: dict | None = None  # what the published site will be a build of (uptodate.py), when it may skip
        self.up_to_date: str | None = None  # MkDocs' own `build --dirty` with nothing to do: the line that says so
        self.collections = FullCollectionPause()  # the primary build's: no full garbage collection until it ends
        self.default_cache: dict[Path, str | None] = {}  # spec root -> its folder in the user's cache (cache_dir)

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

    def avs_results_path(self, config) -> Path | None:
        if not self.options.avs_results:
            return None
        path = Path(os.path.expanduser(self.options.avs_results))
        return path if path.is_absolute() else Path(config.config_file_path or ".").resolve().parent / path

    def avs_results(self, config) -> dict | None:
        """The ``pto-docs avs --json`` document named by the ``avs_results`` option, checked (or PluginError)."""
        path = self.avs_results_path(config)
        if path is None:
            return None
        from ..trace.avs_status import AvsResultsError, read_avs_results
        try:
            return read_avs_results(path)
        except AvsResultsError as exc:
            raise PluginError(f"{path}: error[AVS-RESULTS]: {exc}") from None

    def avs_runner(self, config, root: Path):
        """With ``avs_examples: run`` (and no ``avs_results``): a function that runs the tree's AVS points with
        ``--examples`` once per set of inputs (bridge.avs.run_tree_avs), shared by every language."""
        if self.options.avs_examples != "run" or self.options.avs_results:  # a results file wins
            return None
        generated = None
        generate = self.options.avs_decoders == "generate"  # run the tree's own generator (decoder_generator.py)
        if self.options.avs_decoders and not generate:
            path = config_path(config, self.options.avs_decoders)
            try:
                generated = path.read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise PluginError(f"{path}: error[IO-READ]: cannot read the generated decoders: "
                                  f"{getattr(exc, 'strerror', None) or exc}") from None
        from ..store import user_cache_root
        from ..store.output_guard import OutputRefused, check_cache_dir
        base = config_path(config, self.options.cache_dir) if self.options.cache_dir else user_cache_root()
        try:
            cache = check_cache_dir(base / "avs-examples", root)
        except OutputRefused as exc:
            raise PluginError(exc.format()) from None
        profile = self.options.avs_profile

        def run(catalog):
            from ..api import needs_decoders, run_avs
            nonlocal generated
            if generate and generated is None:
                from ..bridge.decoder_generator import GeneratorFailed
                from ..bridge.decoder_generator import generate as run_generator
                if self.locale is None:
                    current_progress().stage("running the tree's decoder generator (avs_decoders: generate)")
                try:
                    generated = run_generator(root, cache)
                except GeneratorFailed as exc:
                    raise PluginError(f"{root}: error[AVS-DECODERS]: avs_decoders: generate: {exc}") from None
            if generated is None and needs_decoders(catalog):
                if self.locale is None:
                    log.info(f"{root}: the ASL model depends on generated:decoders and avs_decoders is not set: "
                             "no worked examples from the AVS test points (avs_examples: run)")
                return None
            if self.locale is None:
                current_progress().stage("running the AVS test points for the worked examples")
            with self.collections.suspended():  # the interpreter's pool processes collect as usual (gc_pause.py)
                return run_avs(catalog, generated, cache_dir=cache, profile=profile, examples=True)
        return run

    def previous_release(self, config):
        """The ``previous`` option's release (site/history.py PreviousRelease), or None."""
        if not self.options.previous:
            return None
        from .history import PreviousRelease
        base = Path(config.config_file_path or ".").resolve().parent
        return PreviousRelease(os.path.expanduser(self.options.previous), base, self.spec_root(config))

    def teaching_runner(self, config, root: Path):
        """With ``teaching_examples: run`` (the default): a function that runs every instruction's own teaching
        scenario on the tree's ASL model (api.teach), its results sealed in ``<cache>/teaching`` by the digest of
        their inputs and so shared by every language and later build."""
        if self.options.teaching_examples != "run":
            return None
        from ..store import user_cache_root
        from ..store.output_guard import OutputRefused, check_cache_dir
        base = config_path(config, self.options.cache_dir) if self.options.cache_dir else user_cache_root()
        try:
            cache = check_cache_dir(base / "teaching", root) if self.options.cache else None
        except OutputRefused as exc:
            raise PluginError(exc.format()) from None

        def run(catalog, quiet: bool = False, split: bool = False):
            from ..api import teach
            if self.locale is None and not quiet:
                current_progress().stage("running every instruction's teaching example on the ASL model")
            with self.collections.suspended():
                return teach(catalog, cache, split)
        return run

    def templates_cache(self, config):
        """Compiled templates kept on disk for every build of this user (template_cache.py); None with the
        ``cache`` option off."""
        if not self.options.cache:
            return None
        return template_cache.user_templates(self.spec_root(config))

    def cache_dir(self, config) -> str | None:
        """The build cache: the ``cache_dir`` option (never in the spec tree: :meth:`check_cache_dir`), else this
        tree's folder in the user's cache (store/paths.py), never under the spec root; None with the cache off or
        without a trusted cache key (store/seal.py)."""
        if not (self.options.cache and self.dirty):
            return None
        if self.options.cache_dir:
            from ..store import user_sealer
            return str(config_path(config, self.options.cache_dir)) if user_sealer() is not None else None
        root = self.spec_root(config)
        if root not in self.default_cache:
            self.default_cache[root] = _default_cache_dir(root)
        return self.default_cache[root]

    def check_cache_dir(self, config, root: Path) -> None:
        """An explicit ``cache_dir`` inside (or around) the spec tree is refused: the tree's authors could write it."""
        if not self.options.cache_dir:
            return
        from ..store.output_guard import OutputRefused, check_cache_dir
        try:
            check_cache_dir(config_path(config, self.options.cache_dir), root)
        except OutputRefused as exc:
            raise PluginError(exc.format() + "; leave cache_dir unset to use the user's cache") from None

    # -- configuration -----------------------------------------------------------------------------
    def configure(self, config) -> None:
        """on_config: load the tree (or find it unchanged), set this language's configuration."""
        self.start = time.monotonic()
        primary = self.locale is None
        if primary:
            self.collections.pause()  # resumed when the build ends (post_build) or fails (build_error)
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
        if primary:
            self.check_cache_dir(config, root)
        # every environment of the theme keeps its compiled templates: once per serving process, or once per user
        # for builds (template_cache.py)
        self.kept_templates = self.templates_cache(config)
        template_cache.install(config.theme, self.memory.bytecode if self.in_place else self.kept_templates,
                               keep_listing=self.in_place)
        self.manifest = self._unchanged_tree(config, root)
        if self.manifest is not None and "footer" not in self.manifest:
            self.manifest = None  # (a manifest of an older pto-docs: load the tree)
        if self.manifest is not None:
            self.preread = None  # nothing to load: let the bytes go
        if self.manifest is None and self.state is None:  # (a further language gets the primary build's state)
            if primary and self.command != "serve" and self.cache_dir(config):
                # the page models (built while loading, on both cores) reuse the last build's highlighted code
                from ..render.fragments import HighlightCache, use_highlight_cache
                self.highlight = HighlightCache(os.path.join(self.cache_dir(config), "highlight.json.z"))
                use_highlight_cache(self.highlight)
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
        version = self.options.version
        back = "../" * output.site_path(locale, self.primary, version).count("/")
        config.extra["alternate"] = [
            {"name": labels(loc).t("language_name"), "lang": loc,
             "link": (back + output.site_path(loc, self.primary, version)) if loc != locale else "./"}
            for loc in self.options.languages]
        if version:  # a release of a versioned site: Material's version selector reads ../versions.json
            config.extra["version"] = {**(config.extra.get("version") or {}), "provider": "mike"}
        config["site_name"] = labels(locale).t("site_name")
        self._site_url(config, locale, primary)
        config.extra["pto_footer"] = (self.manifest["footer"] if self.manifest is not None
                                      else footer_identity(self.state.renderer.catalog, locale))
        if primary:
            self._skip_if_published(config)
            if self.up_to_date is not None:  # (a build of no page: the navigation would name missing ones)
                config["nav"] = None
        if primary and not self.in_place:
            _check_site_dir(config.site_dir, root, checked_by_caller=self.progress is not None)
            self.final_site_dir = os.path.abspath(config.site_dir)
            for path in output.remove_stale(self.final_site_dir):
                log.info(f"pto-docs: removed {path}, left by a build that was stopped")
            os.makedirs(os.path.dirname(self.final_site_dir), exist_ok=True)
            self.staging = output.staging_dir(self.final_site_dir)  # (made here by mkdtemp: nothing reused)
            config["site_dir"] = self.staging
        if primary and self.options.cache and self.dirty:
            self.options.cache_dir = self.cache_dir(config)  # resolved once: the other languages share it
        if SEARCH_LANGUAGE[locale] == ["zh"]:
            import jieba  # Material's Chinese search segmentation talks on its own logger; keep it quiet
            jieba.setLogLevel(logging.WARNING)
        if primary and self.in_place and any(SEARCH_LANGUAGE[loc] == ["zh"] for loc in self.options.languages):
            serve.preload_jieba()
        if primary and self.up_to_date is None:
            from .languages import Languages
            self.languages = Languages(self, config)
            self.languages.start()
            progress.stage(f"building {self.here}" + "".join(f" + {loc}" for loc in self.languages.forked()))

    def _site_url(self, config, locale: str, primary: bool) -> None:
        """A further language lies in <lang>/ of the site: its canonical URLs and sitemap say so. Without a
        ``site_url`` MkDocs writes empty sitemaps: one line says so, a warning, or an info line under strict
        (a site without a sitemap is still whole: a strict build of a preview or a local copy must not fail)."""
        if config.site_url:
            if not primary or self.options.version:
                config["site_url"] = (config.site_url.rstrip("/") + "/"
                                      + output.site_path(locale, self.primary, self.options.version))
        elif primary:
            (log.info if config.strict else log.warning)(
                "pto-docs: no site_url in the configuration, so sitemap.xml lists no pages; set site_url to the "
                "address the site is published at (e.g. site_url: https://example.org/pto-isa/) to get one")

    def _skip_if_published(self, config) -> None:
        """``pto-docs build`` with nothing changed and the published site intact: raise SiteUpToDate (uptodate.py);
        MkDocs' own ``build --dirty`` then builds nothing instead (:attr:`up_to_date`: no page, no further
        language, a staging directory thrown away, the published site left as it is). Otherwise note what this
        build's site will be a build of, for the next one."""
        from . import uptodate
        from .cache import build_signature
        from .tree_cache import TreeManifest
        cache_dir = self.cache_dir(config)
        if not (self.command == "build" and (self.progress is not None or self.dirty) and cache_dir and self.digest
                and uptodate.eligible(config)):
            return
        self.stamp = uptodate.stamp(digest=self.digest, signature=build_signature(config, self.here),
                                    languages=self.options.languages, config=config)
        if self.manifest is None:
            return
        manifests = [self.manifest] + [TreeManifest(cache_dir, loc).load(self.digest, quiet=True)
                                       for loc in self.options.languages[1:]]
        if any(m is None for m in manifests) or not uptodate.current(cache_dir, self.stamp, config.site_dir):
            return
        pages = sum(len(m.get("pages", ())) for m in manifests)
        message = (f"pto-docs: {pages} pages in {len(manifests)} languages ({', '.join(self.options.languages)}): "
                   f"nothing changed since the last build and the site is as it left it, "
                   f"{time.monotonic() - self.start:.1f} s -> {os.path.abspath(config.site_dir)}")
        if self.progress is not None:
            raise uptodate.SiteUpToDate(message)
        self.up_to_date = message

    def load(self, config, root: Path) -> None:
        if self.locale is None:
            current_progress().stage("loading the spec tree")
        preread, self.preread = self.preread, None  # the bytes the tree digest just read, parsed instead
        from ..render.env import environment
        environment(self.templates_dir(config)).bytecode_cache = self.kept_templates
        try:
            # a build (not a serving reload, which is incremental) checks the tree on both cores (load_helper.py)
            self.state = build_state(root, self.templates_dir(config), preread=preread, avs=self.avs_results(config),
                                     states=self.memory.states, avs_run=self.avs_runner(config, root),
                                     teach_run=self.teaching_runner(config, root),
                                     parallel=self.options.parallel and self.command != "serve",
                                     previous_release=self.previous_release(config))
        except (SpecRootError, OSError) as exc:
            raise PluginError(f"{root}: error[IO-ROOT]: {exc}") from exc
        diags = self.state.diagnostics
        errors = [d for d in diags if d.is_error or self.options.strict]
        good = self.last_good[1] if self.last_good is not None and self.last_good[0] == root else None
        if (errors or self.state.renderer is None) and self.command == "serve" and good is not None:
            self._serve_last_good(root, errors, good)
            return
        if self.locale is None:  # report once, on the primary build
            for d in diags:
                (log.error if d in errors else log.info)(d.format())
            if not errors:  # (a warning line like the tree's others: pages without a long name are still right)
                from ..i18n.long_names import missing_diagnostics
                for d in missing_diagnostics(self.state.result.catalog.instructions):
                    log.info(d.format())
        if errors or self.state.renderer is None:
            raise PluginError(f"pto-docs: {len(errors)} validation error(s) in {root}; see the diagnostics above")

    def _serve_last_good(self, root: Path, errors: list, good: BuildState) -> None:
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
        self.state = good

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
            if self.options.avs_decoders == "generate":  # the generator's inputs decide its output
                from ..bridge.decoder_generator import inputs_digest
                settings["avs_decoders_sha256"] = inputs_digest(root)
            elif self.options.avs_decoders:  # avs_examples: run reads them; their content decides the examples
                from ..model.frozen import sha256_bytes
                try:
                    settings["avs_decoders_sha256"] = sha256_bytes(config_path(config, self.options.avs_decoders).read_bytes())
                except OSError:
                    settings["avs_decoders_sha256"] = None
            previous = self.previous_release(config)
            if previous is not None:  # the previous release's content, not only its name, decides the pages
                settings["previous_identity"] = previous.identity()
            avs_path = self.avs_results_path(config)
            if avs_path is not None:  # the results' content, not only their path, decides the pages
                from ..model.frozen import sha256_bytes
                try:
                    settings["avs_results_sha256"] = sha256_bytes(avs_path.read_bytes())
                except OSError:
                    settings["avs_results_sha256"] = None
            self.preread = {} if self.locale is None else None
            outputs = (self.final_site_dir or config.site_dir, cache_dir)
            self.digest = tree_digest(root, self.templates_dir(config), settings, keep=self.preread, outputs=outputs)
        return TreeManifest(cache_dir, self.here).load(self.digest)

    # -- end of the build ------------------------------------------------------------------------------
    def post_build(self, config) -> None:
        if self.up_to_date is not None:  # nothing was built: what MkDocs wrote into the staging directory goes
            logging.getLogger("mkdocs").removeHandler(self.counter)
            try:
                if self.staging is not None:
                    shutil.rmtree(self.staging, ignore_errors=True)
                self.summary_text = self.up_to_date
                current_progress().summary(self.summary_text)
            finally:
                self.collections.resume()
            return
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
        try:
            self._finish_primary(config)
        finally:
            self.collections.resume()

    def _finish_primary(self, config) -> None:
        """post_build of the primary build: the further languages' results, the report, publishing, the summary."""
        results = [self.stats] + self.languages.finish(config)
        cache_dir = self.cache_dir(config)
        if cache_dir and (self.cache is not None or any(r.get("reused") for r in results)):
            output.write_build_report(cache_dir, results)
        if self.staging is not None:
            from ..store.output_guard import write_site_marker
            write_site_marker(config.site_dir)  # the next build may replace this site (and nothing else)
            output.publish(config.site_dir, self.final_site_dir)
            if cache_dir:
                from . import uptodate
                if self.stamp is not None and not any(r["warnings"] for r in results):
                    uptodate.record(cache_dir, self.stamp, self.final_site_dir)
                else:
                    uptodate.forget(cache_dir)
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
            from ..api import prepare_for_a_save
            self.languages.after_rebuild(config, later=prepare_for_a_save)

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
        if self.highlight is not None and self.locale is None:  # (no cache for a failed build's models)
            from ..render.fragments import use_highlight_cache
            use_highlight_cache(None)
            self.highlight = None
        if self.written is not None and self.written.started:
            self.written.abandon()  # some page files may be of this failed build: write them all next time
        if self.locale is not None:
            return
        self.collections.resume()
        if self.languages is not None:
            self.languages.stop()
        if self.in_place:
            self.memory.background.after_rebuild([])
        if self.staging is not None and os.path.isdir(self.staging):
            shutil.rmtree(self.staging, ignore_errors=True)
        current_progress().clear()


def _default_cache_dir(root: Path) -> str | None:
    """The tree's folder in the user's cache; None (no cache) when the user's cache lies over, in or around the
    spec tree, or its key cannot be trusted (store/seal.py; checked in that order: no key is made in a tree)."""
    from ..store import tree_cache_dir, user_sealer
    from ..store.output_guard import OutputRefused, check_cache_dir
    folder = tree_cache_dir(root)
    try:
        check_cache_dir(folder.parent.parent, root)
    except OutputRefused:
        return None
    return str(folder) if user_sealer() is not None else None


def _check_site_dir(site_dir: str, root: Path, checked_by_caller: bool) -> None:
    """Publishing replaces the site directory: never the spec tree, never a stranger's directory (output_guard).
    ``pto-docs build`` has checked it already, with its ``--force``; plain ``mkdocs build`` is checked here."""
    from ..store.output_guard import OutputRefused, check_site_dir
    try:
        check_site_dir(site_dir, root, force=checked_by_caller, create=False)
    except OutputRefused as exc:
        raise PluginError(exc.format()) from None
