"""No full garbage collection while pto-docs builds a large structure that lives on: a site, a loaded tree, a
linked ASL model. The oldest generation's threshold is lifted while it is built, and set back afterwards.

Most of a build's heap is the loaded tree and its page models, several hundred thousand container objects that
live until the build ends. CPython's full collection walks every one of them. In a first build of pto-spec 0.58.3
the primary process ran seven full collections before the languages fork (about a second of its time, read
with ``gc.callbacks``), and each forked process (the load helper, the further language) ran its own. A
collection in a forked process also writes to the header of every object it walks, so the kernel copies every
page of the heap the fork had shared. Young collections still run as usual and reclaim the reference cycles
a page's render leaves behind; only full collections wait until the build is over.

One exception: ``suspended()`` gives full collections back while the AVS interpreter runs inside a build
(``avs_examples: run``). Its pool processes fork from that point, and a long run leaves cyclic garbage behind
in each test point it runs.

A :class:`FullCollectionPause` is owned by the primary build (site/build.py). It pauses when the build is
configured and resumes when the build ends or fails. The processes forked in between inherit the pause and
exit with it. :func:`full_collections_paused` does the same around one call that builds a large structure:
loading a tree (load.py) and linking an ASL model for the executor's bridges (executor_asl.py, exec_model.py).
In the suite, which does all of these in its worker processes again and again, full collections took 73 s of
CPU, most of it while such structures grew (README, Speed, stop 26). When the structure is complete, the first
full collection after the pause walks it once.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

NEVER = 1 << 30  # a full collection waits for this many young-generation collections: not within a build


class FullCollectionPause:
    def __init__(self) -> None:
        self._saved: tuple[int, int, int] | None = None  # the thresholds before the pause

    @property
    def paused(self) -> bool:
        return self._saved is not None

    def pause(self) -> None:
        if self._saved is None:
            self._saved = gc.get_threshold()
            gc.set_threshold(self._saved[0], self._saved[1], NEVER)

    def resume(self) -> None:
        if self._saved is not None:
            saved, self._saved = self._saved, None
            gc.set_threshold(*saved)

    @contextmanager
    def suspended(self) -> Iterator[None]:
        """Full collections as before the pause inside the block (the pause continues after it)."""
        saved = self._saved
        if saved is None:
            yield
            return
        gc.set_threshold(*saved)
        try:
            yield
        finally:
            gc.set_threshold(saved[0], saved[1], NEVER)


@contextmanager
def full_collections_paused() -> Iterator[None]:
    """No full collection inside the block; the thresholds found are set back after it (nested use is fine)."""
    saved = gc.get_threshold()
    gc.set_threshold(saved[0], saved[1], NEVER)
    try:
        yield
    finally:
        gc.set_threshold(*saved)
