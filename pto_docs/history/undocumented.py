"""The gate's change check (``pto-docs trace --previous OLD``): every instruction removed since OLD and every
instruction whose encoding changed since OLD must be named by an ADR or by the changelog of the new release.

"Named": the mnemonic as a whole word (``B.EQ``, not ``B.EQZ``), or the unit id, in an ADR (its front matter
and body) or in ``CHANGELOG.md`` at the root of the new tree. Each that is not is a ``CHANGE-UNDOCUMENTED``
finding (trace/gate.py: a warning unless a policy says otherwise).
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

from ..model.frozen import thaw
from .aspects import BIT_ENCODING_KEYS
from .diff import ReleaseDiff

CODE = "CHANGE-UNDOCUMENTED"
CHANGELOG = "CHANGELOG.md"
MAX_CHANGELOG_BYTES = 16 << 20


def changelog_text(root: str | os.PathLike) -> str:
    """CHANGELOG.md of the tree at ``root``: a regular file (not a link) of at most 16 MiB, else ""."""
    path = Path(root) / CHANGELOG
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return ""
    with open(fd, "rb") as fh:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CHANGELOG_BYTES:
            return ""
        return fh.read().decode("utf-8", "replace")


def _named(text: str, *names: str) -> bool:
    return any(name and re.search(rf"(?<![\w.]){re.escape(name)}(?!\w|\.\w)", text) for name in names)


def encoding_changes(change) -> list[str]:
    """The fields of an instruction's encoded forms that changed (their JSON pointers)."""
    out = []
    for item in change.changes:
        parts = item.field.split("/")
        if item.aspect == "encoding" and len(parts) >= 3 and parts[1] == "catalog_records" and (
                len(parts) == 3 or parts[3] in BIT_ENCODING_KEYS):
            out.append(item.field)
    return out


def undocumented_changes(diff: ReleaseDiff, new_catalog, changelog: str = "") -> list[tuple]:
    """(code, id, path, message, line, col) of every removed instruction and changed encoding no ADR or changelog
    entry of ``new_catalog``'s release names."""
    texts = [json.dumps(thaw(a.front), ensure_ascii=False) + "\n" + a.body for a in new_catalog.adrs.values()]
    text = "\n".join([*texts, changelog])
    since = diff.old.label if diff.old.label == diff.old.version else f"{diff.old.label} ({diff.old.version})"
    out = []
    for entry in diff.removed:
        if not _named(text, entry.mnemonic, entry.unit):
            out.append((CODE, entry.mnemonic, entry.path,
                        f"{entry.mnemonic} was removed since {since} and no ADR or {CHANGELOG} entry of this release "
                        f"names it", 0, 0))
    for change in diff.changed:
        fields = encoding_changes(change)
        if fields and not _named(text, change.mnemonic, change.unit):
            unit = new_catalog.units.get(change.unit)
            out.append((CODE, change.mnemonic, change.new_path,
                        f"the encoding of {change.mnemonic} changed since {since} ({', '.join(fields)}) and no ADR or "
                        f"{CHANGELOG} entry of this release names it", unit.line if unit else 0, 1 if unit else 0))
    return out
