"""Publishing a versioned site (versions.py): the first time (or over a site this user's cache has no record of)
the whole site is put together in a staging directory and swapped into place; after that only what changed is
replaced, one directory at a time (each swapped in whole: output.publish).

Each *part* of the site is one language's directory of one release (``<version>/``, ``zh-CN/<version>/``) or of
the ``latest`` alias. The record (sealed with the user's key, in ``<user cache>/versions/published/``, one per
site directory) keeps, for each part, the fingerprint of what it was made from (the release's kept build: path,
size, modification time and inode of every file) and of what was published (the same of the part's directory).
A part whose source and published fingerprints both match is left alone: adding a release to a site of many
writes only the new release, its alias and the version lists, and removes nothing but the alias it replaces.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from ..store.atomic import atomic_write
from ..store.output_guard import write_site_marker
from . import output
from .uptodate import fingerprint

FORMAT = 1


def _record_path(out: Path) -> Path:
    from ..store import user_cache_root
    name = hashlib.sha256(str(out).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return user_cache_root() / "versions" / "published" / f"{name}.json"


def _load_record(out: Path) -> dict | None:
    from ..store import user_sealer
    sealer = user_sealer()
    payload = sealer.load(_record_path(out)) if sealer is not None else None
    try:
        record = json.loads(payload) if payload is not None else None
    except ValueError:
        return None
    ok = isinstance(record, dict) and record.get("format") == FORMAT and isinstance(record.get("parts"), dict)
    return record if ok else None


def _save_record(out: Path, parts: dict) -> None:
    from ..store import user_sealer
    sealer = user_sealer()
    if sealer is None:
        return
    path = _record_path(out)
    os.makedirs(path.parent, exist_ok=True)
    sealer.save(path, json.dumps({"format": FORMAT, "parts": parts}, sort_keys=True).encode("utf-8"))


def publish(site_dir: str, plan: list[dict], files: dict[str, bytes], link_tree, redirects) -> str:
    """Publish ``plan`` (parts: ``{"key", "source", "skip"}``: a release's language directory made from the
    ``source`` directory without its top-level names ``skip``; or an alias, with ``alias_of`` (the key of the
    part it redirects to, earlier in the plan) and ``version``) and ``files`` (relative path -> bytes: the version lists, the
    redirecting index pages). Returns "whole" or "incremental"."""
    out = Path(os.path.abspath(site_dir))
    record = _load_record(out) if out.is_dir() else None
    parts: dict[str, dict] = {}
    if record is None:  # first publication (or no record of this site): the whole site, swapped in at once
        staging = Path(output.staging_dir(str(out)))
        try:
            for part in plan:
                parts[part["key"]] = _make(part, staging / part["key"], parts, link_tree, redirects)
            for rel, data in files.items():
                (staging / rel).write_bytes(data)
            write_site_marker(staging)
            output.publish(str(staging), str(out))
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        for part in plan:  # (renamed with the whole: inodes and times are unchanged)
            parts[part["key"]]["published"] = fingerprint(out / part["key"])
        _save_record(out, parts)
        return "whole"
    old = record["parts"]
    for part in plan:
        target = out / part["key"]
        source = _source_print(part, parts)
        was = old.get(part["key"])
        if was is not None and was.get("source") == source and was.get("published") == fingerprint(target):
            parts[part["key"]] = was
            continue
        os.makedirs(target.parent, exist_ok=True)
        output.remove_stale(str(target))  # (left by a run that was stopped)
        staging = Path(output.staging_dir(str(target)))
        try:
            parts[part["key"]] = _make(part, staging, parts, link_tree, redirects)
            output.publish(str(staging), str(target))
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        parts[part["key"]]["published"] = fingerprint(target)
    for key in sorted(old.keys() - parts.keys()):  # a release no longer listed: the directory pto-docs wrote
        target = out / key
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target, ignore_errors=True)
    for rel, data in files.items():
        atomic_write(out / rel, data, durable=False)
    _save_record(out, parts)
    return "incremental"


def _source_print(part: dict, parts: dict) -> str | None:
    if "alias_of" in part:  # an alias is made from the release part it redirects to
        return f"{part['version']}:{parts[part['alias_of']]['source']}"
    return fingerprint(Path(part["source"]), frozenset(part["skip"]))


def _make(part: dict, target: Path, parts: dict, link_tree, redirects) -> dict:
    if "alias_of" in part:
        redirects(Path(part["source"]), target, part["version"], skip=set(part["skip"]))
    else:
        link_tree(Path(part["source"]), target, skip=set(part["skip"]))
    return {"source": _source_print(part, parts)}
