"""Progress on stderr for long runs, and the one closing summary line.

A :class:`Progress` redraws one status line (stage, items done of total, elapsed) at most a few times a second,
only when stderr is a terminal and the run is not quiet; otherwise it prints nothing but the summary. Other
processes of the same run (the parallel language builds) report their counts through :meth:`feed`.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

_INTERVAL = 0.2


class Progress:
    def __init__(self, stream: TextIO | None = None, quiet: bool = False, interactive: bool | None = None):
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.quiet = quiet
        tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interactive = (tty if interactive is None else interactive) and not quiet
        self.stage_name = ""
        self.counts: dict[str, tuple[int, int]] = {}  # label -> (done, total)
        self._last = 0.0
        self._width = 0

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def stage(self, name: str) -> None:
        self.stage_name = name
        self.draw(force=True)

    def count(self, label: str, done: int, total: int) -> None:
        self.counts[label] = (done, total)
        self.draw(force=done >= total)

    def draw(self, force: bool = False) -> None:
        if not self.interactive:
            return
        now = time.monotonic()
        if not force and now - self._last < _INTERVAL:
            return
        self._last = now
        counts = ", ".join(f"{label} {d}/{t}" for label, (d, t) in self.counts.items())
        line = f"pto-docs: {self.stage_name}" + (f" · pages {counts}" if counts else "") + f" · {self.elapsed():.1f} s"
        pad = max(0, self._width - len(line))
        self._width = len(line)
        self.stream.write("\r" + line + " " * pad)
        self.stream.flush()

    def clear(self) -> None:
        if self.interactive and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0

    def summary(self, text: str) -> None:
        """Always printed, quiet or not, terminal or not: the run's closing line."""
        self.clear()
        self.stream.write(text + "\n")
        self.stream.flush()


_CURRENT: Progress | None = None


def current() -> Progress:
    global _CURRENT
    if _CURRENT is None:
        _CURRENT = Progress()
    return _CURRENT


def install(progress: Progress | None) -> None:
    global _CURRENT
    _CURRENT = progress
