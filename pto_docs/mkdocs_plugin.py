"""The ``pto-docs`` MkDocs plugin: a thin shell over pto_docs.load and pto_docs.render.

Events: on_config loads (or reuses) the catalog, fails the build with the validate diagnostics, sets the language
(Material ``theme.language``, search language, localized nav) and, on the primary build, starts every further
language: in a forked child process that shares the loaded catalog and page models copy-on-write (POSIX), else
in this process after the primary build. on_files adds the generated pages as virtual files (tiny Markdown, see
render/pages.py) and reuses unchanged pages from the content-addressed cache (render/cache.py);
on_page_content inserts the searchable HTML fragments after Markdown; on_page_context gives the language switch
its target; on_post_page inserts the heavy fragments after the search plugin has indexed the page;
on_post_build waits for the other languages and renames the finished site into place; on_serve watches the spec
root and templates/.

With the cache on (``pto-docs build``, or MkDocs' own ``--dirty``: ``mkdocs serve --dirty``), a build whose tree
digest (every byte of the spec tree, of pto-docs and of the templates; render/tree_cache.py) matches the last
successful build neither loads nor validates nor renders the tree: its manifest gives the navigation, the page
list and the cache keys. The theme's source maps and the lunr files of other search languages are removed
from each language's site (no page loads them).

The site is built into a temporary sibling of ``site_dir`` and renamed into place only when every language
succeeded, so a failed build never leaves a half-written site. ``mkdocs serve --dirty`` instead builds every
language into the live site (serve_site.py): only page files whose page changed are written, a rebuild that
fails validation writes nothing (the last site stays served), and after any other failure the next rebuild
writes every page again.
"""

from __future__ import annotations

import copy
import functools
import json
import logging
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from mkdocs.config import base, load_config
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File

from . import serve_site
from .diagnostics import SpecRootError
from .i18n import LOCALES, MATERIAL_LANGUAGE, SEARCH_LANGUAGE, labels
from .progress import Progress
from .progress import current as current_progress
from .progress import install as install_progress
from .render import routes
from .render.build_state import BuildState, build_state
from .render.env import TEMPLATES_DIR
from .render.navigation import navigation
from .serve_site import WrittenPages

log = logging.getLogger("mkdocs.plugins.pto-docs")
_BLANKS = re.compile(r"[ \t]*\n\s*")
# a line break between list items (and their list's tags) renders as nothing: the navigation is mostly these
_LIST_BREAKS = re.compile(r"(</li>|<ul[^>]*>)\n(?=<li[ >]|</ul>)")
# The line breaks the sidebars can lose, each between the two tags named (a break at either end of a flex link
# renders as nothing). Written as a break followed by its context so the scan looks for line breaks only
# (tests/site/test_minify.py compares it with the plain reading of that rule).
_NAV_BREAKS = re.compile(r'\n(?:(?<=<li class="md-nav__item">\n)(?=<a )|(?<=</span>\n)(?=</a>\n?</li>)'
                         r'|(?<=</a>\n)(?=</li>)|(?<=class="md-nav__link">\n)(?=<span class="md-ellipsis">))')
DIRTY_WARNING = "A 'dirty' build is being performed"


class PtoDocsConfig(base.Config):
    spec_root = c.Type(str, default="catalog")
    languages = c.ListOfItems(c.Choice(LOCALES), default=["en", "zh-CN"])
    strict = c.Type(bool, default=False)  # treat validation warnings as errors (like `pto-docs validate --strict`)
    trace_policy = c.Type(dict, default={})  # finding code -> error | warning | ignore, read by `pto-docs trace`
    parallel = c.Type(bool, default=True)  # build the further languages in forked processes (POSIX)
    cache = c.Type(bool, default=True)  # reuse unchanged pages (content-addressed) in `pto-docs build`
    cache_dir = c.Optional(c.Type(str))  # default: .pto-docs-cache beside the site directory
    templates_dir = c.Optional(c.Type(str))  # page templates (default: the templates/ shipped with pto-docs)
    nav_cache = c.Type(bool, default=True)  # draw the navigation once per group (render/nav_cache.py; same HTML)
    markdown_shapes = c.Type(bool, default=True)  # convert page Markdown once per shape (render/markdown_shapes.py)
    fast_search = c.Type(bool, default=True)  # index pages with render/search_fast.py (same index as Material's)


def minify_chrome(html: str) -> str:
    """Collapse the theme's indentation and blank lines outside the page's ``<article>`` (no ``<pre>`` there);
    a line break stays a line break, so inline scripts keep their meaning."""
    start = html.find("<article")
    end = html.rfind("</article>")
    if start < 0 or end < start:
        return html
    def chrome(text: str) -> str:
        return _LIST_BREAKS.sub(r"\1", _BLANKS.sub("\n", text))
    head = chrome(html[:start])
    nav = head.find('<nav class="md-nav md-nav--primary"')
    if nav >= 0:  # the sidebars: block list items holding flex links, where a break at either end renders as nothing
        head = head[:nav] + _NAV_BREAKS.sub("", head[nav:])
    return head + html[start:end] + chrome(html[end:])


def prune_theme_assets(site_dir: str, search_languages) -> int:
    """Remove what no page of this language can load: the theme's source maps (debugging aids) and the search
    worker's lunr files for other languages (the worker imports only ``lunr.<lang>`` of the configured search
    languages, ``tinyseg``/``wordcut`` for ja/hi/th, ``lunr.multi`` and ``lunr.stemmer.support``).
    Returns the bytes removed."""
    langs = set(search_languages)
    keep = {"lunr.stemmer.support.min.js"} | {f"lunr.{lang}.min.js" for lang in langs if lang != "en"}
    if len(langs) > 1:
        keep.add("lunr.multi.min.js")
    if "ja" in langs:
        keep.add("tinyseg.js")
    if langs & {"hi", "th"}:
        keep.add("wordcut.js")
    removed = 0
    assets = os.path.join(site_dir, "assets")
    for dirpath, _dirs, names in os.walk(assets):
        in_lunr = os.path.basename(dirpath) in ("lunr", "min") and f"{os.sep}lunr" in dirpath
        for name in names:
            if name.endswith(".map") or (in_lunr and name.endswith(".js") and name not in keep):
                path = os.path.join(dirpath, name)
                removed += os.path.getsize(path)
                os.remove(path)
    return removed


def mkdocs_dirty() -> bool:
    """Whether the running MkDocs build was started dirty (``mkdocs serve --dirty``, ``mkdocs build --dirty``).

    MkDocs gives plugins no flag for it (serve_site.mkdocs_build_argument says why and reads it). In dirty mode
    MkDocs skips every page the plugin marks unmodified, which is how pages are reused from the
    content-addressed cache."""
    return bool(serve_site.mkdocs_build_argument("dirty"))


def locale_dir(locale: str, primary: str) -> str:
    return "" if locale == primary else f"{locale}/"


def _not_modified() -> bool:
    return False


class _Counter(logging.Handler):
    """Counts the warnings (and worse) of one build process, for the summary line."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class _DropDirtyWarning(logging.Filter):
    """MkDocs warns about ``--dirty``; our dirty builds start from an empty directory and reuse only pages whose
    every input is unchanged, so the warning does not apply (and must not fail a strict build)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(DIRTY_WARNING)


class _Prefix(logging.Filter):
    def __init__(self, prefix: str):
        super().__init__()
        self.prefix = prefix

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(self.prefix):
            record.msg = self.prefix + str(record.msg)
        return True


logging.getLogger("mkdocs.commands.build").addFilter(_DropDirtyWarning())


class PtoDocsPlugin(BasePlugin[PtoDocsConfig]):
    supports_multiple_instances = False

    def __init__(self) -> None:
        self.locale: str | None = None  # set on the secondary (per-language) builds
        self.state: BuildState | None = None
        self.parts: dict = {}
        self.written: WrittenPages | None = None  # `mkdocs serve --dirty`: the page files already in the site
        self._signature = ""  # the page-cache build signature of this build (render/cache.py)
        # No on_startup/on_shutdown: MkDocs would then reuse one instance (and reload its config) for every
        # load_config, and each language build needs its own instance.
        self.command: str | None = None
        self.dirty_build = False  # set by `pto-docs build`, which calls MkDocs' build(dirty=True)
        self.report_fd: int | None = None  # in a child language build: where to send counts and the result
        self.children: list[dict] = []
        self.final_site_dir: str | None = None
        self.cache = None
        self.keys: dict[str, str] = {}
        self.reused: dict[str, tuple[str, list]] = {}
        self.built: list[str] = []
        self.total = 0
        self._mark = 0
        self._counter: _Counter | None = None
        self._search = None
        self._start = time.monotonic()
        self.summary_text: str | None = None
        self.progress = None  # a pto_docs.progress.Progress given by `pto-docs build`; else one per build
        self._staging: str | None = None
        self._highlight = None
        self._shapes = None  # render/markdown_shapes.py ShapeCache of this build (made in on_files)
        self._preread: dict | None = None  # spec file bytes read by the tree digest, for the loader (then dropped)
        self._digest: str | None = None  # the tree digest (render/tree_cache.py) of a cached `pto-docs build`
        self.manifest: dict | None = None  # the last build's manifest when its digest matches: nothing to load
        self._record: dict | None = None  # what this build derived from the tree, for the next manifest

    # -- configuration ---------------------------------------------------------------------------
    @property
    def primary(self) -> str:
        return self.config.languages[0]

    @property
    def here(self) -> str:
        return self.locale or self.primary

    @property
    def in_place(self) -> bool:
        """``mkdocs serve --dirty``: every language builds straight into the live site directory (no staging, no
        clean; the further languages in forked processes), and reused pages already there are not rewritten
        (serve_site.py). A plain ``mkdocs serve`` rebuilds every page each time, staged like ``pto-docs build``."""
        return self.command == "serve" and self.dirty_build and bool(self.config.cache)

    def spec_root(self, config) -> Path:
        root = Path(os.path.expanduser(self.config.spec_root))
        if not root.is_absolute():
            root = Path(config.config_file_path or ".").resolve().parent / root
        return root

    def templates_dir(self, config) -> str | None:
        if not self.config.templates_dir:
            return None
        path = Path(os.path.expanduser(self.config.templates_dir))
        if not path.is_absolute():
            path = Path(config.config_file_path or ".").resolve().parent / path
        return str(path)

    def on_config(self, config):
        self._start = time.monotonic()
        if self.locale is None and not self.dirty_build:
            self.dirty_build = mkdocs_dirty()  # `mkdocs serve --dirty` / `mkdocs build --dirty`: use the cache
        if self.locale is None and self.command is None and serve_site.mkdocs_serving():
            self.command = "serve"
        if self.locale is None and self.in_place:
            serve_site.before_rebuild()  # the last rebuild's background work is done (serve_site.py)
        elif self.locale is None:
            serve_site.finish_background()
        if self.locale is None:
            quiet = logging.getLogger("mkdocs").getEffectiveLevel() > logging.INFO
            install_progress(self.progress or Progress(quiet=quiet))
        progress = current_progress()
        locale = self.here
        if locale not in self.config.languages:
            raise PluginError(f"pto-docs: language {locale!r} is not in plugins.pto-docs.languages")
        if not config.use_directory_urls:
            raise PluginError("pto-docs: the generated site needs use_directory_urls: true")
        if self._counter is None:
            self._counter = _Counter()
            logging.getLogger("mkdocs").addHandler(self._counter)
        self._counter.count = 0
        root = self.spec_root(config)
        self.manifest = self._unchanged_tree(config, root)
        if self.manifest is not None:
            self._preread = None  # nothing to load: let the bytes go
        if self.manifest is None and self.state is None:  # (a further language gets the primary build's state)
            self._load(config, root)
        elif self.locale is None and self.manifest is not None:  # nothing changed: the last build's diagnostics, without loading the tree
            for line in self.manifest.get("diagnostics", ()):
                log.info(line)
        config.theme["language"] = MATERIAL_LANGUAGE[locale]
        for name, plugin in config.plugins.items():
            if name.endswith("search") and hasattr(plugin, "config"):
                plugin.config.lang = list(SEARCH_LANGUAGE[locale])
                self._search = plugin
        config["nav"] = self.manifest["nav"] if self.manifest is not None else navigation(self.state.renderer, locale)
        back = "../" * locale_dir(locale, self.primary).count("/")
        config.extra["alternate"] = [
            {"name": labels(loc).t("language_name"), "lang": loc,
             "link": (back + locale_dir(loc, self.primary)) if loc != locale else "./"}
            for loc in self.config.languages]
        config["site_name"] = labels(locale).t("site_name")
        if self.locale is None and not self.in_place:
            self._stage_site_dir(config)
        if self.locale is None and self.config.cache and self.dirty_build:
            self.config.cache_dir = self._cache_dir(config)  # resolved once: the other languages share it
        if SEARCH_LANGUAGE[locale] == ["zh"]:
            try:  # jieba (Material's Chinese search segmentation) talks on its own logger; keep it quiet
                import jieba
                jieba.setLogLevel(logging.WARNING)
            except ImportError:
                pass
        if self.locale is None and self.in_place and any(SEARCH_LANGUAGE[loc] == ["zh"] for loc in self.config.languages):
            serve_site.preload_jieba()
        if self.locale is None:
            if self.command != "serve" and self.config.cache_dir and self.dirty_build and self.state is not None:
                from .render.fragments import HighlightCache, use_highlight_cache
                self._highlight = HighlightCache(os.path.join(self.config.cache_dir, "highlight.json.z"))
                use_highlight_cache(self._highlight)
            if self.config.parallel and hasattr(os, "fork") and len(self.config.languages) > 1:
                if self.state is not None:
                    progress.stage("building page models")
                    self.state.renderer.prepare()
                for loc in self.config.languages[1:]:
                    self._fork(loc, config)
        if self.locale is None:
            progress.stage(f"building {self.here}" + (" + " + ", ".join(ch["locale"] for ch in self.children)
                                                      if self.children else ""))
        return config

    def _load(self, config, root: Path) -> None:
        if self.locale is None:
            current_progress().stage("loading the spec tree")
        preread, self._preread = self._preread, None  # the bytes the tree digest just read, parsed instead
        try:
            self.state = build_state(root, self.templates_dir(config), preread=preread)
        except (SpecRootError, OSError) as exc:
            raise PluginError(f"{root}: error[IO-ROOT]: {exc}") from exc
        self._report(self.state, root)

    def _unchanged_tree(self, config, root: Path) -> dict | None:
        """The manifest of the last build when the tree, pto-docs and everything else it read are unchanged."""
        cache_dir = self._cache_dir(config) if self.command != "serve" else None
        if not cache_dir:
            return None
        from .render.tree_cache import TreeManifest, tree_digest
        if self._digest is None:
            if self.locale is None:
                current_progress().stage("hashing the spec tree")
            settings = {k: v for k, v in dict(self.config).items() if k not in ("cache_dir",)}
            self._preread = {} if self.locale is None else None
            self._digest = tree_digest(root, self.templates_dir(config), settings, keep=self._preread)
        return TreeManifest(cache_dir, self.here).load(self._digest)

    def _report(self, state: BuildState, root: Path) -> None:
        diags = state.diagnostics
        errors = [d for d in diags if d.is_error or self.config.strict]
        if self.locale is None:  # report once, on the primary build
            for d in diags:
                (log.error if d in errors else log.info)(d.format())
        if errors or state.renderer is None:
            raise PluginError(f"pto-docs: {len(errors)} validation error(s) in {root}; see the diagnostics above")

    def _cache_dir(self, config) -> str | None:
        if not (self.config.cache and self.dirty_build):
            return None
        if self.config.cache_dir:
            path = Path(os.path.expanduser(self.config.cache_dir))
            if not path.is_absolute():
                path = Path(config.config_file_path or ".").resolve().parent / path
            return str(path)
        final = self.final_site_dir or config.site_dir
        return os.path.join(os.path.dirname(os.path.abspath(final)), ".pto-docs-cache")

    # -- the site directory and the other languages -------------------------------------------------
    def _stage_site_dir(self, config) -> None:
        """Build into an empty sibling directory; on_post_build renames it into place."""
        final = os.path.abspath(config.site_dir)
        self.final_site_dir = final
        parent, name = os.path.split(final)
        os.makedirs(parent, exist_ok=True)
        staging = os.path.join(parent, f".{name}.pto-build-{os.getpid()}")
        shutil.rmtree(staging, ignore_errors=True)
        config["site_dir"] = staging
        self._staging = staging

    def _fork(self, locale: str, config) -> None:
        if self.in_place:  # the language's directory of the live site; nothing to move afterwards
            staging, target = os.path.join(config.site_dir, locale_dir(locale, self.primary)), None
        else:
            staging = target = f"{config.site_dir}-{locale}"
            shutil.rmtree(staging, ignore_errors=True)
        read_fd, write_fd = os.pipe()
        # The child hands its rendered pages back through a private (0700, unpredictable) directory, so no other
        # user can plant the file the parent unpickles.
        handoff = tempfile.mkdtemp(prefix="pto-docs-handoff-")
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: build one language, report, never return into the parent's build
            code = 1
            try:
                os.close(read_fd)
                code = self._child_build(locale, config, staging, write_fd, handoff)
            except BaseException as exc:  # noqa: BLE001 - everything must end in os._exit
                try:
                    log.error(f"pto-docs: the {locale} build failed: {exc}")
                    os.write(write_fd, (json.dumps({"error": str(exc)}) + "\n").encode())
                except Exception:
                    pass
            finally:
                try:
                    logging.shutdown()
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        os.close(write_fd)
        os.set_blocking(read_fd, False)
        self.children.append({"locale": locale, "pid": pid, "fd": read_fd, "dir": target, "site": staging,
                              "handoff": handoff, "buffer": b"", "result": None, "written": None, "done": 0, "total": 0})

    def _child_build(self, locale: str, config, staging: str, write_fd: int, handoff: str) -> int:
        from mkdocs.commands.build import build
        from mkdocs.exceptions import Abort
        prefix = _Prefix(f"[{locale}] ")
        for handler in logging.getLogger().handlers + logging.getLogger("mkdocs").handlers:
            handler.addFilter(prefix)
        progress = current_progress()
        progress.interactive = False  # the parent draws the progress line
        second = load_config(config_file=config.config_file_path, strict=config.strict, site_dir=staging)
        plugin = second.plugins["pto-docs"]
        plugin.locale = locale
        plugin.config = copy.copy(self.config)
        plugin.dirty_build = self.dirty_build
        plugin.final_site_dir = os.path.join(self.final_site_dir or config.site_dir, locale_dir(locale, self.primary))
        plugin.report_fd = write_fd
        plugin._digest = self._digest
        plugin.state = self.state  # the same tree state as this language (already loaded and reported)
        plugin.command = self.command
        renderer = self.state.renderer if self.state is not None else None
        before = set(renderer.rendered) if renderer is not None else set()
        try:
            build(second, dirty=self.dirty_build)
        except Abort as exc:
            log.error(f"pto-docs: the {locale} build failed: {exc}")
            os.write(write_fd, (json.dumps({"error": str(exc)}) + "\n").encode())
            return 1
        if renderer is not None and self.dirty_build:  # hand this language's pages back for the next rebuild
            import pickle
            fresh = {k: v for k, v in renderer.rendered.items() if k not in before}
            with open(os.path.join(handoff, "rendered.pickle"), "wb") as fh:
                pickle.dump(fresh, fh, protocol=pickle.HIGHEST_PROTOCOL)
        return 0

    def _poll_children(self, block: bool = False, until_result: bool = False) -> None:
        progress = current_progress()
        for child in self.children:
            if child["fd"] is None:
                continue
            while not (until_result and child["result"] is not None):
                try:
                    chunk = os.read(child["fd"], 65536)
                except BlockingIOError:
                    if not block:
                        break
                    import select
                    select.select([child["fd"]], [], [], 0.2)
                    progress.draw()
                    continue
                if not chunk:
                    os.close(child["fd"])
                    child["fd"] = None
                    break
                child["buffer"] += chunk
                *lines, child["buffer"] = child["buffer"].split(b"\n")
                for line in lines:
                    message = json.loads(line)
                    if "done" in message:
                        child["done"], child["total"] = message["done"], message["total"]
                        progress.count(child["locale"], child["done"], child["total"])
                    elif "written" in message:
                        child["written"] = message["written"]
                    else:
                        child["result"] = message

    def _wait_children(self) -> list[str]:
        failures = []
        for child in self.children:
            current_progress().stage(f"waiting for the {child['locale']} build")
            self._poll_children(block=True, until_result=self.in_place)
            if self.in_place and child["result"] is not None and "error" not in child["result"]:
                code = 0  # it reported success and is saving its page pack: reaped after the rebuild
            else:
                _, status = os.waitpid(child["pid"], 0)
                code = os.waitstatus_to_exitcode(status)
                child["pid"] = None
            result = child["result"] or {}
            if code != 0 or "error" in result or "pages" not in result:
                failures.append(f"the {child['locale']} build failed (exit status {code}): {result.get('error', 'see its log above')}")
        return failures

    def _adopt_rendered(self, handoff: str) -> None:
        """Pages a forked language build rendered (a pickle it wrote into this process's private hand-over
        directory, read once and removed), so the next rebuild in this process (``mkdocs serve``) reuses them too."""
        path = os.path.join(handoff, "rendered.pickle")
        if not os.path.exists(path):
            shutil.rmtree(handoff, ignore_errors=True)
            return
        try:
            if self.state is not None and self.state.renderer is not None:
                import pickle
                with open(path, "rb") as fh:
                    self.state.renderer.take_rendered(pickle.load(fh))
        except Exception:  # a lost hand-over only costs a render
            pass
        finally:
            shutil.rmtree(handoff, ignore_errors=True)

    def _stop_children(self) -> None:
        for child in self.children:
            if child["pid"] is not None:
                try:
                    os.kill(child["pid"], signal.SIGTERM)
                except ProcessLookupError:
                    pass
                try:
                    os.waitpid(child["pid"], 0)
                except ChildProcessError:
                    pass
            if child["fd"] is not None:
                os.close(child["fd"])
                child["fd"] = None
            if child["dir"]:
                shutil.rmtree(child["dir"], ignore_errors=True)
            WrittenPages(child["site"]).abandon()  # (in place) it may have written part of its pages
            shutil.rmtree(child["handoff"], ignore_errors=True)
        self.children = []

    def on_build_error(self, error):
        if self.written is not None and self.written.started:
            self.written.abandon()  # some page files may be of this failed build: write them all next time
        if self.locale is not None:
            return
        self._stop_children()
        if self.in_place:
            serve_site.after_rebuild([])
        if self.final_site_dir is not None:
            staging = self._staging
            if staging and os.path.isdir(staging):
                shutil.rmtree(staging, ignore_errors=True)
        current_progress().clear()

    # -- pages -----------------------------------------------------------------------------------
    def on_files(self, files, config):
        from .render.cache import PageCache, build_signature, page_key
        if self._search is not None and self.config.fast_search:  # after the search plugin's on_config
            from .render import search_fast
            search_fast.install(self._search)
        if self.config.markdown_shapes:
            from .render.markdown_shapes import ShapeCache
            self._shapes = ShapeCache(config)
        renderer = self.state.renderer if self.state is not None else None
        locale = self.here
        cache_dir = self._cache_dir(config)
        self.cache = PageCache(cache_dir, locale) if cache_dir else None
        self.written = WrittenPages(config.site_dir) if self.in_place and self.cache is not None else None
        signature = build_signature(config, locale) if self.cache else ""
        self.parts, self.keys, self.reused, self.built = {}, {}, {}, []
        if self.manifest is not None:
            if self._reuse_everything(files, config, signature):
                return files
            self.manifest = None  # the theme or configuration changed, or a page left the pack: build it all
            self._load(config, self.spec_root(config))
            config["nav"] = navigation(self.state.renderer, locale)
            renderer = self.state.renderer
            signature = build_signature(config, locale)
        self._signature = signature
        record = self._record = {"pages": [], "files": [], "notes": [], "signature": signature,
                                 "nav": config.nav, "diagnostics": [d.format() for d in self.state.diagnostics]}
        for src_uri, parts in renderer.pages(locale):
            existing = files.get_file_from_path(src_uri)
            if existing is not None:
                files.remove(existing)
            file = File.generated(config, src_uri, content=parts.markdown)
            if self.cache is not None:
                key = page_key(signature, src_uri, parts)
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
        self._tick()
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
        self._signature = signature
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
        self._tick()
        return True

    def on_env(self, env, config, files):
        from mkdocs import utils

        from .render.nav_cache import NavCache
        env.globals["pto_nav"] = NavCache(env, config, enabled=self.config.nav_cache)
        entries = self._search.search_index.entries if self._search is not None and hasattr(self._search, "search_index") else None
        if self.in_place:
            env.bytecode_cache = serve_site.THEME_BYTECODE  # the theme compiled once per serving process
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
        self._mark = len(entries) if entries is not None else 0
        return env

    def on_page_markdown(self, markdown, page, config, files):
        if self._shapes is not None and page.file.src_uri in self.parts:
            page.render = functools.partial(self._shapes.render, page)  # MkDocs calls page.render next
        return markdown

    def _keep_404(self, config) -> None:
        """Serving: the theme's 404 page shows only the navigation and the site configuration, all of which the
        build signature covers (render/cache.py), so while that is unchanged the 404.html already in the site
        is kept instead of drawn again (the whole navigation, on every rebuild)."""
        dest = os.path.join(config.site_dir, "404.html")
        key = "404.html\0" + self._signature
        if self.written.holds(dest, key):
            config.theme.static_templates.discard("404.html")
        else:
            self.written.wrote(dest, key)  # MkDocs draws it right after this event

    def on_page_content(self, html, page, config, files):
        parts = self.parts.get(page.file.src_uri)
        return parts.fill_search(html) if parts is not None else html

    def on_page_context(self, context, page, config, nav):
        locale = self.here
        up = "../" * routes.depth(page.url)
        here_prefix = locale_dir(locale, self.primary)
        back = "../" * here_prefix.count("/")
        context["pto_locale"] = locale
        context["pto_alternates"] = [
            {"name": labels(loc).t("language_name"), "lang": loc, "current": loc == locale,
             "href": (up + back + locale_dir(loc, self.primary) + page.url) or "./"}
            for loc in self.config.languages]
        return context

    @event_priority(-100)  # after every other plugin's post_page (the search plugin indexed the page before)
    def on_post_page(self, output, page, config):
        src_uri = page.file.src_uri
        parts = self.parts.get(src_uri)
        if parts is None:
            return output
        output = minify_chrome(parts.fill_heavy(output))
        entries = []
        if self._search is not None and hasattr(self._search, "search_index"):
            all_entries = self._search.search_index.entries
            entries = all_entries[self._mark:]
            self._mark = len(all_entries)
        if self.cache is not None and src_uri in self.keys:
            self.cache.put(self.keys[src_uri], output, copy.deepcopy(entries))
        if self.written is not None:  # MkDocs writes the page right after this event
            self.written.wrote(page.file.abs_dest_path, self.keys.get(src_uri))
        self.built.append(src_uri)
        self._tick()
        return output

    def _tick(self) -> None:
        done = len(self.built) + len(self.reused)
        if self.report_fd is not None:
            if done == self.total or done % 25 == 0:
                os.write(self.report_fd, (json.dumps({"done": done, "total": self.total}) + "\n").encode())
            return
        progress = current_progress()
        progress.count(self.here, done, self.total)
        if self.children:
            self._poll_children()

    # -- end of the build --------------------------------------------------------------------------
    @event_priority(-100)  # after every other plugin (search writes its index first)
    def on_post_build(self, config):
        prune_theme_assets(config.site_dir, SEARCH_LANGUAGE[self.here])
        written = self.written.finish() if self.written is not None else None
        stats = {"locale": self.here, "pages": self.total, "built": sorted(self.built), "reused": sorted(self.reused),
                 "warnings": self._counter.count if self._counter else 0}
        if self.report_fd is not None:  # a child language build: hand the result to the parent, then save
            if written is not None:  # what it wrote into the live site, for the next rebuild (serve_site.py)
                os.write(self.report_fd, (json.dumps({"written": written}) + "\n").encode())
            os.write(self.report_fd, (json.dumps(stats) + "\n").encode())
            self._save_cache(config)  # (a serving parent goes on without waiting for this)
            return
        if not (self.in_place and self.locale is None):  # (serving: after the rebuild, _after_rebuild)
            self._save_cache(config)
        if self._highlight is not None and self.report_fd is None and self.locale is None:
            from .render.fragments import use_highlight_cache
            self.state.renderer.prepare()  # every model built: the cache keeps exactly what this tree uses
            if self._highlight.new:  # (empty when the models came from an earlier build in this process)
                self._highlight.save()
            use_highlight_cache(None)
            self._highlight = None
        if self.locale is not None:  # a sequential further language
            self.last_stats = stats
            return
        results = [stats]
        if self.children:
            failures = self._wait_children()
            if failures:
                self._stop_children()
                raise PluginError("pto-docs: " + "; ".join(failures))
            for child in self.children:
                if child["dir"]:  # staged: move it into the site
                    os.replace(child["dir"], os.path.join(config.site_dir, locale_dir(child["locale"], self.primary)))
                elif child["written"] is not None:
                    serve_site.adopt(child["site"], child["written"])
                else:
                    WrittenPages(child["site"]).abandon()
                results.append(child["result"])
                if not self.in_place:
                    self._adopt_rendered(child["handoff"])
        else:
            results += self._build_sequentially(config)
        if self.cache is not None or any(r.get("reused") for r in results):
            self._write_build_report(config, results)
        if self.final_site_dir is not None:
            self._publish(config.site_dir, self.final_site_dir)
        pages = sum(r["pages"] for r in results)
        warnings = sum(r["warnings"] for r in results)
        reused = sum(len(r["reused"]) for r in results)
        where = self.final_site_dir or config.site_dir
        self.summary_text = (f"pto-docs: {pages} pages in {len(results)} languages ({', '.join(r['locale'] for r in results)}), "
                             f"{warnings} warning{'s' if warnings != 1 else ''}, {reused} reused from the cache, "
                             f"{time.monotonic() - self._start:.1f} s -> {where}")
        if self.progress is None:  # under `mkdocs build`; `pto-docs build` prints it after MkDocs' last line
            current_progress().summary(self.summary_text)
        if self.in_place:
            self._after_rebuild(config)
        self.children = []

    def _save_cache(self, config) -> None:
        if self.cache is not None:
            self.cache.save()
            self._save_manifest(config)

    def _after_rebuild(self, config) -> None:
        """Serving: what no reloaded page needs runs in the background (serve_site.after_rebuild): saving this
        language's page pack, and for each forked language, waiting for it to finish saving its own, taking
        over the pages it rendered and reading its pack into memory for its next fork."""
        from .render.cache import preload
        cache_dir = self._cache_dir(config)

        def finish(child: dict) -> None:
            if child["pid"] is not None:
                os.waitpid(child["pid"], 0)
            if child["fd"] is not None:
                os.close(child["fd"])
            self._adopt_rendered(child["handoff"])
            if cache_dir:
                preload(cache_dir, child["locale"])
        tasks = [functools.partial(self._save_cache, config)]
        tasks += [functools.partial(finish, child) for child in self.children]
        serve_site.after_rebuild(tasks)

    def _save_manifest(self, config) -> None:
        """Record this build for the no-change fast path: only after a build without warnings or errors (a
        reused page would not repeat its warnings); a build with warnings removes the old manifest."""
        cache_dir = self._cache_dir(config)
        if not cache_dir or not self._digest:
            return
        from .render.tree_cache import TreeManifest
        manifest = TreeManifest(cache_dir, self.here)
        if self._counter is not None and self._counter.count:
            manifest.remove()
        elif self._record is not None:
            manifest.save(self._digest, **self._record)

    def _build_sequentially(self, config) -> list[dict]:
        from mkdocs.commands.build import build
        results = []
        for locale in self.config.languages[1:]:
            overrides = {"site_dir": os.path.join(config.site_dir, locale_dir(locale, self.primary))}
            second = load_config(config_file=config.config_file_path, strict=config.strict, **overrides)
            plugin = second.plugins["pto-docs"]
            plugin.locale = locale
            plugin.config = copy.copy(self.config)
            plugin.dirty_build = self.dirty_build
            plugin.final_site_dir = os.path.join(self.final_site_dir or config.site_dir, locale_dir(locale, self.primary))
            plugin._digest = self._digest
            plugin.state = self.state  # the same tree state as this language (already loaded and reported)
            plugin.command = self.command
            log.info(f"pto-docs: building the {locale} site into {second.site_dir}")
            current_progress().stage(f"building {locale}")
            build(second, dirty=self.dirty_build)
            results.append(plugin.last_stats)
        return results

    def _write_build_report(self, config, results: list[dict]) -> None:
        cache_dir = self._cache_dir(config)
        if cache_dir:
            os.makedirs(cache_dir, exist_ok=True)
            Path(cache_dir, "last-build.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", "utf-8")

    @staticmethod
    def _publish(staging: str, final: str) -> None:
        """Swap the finished site into place: the old one is removed only after the new one is there."""
        trash = None
        if os.path.lexists(final):
            trash = f"{staging}.old"
            shutil.rmtree(trash, ignore_errors=True)
            os.replace(final, trash)
        os.replace(staging, final)
        if trash:
            shutil.rmtree(trash, ignore_errors=True)

    def on_serve(self, server, config, builder):
        """Watch the spec tree without its ``.git*`` entries: MkDocs' watcher stats every watched file twice a
        second, in the serving process, and a checkout's ``.git`` can hold more files than the tree (nothing in
        it reaches a page). The root itself is watched without recursion (its files: edits, new and removed
        ones), each other top-level directory with it; one created while serving is watched from the next
        ``mkdocs serve``."""
        root = self.spec_root(config)
        server.watch(str(root), recursive=False)
        for child in sorted(root.iterdir()) if root.is_dir() else ():
            if child.is_dir() and not child.name.startswith(".git"):
                server.watch(str(child))
        server.watch(self.templates_dir(config) or str(TEMPLATES_DIR))
        return server
