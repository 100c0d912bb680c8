"""What every worker process pto-docs forks has in common: it ends with this process (``asl/parent.py``; a
``mkdocs serve`` stopped by SIGTERM left its language worker behind)."""

from __future__ import annotations

import os

from ..asl.parent import die_with_parent


def pool_options() -> dict:
    """Keyword arguments of a ``ProcessPoolExecutor`` whose workers end with this process."""
    return {"initializer": die_with_parent, "initargs": (os.getpid(),)}
