"""The further languages of a site build (every language after the first).

With ``parallel: true`` on POSIX each is built in a process of its own (a ``concurrent.futures`` process pool
with the fork context, one worker per language) while the primary language builds in this one: the worker is
forked when its task is submitted, so it shares the loaded catalog, executor results and page models
copy-on-write. It builds its language into its own directory (staged beside the primary's, or the live
site's ``<lang>/`` while serving in place), reports its page counts through a pipe for the progress line,
and returns its result (counts, the page files it wrote, the pages it rendered for the next serving rebuild)
as the task's result. Otherwise the further languages are built one after another in this process once the
primary build has finished.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import json
import logging
import multiprocessing
import os
import shutil
from collections.abc import Callable

from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

from ..runtime.progress import current as current_progress
from ..runtime.workers import pool_options
from . import output
from .logs import Prefix
from .serve import WrittenPages

log = logging.getLogger("mkdocs.plugins.pto-docs")
# The Languages object whose languages are being submitted: a forked worker finds its parent's build here (the
# task's arguments are pickled; the loaded tree must not be). Set only around the submits of one build.
_SUBMITTING: list = []


def report(fd: int, message: dict) -> None:
    os.write(fd, (json.dumps(message) + "\n").encode())


def _mkdocs_build(build, config, site_dir: str):
    """Run MkDocs' build of ``build`` (a further-language SiteBuild) with the configuration of the primary."""
    from mkdocs.commands.build import build as mkdocs_build
    second = load_config(config_file=config.config_file_path, strict=config.strict, site_dir=site_dir,
                         docs_dir=config.docs_dir)
    second.plugins["pto-docs"].pending = build  # the same plugin object (MkDocs keeps one): its next build
    mkdocs_build(second, dirty=build.dirty)


def _build_language(locale: str, site_dir: str, progress_fd: int) -> dict:
    """The task of a pool worker: build ``locale`` of the build it was forked from. Returns its result."""
    from mkdocs.exceptions import Abort
    languages = _SUBMITTING[-1]
    prefix = Prefix(f"[{locale}] ")
    for handler in logging.getLogger().handlers + logging.getLogger("mkdocs").handlers:
        handler.addFilter(prefix)
    current_progress().interactive = False  # the parent draws the progress line
    build = languages.primary.further(locale, languages.config)
    build.report_fd = progress_fd
    renderer = build.state.renderer if build.state is not None else None
    before = set(renderer.rendered) if renderer is not None else set()
    inherited = _inherited_parts(renderer) if renderer is not None and build.in_place else None
    if inherited is not None:
        build.memory.keys.made = []
    try:
        _mkdocs_build(build, languages.config, site_dir)
    except Abort as exc:
        return {"error": str(exc)}
    result = dict(build.stats, written=build.written_pages)
    if renderer is not None and build.dirty:  # its pages, for the parent's next rebuild (mkdocs serve)
        fresh = {k: v for k, v in renderer.rendered.items() if k not in before}
        lent = getattr(renderer._previous, "rendered", None) or {}
        # (a page taken over from the renderer before is the parent's own object: named, not sent back, so the
        # parent keeps that object, and what it knows of it, for the next rebuild)
        result["taken"] = [k for k, v in fresh.items() if lent.get(k) is v]
        result["rendered"] = {k: v for k, v in fresh.items() if lent.get(k) is not v}
    if inherited is not None:  # the page digests it made of pages the parent has: the next worker inherits them
        result["page_keys"] = [made for made in build.memory.keys.made or () if made[0] in inherited]
    if build.in_place:
        build.memory.unsaved = (build, languages.config)  # saved by _save_language, the worker's next task
    return result


def _inherited_parts(renderer) -> dict[int, object]:
    """id -> the page parts a worker inherited from the serving process (its renderer's pages and those of the
    renderer before, which stay alive in the parent for the whole rebuild, so an id names the same object
    there)."""
    found = {}
    for source in (renderer.rendered, getattr(renderer._previous, "rendered", None) or {}):
        for entry in source.values():
            found[id(entry[0])] = entry[0]
    return found


def _save_language() -> None:
    """The second task of a serving worker: save the page pack of the language it just built."""
    build, config = _SUBMITTING[-1].primary.memory.unsaved
    build.save_cache(config)


class Languages:
    def __init__(self, primary, config):
        self.primary = primary  # the primary SiteBuild
        self.config = config
        self.children: list[dict] = []
        options = primary.options
        self.parallel = options.parallel and hasattr(os, "fork") and len(options.languages) > 1

    def forked(self) -> list[str]:
        return [child["locale"] for child in self.children]

    def start(self) -> None:
        if not self.parallel:
            return
        if self.primary.state is not None:
            current_progress().stage("building page models")
            # a helper process shares the first build's models; a serving rebuild builds few and keeps its reads
            from .model_helper import prepare
            prepare(self.primary.state.renderer, helper=not self.primary.in_place)
            if self.primary.in_place:  # (each serving rebuild forks its workers afresh: what they would read or
                # make for themselves on every rebuild is made here, kept by this process, inherited by each fork)
                for locale in self.primary.options.languages[1:]:
                    self.primary.state.renderer.data.trace_page(locale)  # (and the report's labels: read once)
        context = multiprocessing.get_context("fork")
        _SUBMITTING.append(self)
        try:
            for locale in self.primary.options.languages[1:]:
                if self.primary.in_place:  # the language's directory of the live site; nothing to move afterwards
                    site, target = os.path.join(self.config.site_dir, output.locale_dir(locale, self.primary.primary)), None
                else:
                    site = target = output.language_staging_dir(self.config.site_dir, locale)  # (made by mkdtemp)
                read_fd, write_fd = os.pipe()
                pool = cf.ProcessPoolExecutor(max_workers=1, mp_context=context, **pool_options())
                future = pool.submit(_build_language, locale, site, write_fd)  # (the worker is forked here)
                os.close(write_fd)
                os.set_blocking(read_fd, False)
                self.children.append({"locale": locale, "pool": pool, "future": future, "fd": read_fd,
                                      "dir": target, "site": site, "buffer": b""})
        finally:
            _SUBMITTING.pop()

    def poll(self) -> None:
        """Read the page counts the workers reported (without waiting) into the progress line."""
        progress = current_progress()
        for child in self.children:
            while child["fd"] is not None:
                try:
                    chunk = os.read(child["fd"], 65536)
                except BlockingIOError:
                    break
                if not chunk:
                    os.close(child["fd"])
                    child["fd"] = None
                    break
                child["buffer"] += chunk
                *lines, child["buffer"] = child["buffer"].split(b"\n")
                for line in lines:
                    message = json.loads(line)
                    progress.count(child["locale"], message["done"], message["total"])

    def _wait(self) -> list[str]:
        failures = []
        for child in self.children:
            current_progress().stage(f"waiting for the {child['locale']} build")
            while True:
                done, _ = cf.wait([child["future"]], timeout=0.2)
                self.poll()
                current_progress().draw()
                if done:
                    break
            try:
                child["result"] = child["future"].result()
            except Exception as exc:  # the worker died, or its build raised
                child["result"] = {"error": f"{type(exc).__name__}: {exc}"}
            result = child["result"]
            if "error" in result or "pages" not in result:
                failures.append(f"the {child['locale']} build failed: {result.get('error', 'see its log above')}")
        return failures

    def finish(self, config) -> list[dict]:
        """The primary build is done: the further languages' results (their sites moved into place)."""
        if not self.parallel:
            return self._sequential(config)
        failures = self._wait()
        if failures:
            self.stop()
            raise PluginError("pto-docs: " + "; ".join(failures))
        results = []
        for child in self.children:
            result = child["result"]
            if child["dir"]:  # staged: move it into the site (without our staging marker)
                output.unmark(child["dir"])
                os.replace(child["dir"], os.path.join(config.site_dir, output.locale_dir(child["locale"], self.primary.primary)))
            elif result.get("written") is not None:
                WrittenPages(child["site"], self.primary.memory.written).adopt(result["written"])
            else:
                WrittenPages(child["site"], self.primary.memory.written).abandon()
            self._adopt_keys(result.pop("page_keys", None))
            self._adopt_rendered(result.pop("rendered", None), result.pop("taken", None))
            result.pop("written", None)
            results.append(result)
            if not self.primary.in_place:
                self._close(child)
        return results

    def _sequential(self, config) -> list[dict]:
        results = []
        for locale in self.primary.options.languages[1:]:
            build = self.primary.further(locale, config)
            site_dir = os.path.join(config.site_dir, output.locale_dir(locale, self.primary.primary))
            log.info(f"pto-docs: building the {locale} site into {site_dir}")
            current_progress().stage(f"building {locale}")
            _mkdocs_build(build, config, site_dir)
            results.append(build.stats)
        return results

    def _adopt_keys(self, made: list | None) -> None:
        """The page keys a serving worker made for pages it inherited from this process: kept here, for the next
        rebuild's worker (0.1-0.2 s of hashing per rebuild on pto-spec 0.58.3)."""
        state = self.primary.state
        if not made or state is None or state.renderer is None:
            return
        parts = _inherited_parts(state.renderer)
        keys = self.primary.memory.keys
        for ident, shape, key in made:
            found = parts.get(ident)
            if found is not None and shape[1:] == (len(found.markdown), len(found.search), len(found.heavy)):
                keys.adopt(found, shape, key)

    def _adopt_rendered(self, rendered: dict | None, taken: list | None = None) -> None:
        """The pages a worker rendered, and those it took over from the renderer before (by key: the objects are
        this process's), so the next rebuild in this process (``mkdocs serve``) reuses them too."""
        state = self.primary.state
        if state is None or state.renderer is None:
            return
        renderer = state.renderer
        lent = getattr(renderer._previous, "rendered", None) or {}
        kept = {k: lent[k] for k in taken or () if k in lent}
        if rendered or kept:
            renderer.take_rendered({**kept, **(rendered or {})})

    @staticmethod
    def _close(child: dict) -> None:
        child["pool"].shutdown(wait=True)
        if child["fd"] is not None:
            os.close(child["fd"])
            child["fd"] = None

    def stop(self) -> None:
        """The build failed: end the workers (a running build cannot be cancelled, so its process is stopped),
        remove their staging directories, forget what they may have written into the live site."""
        for child in self.children:
            child["future"].cancel()
            for process in list(getattr(child["pool"], "_processes", {}).values()):  # (no public API before 3.14)
                process.terminate()
            child["pool"].shutdown(wait=True, cancel_futures=True)
            if child["fd"] is not None:
                os.close(child["fd"])
                child["fd"] = None
            if child["dir"]:
                shutil.rmtree(child["dir"], ignore_errors=True)
            WrittenPages(child["site"], self.primary.memory.written).abandon()  # (in place) part of its pages
        self.children = []

    def after_rebuild(self, config, later: Callable[[], None] | None = None) -> None:
        """Serving: what no reloaded page needs runs in the background (serve.Background): saving this
        language's page pack, and for each worker, saving its own (its second task), then reading that pack
        into memory for the next rebuild's worker; then ``later``."""
        from .cache import preload
        cache_dir = self.primary.cache_dir(config)

        def finish(child: dict) -> None:
            try:
                child["pool"].submit(_save_language).result()
            finally:
                self._close(child)
            if cache_dir:
                preload(cache_dir, child["locale"], self.primary.memory.packs)
        tasks = [functools.partial(self.primary.save_cache, config)]
        tasks += [functools.partial(finish, child) for child in self.children]
        tasks += [later] if later is not None else []
        self.children = []
        self.primary.memory.background.after_rebuild(tasks)
