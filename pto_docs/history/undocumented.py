"""The gate's change check (``pto-docs trace --previous OLD``): every instruction removed since OLD and every
instruction whose encoding changed since OLD must be named by an ADR or by the changelog of the new release.

"Named": the rule of naming.py (the mnemonic or the unit id as a whole word, in an ADR's front matter or body or
a line of ``CHANGELOG.md`` at the root of the new tree), the one the pages of removed instructions use. Each
that is not is a ``CHANGE-UNDOCUMENTED`` finding (trace/gate.py: a warning unless a policy says otherwise).
"""

from __future__ import annotations

from .aspects import BIT_ENCODING_KEYS
from .diff import ReleaseDiff
from .naming import CHANGELOG, ReleaseNotes, changelog_text

CODE = "CHANGE-UNDOCUMENTED"
__all__ = ["CODE", "changelog_text", "encoding_changes", "undocumented_changes"]


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
    notes = ReleaseNotes(new_catalog, changelog)
    since = diff.old.label if diff.old.label == diff.old.version else f"{diff.old.label} ({diff.old.version})"
    out = []
    for entry in diff.removed:
        if not notes.named(entry.mnemonic, entry.unit):
            out.append((CODE, entry.mnemonic, entry.path,
                        f"{entry.mnemonic} was removed since {since} and no ADR or {CHANGELOG} entry of this release "
                        f"names it", 0, 0))
    for change in diff.changed:
        fields = encoding_changes(change)
        if fields and not notes.named(change.mnemonic, change.unit):
            unit = new_catalog.units.get(change.unit)
            out.append((CODE, change.mnemonic, change.new_path,
                        f"the encoding of {change.mnemonic} changed since {since} ({', '.join(fields)}) and no ADR or "
                        f"{CHANGELOG} entry of this release names it", unit.line if unit else 0, 1 if unit else 0))
    return out
