"""Writes that never go through a symlink pto-docs did not create.

:func:`atomic_write` makes a fresh temporary file (``O_CREAT | O_EXCL | O_NOFOLLOW``: never an existing file or a
link) in the target's directory, writes it whole, then renames it over the target: the rename replaces a link
planted at the target's name instead of writing through it, and a reader sees the old file or the new one,
never half of one.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def atomic_write(path: str | os.PathLike[str], data: bytes, *, mode: int = 0o644, durable: bool = True) -> None:
    """Replace ``path`` with ``data``. ``durable``: fsync the file and its directory (reports and locks; a cache
    entry, which only ever costs time when lost, need not)."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    tmp = directory / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | getattr(os, "O_CLOEXEC", 0), mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if not durable:
        return
    try:  # make the rename itself durable where the platform allows it
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def read_no_follow(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the regular file at ``path``; OSError for a symlink (ELOOP), a directory or a special file."""
    fd = os.open(path, os.O_RDONLY | NOFOLLOW | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path}: not a regular file")
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 24)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def make_private_dir(path: str | os.PathLike[str]) -> Path:
    """``path`` as a directory of this user's that is no symlink, of mode 0700 (made so where missing, parents
    included; an existing one of ours made private); OSError otherwise."""
    target = Path(path)
    os.makedirs(target, mode=0o700, exist_ok=True)
    st = os.lstat(target)
    if not stat.S_ISDIR(st.st_mode):
        raise OSError(f"{target}: not a directory (a symlink?)")
    if st.st_uid != os.getuid():
        raise OSError(f"{target}: owned by another user")
    if stat.S_IMODE(st.st_mode) & 0o077:  # (one an older pto-docs made with the umask's mode): private from now on
        os.chmod(target, 0o700)
    return target
