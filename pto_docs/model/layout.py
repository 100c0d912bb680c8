"""The layout of a spec tree in the pto-spec shape: where the sources the loader parses live, and which paths
written inside a record may be used (they must stay inside the spec root)."""

from __future__ import annotations

# (directory, suffixes, recursive) of everything the loader parses.
PARSED_AREAS: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("asl", (".asl",), True),
    ("tests/asl", (".asl",), True),
    ("docs/status/decisions", (".md",), False),
    ("spec", (".json",), True),
    ("translations", (".json",), True),
    ("examples", (".json", ".yaml", ".yml"), True),
)
ROOT_FILES = ("specification.toml",)
LOCK_NAME = "pto-docs.review-lock.json"  # the review lock pto-docs trace --stamp writes at the root


def unsafe_path_reason(rel: str) -> str | None:
    """Why a path written inside a record may not be used, or None if it stays inside the spec root."""
    if not isinstance(rel, str) or not rel:
        return "empty path"
    if "\\" in rel or "\x00" in rel:
        return "path contains a backslash or NUL"
    if rel.startswith("/") or (len(rel) > 1 and rel[1] == ":"):
        return "absolute path"
    if ".." in rel.split("/"):  # (PurePosixPath(rel).parts, without building a path: this runs per recorded path)
        return "path climbs out of the spec root with '..'"
    return None
