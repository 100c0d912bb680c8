"""The ``pto-docs`` MkDocs plugin: events that delegate.

``on_startup`` tells ``mkdocs build`` from ``mkdocs serve`` and ``--dirty`` (``pto-docs build`` calls it too);
its presence makes MkDocs keep this one object for every build of the process (each serve rebuild, and each
further-language build, which loads the configuration again). So the object holds no build state itself: each
build is a :class:`~pto_docs.site.build.SiteBuild`, made in ``on_config`` (or handed over as ``pending`` by the
primary build for a further language, languages.py) and kept on a stack while it runs; every other event
calls the current one.

What happens where: config.py (options, the checks of MkDocs' configuration, our theme overrides, stylesheet
and Markdown extensions), build.py (one language's build), languages.py (the further languages), output.py
(staging, publishing, stale leftovers), cache.py and tree_cache.py (the page cache and the no-change fast
path), serve.py (``mkdocs serve``), speedups/ (what reaches into MkDocs and Material for speed).
"""

from __future__ import annotations

import logging

from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority

from ..render.resources import TEMPLATES_DIR
from ..runtime.progress import Progress
from ..runtime.progress import install as install_progress
from .build import SiteBuild
from .config import PtoDocsConfig, adopt_site_settings, check_mkdocs_config
from .logs import install_dirty_filter
from .memory import SiteMemory
from .watcher import watch_natively, watched_natively


class PtoDocsPlugin(BasePlugin[PtoDocsConfig]):
    supports_multiple_instances = False

    def __init__(self) -> None:
        self.command: str | None = None  # from on_startup; None when MkDocs' build() is called directly
        self.dirty = False
        self.progress: Progress | None = None  # given by `pto-docs build`; else one per build
        self.pending: SiteBuild | None = None  # the further-language build the next on_config starts
        self.builds: list[SiteBuild] = []  # the running builds: the primary, then a further language in it
        self.last: SiteBuild | None = None  # the last primary build (its summary line)
        self.last_good = None  # (spec root, tree state) of the last build that succeeded (kept on a bad save)
        self.memory = SiteMemory()  # what this process keeps from build to build (memory.py)

    @property
    def current(self) -> SiteBuild:
        return self.builds[-1]

    @property
    def summary_text(self) -> str | None:
        return self.last.summary_text if self.last is not None else None

    def on_startup(self, *, command, dirty) -> None:
        self.command = command
        self.dirty = bool(dirty)

    def on_shutdown(self) -> None:
        """``mkdocs build`` (or ``gh-deploy``) ends with this process: what the build left (the loaded tree, its
        page models, a linked model: millions of objects) is taken out of the collector's sight, so that the
        interpreter's last full collection at exit does not walk it (about 1 s of a first build of 0.58.3). A
        serving process, and a build run through pto-docs' API or a test, collect as before."""
        if self.command in ("build", "gh-deploy"):
            import gc
            gc.freeze()

    def on_config(self, config):
        check_mkdocs_config(config)
        adopt_site_settings(config)
        install_dirty_filter()
        build, self.pending = self.pending, None
        if build is None:
            quiet = logging.getLogger("mkdocs").getEffectiveLevel() > logging.INFO
            install_progress(self.progress or Progress(quiet=quiet))
            build = self.last = SiteBuild(self.config, self.memory, command=self.command, dirty=self.dirty,
                                          progress=self.progress)
            build.last_good = self.last_good
            self.builds = [build]
        else:
            self.builds.append(build)
        build.configure(config)
        return config

    def on_files(self, files, config):
        return self.current.files(files, config)

    def on_env(self, env, config, files):
        return self.current.env(env, config, files)

    def on_page_markdown(self, markdown, page, config, files):
        return self.current.page_markdown(markdown, page)

    def on_page_content(self, html, page, config, files):
        return self.current.page_content(html, page)

    def on_page_context(self, context, page, config, nav):
        return self.current.page_context(context, page)

    def on_template_context(self, context, template_name, config):
        return self.current.template_context(context, template_name, config)

    @event_priority(-100)  # after every other plugin's post_page (the search plugin indexed the page before)
    def on_post_page(self, output, page, config):
        return self.current.post_page(output, page)

    @event_priority(100)  # before the search plugin writes its index
    def _order_search_index(self, config):
        self.current.order_search_index()

    @event_priority(-100)  # after every other plugin (search writes its index first)
    def _post_build(self, config):
        build = self.current
        try:
            build.post_build(config)
        finally:
            if build.locale is not None:
                self.builds.pop()
        if build.locale is None and build.problems is None and build.state is not None:
            self.last_good = (build.spec_root(config), build.state)  # serving: what a broken save keeps showing

    on_post_build = CombinedEvent(_order_search_index, _post_build)

    def on_build_error(self, error):
        if not self.builds:  # failed before on_config made a build
            return
        build = self.current
        build.build_error()
        if build.locale is not None:
            self.builds.pop()

    def on_serve(self, server, config, builder):
        """Watch the spec tree without its ``.git*`` entries (nothing in them reaches a page, and a checkout's
        ``.git`` changes on every ``git status``). Through inotify (watcher.py) the whole tree is one watch, its
        ``.git*`` notices left out. Polled (MkDocs' watcher stats every watched file twice a second in the
        serving process), ``.git*`` is left unwatched: the root itself without recursion (its files: edits, new
        and removed ones), each other top-level directory with it; one created while serving is polled from the
        next ``mkdocs serve``."""
        native = watch_natively(server)
        build = SiteBuild(self.config, self.memory, command=self.command, dirty=self.dirty)
        root = build.spec_root(config)
        if native:
            server.watch(str(root))
            if not watched_natively(server, str(root)):  # (refused, or not a local filesystem: polled)
                server.unwatch(str(root))
                native = False
        if not native:
            server.watch(str(root), recursive=False)
            for child in sorted(root.iterdir()) if root.is_dir() else ():
                if child.is_dir() and not child.name.startswith(".git"):
                    server.watch(str(child))
        server.watch(build.templates_dir(config) or str(TEMPLATES_DIR))
        return server

