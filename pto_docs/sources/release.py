"""Release identity: specification.toml plus, when the root is a git checkout, its commit."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from ..model.catalog import Release, SourceFile
from ..model.diagnostics import Diagnostic, error

RELEASE_STATUSES = ("release-candidate", "verified")


SPEC = "specification.toml"
# [release] keys pto-docs reads, each a string when present
RELEASE_STRINGS = ("architecture_version", "encoding_abi", "manifest", "release_status")
_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def parse_specification(file: SourceFile | None, present: bool = True) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The parsed specification.toml and its diagnostics. ``present``: whether the tree has one (file is None
    then means it could not be read, which the tree reports)."""
    if file is None:
        return {}, ([] if present else [error(SPEC, 0, 0, "SPEC-TOML", "the spec root has no specification.toml")])
    if file.text.startswith("\ufeff"):
        return {}, [error(file.path, 1, 1, "SPEC-TOML", "specification.toml starts with a byte-order mark (TOML "
                                                         "files are plain UTF-8; remove the mark)")]
    try:
        spec = tomllib.loads(file.text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        m = _AT.search(message)
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        message = message[:m.start()] if m else message
        return {}, [error(file.path, line, col, "TOML-SYNTAX", f"specification.toml is not valid TOML: {message}")]
    except RecursionError:
        return {}, [error(file.path, 1, 1, "TOML-SYNTAX", "specification.toml is not valid TOML: it nests too deeply")]
    return spec, _type_problems(file, spec)


def _type_problems(file: SourceFile, spec: dict[str, Any]) -> list[Diagnostic]:
    release = spec.get("release")
    if release is None:
        return [error(file.path, 1, 1, "SPEC-TOML", "specification.toml has no [release] table", "/release")]
    if not isinstance(release, dict):
        return [error(file.path, _line_of(file.text, "release"), 1, "SPEC-TOML",
                      f"release must be a table, not {_toml_type(release)}", "/release")]
    out = []
    for key in RELEASE_STRINGS:
        if key in release and not isinstance(release[key], str):
            out.append(error(file.path, _line_of(file.text, key), 1, "SPEC-TOML",
                             f"release.{key} must be a string, not {_toml_type(release[key])}", f"/release/{key}"))
    if isinstance(release.get("release_status"), str) and release["release_status"] not in RELEASE_STATUSES:
        out.append(error(file.path, _line_of(file.text, "release_status"), 1, "SPEC-TOML",
                         f"release.release_status must be one of {', '.join(RELEASE_STATUSES)}", "/release/release_status"))
    return out


def _line_of(text: str, key: str) -> int:
    m = re.search(rf"^[ \t]*{re.escape(key)}[ \t]*=", text, re.M)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def _toml_type(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)


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
