"""The further languages of a site build (every language after the first).

With ``parallel: true`` on POSIX each is built in a forked child process while the primary language builds in
this one: the child shares the loaded catalog, executor results and page models copy-on-write, builds its
language into its own directory (staged beside the primary's, or the live site's ``<lang>/`` while serving
in place), and reports its progress and result as JSON lines through a pipe. Otherwise they are built one
after another in this process once the primary build has finished.

A forked child hands the pages it rendered back through a private hand-over directory (output.handoff_dir),
so the next rebuild of a serving process reuses them too.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import pickle
import select
import shutil
import signal
import sys

from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

from ..progress import current as current_progress
from . import output, serve
from .logs import Prefix
from .serve import WrittenPages

log = logging.getLogger("mkdocs.plugins.pto-docs")


def report(fd: int, message: dict) -> None:
    os.write(fd, (json.dumps(message) + "\n").encode())


def _mkdocs_build(build, config, site_dir: str):
    """Run MkDocs' build of ``build`` (a further-language SiteBuild) with the configuration of the primary."""
    from mkdocs.commands.build import build as mkdocs_build
    second = load_config(config_file=config.config_file_path, strict=config.strict, site_dir=site_dir,
                         docs_dir=config.docs_dir)
    second.plugins["pto-docs"].pending = build  # the same plugin object (MkDocs keeps one): its next build
    mkdocs_build(second, dirty=build.dirty)


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
            self.primary.state.renderer.prepare()
        for locale in self.primary.options.languages[1:]:
            self._fork(locale)

    def _fork(self, locale: str) -> None:
        config = self.config
        if self.primary.in_place:  # the language's directory of the live site; nothing to move afterwards
            staging, target = os.path.join(config.site_dir, output.locale_dir(locale, self.primary.primary)), None
        else:
            staging = target = output.language_staging_dir(config.site_dir, locale)
            shutil.rmtree(staging, ignore_errors=True)
        read_fd, write_fd = os.pipe()
        handoff = output.handoff_dir()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: build one language, report, never return into the parent's build
            code = 1
            try:
                os.close(read_fd)
                code = self._child(locale, staging, write_fd, handoff)
            except BaseException as exc:  # noqa: BLE001 - everything must end in os._exit
                try:
                    log.error(f"pto-docs: the {locale} build failed: {exc}")
                    report(write_fd, {"error": str(exc)})
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
                              "handoff": handoff, "buffer": b"", "result": None, "written": None})

    def _child(self, locale: str, staging: str, write_fd: int, handoff: str) -> int:
        from mkdocs.exceptions import Abort
        prefix = Prefix(f"[{locale}] ")
        for handler in logging.getLogger().handlers + logging.getLogger("mkdocs").handlers:
            handler.addFilter(prefix)
        current_progress().interactive = False  # the parent draws the progress line
        build = self.primary.further(locale, self.config)
        build.report_fd = write_fd
        renderer = build.state.renderer if build.state is not None else None
        before = set(renderer.rendered) if renderer is not None else set()
        try:
            _mkdocs_build(build, self.config, staging)
        except Abort as exc:
            log.error(f"pto-docs: the {locale} build failed: {exc}")
            report(write_fd, {"error": str(exc)})
            return 1
        if renderer is not None and build.dirty:  # hand this language's pages back for the next rebuild
            fresh = {k: v for k, v in renderer.rendered.items() if k not in before}
            with open(os.path.join(handoff, "rendered.pickle"), "wb") as fh:
                pickle.dump(fresh, fh, protocol=pickle.HIGHEST_PROTOCOL)
        return 0

    def poll(self, block: bool = False, until_result: bool = False) -> None:
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
                        progress.count(child["locale"], message["done"], message["total"])
                    elif "written" in message:
                        child["written"] = message["written"]
                    else:
                        child["result"] = message

    def _wait(self) -> list[str]:
        in_place = self.primary.in_place
        failures = []
        for child in self.children:
            current_progress().stage(f"waiting for the {child['locale']} build")
            self.poll(block=True, until_result=in_place)
            if in_place and child["result"] is not None and "error" not in child["result"]:
                code = 0  # it reported success and is saving its page pack: reaped after the rebuild
            else:
                _, status = os.waitpid(child["pid"], 0)
                code = os.waitstatus_to_exitcode(status)
                child["pid"] = None
            result = child["result"] or {}
            if code != 0 or "error" in result or "pages" not in result:
                failures.append(f"the {child['locale']} build failed (exit status {code}): {result.get('error', 'see its log above')}")
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
            if child["dir"]:  # staged: move it into the site
                os.replace(child["dir"], os.path.join(config.site_dir, output.locale_dir(child["locale"], self.primary.primary)))
            elif child["written"] is not None:
                WrittenPages(child["site"], self.primary.memory.written).adopt(child["written"])
            else:
                WrittenPages(child["site"], self.primary.memory.written).abandon()
            results.append(child["result"])
            if not self.primary.in_place:
                self._adopt_rendered(child["handoff"])
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

    def _adopt_rendered(self, handoff: str) -> None:
        """Pages a forked language build rendered (a pickle it wrote into this process's private hand-over
        directory, read once and removed), so the next rebuild in this process (``mkdocs serve``) reuses them."""
        path = os.path.join(handoff, "rendered.pickle")
        try:
            state = self.primary.state
            if os.path.exists(path) and state is not None and state.renderer is not None:
                with open(path, "rb") as fh:
                    state.renderer.take_rendered(pickle.load(fh))
        except Exception:  # a lost hand-over only costs a render
            pass
        finally:
            shutil.rmtree(handoff, ignore_errors=True)

    def stop(self) -> None:
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
            WrittenPages(child["site"], self.primary.memory.written).abandon()  # (in place) it may have written part of its pages
            shutil.rmtree(child["handoff"], ignore_errors=True)
        self.children = []

    def after_rebuild(self, config) -> None:
        """Serving: what no reloaded page needs runs in the background (serve.after_rebuild): saving this
        language's page pack, and for each forked language, waiting for it to finish saving its own, taking
        over the pages it rendered and reading its pack into memory for its next fork."""
        from .cache import preload
        cache_dir = self.primary.cache_dir(config)

        def finish(child: dict) -> None:
            if child["pid"] is not None:
                os.waitpid(child["pid"], 0)
            if child["fd"] is not None:
                os.close(child["fd"])
            self._adopt_rendered(child["handoff"])
            if cache_dir:
                preload(cache_dir, child["locale"], self.primary.memory.packs)
        tasks = [functools.partial(self.primary.save_cache, config)]
        tasks += [functools.partial(finish, child) for child in self.children]
        self.children = []
        serve.after_rebuild(tasks)
