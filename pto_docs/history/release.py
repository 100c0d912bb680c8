"""Load one release for a comparison: a spec tree directory, or a git revision of the checkout around ``cwd``."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..analysis.load import LoadResult, load_catalog
from ..model.diagnostics import Diagnostic, SpecRootError
from ..sources.gitrev import RevisionError, find_checkout, read_revision
from .diff import Side


class ReleaseProblem(Exception):
    """A release that cannot be loaded (no such tree or revision, a refused .git); the message is one line."""


@dataclass(frozen=True)
class LoadedRelease:
    side: Side
    result: LoadResult
    diagnostics: tuple[Diagnostic, ...]  # the loader's, and for a revision those of reading it from git

    @property
    def catalog(self):
        return self.result.catalog


def load_release(spec: str, cwd: str | os.PathLike | None = None) -> LoadedRelease:
    """``spec`` is a directory (relative to ``cwd``) holding a spec tree, else a revision (tag, branch, sha,
    HEAD) of the git checkout ``cwd`` lies in, read from its ``.git`` without running git (sources.gitrev).
    Raises ReleaseProblem with the one line to show."""
    base = Path(cwd if cwd is not None else os.getcwd())
    path = base / spec
    if spec and path.is_dir():
        result = _load(path, spec)
        return LoadedRelease(Side(spec, result.catalog.release.version), result, result.diagnostics)
    checkout = find_checkout(base)
    if checkout is None:
        raise ReleaseProblem(f"{spec}: error[IO-ROOT]: neither a spec tree directory nor a git revision "
                             f"(no git checkout at {base})")
    with tempfile.TemporaryDirectory(prefix="pto-docs-rev-") as tmp:
        try:
            read = read_revision(checkout, spec, tmp)
        except RevisionError as exc:
            raise ReleaseProblem(str(exc)) from None
        except OSError as exc:
            raise ReleaseProblem(f"{spec}: error[IO-READ]: cannot write the revision's files: "
                                 f"{exc.strerror or exc}") from None
        result = _load(Path(tmp), spec)
    side = Side(spec, result.catalog.release.version, read.commit)
    return LoadedRelease(side, result, tuple(read.diagnostics) + result.diagnostics)


def _load(path: Path, spec: str) -> LoadResult:
    try:
        return load_catalog(path)
    except SpecRootError as exc:
        raise ReleaseProblem(f"{spec}: error[IO-ROOT]: {exc}") from None
    except OSError as exc:
        raise ReleaseProblem(f"{spec}: error[IO-ROOT]: cannot read spec root: {exc.strerror or exc}") from None
