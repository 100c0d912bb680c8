"""A teaching run's instructions shared by two processes once the model is linked (teaching_run, first builds).

Linking the spec's ASL model takes seconds; running every instruction's scenarios on it takes several times that
(0.58.3: about 1,580 runs). So the process that linked the model forks a helper, which shares the linked model
copy-on-write (no second link, no second composition of what it does not run), and the two take the remaining
instructions: this process from the start, the helper from the end, until they meet (:class:`Share`). The helper
sends the results of the scenarios it ran; this process then goes on with its own loop over every instruction, which
finds those results among the known ones, as it would find a cached run's: the examples are made, in order, by this
process alone, exactly as a run without a helper makes them.

Nothing depends on the helper but time. A helper that fails, is killed, sends something unreadable or makes no
progress for :data:`STALL_SECONDS` is stopped, and its share is run here (the loop runs whatever it does not
find). The claim of a unit needs no lock: each side writes only its own end of the shared range, then reads the
other's; the worst a race can do is have both sides run one unit, or neither (then this process runs it).
"""

from __future__ import annotations

import json
import mmap
import os
import select
import signal
import struct
import time
import warnings
from collections.abc import Callable, Iterator

MIN_LEFT = 24  # fewer instructions left to run than this: a fork is not worth its cost
STALL_SECONDS = 30.0  # the helper neither claimed a unit nor sent its results for this long: it is stopped
_FRONT, _BACK = 0, 4  # offsets of the two ends in the shared memory (unsigned 32-bit each)


class Share:
    """The instructions ``[front, count)`` of a run shared with a forked helper: this process claims them from the
    start (:meth:`claim`), the helper from the end (:meth:`from_the_end`)."""

    def __init__(self, count: int, front: int):
        self.memory = mmap.mmap(-1, 8)  # (anonymous and shared: the helper forked later writes the same pages)
        self._put(_FRONT, front)
        self._put(_BACK, count)
        self.pid: int | None = None
        self.reader: int | None = None

    def _get(self, offset: int) -> int:
        return struct.unpack_from("<I", self.memory, offset)[0]

    def _put(self, offset: int, value: int) -> None:
        struct.pack_into("<I", self.memory, offset, value)

    def claim(self, index: int) -> bool:
        """This process takes unit ``index`` (claimed in order) unless the helper has reached it."""
        self._put(_FRONT, index + 1)
        return index < self._get(_BACK)

    def from_the_end(self) -> Iterator[int]:
        """The helper's units, taken one at a time from the end until the two meet."""
        while True:
            j = self._get(_BACK) - 1
            self._put(_BACK, max(j, 0))
            if j < 0 or j < self._get(_FRONT):
                return
            yield j

    def collect(self) -> dict[str, dict]:
        """The results the helper ran (case digest -> result), once it has ended; {} when it failed, was killed,
        sent something unreadable or stalled (it is then stopped): this process runs its share itself."""
        chunks: list[bytes] = []
        progress, back = time.monotonic(), self._get(_BACK)
        try:
            while True:
                ready, _, _ = select.select([self.reader], [], [], 0.2)
                now = time.monotonic()
                if ready:
                    chunk = os.read(self.reader, 1 << 20)
                    if not chunk:
                        break  # (the helper has ended)
                    chunks.append(chunk)
                    progress = now
                    continue
                if self._get(_BACK) != back:
                    progress, back = now, self._get(_BACK)
                elif now - progress > STALL_SECONDS:
                    self.close()
                    return {}
            if self._reap() != 0:
                return {}
            return _results(b"".join(chunks))
        finally:
            self.close()

    def _reap(self) -> int | None:
        """The helper's exit status (0: it sent everything), waiting for it; None if it was already reaped."""
        pid, self.pid = self.pid, None
        if pid is None:
            return None
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            return None
        return os.waitstatus_to_exitcode(status)

    def close(self) -> None:
        """Stop the helper if it still runs (this process failed, or gave up waiting) and free what it used."""
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap()
        if self.reader is not None:
            os.close(self.reader)
            self.reader = None


def _payload(results: dict[str, dict]) -> bytes:
    return json.dumps(results, separators=(",", ":")).encode("utf-8")


def _results(payload: bytes) -> dict[str, dict]:
    try:
        found = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {}
    if not isinstance(found, dict) or not all(isinstance(k, str) and isinstance(v, dict) for k, v in found.items()):
        return {}
    return found


def fork(count: int, front: int, work: Callable[[Share], dict[str, dict]]) -> Share | None:
    """Fork a helper that runs ``work(share)`` (the results of the units it takes from ``share.from_the_end()``)
    and sends them back; None when too few units are left, or no process could be forked."""
    if count - front < MIN_LEFT or not hasattr(os, "fork"):
        return None
    share = Share(count, front)
    reader, writer = os.pipe()
    parent = os.getpid()
    try:
        with warnings.catch_warnings():
            # (Python 3.12+ warns of a fork while another thread runs -- the big-stack thread this is called from;
            # a warning turned into an error would leave the forked helper unreaped and its pipe open)
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(reader)
        os.close(writer)
        return None
    if pid == 0:  # the helper: never returns
        _helper(share, reader, writer, parent, work)
    os.close(writer)
    share.pid, share.reader = pid, reader
    return share


def _helper(share: Share, reader: int, writer: int, parent: int, work) -> None:
    code = 1
    try:
        os.close(reader)
        from ..asl.parent import die_with_parent
        die_with_parent(parent)  # (a killed build leaves no helper behind)
        results = work(share)
        view = memoryview(_payload(results))
        while view:
            view = view[os.write(writer, view):]
        code = 0
    except BaseException:  # noqa: BLE001 - the helper's failure is this process's exit code: the parent runs its share
        pass
    finally:
        os._exit(code)
