"""Cache entries sealed with this user's secret: a planted or altered entry is never used.

The key is 32 random bytes in ``<user cache>/key``, made once (a fresh ``O_CREAT | O_EXCL`` file of mode 0600 in
a 0700 directory, linked into place whole). A key file that is a symlink, is not this user's, is not a regular
file or can be read or written by group or others is refused: pto-docs then uses no cache at all, with one
warning. An entry on disk is ``MAGIC + HMAC-SHA256(key, name NUL payload) + payload``, ``name`` being the
entry's file name, so an entry moved to another name does not verify either. Nothing of a payload (a pickle
above all) is read before its MAC verifies.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import pickle
import secrets
import stat
from pathlib import Path

from .atomic import NOFOLLOW, atomic_write, make_private_dir, read_no_follow
from .memo import Memo
from .paths import user_cache_root

MAGIC = b"PTODOCS-SEALED-1\n"
MAC_SIZE = 32
KEY_SIZE = 32
KEY_NAME = "key"
log = logging.getLogger("pto_docs.cache")


class KeyRefused(OSError):
    """The user's key file cannot be trusted (or made): no cache is used."""


class Sealer:
    """Seals and opens cache entries with one key. ``load(path)`` answers the payload of a sealed file, or None
    (absent, unreadable, a symlink, not sealed with this key); ``save(path, payload)`` writes it sealed,
    atomically, never through a symlink."""

    def __init__(self, key: bytes):
        if len(key) < 16:
            raise ValueError("a cache key has at least 16 bytes")
        self._key = key

    def _mac(self, name: str, payload) -> bytes:
        mac = hmac.new(self._key, name.encode("utf-8", "surrogateescape") + b"\0", hashlib.sha256)
        mac.update(payload)
        return mac.digest()

    def seal(self, name: str, payload: bytes) -> bytes:
        return MAGIC + self._mac(name, payload) + payload

    def open(self, name: str, data: bytes) -> bytes | None:
        """The payload of ``data`` sealed under ``name`` with this key, else None."""
        head = len(MAGIC) + MAC_SIZE
        if len(data) < head or not data.startswith(MAGIC):
            return None
        view = memoryview(data)[head:]
        if not hmac.compare_digest(self._mac(name, view), data[len(MAGIC):head]):
            return None
        return bytes(view)

    def load(self, path: str | os.PathLike[str]) -> bytes | None:
        try:
            data = read_no_follow(path)
        except OSError:
            return None
        return self.open(Path(path).name, data)

    def save(self, path: str | os.PathLike[str], payload: bytes) -> None:
        """Write ``payload`` sealed (its directory made where missing); OSError when it cannot be written."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, self.seal(target.name, payload), mode=0o600, durable=False)

    def load_pickle(self, path: str | os.PathLike[str]):
        """The object pickled in the sealed file at ``path``, or None. Unpickled only after its MAC verifies."""
        payload = self.load(path)
        if payload is None:
            return None
        try:
            return pickle.loads(payload)
        except Exception:  # noqa: BLE001 - ours, but of another Python or class layout: rebuilt
            return None

    def save_pickle(self, path: str | os.PathLike[str], value) -> None:
        self.save(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def _check_key_file(fd: int, path: Path) -> None:
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        raise KeyRefused(f"{path} is not a regular file")
    if st.st_uid != os.getuid():
        raise KeyRefused(f"{path} belongs to another user")
    if st.st_mode & 0o077:
        raise KeyRefused(f"{path} can be read or written by others (mode {stat.S_IMODE(st.st_mode):04o}; "
                         "it must be 0600)")


def _read_key(path: Path) -> bytes | None:
    """The key in ``path`` (None: there is none yet); KeyRefused when the file cannot be trusted."""
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        if os.path.islink(path):
            raise KeyRefused(f"{path} is a symlink") from None
        raise KeyRefused(f"{path} cannot be read: {exc.strerror or exc}") from None
    try:
        _check_key_file(fd, path)
        key = os.read(fd, 4096)
    finally:
        os.close(fd)
    if len(key) < KEY_SIZE:
        raise KeyRefused(f"{path} is not a pto-docs cache key ({len(key)} bytes)")
    return key


def _make_key(path: Path) -> None:
    """A new key, linked into place whole (another process may have made one first: then its key stays)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, secrets.token_bytes(KEY_SIZE))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)


def key_path() -> Path:
    return user_cache_root() / KEY_NAME


def load_user_key() -> bytes:
    """This user's cache key (made on first use); KeyRefused when it cannot be trusted or made."""
    path = key_path()
    try:
        make_private_dir(path.parent)
    except OSError as exc:
        raise KeyRefused(f"{path.parent}: cannot keep a cache there: {exc}") from None
    key = _read_key(path)
    if key is None:
        try:
            _make_key(path)
        except OSError as exc:
            raise KeyRefused(f"{path}: cannot make the cache key: {exc.strerror or exc}") from None
        key = _read_key(path)
        if key is None:
            raise KeyRefused(f"{path}: the cache key vanished as it was made")
    return key


_SEALERS = Memo(__name__, "the sealer of each user cache directory (None: no key to trust)")


def user_sealer() -> Sealer | None:
    """The sealer of this user's key (one per process and cache root), or None, with one warning, when the key
    cannot be trusted or made: then no cache is read or written."""
    root = str(user_cache_root())
    if root not in _SEALERS:
        try:
            _SEALERS[root] = Sealer(load_user_key())
        except KeyRefused as exc:
            log.warning(f"pto-docs: the cache key {exc}; no cache is read or written (remove it to make a new one)")
            _SEALERS[root] = None
    return _SEALERS[root]


def forget_user_sealers() -> None:
    """Read the key again at the next :func:`user_sealer` (tests)."""
    _SEALERS.clear()


class SealedFolder:
    """A folder of sealed entries: the :class:`pto_docs.asl.model.ParsedCache` a caller outside ``asl/`` gives
    the interpreter. ``load(entry)`` is the payload of ``folder/entry`` when its MAC verifies, else None."""

    def __init__(self, folder: str | os.PathLike[str], sealer: Sealer):
        self.folder = Path(folder)
        self.sealer = sealer

    def load(self, entry: str) -> bytes | None:
        return self.sealer.load(self.folder / entry)

    def save(self, entry: str, data: bytes) -> None:
        self.sealer.save(self.folder / entry, data)

    def __fspath__(self) -> str:
        return str(self.folder)

    __str__ = __fspath__


def sealed_folder(folder) -> SealedFolder | None:
    """The user's sealed cache in ``folder`` (a folder path, or a SealedFolder already), or None: no folder, or
    no trusted key (then nothing is cached)."""
    if folder is None or isinstance(folder, SealedFolder):
        return folder
    sealer = user_sealer()
    return SealedFolder(folder, sealer) if sealer is not None else None
