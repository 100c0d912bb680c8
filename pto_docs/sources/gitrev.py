"""A spec tree as it was at a git revision (tag, branch, commit sha, HEAD), read from ``.git`` in Python.

Nothing is run: refs are resolved by :mod:`.gitread` (loose refs, ``packed-refs``), objects are read by dulwich's
object store from the repository's own ``objects`` directory. Refused, with one line (:class:`RevisionError`):
a ``.git`` leading to another repository (:func:`.gitread.git_dir`), an object store that borrows objects from
elsewhere (``objects/info/alternates``), a revision that names nothing or no commit. The files the loader reads
(:data:`..model.layout.PARSED_AREAS`, the root files and the changelog) are written into a directory the
caller made empty; a name that is not a plain relative name (``..``, ``.git``, a separator, not UTF-8), a
symbolic link that leads outside that directory, a submodule and a file larger than the loader reads are not
written, each reported as a diagnostic of its path. Symbolic links are made last, so no file is written through
one.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..model.diagnostics import Diagnostic, error
from ..model.layout import PARSED_AREAS, ROOT_FILES
from .gitread import SHA, _common_dir, _packed_refs, _resolve, git_dir, valid_ref

EXTRA_FILES = ("CHANGELOG.md",)  # read by the trace gate's change check, not by the loader
MAX_BLOB_BYTES = 64 << 20  # as tree.MAX_FILE_BYTES
MAX_FILES = 200_000
HEX = re.compile(r"[0-9a-f]{4,64}\Z")


class RevisionError(Exception):
    """A revision that cannot be read; the message is the one line to show."""


@dataclass
class RevisionTree:
    commit: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0


def find_checkout(start: str | os.PathLike) -> Path | None:
    """The nearest directory from ``start`` upwards that holds a ``.git`` (directory, file or link)."""
    here = Path(os.path.abspath(start))
    for candidate in (here, *here.parents):
        if os.path.lexists(candidate / ".git"):
            return candidate
    return None


def _store(root: Path):
    from dulwich.object_store import DiskObjectStore
    gdir = git_dir(root)
    if gdir is None:
        raise RevisionError(f"{root}/.git: error[GIT-REFUSED]: not read: it is not a git directory of this checkout "
                            f"(a .git that leads to another repository is refused)")
    common = _common_dir(gdir)
    if os.path.lexists(common / "objects" / "info" / "alternates"):
        raise RevisionError(f"{root}/.git: error[GIT-REFUSED]: not read: its object store borrows objects from "
                            f"elsewhere (objects/info/alternates)")
    if not (common / "objects").is_dir():
        raise RevisionError(f"{root}/.git: error[GIT-REFUSED]: has no objects directory")
    return gdir, common, DiskObjectStore(str(common / "objects"))


def _candidates(rev: str) -> list[str]:
    if rev == "HEAD" or rev.startswith("refs/"):
        return [rev]
    return [f"refs/{rev}", f"refs/tags/{rev}", f"refs/heads/{rev}", f"refs/remotes/{rev}"]


def resolve(root: Path, rev: str):
    """(commit sha, commit object, object store) of ``rev`` in the checkout at ``root``; RevisionError if none."""
    gdir, common, store = _store(root)
    shown = rev.encode("unicode_escape").decode("ascii")
    if not rev or not (rev == "HEAD" or valid_ref(rev) or HEX.match(rev)):
        raise RevisionError(f"{root}: error[GIT-REVISION]: {shown!r} is not a revision name")
    packed, peeled, _ = _packed_refs(common)
    sha = None
    for ref in _candidates(rev):
        sha = _resolve(gdir, common, ref, packed)
        if sha:
            break
    if sha is None and HEX.match(rev):
        try:
            found = sorted({s.decode() if isinstance(s, bytes) else s for s in store.iter_prefix(rev.encode())})
        except Exception:  # noqa: BLE001 - an unreadable pack: the revision is not there
            found = []
        if len(found) > 1:
            raise RevisionError(f"{root}: error[GIT-REVISION]: {rev!r} is ambiguous ({len(found)} objects)")
        sha = found[0] if found else None
    if sha is None or not SHA.match(sha):
        raise RevisionError(f"{root}: error[GIT-REVISION]: revision {shown!r} does not exist in this checkout")
    return _peel(root, store, sha, rev)


def _peel(root: Path, store, sha: str, rev: str):
    from dulwich.objects import Commit, Tag
    for _ in range(8):
        try:
            obj = store[sha.encode()]
        except Exception:  # noqa: BLE001 - missing or corrupt object
            raise RevisionError(f"{root}: error[GIT-OBJECT]: revision {rev!r} names object {sha}, which cannot be "
                                f"read") from None
        if isinstance(obj, Commit):
            return sha, obj, store
        if not isinstance(obj, Tag):
            raise RevisionError(f"{root}: error[GIT-REVISION]: revision {rev!r} names a {obj.type_name.decode()}, "
                                f"not a commit")
        sha = obj.object[1].decode()
    raise RevisionError(f"{root}: error[GIT-REVISION]: revision {rev!r}: tags nest too deeply")


def _wanted(rel: str, is_dir: bool) -> bool:
    """Whether the loader reads ``rel`` (or, for a directory, anything below it)."""
    if not is_dir and rel in ROOT_FILES + EXTRA_FILES:
        return True
    for area, suffixes, recursive in PARSED_AREAS:
        if is_dir and (area == rel or area.startswith(rel + "/") or recursive and rel.startswith(area + "/")):
            return True
        if not is_dir and rel.startswith(area + "/") and rel.endswith(suffixes):
            return recursive or "/" not in rel[len(area) + 1:]
    return False


def _bad_name(name: bytes) -> str | None:
    try:
        text = name.decode("utf-8")
    except UnicodeDecodeError:
        return "name is not valid UTF-8"
    if text in ("", ".", "..") or text.lower() == ".git" or any(c in text for c in "/\\\x00"):
        return f"name {text!r} is not a plain file name"
    return None


def read_revision(root: str | os.PathLike, rev: str, dest: str | os.PathLike) -> RevisionTree:
    """Write the loader's files of ``rev`` (of the checkout at ``root``) into the empty directory ``dest``."""
    root, dest = Path(root), Path(dest)
    sha, commit, store = resolve(root, rev)
    out = RevisionTree(sha)
    links: list[tuple[str, str]] = []
    pending = [("", commit.tree)]
    while pending:
        base, tree_sha = pending.pop()
        try:
            tree = store[tree_sha]
        except Exception:  # noqa: BLE001
            raise RevisionError(f"{root}: error[GIT-OBJECT]: tree {tree_sha.decode()} of {rev!r} cannot be read") from None
        for entry in tree.iteritems():
            name, mode, oid = entry.path, entry.mode, entry.sha
            shown = name.decode("utf-8", "replace")
            rel = f"{base}/{shown}" if base else shown
            why = _bad_name(name)
            if why:
                out.diagnostics.append(error(rel, 0, 0, "PATH-UNSAFE", f"git tree entry not read: {why}"))
                continue
            if stat.S_ISDIR(mode):
                if _wanted(rel, True):
                    pending.append((rel, oid))
                continue
            if not _wanted(rel, False):
                continue
            if stat.S_ISLNK(mode):
                links.append((rel, store[oid].data.decode("utf-8", "surrogateescape")))
            elif mode == 0o160000:
                out.diagnostics.append(error(rel, 0, 0, "GIT-SUBMODULE", "a submodule is not read"))
            else:
                _write(store, oid, rel, dest, out)
    made = [rel for rel, target in sorted(links) if _link(rel, target, dest, out)]
    top = os.path.realpath(dest)
    for rel in made:  # a link through another link can still leave: checked on the finished tree
        real = os.path.realpath(dest / rel)
        if real != top and not real.startswith(top + os.sep):
            os.unlink(dest / rel)  # (made just above by this function)
            out.diagnostics.append(error(rel, 0, 0, "PATH-OUTSIDE-ROOT", "symbolic link points outside the spec "
                                         "root; not read"))
    return out


def _write(store, oid: bytes, rel: str, dest: Path, out: RevisionTree) -> None:
    if out.files >= MAX_FILES:
        raise RevisionError(f"{rel}: error[GIT-TOO-LARGE]: the revision has more than {MAX_FILES:,} files to read")
    data = store[oid].data
    if len(data) > MAX_BLOB_BYTES:
        out.diagnostics.append(error(rel, 0, 0, "FILE-TOO-LARGE", f"file has {len(data):,} bytes, more than the "
                                     f"{MAX_BLOB_BYTES:,} pto-docs reads"))
        return
    full = dest / rel
    full.parent.mkdir(parents=True, exist_ok=True)
    with open(full, "xb") as fh:  # (x: never over anything; dest was empty)
        fh.write(data)
    out.files += 1


def _link(rel: str, target: str, dest: Path, out: RevisionTree) -> bool:
    resolved = os.path.normpath(os.path.join(os.path.dirname(rel), target))
    if os.path.isabs(target) or resolved == ".." or resolved.startswith("../") or "\x00" in target:
        out.diagnostics.append(error(rel, 0, 0, "PATH-OUTSIDE-ROOT", "symbolic link points outside the spec root; "
                                     "not read"))
        return False
    full = dest / rel
    full.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, full)
    return True
