"""Release identity: specification.toml plus, when the root is a git checkout, its commit."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, error
from ..model import Release, SourceFile

RELEASE_STATUSES = ("release-candidate", "verified")


def parse_specification(file: SourceFile | None) -> tuple[dict[str, Any], list[Diagnostic]]:
    if file is None:
        return {}, []
    try:
        return tomllib.loads(file.text), []
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", 0) or 0
        col = getattr(exc, "colno", 0) or 0
        return {}, [error(file.path, line, col, "TOML-SYNTAX", f"specification.toml is not valid TOML: {exc}")]


def git_identity(root: Path) -> tuple[str | None, bool | None, str | None]:
    """(commit, dirty, exact tag) of a git checkout whose top level is the spec root; Nones otherwise.

    Nothing the checkout configures runs: see :mod:`pto_docs.sources.gitread`."""
    from .gitread import head_and_tag, worktree_dirty
    commit, tag = head_and_tag(root)
    if commit is None:
        return None, None, None
    return commit, worktree_dirty(root), tag


def release_identity(spec: dict[str, Any], root: Path) -> Release:
    release = spec.get("release") if isinstance(spec.get("release"), dict) else {}
    version = str(release.get("architecture_version", "") or "unversioned")
    commit, dirty, tag = git_identity(root)
    declared = release.get("release_status")
    if declared in RELEASE_STATUSES:
        status = declared
    else:
        # A release is verified only when the checkout is exactly the tagged release and clean.
        status = "verified" if tag in (f"v{version}", version) and dirty is False else "release-candidate"
    return Release(version, status, str(release.get("encoding_abi", "")), commit, dirty, tag)
