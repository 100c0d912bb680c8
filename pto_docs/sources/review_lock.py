"""Reading the review lock's bytes from the spec tree (``pto-docs.review-lock.json``; trace/lock.py parses it)."""

from __future__ import annotations

import os
from pathlib import Path

from ..model.layout import LOCK_NAME


class LockIsALink(Exception):
    """The lock is a symbolic link (never followed)."""


def lock_bytes(root: str | os.PathLike[str]) -> bytes | None:
    """The lock file's bytes, None when the tree has none. Raises LockIsALink, or OSError (I/O)."""
    path = Path(root) / LOCK_NAME
    if path.is_symlink():
        raise LockIsALink("the review lock is a symbolic link; it must be a regular file of the spec tree")
    if not path.is_file():
        return None
    return path.read_bytes()
