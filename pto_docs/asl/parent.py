"""Worker processes that end with the process that forked them."""

from __future__ import annotations

import os
import signal
import sys


def die_with_parent(parent: int) -> None:
    """Pool initializer: the worker ends when ``parent`` (the process that forked it) ends, on Linux through
    ``PR_SET_PDEATHSIG``. Without it, a run stopped by SIGTERM (not by Ctrl-C, which reaches the whole process
    group) leaves its workers waiting for tasks forever. Elsewhere nothing is done."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # no prctl: the worker outlives a killed parent, as before
        return
    if os.getppid() != parent:  # the parent ended before the signal was asked for
        os._exit(1)
