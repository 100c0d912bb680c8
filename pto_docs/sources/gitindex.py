"""Whether a checkout's files differ from its git index, read in Python: git is never asked to look at the work
tree, so no clean filter, textconv, fsmonitor or submodule configuration of the tree can run.

Each index entry's path is lstat'ed in the work tree (a parent directory that is a symbolic link counts as a
change, and nothing outside the root is read); an entry whose stat data match the index (size, mtime, ctime,
inode, and the file type and executable bit) and is not racily clean is unchanged; any other is hashed as git
hashes a blob (raw bytes, no filters: a checkout that relies on a clean filter or line-ending conversion reads as
changed, the safe side) and compared with the index's object id. Submodule entries (gitlinks) are not looked
into, as ``git status --ignore-submodules=all``; entries flagged skip-worktree (sparse checkouts) are skipped;
an unmerged entry or an intent-to-add entry is a change. Untracked files are not considered.
"""

from __future__ import annotations

import hashlib
import os
import stat
import struct
from pathlib import Path

MAX_INDEX = 256 << 20
MAX_BLOB = 64 << 20
MAX_HASHED = 1 << 30  # bytes hashed for one dirty flag: beyond this it is unknown (None)
MAX_PATH = 4096  # an index path longer than this is a damaged index
MAX_VARINT = 5  # bytes of a v4 path-prefix length
S_GITLINK = 0o160000
_STAT = struct.Struct(">10I")


def _read_regular(path: str | bytes, limit: int) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(info.st_size + 1)  # (sized by fstat: read(n) allocates n bytes up front)
            if len(data) > info.st_size:
                data += fh.read(limit + 1 - len(data))
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _entries(data: bytes, hash_len: int):
    """(path bytes, ctime s/ns, mtime s/ns, ino, mode, size, oid, stage, skip_worktree, intent_to_add)."""
    if data[:4] != b"DIRC":
        raise ValueError("not an index")
    version, count = struct.unpack(">II", data[4:12])
    if version not in (2, 3, 4):
        raise ValueError("index version")
    pos, previous, previous_stage, first = 12, b"", 0, True
    for _ in range(count):
        cs, cn, ms, mn, _dev, ino, mode, _uid, _gid, size = _STAT.unpack_from(data, pos)
        oid = data[pos + 40:pos + 40 + hash_len]
        (flags,) = struct.unpack(">H", data[pos + 40 + hash_len:pos + 42 + hash_len])
        at = pos + 42 + hash_len
        extended = 0
        if flags & 0x4000:
            if version < 3:
                raise ValueError("extended flag in a version 2 index")
            (extended,) = struct.unpack(">H", data[at:at + 2])
            at += 2
        if version == 4:
            strip = data[at] & 0x7F
            for length in range(1, MAX_VARINT + 1):  # git's offset varint, at most MAX_VARINT bytes
                if not data[at + length - 1] & 0x80:
                    break
                if length == MAX_VARINT:
                    raise ValueError("path prefix varint too long")
                strip = ((strip + 1) << 7) | (data[at + length] & 0x7F)
            at += length
            end = data.index(b"\0", at, at + MAX_PATH + 1)
            if strip > len(previous):
                raise ValueError("bad path compression")
            path = previous[:len(previous) - strip] + data[at:end]
            pos = end + 1
        else:
            end = data.index(b"\0", at, at + MAX_PATH + 1)
            path = data[at:end]
            pos += (end - pos + 8) & ~7  # entries are NUL-padded to a multiple of 8 bytes
        if len(path) > MAX_PATH:
            raise ValueError("path too long")
        stage = (flags >> 12) & 3
        if (path, stage) <= (previous, previous_stage) and not first:
            raise ValueError("index entries not in git's order")  # (each path once per stage, sorted by bytes)
        first, previous_stage = False, stage
        previous = path
        yield (path, cs, cn, ms, mn, ino, mode, size, oid, stage, bool(extended & 0x4000),
               bool(extended & 0x2000))


def index_differs(root: Path, gdir: Path, sha256: bool = False) -> bool | None:
    """True when a tracked file of ``root`` differs from the index of ``gdir``, False when none does, None when
    the index cannot be read (absent, damaged: entries out of git's order, a path over MAX_PATH bytes; not a
    regular file, too large) or more than MAX_HASHED bytes would be hashed."""
    index_path = os.path.join(gdir, "index")
    data = _read_regular(index_path, MAX_INDEX)
    if data is None:
        return None
    try:
        index_mtime = os.lstat(index_path).st_mtime_ns
    except OSError:
        return None
    hash_len = 32 if sha256 else 20
    dirs: dict[bytes, bool] = {b"": True}
    base = os.fsencode(root)
    budget = [MAX_HASHED]  # (bytes left to hash)
    try:
        for path, cs, cn, ms, mn, ino, mode, size, oid, stage, skip, ita in _entries(data, hash_len):
            if skip:
                continue
            if stage or ita or not path or path.startswith(b"/") or b"\0" in path or b".." in path.split(b"/"):
                return True
            if mode & 0o170000 == S_GITLINK:
                continue
            if not _parents_are_dirs(base, path, dirs):
                return True
            full = base + b"/" + path
            changed = _changed(full, cs, cn, ms, mn, ino, mode, size, oid, index_mtime, sha256, budget)
            if changed is None:
                return None
            if changed:
                return True
    except (ValueError, IndexError, struct.error):
        return None
    return False


def _parents_are_dirs(base: bytes, path: bytes, dirs: dict[bytes, bool]) -> bool:
    parts = path.split(b"/")[:-1]
    prefix = b""
    for part in parts:
        prefix = prefix + b"/" + part if prefix else part
        known = dirs.get(prefix)
        if known is None:
            try:
                known = stat.S_ISDIR(os.lstat(base + b"/" + prefix).st_mode)
            except OSError:
                known = False
            dirs[prefix] = known
        if not known:
            return False
    return True


def _changed(full: bytes, cs, cn, ms, mn, ino, mode, size, oid, index_mtime: int, sha256: bool,
             budget: list[int]) -> bool | None:
    """Whether the file differs from its entry; None once the bytes hashed would exceed ``budget``."""
    try:
        info = os.lstat(full)
    except OSError:
        return True
    kind = mode & 0o170000
    if kind == stat.S_IFLNK:
        if not stat.S_ISLNK(info.st_mode):
            return True
    elif kind != stat.S_IFREG or not stat.S_ISREG(info.st_mode) or bool(info.st_mode & 0o100) != bool(mode & 0o100):
        return True
    if (info.st_size & 0xFFFFFFFF) != size:
        return True
    mtime_ns = ms * 1_000_000_000 + mn  # (32-bit seconds: exact until 2106)
    if (info.st_mtime_ns == mtime_ns and info.st_ctime_ns == cs * 1_000_000_000 + cn
            and (info.st_ino & 0xFFFFFFFF) == ino and mtime_ns < index_mtime):
        return False  # the stat data git recorded, and not racily clean: unchanged
    if kind == stat.S_IFLNK:
        try:
            content = os.readlink(full)
        except OSError:
            return True
    else:
        if info.st_size > budget[0]:
            return None
        content = _read_regular(full, MAX_BLOB)
        if content is None:
            return True
    budget[0] -= len(content)
    if budget[0] < 0:
        return None
    hasher = hashlib.sha256() if sha256 else hashlib.sha1()
    hasher.update(b"blob %d\0" % len(content))
    hasher.update(content)
    return hasher.digest() != oid
