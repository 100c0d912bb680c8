"""The user's cache directory and the folder of one spec tree in it."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def user_cache_root() -> Path:
    """``$XDG_CACHE_HOME/pto-docs``, else ``~/.cache/pto-docs`` (read at each call: tests and tools change it)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pto-docs"


def asl_cache_dir() -> Path:
    """The parsed-model cache of the ASL interpreter (``pto-docs avs --cache-dir``'s default and the build's):
    ``<user cache>/asl``."""
    return user_cache_root() / "asl"


def tree_key(spec_root: str | os.PathLike[str]) -> str:
    """The name of a spec tree's cache folder: the sha256 of its resolved root path (not of anything in it)."""
    resolved = os.path.realpath(os.path.abspath(spec_root))
    return hashlib.sha256(resolved.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def tree_cache_dir(spec_root: str | os.PathLike[str]) -> Path:
    """The default build cache of the tree at ``spec_root``: ``<user cache>/trees/<tree key>``."""
    return user_cache_root() / "trees" / tree_key(spec_root)
