"""Read a spec tree once: every file's raw bytes are hashed and decoded exactly one time."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..model.catalog import SourceFile
from ..model.diagnostics import Diagnostic, SpecRootError, error
from ..model.layout import PARSED_AREAS, ROOT_FILES, unsafe_path_reason

__all__ = ["MAX_FILE_BYTES", "PARSED_AREAS", "ROOT_FILES", "SpecTree", "unsafe_path_reason"]

MAX_FILE_BYTES = 64 << 20  # a parsed file (record, JSON, case) larger than this is refused; upstream's largest is 5 MB


@dataclass
class SpecTree:
    """The files of one spec root. ``read`` and ``sha256`` touch each file at most once."""

    root: Path
    files: dict[str, SourceFile] = field(default_factory=dict)
    raw_hashes: dict[str, str | None] = field(default_factory=dict)  # path -> sha256, None if absent
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @classmethod
    def open(cls, root: str | os.PathLike[str], previous: SpecTree | None = None,
             preread: dict[str, tuple[bytes, str]] | None = None) -> SpecTree:
        """Read the tree; ``previous`` (an earlier read of it) lends the decoded text of every file whose bytes
        are unchanged (same sha256), so a reload after a save decodes only what changed. ``preread`` (absolute
        path -> (bytes, sha256), from the build's tree digest a moment before) is used instead of reading a
        file again: a parsed file's bytes, and every other plain file's sha256 (so hashing a file the loader
        does not parse, as the traceability report does, reads nothing either)."""
        path = Path(root)
        if not path.exists():
            raise SpecRootError(f"spec root {str(root)!r} does not exist")
        if not path.is_dir():
            raise SpecRootError(f"spec root {str(root)!r} is not a directory")
        tree = cls(path.resolve())
        tree._previous = previous.files if previous is not None and previous.root == tree.root else {}
        tree._preread = preread if preread is not None else {}
        try:
            tree._scan()
            tree._seed_hashes()
        finally:
            del tree._previous
            del tree._preread
        return tree

    # -- scanning -------------------------------------------------------------------------
    def _scan(self) -> None:
        for name in ROOT_FILES:
            full = self.root / name
            if full.is_symlink() and self._link_escapes(name):
                continue
            if full.is_file():
                self._load(name)
            elif full.exists() or full.is_symlink():
                self.diagnostics.append(error(name, 0, 0, "SPEC-TOML", f"{name} is not a regular file"))
                self.raw_hashes[name] = None
        for area, suffixes, recursive in PARSED_AREAS:
            if self._area_leaves_root(area):
                continue
            base = self.root / area
            if not base.is_dir():
                continue
            for rel in self._walk(base, recursive):
                if rel.endswith(suffixes):
                    self._load(rel)

    def _seed_hashes(self) -> None:
        """The sha256 of every pre-read file the scan did not parse, where ``sha256`` would have read it: a safe
        path and a plain file (a symbolic link may point outside the root, so it is left to ``sha256``)."""
        root = str(self.root)
        for full, (_data, digest) in self._preread.items():
            rel = full[len(root):].lstrip(os.sep).replace(os.sep, "/")
            if (full.startswith(root + os.sep) and rel not in self.raw_hashes and not unsafe_path_reason(rel)
                    and not os.path.islink(full)):
                self.raw_hashes[rel] = digest

    def _area_leaves_root(self, area: str) -> bool:
        """Whether a parsed area (or a directory on its way, ``tests`` of ``tests/asl``) is a symbolic link that
        leaves the root or loops: reported once, under the link's own path, and not read. A link that stays inside
        the root is followed, as a plain directory would be."""
        prefix = ""
        for part in area.split("/"):
            prefix = f"{prefix}/{part}" if prefix else part
            if os.path.islink(self.root / prefix) and (prefix in self.raw_hashes or self._link_escapes(prefix)):
                return True  # (in raw_hashes: reported with an earlier area, ``tests`` for tests/asl)
        return False

    def _link_escapes(self, rel: str) -> bool:
        """Report the symbolic link ``rel`` (SYMLINK-LOOP or PATH-OUTSIDE-ROOT) and answer True when its target
        loops or resolves outside the root; False (nothing reported) when it stays inside."""
        full = os.path.join(self.root, rel)
        if self._inside(Path(full)):
            return False
        if self._loops(full):
            self.diagnostics.append(error(rel, 0, 0, "SYMLINK-LOOP", "symbolic link loops (it never reaches a file)"))
        else:
            self.diagnostics.append(error(rel, 0, 0, "PATH-OUTSIDE-ROOT", "symbolic link points outside the spec "
                                          "root; not read"))
        self.raw_hashes[rel] = None
        return True

    def _walk(self, base: Path, recursive: bool) -> list[str]:
        found: list[str] = []
        root = str(self.root)
        for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
            dirnames.sort()
            # the relative directory by string slicing: os.walk's paths all start with the (resolved) root
            rel_dir = dirpath[len(root):].strip(os.sep).replace(os.sep, "/")
            # a name that is not UTF-8 (git stores any bytes) is reported and not read: every path pto-docs keeps
            # is text that any output (a report, a page, JSON) can carry
            dirnames[:] = [name for name in dirnames if self._name_is_text(rel_dir, name)]
            filenames = [name for name in filenames if self._name_is_text(rel_dir, name)]
            if recursive:
                # a directory link below an area is not walked (os.walk does not follow it); one that leaves the
                # root or loops is reported, one that stays inside is skipped silently (its target is read where
                # it lies, if under an area)
                for name in dirnames:
                    if os.path.islink(os.path.join(dirpath, name)):
                        self._link_escapes(f"{rel_dir}/{name}" if rel_dir else name)
            for name in sorted(filenames):
                rel = f"{rel_dir}/{name}" if rel_dir else name
                full = os.path.join(dirpath, name)
                if os.path.islink(full) and self._link_escapes(rel):
                    continue
                found.append(rel)
            if not recursive:
                dirnames.clear()
        return found

    def _name_is_text(self, rel_dir: str, name: str) -> bool:
        """Whether ``name`` (as os.walk gives it: undecodable bytes as surrogates) is valid UTF-8; if not, a
        PATH-ENCODING error under the name with every byte but printable ASCII shown as ``%XX``."""
        try:
            name.encode("utf-8")
            return True
        except UnicodeEncodeError:
            raw = os.fsencode(f"{rel_dir}/{name}" if rel_dir else name)
            shown = "".join(chr(b) if 0x20 < b < 0x7F and b != 0x25 else f"%{b:02X}" for b in raw)
            self.diagnostics.append(error(shown, 0, 0, "PATH-ENCODING", "file name is not valid UTF-8; not read"))
            return False

    def _rel(self, full: Path) -> str:
        return full.relative_to(self.root).as_posix()

    def _inside(self, full: Path) -> bool:
        """Whether ``full`` resolves to a path inside the root (a looping or unresolvable link is not inside)."""
        try:
            full.resolve().relative_to(self.root)
            return True
        except (ValueError, RuntimeError, OSError):
            return False

    @staticmethod
    def _loops(full: str) -> bool:
        try:
            Path(full).resolve(strict=True)
            return False
        except RuntimeError:
            return True
        except OSError as exc:
            import errno
            return exc.errno == errno.ELOOP

    def _load(self, rel: str) -> SourceFile | None:
        full = os.path.join(self.root, rel)
        known = getattr(self, "_preread", {}).pop(full, None)
        if known is not None:
            data, digest = known
        else:
            try:
                # (not pathlib: this runs for every file) non-blocking, so that a FIFO cannot hang the load
                fd = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
                with open(fd, "rb") as fh:
                    info = os.fstat(fd)
                    if not stat.S_ISREG(info.st_mode):
                        raise OSError(0, "not a regular file (a FIFO, device or socket)")
                    if info.st_size > MAX_FILE_BYTES:
                        self.diagnostics.append(error(rel, 0, 0, "FILE-TOO-LARGE", f"file has {info.st_size:,} bytes, "
                                                      f"more than the {MAX_FILE_BYTES:,} pto-docs reads"))
                        self.raw_hashes[rel] = None
                        return None
                    data = fh.read()
            except OSError as exc:
                self.diagnostics.append(error(rel, 0, 0, "IO-READ", f"cannot read file: {exc.strerror or exc}"))
                self.raw_hashes[rel] = None
                return None
            digest = hashlib.sha256(data).hexdigest()
        self.raw_hashes[rel] = digest
        earlier = getattr(self, "_previous", {}).get(rel)
        if earlier is not None and earlier.sha256 == digest:
            self.files[rel] = earlier
            return earlier
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            self.diagnostics.append(
                error(rel, line, col, "ENCODING", f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x})")
            )
            return None
        if text.startswith("\ufeff") and not rel.endswith(".toml"):  # (TOML: reported by the release parser)
            text = text[1:]
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        source = SourceFile(rel, digest, len(data), text)
        self.files[rel] = source
        return source

    # -- access -----------------------------------------------------------------------------
    def under(self, prefix: str) -> list[SourceFile]:
        prefix = prefix.rstrip("/") + "/"
        return [f for p, f in self.files.items() if p.startswith(prefix)]

    def get(self, rel: str) -> SourceFile | None:
        return self.files.get(rel)

    def raw_bytes(self, rel: str) -> bytes | None:
        """A parsed file's raw bytes as they are on disk now (the ADR aggregate of the traceability report hashes
        them); None when the file is not one the loader parsed or cannot be read."""
        if rel not in self.files:
            return None
        try:
            return (self.root / rel).read_bytes()
        except OSError:
            return None

    def sha256(self, rel: str) -> str | None:
        """sha256 of a file's raw bytes (read once, cached); None when absent or unsafe."""
        if rel in self.raw_hashes:
            return self.raw_hashes[rel]
        if unsafe_path_reason(rel):
            return None
        full = self.root / rel
        digest: str | None = None
        if full.is_file() and self._inside(full):
            try:
                with open(full, "rb") as fh:  # streamed: a file the loader does not parse may be of any size
                    digest = hashlib.file_digest(fh, "sha256").hexdigest()
            except OSError:
                digest = None
        self.raw_hashes[rel] = digest
        return digest

    def exists(self, rel: str) -> bool:
        if rel in self.files:
            return True
        if unsafe_path_reason(rel):
            return False
        full = self.root / rel
        return full.exists() and self._inside(full)
