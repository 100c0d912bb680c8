"""``mkdocs serve``: what the plugin knows about the live site directory between rebuilds of one process.

``mkdocs serve`` rebuilds into the same directory after every save, and most pages come out byte-identical
(the page cache gives the same HTML for the same page key, cache.py). Rewriting all of them (and
staging a whole new site to swap in, as ``pto-docs build`` does) costs more than the one page that changed,
so while serving the plugin writes in place and :class:`WrittenPages` remembers, per language directory, the
page key of every page file this process wrote there: a reused page whose file still holds its key is not
written again, and a page file no longer in the site is removed. Anything uncertain (a failed build, a failed
language process) forgets the directory, so the next build writes every page again.

The rest keeps a serving process's rebuilds short: work no reloaded page needs (saving page packs, reaping the
forked language processes) runs after the rebuild in a background thread, together with the garbage
collection the rebuild skipped (:func:`before_rebuild`); Material's templates are compiled once per process
(template_cache.ThemeBytecode) and jieba's dictionary is loaded once (:func:`preload_jieba`), so forked language
builds inherit both.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
from collections.abc import Callable

# the background work of the last serving rebuild, and the garbage collector's pause (see before_rebuild)
COLLECT_AFTER = 1.0  # seconds after a rebuild: the browsers have fetched the reloaded page by then
MAX_SKIPPED = 3


class WrittenPages:
    """The page files of one language directory during one build: which to skip, which are stale."""

    def __init__(self, site_dir: str, written: dict[str, dict[str, str]]):
        self.site_dir = os.path.abspath(site_dir)
        self.written = written  # the process's record of every language directory (memory.SiteMemory.written)
        self.before = dict(written.get(self.site_dir, {}))
        self.now: dict[str, str] = {}
        self.started = False  # a page file was written: a failure from here on leaves the directory uncertain

    def holds(self, dest: str, key: str) -> bool:
        """The file already holds the page of ``key`` (written by this process, still there): keep it."""
        if self.before.get(dest) == key and os.path.isfile(dest):
            self.now[dest] = key
            return True
        return False

    def wrote(self, dest: str, key: str | None) -> None:
        self.started = True
        if key is not None:
            self.now[dest] = key
        else:
            self.now.pop(dest, None)

    def finish(self) -> dict[str, str]:
        """The build succeeded: remove page files of the last build that this one did not produce, remember."""
        for dest in set(self.before) - set(self.now):
            try:
                os.remove(dest)
            except OSError:
                pass
        self.written[self.site_dir] = self.now
        return self.now

    def abandon(self) -> None:
        self.written.pop(self.site_dir, None)

    def adopt(self, pages: dict[str, str]) -> None:
        """What a forked language process wrote here (it reports it; its memory dies with it)."""
        self.written[self.site_dir] = dict(pages)


def preload_jieba() -> None:
    """Load jieba's dictionary (~0.7 s, Chinese search segmentation) once in the serving process: every forked
    language build then starts with it loaded instead of loading it again on each rebuild."""
    try:
        import jieba
    except ImportError:
        return
    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()


class Background:
    """The work a serving rebuild leaves running after it (a thread), and the garbage collector's pause."""

    def __init__(self) -> None:
        self.builds = 0
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()
        self.skipped = 0
        self.paused = False

    def finish(self, serving: bool = False) -> None:
        """Finish what the last serving rebuild left running (its page packs, its language workers).
        Every primary build calls this before it forks: no thread of ours may run then. A build that is not a
        serving rebuild also turns the garbage collector back on if a serving rebuild had paused it."""
        if self.thread is not None:
            self.stop.set()
            self.thread.join()
            self.thread = None
        if not serving and self.paused:
            self.paused = False
            gc.enable()

    def before_rebuild(self) -> None:
        """The start of a serving rebuild: :meth:`finish`, then pause the garbage collector.

        The process holds millions of long-lived objects (catalogs, page models, page packs), so every full
        collection during a rebuild walks all of them (0.2-0.5 s). The first build keeps the collector (it
        allocates the most); each later one runs without it, and the thread :meth:`after_rebuild` starts
        collects once the browsers have reloaded and turns it on again. When saves come faster than that, every
        ``MAX_SKIPPED``-th rebuild collects first, so garbage never piles up."""
        self.finish(serving=True)
        if not self.builds:
            return
        if self.paused:
            if self.skipped >= MAX_SKIPPED:
                gc.collect()
                self.skipped = 0
        elif gc.isenabled():  # (a process that turned the collector off itself keeps it off)
            gc.disable()
            self.paused = True

    def after_rebuild(self, tasks: list[Callable[[], None]]) -> None:
        """The end of a serving rebuild, just before MkDocs reloads the browsers: run ``tasks`` (work nothing
        shown depends on) in a thread, then collect garbage there a moment later (unless the next rebuild
        starts first)."""
        self.builds += 1
        collect = self.paused
        if collect:
            self.skipped += 1
        stop = self.stop = threading.Event()
        started = time.monotonic()

        def run() -> None:
            for task in tasks:
                try:
                    task()
                except Exception as exc:  # only ever costs speed: the next rebuild does the work itself
                    logging.getLogger("mkdocs.plugins.pto-docs").debug(f"pto-docs: after the rebuild: {exc!r}")
            if collect and not stop.wait(max(0.0, COLLECT_AFTER - (time.monotonic() - started))):
                gc.collect()
                self.skipped = 0
                self.paused = False
                gc.enable()
        # not a daemon: the interpreter lets it finish (a page pack is never left half-written)
        self.thread = threading.Thread(target=run, name="pto-docs after the rebuild")
        self.thread.start()


# -- a tree that fails validation while serving ---------------------------------------------------------------
# The first problems to name when a save breaks the tree: a file that does not parse causes the rest.
ROOT_CAUSES = ("JSON-SYNTAX", "TOML-SYNTAX", "YAML-SYNTAX", "ENCODING", "IO-READ", "RECORD-NOT-OBJECT")
BANNER_LINES = 40


def root_cause_first(errors: list) -> list:
    return sorted(errors, key=lambda d: (d.code not in ROOT_CAUSES, d.path, d.line or 0, d.col or 0))


def _css_string(text: str) -> str:
    """``text`` as a CSS string: every character but letters, digits and a few safe marks as a hex escape."""
    safe = set(" .,:;/()[]_-=@#+*'")
    return '"' + "".join(ch if (ch.isascii() and ch.isalnum()) or ch in safe else f"\\{ord(ch):06x}"
                         for ch in text) + '"'


def banner_css(lines: list[str]) -> str:
    """A rule for our stylesheet that shows ``lines`` at the top of every page of the served site."""
    shown = lines[:BANNER_LINES] + ([f"... and {len(lines) - BANNER_LINES} more"] if len(lines) > BANNER_LINES else [])
    text = ("pto-docs: the spec tree has errors; this is the last good site. It is rebuilt on the next good save."
            + "".join("\n" + line for line in shown))
    return ("\n/* pto-docs serve: the diagnostics of the last save (removed by the next good build) */\n"
            f"body::before{{content:{_css_string(text)};display:block;white-space:pre-wrap;padding:.6rem 1rem;"
            "background:#b00020;color:#fff;font:.7rem/1.5 monospace;position:relative;z-index:10}\n")
