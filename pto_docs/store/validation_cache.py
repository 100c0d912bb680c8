"""Memoised schema checks: the problems of one record, keyed by what alone determines them.

The key is the sha256 of (the schema bundle digest: every ``pto_docs/schemas/*.json``; the record kind; the
record text, or for a record without text a typed canonical encoding of its parsed value). The value is the
list of schema problems with the offset of each in the record text, so the positioned diagnostics are
recomputed from the caller's line/column and are identical to an uncached check. Nothing is keyed by time or
path, so a stale entry cannot be found. The cache lives in this process (``mkdocs serve`` keeps it between
rebuilds); :func:`load_persistent`/:func:`save_persistent` keep it in a JSON file of a cache directory.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .memo import Memo

FORMAT = 1
_MEMO = Memo(__name__, "the schema problems of one record, by the digest of the record and the schemas")
stats = {"hits": 0, "misses": 0}
enabled = True


@cache
def bundle_digest() -> str:
    digest = hashlib.sha256(f"pto-docs schemas {FORMAT}\n".encode())
    for entry in sorted(resources.files("pto_docs.schemas").iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".json"):
            digest.update(entry.name.encode() + b"\0" + hashlib.sha256(entry.read_bytes()).digest())
    return digest.hexdigest()


def _typed(value: Any) -> Any:
    """A JSON encoding that keeps every type apart (a YAML date never equals a string)."""
    if value is None or isinstance(value, (bool, str)):
        return [type(value).__name__, value]
    if isinstance(value, (int, float)):
        return [type(value).__name__, repr(value)]
    if isinstance(value, dict) or hasattr(value, "items"):
        return ["dict", [[_typed(k), _typed(v)] for k, v in value.items()]]
    if isinstance(value, (list, tuple)):
        return ["list", [_typed(v) for v in value]]
    return [f"{type(value).__module__}.{type(value).__qualname__}", repr(value)]


def record_key(kind: str, text: str | None, data: Any) -> str:
    digest = hashlib.sha256(f"{bundle_digest()}\0{kind}\0".encode())
    if text is not None:
        digest.update(b"text\0" + text.encode("utf-8", "surrogatepass"))
    else:
        digest.update(b"data\0" + json.dumps(_typed(data), separators=(",", ":")).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def lookup(key: str):
    hit = _MEMO.get(key)
    if hit is None:
        stats["misses"] += 1
    else:
        stats["hits"] += 1
    return hit


def store(key: str, problems: list) -> None:
    _MEMO[key] = problems


def clear() -> None:
    _MEMO.clear()
    stats["hits"] = stats["misses"] = 0


def _file(directory: str | os.PathLike) -> Path:
    return Path(directory) / "schema-checks.json"


def load_persistent(directory: str | os.PathLike | None) -> None:
    """Merge the entries of ``directory``'s cache file (made with the same schema bundle, sealed with the user's
    key: store/seal.py); never an error."""
    from . import user_sealer
    sealer = user_sealer() if directory else None
    payload = sealer.load(_file(directory)) if sealer is not None else None
    if payload is None:
        return
    try:
        data = json.loads(payload)
    except ValueError:
        return
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("bundle") != bundle_digest():
        return
    for key, problems in data.get("entries", {}).items():
        _MEMO.setdefault(key, [(c, m, p, tuple(path), off) for c, m, p, path, off in problems])


def save_persistent(directory: str | os.PathLike | None) -> None:
    from . import user_sealer
    sealer = user_sealer() if directory else None
    if sealer is None:
        return
    sealer.save(_file(directory), json.dumps({"format": FORMAT, "bundle": bundle_digest(),
                                              "entries": {k: [list(p) for p in v] for k, v in _MEMO.items()}},
                                             separators=(",", ":")).encode("utf-8"))
