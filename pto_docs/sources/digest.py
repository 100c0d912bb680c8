"""The tree digest's reading of a directory: every entry hashed exactly as the loader would read it (sources/ is
the only reader of spec files; the no-change fast path of ``pto-docs build``, site/tree_cache.py, hashes the
tree through :func:`hash_dir` and hands the bytes it read to the loader, so the tree is read once)."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from .tree import MAX_FILE_BYTES

__all__ = ["hash_dir", "stat_fingerprint"]


def hash_dir(digest, root: Path, label: str, keep: dict | None = None, skip: frozenset[str] = frozenset(),
              spec: bool = True) -> None:
    """Hash every entry under ``root`` without blocking, exactly what the loader may read: a regular file by its
    content (at most the loader's size limit, read through a non-blocking, no-follow descriptor); a symbolic link by
    its target text and, when it resolves inside ``root``, by what the loader would read through it (a file's
    content, under the link's own path in ``keep``; a directory's entries where they are otherwise left out:
    ``skip`` or the root's own ``.git``); a link out of the root is only a string here (the loader reports it and
    reads nothing). Any other entry (a FIFO, a socket, a device: never opened) by its kind alone (the loader
    reports one in a parsed area). Nothing but the root's own ``.git`` directory (the checkout's identity is
    hashed from it separately) and ``skip`` (our own outputs) is left out: hidden directories and
    ``__pycache__`` are parsed like any other. Names are hashed as the bytes the file system holds (a name that
    is not UTF-8 is no error here). Entry types come from the directory listing (``scandir``), so a plain file
    costs one open. Not ``spec`` (our package, the templates): ``.git*`` and ``__pycache__`` directories are
    left out (Python's byte code is written there as modules are imported)."""
    digest.update(f"\0dir\0{label}\0".encode())
    if root.is_dir() and not root.is_symlink():
        top = str(root)
        walk = _TreeWalk(digest, top, keep, skip | {os.path.join(top, ".git")}, spec)
        walk.tree(top, len(top) + 1)


class _TreeWalk:
    def __init__(self, digest, top: str, keep: dict | None, skip: frozenset[str], spec: bool):
        self.digest, self.top, self.keep, self.skip, self.spec = digest, top, keep, skip, spec
        self.entered: set[str] = set()  # (left-out directories hashed through a link: each once, no loop)

    def left_out(self, real: str) -> bool:
        return any(real == path or real.startswith(path + os.sep) for path in self.skip)

    def tree(self, directory: str, cut: int, prefix: bytes = b"") -> None:
        try:
            with os.scandir(directory) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            return
        subdirs = []
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.path not in self.skip and (self.spec or not (
                            entry.name.startswith(".git") or entry.name == "__pycache__")):
                        subdirs.append(entry.path)
                    continue
                if entry.is_symlink():
                    content = self.link(entry.path, prefix + os.fsencode(entry.path[cut:]))
                elif entry.is_file(follow_symlinks=False):
                    content = _file_digest(entry.path, self.keep)
                else:
                    content = f"special:{stat.S_IFMT(entry.stat(follow_symlinks=False).st_mode):o}"
            except OSError:
                content = "unreadable"
            self.digest.update(prefix + os.fsencode(entry.path[cut:]) + b"\0" + content.encode() + b"\n")
        for path in subdirs:
            self.tree(path, cut, prefix)

    def link(self, path: str, shown: bytes) -> str:
        """A link: its target text; inside the root, a file's content (kept for the loader under the link's
        path), a left-out directory's entries (hashed under the link's path)."""
        content = "link:" + hashlib.sha256(os.fsencode(os.readlink(path))).hexdigest()
        real = os.path.realpath(path)
        if not (real.startswith(self.top + os.sep) and os.path.lexists(real)):
            return content  # (outside the root, dangling or looping: the loader reads nothing through it)
        if os.path.isdir(real):
            if self.left_out(real) and real not in self.entered:
                self.entered.add(real)
                self.tree(real, len(real) + 1, shown + b"/")
            return content + ":dir"
        kept: dict = {}
        content += ":" + _file_digest(real, kept if self.keep is not None else None)
        if self.keep is not None and real in kept:
            self.keep[path] = kept[real]  # (the loader opens the link's path: these are the bytes it parses)
        return content


def _file_digest(full: str, keep: dict | None) -> str:
    try:
        fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return "unreadable"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # (replaced since it was listed)
            return f"special:{stat.S_IFMT(info.st_mode):o}"
        if info.st_size > MAX_FILE_BYTES:
            return f"too-large:{info.st_size}:{info.st_mtime_ns}"
        with os.fdopen(fd, "rb", closefd=False) as fh:
            # (sized by fstat: read(n) allocates n bytes up front; a file that grew meanwhile is read on, capped)
            data = fh.read(info.st_size + 1)
            if len(data) > info.st_size:
                data += fh.read(MAX_FILE_BYTES + 1 - len(data))
    except OSError:
        return "unreadable"
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        return f"too-large:{len(data)}"
    content = hashlib.sha256(data).hexdigest()
    if keep is not None:
        keep[full] = (data, content)
    return content


def stat_fingerprint(root: Path) -> str:
    """sha256 over every file's path, size and mtime under ``root`` (not its bytes): a changed tree changes it. A
    serving process compares it between reloads to reuse an unchanged tree's analysis (site/rendering.py)."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".git"))
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            try:
                st = os.stat(full)
            except OSError:
                continue
            # (the name as the file system's bytes: one that is not UTF-8 is no error here)
            digest.update(os.fsencode(full) + f"\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()
