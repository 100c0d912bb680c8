"""Where pto-docs may write: never over, into or around the spec tree, never over what it did not write.

Every writer checks its target here first and turns :class:`OutputRefused` into one ``error[...]`` line and
exit 2. A report file may replace a regular file (atomically, :func:`pto_docs.store.atomic.atomic_write`), never a
directory, a device, a FIFO or a socket. A site directory may be new, empty, or a previous site (it carries
:data:`SITE_MARKER`, or MkDocs' ``sitemap.xml`` / ``404.html``); anything else is refused unless forced, because
building a site replaces what is in its directory.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ..model.diagnostics import printable
from ..model.layout import PARSED_AREAS, ROOT_FILES, unsafe_path_reason
from .atomic import atomic_write

SITE_MARKER = ".pto-docs-site"
SITE_SIGNS = (SITE_MARKER, "sitemap.xml", "404.html")


class OutputRefused(Exception):
    """An output path pto-docs will not write (exit 2). ``code`` is OUTPUT-REFUSED or IO-WRITE."""

    def __init__(self, path: str, message: str, code: str = "OUTPUT-REFUSED"):
        super().__init__(message)
        self.path = path
        self.code = code
        self.message = message

    def format(self) -> str:
        return f"{printable(self.path)}: error[{self.code}]: {self.message}"


def _resolved(path: str | os.PathLike[str]) -> Path:
    try:
        return Path(os.path.realpath(os.path.abspath(path)))
    except (OSError, ValueError) as exc:
        raise OutputRefused(str(path), f"cannot resolve the path: {exc}", "IO-WRITE") from None


def _overlap(target: Path, root: Path) -> str | None:
    if target == root:
        return "is the spec root"
    if root in target.parents:
        return "lies inside the spec root"
    if target in root.parents:
        return "contains the spec root"
    return None


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None
    except OSError as exc:
        raise OutputRefused(str(path), f"cannot inspect the path: {exc.strerror or exc}", "IO-WRITE") from None


def _existing_ancestor(path: Path, shown: str) -> Path:
    """The nearest existing ancestor of ``path``; it must be a directory."""
    for parent in path.parents:
        st = _stat(parent)
        if st is None:
            continue
        if not stat.S_ISDIR(st.st_mode):
            raise OutputRefused(shown, f"cannot be created: {parent} is not a directory", "IO-WRITE")
        return parent
    return Path("/")


def check_output_file(path: str | os.PathLike[str], spec_root: str | os.PathLike[str] | None) -> Path:
    """The resolved target of a report file, or OutputRefused. ``-`` (standard output) is not a path: don't ask."""
    shown = str(path)
    target = _resolved(path)
    if spec_root is not None:
        reason = _overlap(target, _resolved(spec_root))
        if reason:
            raise OutputRefused(shown, f"refusing to write a report that {reason}; write it outside the spec tree")
        refuse_links_in_tree(path, spec_root)
    st = _stat(target)
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "a special file (device, FIFO or socket)"
        raise OutputRefused(shown, f"refusing to replace {kind} with a report")
    parent = target.parent
    pst = _stat(parent)
    if pst is None:
        _existing_ancestor(parent, shown)
        raise OutputRefused(shown, f"directory {printable(str(parent))} does not exist", "IO-WRITE")
    if not stat.S_ISDIR(pst.st_mode):
        raise OutputRefused(shown, f"{printable(str(parent))} is not a directory", "IO-WRITE")
    return target


def check_cache_dir(cache_dir: str | os.PathLike[str], spec_root: str | os.PathLike[str] | None) -> Path:
    """A page cache directory may be anywhere but over, in or around the spec tree."""
    target = _resolved(cache_dir)
    if spec_root is not None:
        reason = _overlap(target, _resolved(spec_root))
        if reason:
            raise OutputRefused(str(cache_dir), f"refusing to keep the page cache in a directory that {reason}")
    st = _stat(target)
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise OutputRefused(str(cache_dir), "exists and is not a directory; refusing to use it as the page cache")
    return target


def looks_like_site(directory: Path) -> bool:
    try:
        entries = os.listdir(directory)
    except OSError as exc:
        raise OutputRefused(str(directory), f"cannot read the site directory: {exc.strerror or exc}", "IO-WRITE") from None
    return not entries or any(sign in entries for sign in SITE_SIGNS)


def _own_site_in_root(target: Path, root: Path) -> bool:
    """A site directory inside the spec root is allowed only as MkDocs' usual ``<root>/site``-like layout: a
    direct child of the root that no spec source area uses and that is absent, empty or a previous site."""
    taken = {area.split("/", 1)[0] for area, _suffixes, _recursive in PARSED_AREAS} | set(ROOT_FILES) | {"scripts"}
    if target.parent != root or target.name in taken or target.name.startswith("."):
        return False
    st = _stat(target)
    return st is None or (stat.S_ISDIR(st.st_mode) and looks_like_site(target))


def check_site_dir(site_dir: str | os.PathLike[str], spec_root: str | os.PathLike[str] | None,
                   force: bool = False, create: bool = True) -> Path:
    """The resolved site directory, created and shown writable, or OutputRefused."""
    shown = str(site_dir)
    target = _resolved(site_dir)
    if spec_root is not None:
        root = _resolved(spec_root)
        reason = _overlap(target, root)
        if reason and not (reason == "lies inside the spec root" and _own_site_in_root(target, root)):
            raise OutputRefused(shown, f"refusing to build a site into a directory that {reason}"
                                + (" (only a new or previous site directory right below the root, such as site/, "
                                   "may lie inside it)" if reason == "lies inside the spec root" else ""))
        refuse_links_in_tree(site_dir, spec_root)
    st = _stat(target)
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise OutputRefused(shown, "exists and is not a directory; refusing to replace it with a site")
    if st is not None and not force and not looks_like_site(target):
        raise OutputRefused(shown, f"is not empty and does not look like a site pto-docs or MkDocs built (no "
                                   f"{SITE_MARKER}, sitemap.xml or 404.html); refusing to replace its contents "
                                   "(give --force to do so)")
    if st is None:
        _existing_ancestor(target, shown)
        if create:
            try:
                os.makedirs(target, exist_ok=True)
            except OSError as exc:
                raise OutputRefused(shown, f"cannot create the site directory: {exc.strerror or exc}", "IO-WRITE") from None
    if create:
        probe = target / f".pto-docs-probe-{os.getpid()}"
        try:
            with open(probe, "wb"):
                pass
            os.unlink(probe)
        except OSError as exc:
            raise OutputRefused(shown, f"cannot write into the site directory: {exc.strerror or exc}", "IO-WRITE") from None
    return target


def write_site_marker(site_dir: str | os.PathLike[str]) -> None:
    """Mark a finished site as pto-docs' own, so the next build may replace it."""
    atomic_write(Path(site_dir) / SITE_MARKER, b"This directory is a site built by pto-docs; it may be rebuilt.\n")


def refuse_build_outputs(err, site_dir, spec_root, cache_dir=None, force: bool = False, create: bool = True) -> bool:
    """Check a build's page cache and site directory; print the refusal (one line) and answer True if refused.
    ``create=False``: only what can be told before MkDocs reads its config (paths, no directory made)."""
    if not site_dir or (spec_root is None and not create):
        return False
    try:
        if cache_dir:
            check_cache_dir(cache_dir, spec_root)
        check_site_dir(site_dir, spec_root, force=force or not create, create=create)
    except OutputRefused as exc:
        err.write(exc.format() + "\n")
        return True
    return False


def write_error(err, exc: OSError, where: str) -> int:
    """An OSError while writing outputs (full disk, read-only file system) as one IO-WRITE line; exit code 2."""
    err.write(f"{printable(exc.filename or where)}: error[IO-WRITE]: cannot write the site: {exc.strerror or exc}\n")
    return 2


# -- writes that never follow a symbolic link pto-docs did not create ----------------------------------------------

def _first_link(root: Path, rel_parts: tuple[str, ...]) -> str | None:
    """The first of ``root/a``, ``root/a/b``, … (relative, '/'-joined) that is a symbolic link, or None."""
    prefix = root
    for i, part in enumerate(rel_parts):
        prefix = prefix / part
        try:
            if stat.S_ISLNK(os.lstat(prefix).st_mode):
                return "/".join(rel_parts[: i + 1])
        except OSError:
            return None  # (the rest does not exist yet: nothing to follow)
    return None


def refuse_links_in_tree(path: str | os.PathLike[str], spec_root: str | os.PathLike[str] | None) -> None:
    """OutputRefused when ``path``, as written, lies inside the spec root and reaches its target through a
    symbolic link there: a link a tree's author planted (``site -> ../../home``) must not choose where we write."""
    if spec_root is None:
        return
    literal = Path(os.path.abspath(path))
    for root in dict.fromkeys((Path(os.path.abspath(spec_root)), _resolved(spec_root))):
        if root == literal or root not in literal.parents:
            continue
        link = _first_link(root, literal.relative_to(root).parts)
        if link is not None:
            raise OutputRefused(str(path), f"goes through the symbolic link {printable(link)} inside the spec tree; "
                                           "refusing to write through a link pto-docs did not create")


def write_in_tree(root: str | os.PathLike[str], rel: str, data: bytes, *, exclusive: bool = False) -> Path:
    """Write ``data`` to ``root/rel`` (a file pto-docs derives inside the spec tree) atomically, without following
    any symbolic link: each directory from the root down is opened with O_NOFOLLOW (created when missing), the
    bytes go to a new temporary file there and are renamed over the target (``exclusive``: linked, so an existing
    file is never replaced: FileExistsError). OutputRefused for an unsafe ``rel`` or a link on the way or at the
    target, OSError for a failed write (nothing left behind)."""
    import secrets

    shown = os.path.join(str(root), rel)
    reason = unsafe_path_reason(rel)
    if reason or rel.endswith("/"):
        raise OutputRefused(shown, f"refusing to write a derived file: {reason or 'not a file name'}")
    parts = rel.split("/")
    nofollow = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(_resolved(root), nofollow)
    try:
        for i, name in enumerate(parts[:-1]):
            try:
                next_fd = os.open(name, nofollow, dir_fd=fd)
            except FileNotFoundError:
                os.mkdir(name, 0o755, dir_fd=fd)
                next_fd = os.open(name, nofollow, dir_fd=fd)
            except OSError as exc:
                if os.path.islink(os.path.join(str(root), *parts[: i + 1])):
                    raise OutputRefused(shown, f"goes through the symbolic link {printable('/'.join(parts[: i + 1]))}; "
                                               "refusing to write through a link pto-docs did not create") from None
                raise exc
            os.close(fd)
            fd = next_fd
        name = parts[-1]
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise OutputRefused(shown, "is a symbolic link; refusing to write through a link pto-docs did not create")
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise OutputRefused(shown, "exists and is not a regular file; refusing to replace it")
        if st is not None and exclusive:
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), shown)
        temp = f".{name}.{secrets.token_hex(6)}.tmp"
        tfd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644, dir_fd=fd)
        try:
            with os.fdopen(tfd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            if exclusive:
                try:
                    os.link(temp, name, src_dir_fd=fd, dst_dir_fd=fd, follow_symlinks=False)
                except OSError as exc:
                    if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                        raise
                    _write_exclusive(fd, name, data)  # a file system without hard links
                os.unlink(temp, dir_fd=fd)
            else:
                os.replace(temp, name, src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            try:
                os.unlink(temp, dir_fd=fd)
            except OSError:
                pass
            raise
        return Path(shown)
    finally:
        os.close(fd)


def _write_exclusive(dir_fd: int, name: str, data: bytes) -> None:
    """Create ``name`` in ``dir_fd`` (never an existing file, never through a link) and write ``data``."""
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644, dir_fd=dir_fd)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except BaseException:
        os.unlink(name, dir_fd=dir_fd)
        raise
