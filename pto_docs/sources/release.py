"""Release identity: specification.toml plus, when the root is a git checkout, its commit."""

from __future__ import annotations

import subprocess
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


def _git(root: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def git_identity(root: Path) -> tuple[str | None, bool | None, str | None]:
    """(commit, dirty, exact tag) of a git checkout whose top level is the spec root; Nones otherwise."""
    top = _git(root, "rev-parse", "--show-toplevel")
    if not top or Path(top).resolve() != root.resolve():
        return None, None, None
    commit = _git(root, "rev-parse", "HEAD")
    status = _git(root, "status", "--porcelain", "--untracked-files=no")
    tag = _git(root, "describe", "--tags", "--exact-match", "HEAD")
    return commit, (bool(status) if status is not None else None), tag or None


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
