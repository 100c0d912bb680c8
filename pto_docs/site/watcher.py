"""``mkdocs serve``: the spec tree watched by the kernel's change notices (inotify) instead of MkDocs' polling.

MkDocs watches with watchdog's polling observer: every 0.5 s it lists and stats each watched file (5,400 files of
pto-spec 0.58.3 take about 0.08 s a pass), so a save is seen 0.1-0.6 s after it happens, and the passes keep
taking time from the serving process while it rebuilds. On Linux, :func:`watch_natively` gives the server an
observer that hands the paths the plugin watches (the spec tree, the templates) to an inotify observer instead:
a save is seen at once and nothing is listed. Paths MkDocs watched before (docs_dir, mkdocs.yml, theme
directories) stay with MkDocs' own polling observer, which still starts and stops with the server.

What reaches MkDocs (:class:`Changes`): a file created, deleted, modified, moved or closed after writing, and a
directory deleted or moved (inotify reports a directory moved out of the tree as that directory alone, no file
of it), as a change of a file (MkDocs ignores directory events); never a file being opened or read, which the
build itself causes and which would ask for a rebuild after every rebuild; nothing under a top-level ``.git*``
entry of the watched directory (a checkout's ``.git`` changes on every ``git status``).

inotify is used only where it reports every change: on a local filesystem (:data:`LOCAL_FILESYSTEMS`, read from
``/proc/self/mountinfo``). On a network or virtual one (NFS, SMB, 9p as WSL's ``/mnt/c``, FUSE mounts such as
Docker Desktop's, vboxsf) the kernel accepts the watch but never hears of a change made on the other side, the
reason MkDocs itself polls: those trees are polled as before. So is every path after the kernel refuses a watch
(no inotify watch left: ``fs.inotify.max_user_watches``), and everything when ``PTO_DOCS_SERVE_POLL=1``.
"""

from __future__ import annotations

import inspect
import logging
import os
import sys

log = logging.getLogger("mkdocs.plugins.pto_docs")

# filesystems whose inotify notices cover every change (all changes are made through this kernel)
LOCAL_FILESYSTEMS = frozenset({"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "overlay", "zfs", "f2fs", "jfs",
                               "reiserfs", "bcachefs", "ramfs", "nilfs2"})


def filesystem_type(path: str, mountinfo: str = "/proc/self/mountinfo") -> str | None:
    """The type of the filesystem ``path`` lies on (its longest mount point), or None when unknown."""
    try:
        real = os.path.realpath(path)
        with open(mountinfo, encoding="utf-8", errors="surrogateescape") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    best, kind = -1, None
    for line in lines:
        head, sep, tail = line.partition(" - ")
        fields, rest = head.split(), tail.split()
        if not sep or len(fields) < 5 or not rest:
            continue
        point = fields[4].replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\")
        inside = real == point or real.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= best:  # (a later line over the same point is mounted over the earlier one)
            best, kind = len(point), rest[0]
    return kind


def _change_events() -> list[type]:
    from watchdog import events
    return [events.FileCreatedEvent, events.FileDeletedEvent, events.FileModifiedEvent, events.FileMovedEvent,
            events.FileClosedEvent, events.DirCreatedEvent, events.DirDeletedEvent, events.DirMovedEvent]


class Changes:
    """The handler inotify calls: MkDocs' handler, given what :mod:`watcher` counts as a change (see above)."""

    def __init__(self, handler, root: str):
        self.handler = handler
        self.root = os.path.abspath(root)

    def dispatch(self, event) -> None:
        from watchdog import events
        if event.event_type not in ("created", "deleted", "modified", "moved", "closed"):
            return
        paths = [os.fsdecode(event.src_path)] + ([os.fsdecode(event.dest_path)] if event.dest_path else [])
        if all(self._in_git(p) for p in paths):
            return
        if event.is_directory:
            if event.event_type == "created":
                return  # (an empty directory changes no page; the files put in it are notices of their own)
            kind = events.FileMovedEvent if event.event_type == "moved" else events.FileDeletedEvent
            event = kind(event.src_path, event.dest_path) if event.event_type == "moved" else kind(event.src_path)
        self.handler.dispatch(event)

    def _in_git(self, path: str) -> bool:
        rel = os.path.relpath(path, self.root)
        return rel != "." and not rel.startswith("..") and rel.split(os.sep, 1)[0].startswith(".git")


class SplitObserver:
    """What the server calls its observer: new watches on inotify, the ones made before on ``polling``."""

    def __init__(self, polling, native):
        self.polling = polling
        self.native = native
        self.owner: dict[object, object] = {}  # watch -> the observer that holds it
        self.native_paths: set[str] = set()  # the paths watched through inotify
        self.refused = False  # the kernel refused a watch once, or a path was not local: poll from then on

    def schedule(self, handler, path, *, recursive=False, event_filter=None):
        if not self.refused and filesystem_type(str(path)) not in LOCAL_FILESYSTEMS:
            self.refused = True
            log.info("pto-docs: %s is polled for changes (not on a local filesystem)", path)
        if not self.refused:
            try:
                watch = self.native.schedule(Changes(handler, str(path)), path, recursive=recursive,
                                             event_filter=_change_events())
            except OSError as error:
                self.refused = True
                log.info("pto-docs: %s is polled for changes (inotify refused: %s)", path, error)
            else:
                self.owner[watch] = self.native
                self.native_paths.add(os.path.abspath(str(path)))
                return watch
        watch = self.polling.schedule(handler, path, recursive=recursive, event_filter=event_filter)
        self.owner[watch] = self.polling
        return watch

    def unschedule(self, watch) -> None:
        owner = self.owner.pop(watch, self.polling)
        owner.unschedule(watch)
        if owner is self.native:
            self.native_paths.discard(os.path.abspath(str(watch.path)))

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
    did. Anything else (another platform, a watchdog without inotify, an unfamiliar server,
    ``PTO_DOCS_SERVE_POLL=1``) keeps polling."""
    polling = getattr(server, "observer", None)
    if isinstance(polling, SplitObserver):
        return True
    if not sys.platform.startswith("linux") or polling is None or os.environ.get("PTO_DOCS_SERVE_POLL") == "1":
        return False
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


def watched_natively(server, path: str) -> bool:
    """Whether ``path`` (watched already) is watched through inotify."""
    observer = getattr(server, "observer", None)
    return isinstance(observer, SplitObserver) and os.path.abspath(path) in observer.native_paths
