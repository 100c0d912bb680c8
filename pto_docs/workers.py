"""What every worker process pto-docs forks has in common."""

from __future__ import annotations

import os
import signal
import sys


def die_with_parent(parent: int) -> None:
    """Pool initializer: the worker ends when ``parent`` (the process that forked it) ends, on Linux through
    ``PR_SET_PDEATHSIG``. Without it, a ``mkdocs serve`` stopped by SIGTERM (not by Ctrl-C, which reaches the
    whole process group) leaves its language worker waiting for tasks forever. Elsewhere nothing is done."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # no prctl: the worker outlives a killed parent, as before
        return
    if os.getppid() != parent:  # the parent ended before the signal was asked for
        os._exit(1)


def pool_options() -> dict:
    """Keyword arguments of a ``ProcessPoolExecutor`` whose workers end with this process."""
    return {"initializer": die_with_parent, "initargs": (os.getpid(),)}
