"""``mkdocs serve``: the spec tree watched by the kernel's change notices (inotify) instead of MkDocs' polling.

MkDocs watches with watchdog's polling observer: every 0.5 s it lists and stats each watched file (5,400 files of
pto-spec 0.58.3 take about 0.08 s a pass), so a save is seen 0.1-0.6 s after it happens, and the passes keep
taking time from the serving process while it rebuilds. On Linux, :func:`watch_natively` gives the server an
observer that hands the paths the plugin watches (the spec tree, the templates) to an inotify observer instead:
a save is seen at once and nothing is listed. Paths MkDocs watched before (docs_dir, mkdocs.yml, theme
directories) stay with MkDocs' own polling observer, which still starts and stops with the server.

Only changes are asked for (created, deleted, modified, moved, closed after writing): the notices of files being
opened or read, which the build itself causes, would otherwise ask for a rebuild after every rebuild. A path the
kernel refuses to watch (no inotify instance or watch left: ``fs.inotify.max_user_*``) is polled as before.
"""

from __future__ import annotations

import inspect
import logging
import sys

log = logging.getLogger("mkdocs.plugins.pto_docs")


def _change_events() -> list[type]:
    """The notices that mean a file changed (MkDocs ignores those of directories)."""
    from watchdog import events
    return [events.FileCreatedEvent, events.FileDeletedEvent, events.FileModifiedEvent, events.FileMovedEvent,
            events.FileClosedEvent]


class SplitObserver:
    """What the server calls its observer: new watches on inotify, the ones made before on ``polling``."""

    def __init__(self, polling, native):
        self.polling = polling
        self.native = native
        self.owner: dict[object, object] = {}  # watch -> the observer that holds it
        self.refused = False  # the kernel refused a watch once: poll from then on

    def schedule(self, handler, path, *, recursive=False, event_filter=None):
        if not self.refused:
            try:
                watch = self.native.schedule(handler, path, recursive=recursive, event_filter=_change_events())
            except OSError as error:
                self.refused = True
                log.info("pto-docs: %s is polled for changes (inotify refused: %s)", path, error)
            else:
                self.owner[watch] = self.native
                return watch
        watch = self.polling.schedule(handler, path, recursive=recursive, event_filter=event_filter)
        self.owner[watch] = self.polling
        return watch

    def unschedule(self, watch) -> None:
        self.owner.pop(watch, self.polling).unschedule(watch)

    def start(self) -> None:
        self.polling.start()  # the native one runs from the start: its watches are made when scheduled

    def stop(self) -> None:
        self.native.stop()
        self.polling.stop()

    def join(self, timeout: float | None = None) -> None:
        self.native.join(timeout)
        if self.polling.is_alive():
            self.polling.join(timeout)

    def is_alive(self) -> bool:
        return self.polling.is_alive() or self.native.is_alive()


def watch_natively(server) -> bool:
    """Give ``server`` (MkDocs' LiveReloadServer, before it serves) a :class:`SplitObserver` on Linux; True if it
    did. Anything else (another platform, a watchdog without inotify, an unfamiliar server) keeps polling."""
    polling = getattr(server, "observer", None)
    if not sys.platform.startswith("linux") or polling is None or isinstance(polling, SplitObserver):
        return isinstance(polling, SplitObserver)
    if not all(callable(getattr(polling, name, None)) for name in ("schedule", "unschedule", "start", "stop")):
        return False
    try:
        from watchdog.observers.inotify import InotifyObserver
        if "event_filter" not in inspect.signature(InotifyObserver.schedule).parameters:
            return False  # watchdog < 4: the notices of reads could not be left out
        native = InotifyObserver()
        native.daemon = True
        native.start()
    except (ImportError, OSError, RuntimeError) as error:
        log.info("pto-docs: the spec tree is polled for changes (no inotify: %s)", error)
        return False
    server.observer = SplitObserver(polling, native)
    return True
