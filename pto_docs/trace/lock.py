"""The review lock (``pto-docs.review-lock.v1``): the reviewed hash of both ends of every link.

It lives in the spec tree as ``pto-docs.review-lock.json``, written as sorted, indent-2 JSON so a
review shows as a readable diff. ``pto-docs trace --stamp`` writes it; ``--check`` compares with it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model.layout import LOCK_NAME
from ..sources.review_lock import LockIsALink, lock_bytes

LOCK_SCHEMA = "pto-docs.review-lock.v1"
ITEM_KINDS = ("units", "requirements", "tests", "adrs", "translations")


class LockError(Exception):
    """The lock file exists but cannot be used (not JSON, wrong schema)."""


@dataclass(frozen=True)
class ReviewLock:
    items: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    links: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    sha256: str | None = None  # of the lock file's bytes
    recorders: tuple[str, ...] = ()  # release-evidence files present when it was stamped

    def item(self, kind: str, ident: str) -> Mapping[str, Any] | None:
        return self.items.get(kind, {}).get(ident)

    def item_sha(self, kind: str, ident: str) -> str | None:
        entry = self.item(kind, ident)
        return entry.get("sha256") if entry else None


def lock_path(root: str | os.PathLike[str]) -> Path:
    return Path(root) / LOCK_NAME


def read_lock(root: str | os.PathLike[str]) -> ReviewLock | None:
    """The tree's review lock (its bytes read by sources/review_lock.py), None when there is none. Raises LockError
    (bad content, a link) or OSError (I/O)."""
    try:
        data = lock_bytes(root)
    except LockIsALink as exc:
        raise LockError(str(exc)) from None
    return None if data is None else parse_lock(data)


def parse_lock(data: bytes) -> ReviewLock:
    """A review lock from the bytes of its file. Raises LockError (not UTF-8 JSON, not a valid lock)."""
    try:
        from ..schemas.strict_parse import loads_json
        doc = loads_json(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LockError(f"not valid UTF-8 JSON: {exc}") from None
    except RecursionError:
        raise LockError("not a review lock: the JSON nests too deeply") from None
    problems = validate_lock(doc)
    if problems:
        raise LockError(problems[0])
    import hashlib
    return ReviewLock(doc["items"], doc["links"], hashlib.sha256(data).hexdigest(), tuple(doc.get("recorders", ())))


def validate_lock(doc: Any) -> list[str]:
    from ..schemas.registry import validator
    try:
        errors = sorted(validator("review-lock").iter_errors(doc), key=lambda e: list(e.absolute_path))
    except RecursionError:
        return ["lock nests too deeply"]
    out = []
    for err in errors:
        pointer = "/" + "/".join(str(p) for p in err.absolute_path)
        out.append(f"{err.message} (at {pointer})")
    return out


def lock_text(doc: Mapping[str, Any]) -> str:
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
