"""A checkout's identity (commit, dirty flag, exact tag) without running anything the checkout configures.

The commit and the tags are read in pure Python from ``.git`` (HEAD, loose refs, ``packed-refs``, loose
annotated tag objects). The dirty flag compares the work tree with the index in Python (:mod:`.gitindex`), and
the index with HEAD by ``git diff-index --cached`` (object database only, never a work tree file: no filter or
submodule runs), which runs only when the repository's own config holds nothing but keys known not to execute
anything (:data:`SAFE_KEYS`: no filter drivers, no fsmonitor, no pager, no includes), with system and global
config off, hooks, fsmonitor and pagers disabled, no transport and no optional locks; otherwise the flag is
unknown (None). A ``.git`` leading to another repository is not read (:func:`git_dir`).
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import zlib
from pathlib import Path

SHA = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?\Z")
# section.key (subsections as *) a repository's config may hold for git status to run at all
SAFE_KEYS = frozenset({
    "core.repositoryformatversion", "core.filemode", "core.bare", "core.logallrefupdates", "core.ignorecase",
    "core.precomposeunicode", "core.symlinks", "core.autocrlf", "core.eol", "core.safecrlf", "core.checkstat",
    "core.trustctime", "core.quotepath", "core.sharedrepository", "core.splitindex", "core.untrackedcache",
    "core.preloadindex", "core.sparsecheckout", "core.sparsecheckoutcone", "core.abbrev",
    "remote.*.url", "remote.*.fetch", "remote.*.pushurl", "remote.*.tagopt", "remote.*.prune", "remote.*.promisor",
    "remote.*.partialclonefilter", "branch.*.remote", "branch.*.merge", "branch.*.rebase",
    "user.name", "user.email", "gc.auto", "pull.rebase", "pull.ff", "fetch.prune", "init.defaultbranch",
    "extensions.worktreeconfig", "extensions.objectformat", "extensions.partialclone", "submodule.*.url",
    "submodule.*.active", "index.version", "feature.manyfiles", "maintenance.auto", "maintenance.strategy",
})
NEUTRAL = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.pager=cat",
           "-c", "core.untrackedCache=false", "-c", "diff.external=", "-c", "core.attributesFile=/dev/null",
           "-c", "submodule.recurse=false", "-c", "protocol.allow=never", "--no-pager", "--no-optional-locks")


def _inside(path: Path, root: Path) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def git_dir(root: Path) -> Path | None:
    """The git directory of the checkout whose top level is ``root``, or None.

    ``root/.git`` is used when it is a directory inside the root (a symbolic link to one outside is not), or a
    regular file ``gitdir: X`` where X lies inside the root, or where X lies outside it and is a linked work
    tree's git directory of this very root: ``<common>/worktrees/<name>`` whose own ``gitdir`` file names
    ``root/.git`` (git's two-way link, which a tree cannot write outside itself). Its common directory
    (``commondir``) must likewise lie inside the root or, for such a linked work tree only, be that ``<common>``. Anything else (a link or a
    gitdir file into another repository) gives no identity: a tree cannot borrow another checkout's commit,
    tag or clean state."""
    dot = root / ".git"
    linked = False  # (a linked work tree's git directory, which git links back to this root)
    try:
        if dot.is_symlink():
            target = dot if _inside(dot, root) and dot.is_dir() else None
        elif dot.is_dir():
            target = dot
        elif dot.is_file():
            text = (_read(dot) or "").strip()
            if not text.startswith("gitdir:"):
                return None
            target = Path(text[len("gitdir:"):].strip())
            target = target if target.is_absolute() else (root / target)
            if not target.is_dir():
                return None
            if not _inside(target, root):
                if not _links_back(target, dot):
                    return None
                linked = True
        else:
            return None
        if target is None:
            return None
        common = _common_dir(target)
        if not (_inside(common, root)
                or linked and os.path.realpath(common) == os.path.realpath(target.parent.parent)):
            return None
        return target
    except OSError:
        return None


def _links_back(target: Path, dot: Path) -> bool:
    """Whether ``target`` is ``<common>/worktrees/<name>`` of a linked work tree whose ``.git`` file is ``dot``."""
    if Path(os.path.realpath(target)).parent.name != "worktrees":
        return False
    back = (_read(target / "gitdir") or "").strip()
    return bool(back) and Path(back).is_absolute() and os.path.realpath(back) == os.path.realpath(dot)


def _common_dir(gdir: Path) -> Path:
    text = (_read(gdir / "commondir") or "").strip()
    if not text:
        return gdir
    common = Path(text)
    return common if common.is_absolute() else gdir / common


MAX_READ = 64 << 20


def _read_bytes(path: Path, limit: int = MAX_READ) -> bytes | None:
    """A regular file's bytes (at most ``limit``); None for anything else: a FIFO or device cannot block us."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):  # (ValueError: a NUL in the name)
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(limit)
    except OSError:
        return None
    finally:
        os.close(fd)


def _read(path: Path) -> str | None:
    data = _read_bytes(path)
    return None if data is None else data.decode("utf-8", errors="surrogateescape")


_REF_BAD = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//|/\.|\.lock(/|\Z)|^[./]|[/.]\Z|^@\Z")


def valid_ref(name: str) -> bool:
    """Whether ``name`` is a ref name git accepts (``git check-ref-format``: no control character, space, ``~^:?*[\\``,
    ``..``, ``@{``, empty component, component starting with a dot or ending in ``.lock``) and valid UTF-8 (a
    name read with undecodable bytes holds surrogates). Any other name is treated as absent."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return bool(name) and len(name) <= 4096 and _REF_BAD.search(name) is None


def _packed_refs(common: Path) -> tuple[dict[str, str], dict[str, str], bool]:
    """(ref -> sha, ref -> peeled sha, whether every tag is peeled) from packed-refs: with git's ``peeled`` trait
    in the header, a tag without a ``^`` line is not an annotated tag (nothing to open to find its commit)."""
    refs: dict[str, str] = {}
    peeled: dict[str, str] = {}
    last = None
    text = _read(common / "packed-refs") or ""
    header = text.split("\n", 1)[0]
    all_peeled = header.startswith("# pack-refs with:") and bool({"peeled", "fully-peeled"} & set(header.split()))
    for line in text.splitlines():
        if line.startswith("^") and last is not None and SHA.match(line[1:].strip()):
            peeled[last] = line[1:].strip()
        elif not line.startswith("#"):
            sha, _, name = line.partition(" ")
            name = name.strip()
            if SHA.match(sha) and name:  # (names are checked where used: valid_ref)
                refs[name] = sha
                last = name
            else:
                last = None
    return refs, peeled, all_peeled


def _resolve(gdir: Path, common: Path, ref: str, packed: dict[str, str], depth: int = 0) -> str | None:
    if depth > 5 or not (ref == "HEAD" or ref.startswith("refs/") and valid_ref(ref)):
        return None
    for base in (gdir, common):
        text = _read(base / ref)
        if text is not None:
            text = text.strip()
            if text.startswith("ref:"):
                return _resolve(gdir, common, text[4:].strip(), packed, depth + 1)
            return text if SHA.match(text) else None
    return packed.get(ref)


def _peel_loose(common: Path, sha: str) -> str | None:
    """The object a loose annotated tag points to; None when the object is not loose or not a tag."""
    data = _read_bytes(common / "objects" / sha[:2] / sha[2:], 1 << 20)
    try:
        raw = zlib.decompressobj().decompress(data, 4096) if data is not None else b""
    except zlib.error:
        return None
    if not raw.startswith(b"tag "):
        return None
    body = raw.split(b"\0", 1)[-1]
    if body.startswith(b"object "):
        target = body[7:].split(b"\n", 1)[0].decode("ascii", "replace")
        return target if SHA.match(target) else None
    return None


MAX_TAGS = 100_000  # loose tags listed, and packed tags considered beyond them
MAX_PEELS = 10_000  # tag objects opened to find the commit an annotated tag without a peeled line names


def head_and_tag(root: Path) -> tuple[str | None, str | None]:
    """The commit HEAD names and the tag exactly at it (an annotated one first, then by name), or Nones. A loose
    ref is read from its file; a name only in ``packed-refs`` is resolved from the parsed file (no open per
    tag). A name git would refuse (:func:`valid_ref`) is absent; at most MAX_TAGS loose and MAX_TAGS packed tags
    are considered, and at most MAX_PEELS tag objects opened."""
    gdir = git_dir(root)
    if gdir is None:
        return None, None
    common = _common_dir(gdir)
    packed, peeled, all_peeled = _packed_refs(common)
    commit = _resolve(gdir, common, "HEAD", packed)
    if commit is None:
        return None, None
    tags: set[tuple[bool, str]] = set()  # (lightweight, name): annotated tags first, as git describe does

    def found(lightweight: bool, name: str) -> None:
        if valid_ref(name):  # (packed names are checked here, for the few at HEAD only)
            tags.add((lightweight, name[len("refs/tags/"):]))
    loose: set[str] = set()
    for dirpath, _dirs, files in os.walk(common / "refs" / "tags", followlinks=False):
        for name in files:
            ref = (Path(dirpath) / name).relative_to(common).as_posix()
            if valid_ref(ref) and len(loose) < MAX_TAGS:
                loose.add(ref)
    candidates = [(name, _resolve(gdir, common, name, packed), False) for name in loose]
    candidates += [(name, sha, True) for name, sha in packed.items()
                   if name.startswith("refs/tags/") and name not in loose]
    peels = 0
    for name, sha, from_pack in candidates[:MAX_TAGS + len(loose)]:
        if sha is None:
            continue
        if sha == commit:
            found(True, name)
        elif from_pack and peeled.get(name) == commit:
            found(False, name)
        elif peels < MAX_PEELS and not (from_pack and (name in peeled or all_peeled)):
            peels += 1
            if _peel_loose(common, sha) == commit:
                found(False, name)
    return commit, (sorted(tags)[0][1] if tags else None)


def config_is_safe(gdir: Path) -> bool:
    """Whether every key of the repository's config (and of a worktree's config) is in SAFE_KEYS."""
    for path in (_common_dir(gdir) / "config", gdir / "config.worktree"):
        text = _read(path)
        if text is None:
            continue
        section = ""
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("["):
                m = re.match(r'\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]\s*(.*)\Z', line)
                if not m or m.group(2):
                    return False
                section = m.group(1).lower()
                has_sub = '"' in line
                parts = section.split(".", 1)
                section = f"{parts[0]}.*" if has_sub or len(parts) > 1 else parts[0]
                continue
            key = re.match(r"([A-Za-z][A-Za-z0-9-]*)\s*(=|\Z)", line)
            if not key or line.endswith("\\") or f"{section}.{key.group(1).lower()}" not in SAFE_KEYS:
                return False
    return True


def only_plain_files(gdir: Path) -> bool:
    """Whether every entry git may open of the git directory (and of its common directory) is a directory, a
    regular file or a link: git would block on a FIFO (packed-refs, commondir, a ref, ``objects/info/alternates``,
    a pack), so a git directory holding one is not handed to git. Loose objects (``objects/xx/``) are opened only
    by their hash, when needed: not listed here (the subprocess's timeout bounds them)."""
    for top in dict.fromkeys((os.path.realpath(gdir), os.path.realpath(_common_dir(gdir)))):
        for dirpath, dirnames, filenames in os.walk(top):
            for name in filenames:
                try:
                    mode = os.lstat(os.path.join(dirpath, name)).st_mode
                except OSError:
                    return False
                if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                    return False
            if dirpath == os.path.join(top, "objects"):
                dirnames[:] = [d for d in dirnames if d in ("info", "pack")]
    return True


def git_executable(root: Path) -> str | None:
    """git's absolute path, looked up in the absolute entries of PATH that do not lie inside ``root`` (an empty or
    relative entry would find the tree's own ``git``), or None."""
    entries = [entry for entry in os.environ.get("PATH", os.defpath).split(os.pathsep)
               if os.path.isabs(entry) and not _inside(Path(entry), root)]
    found = shutil.which("git", path=os.pathsep.join(entries)) if entries else None
    return found if found and os.path.isabs(found) and not _inside(Path(found), root) else None


GIT_TIMEOUT = 5  # seconds for git diff-index --cached (an object database read); over it the flag is unknown


def worktree_dirty(root: Path) -> bool | None:
    """Whether the checkout differs from its HEAD commit (tracked files only, submodules not looked into), or None
    when that cannot be known without running something the checkout configures.

    The work tree is compared with the index in Python (:mod:`.gitindex`: nothing git would run on the work tree,
    a clean filter of the repository or of a submodule included, can run). Only the index is compared with HEAD by
    git, ``git diff-index --cached``, which reads the object database and never a work tree file, so no filter,
    textconv, fsmonitor or hook is involved; and even that only when the repository's config holds nothing but
    :data:`SAFE_KEYS`, with system and global config off, no submodule recursion and no transport allowed."""
    gdir = git_dir(root)
    if gdir is None or not config_is_safe(gdir) or not only_plain_files(gdir):
        return None
    from .gitindex import index_differs
    sha256 = re.search(r"objectformat\s*=\s*sha256", (_read(_common_dir(gdir) / "config") or "").lower()) is not None
    worktree = index_differs(root, gdir, sha256)
    if worktree is None or worktree:
        return worktree
    git = git_executable(root)
    if git is None:
        return None
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update({"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0",
                "GIT_PAGER": "cat", "PAGER": "cat", "GIT_OPTIONAL_LOCKS": "0", "GIT_DIR": str(gdir),
                "GIT_WORK_TREE": str(root)})
    try:
        done = subprocess.run([git, *NEUTRAL, "diff-index", "--cached", "--quiet", "--no-ext-diff", "--no-textconv",
                               "--ignore-submodules=all", "HEAD", "--"], cwd=root, env=env, capture_output=True,
                              timeout=GIT_TIMEOUT, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    return {0: False, 1: True}.get(done.returncode)
