"""What a site built with ``--previous OLD`` says about its release's history: the comparison of the two releases
(diff.py) and, for each instruction the new release removed, where the new release names it (its ADRs, its
changelog: naming.py) and what replaces it where they say, so the page kept at the removed instruction's old
address can point there.

A pure function of two loaded catalogs and the new release's changelog text; the site reads the changelog
(site/history.py) and the pages only show this data (render/changes.py).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from ..model.catalog import Catalog, Unit
from .diff import InstructionChange, ReleaseDiff, Side, diff_analyses
from .naming import ReleaseNotes


@dataclass(frozen=True)
class RemovedInstruction:
    unit: Unit  # as the previous release had it (its page address comes from it)
    adrs: tuple[str, ...]  # ADRs of the new release whose text names the mnemonic
    changelog: tuple[str, ...]  # lines of the new release's changelog that name it
    replacements: tuple[str, ...] = ()  # instructions of the new release named with it (naming.py)


@dataclass(frozen=True)
class ReleaseHistory:
    diff: ReleaseDiff
    removed: tuple[RemovedInstruction, ...]
    key: str  # sha256 of everything here that reaches a page

    @property
    def previous(self) -> str:
        return self.diff.old.label

    @property
    def current(self) -> str:
        return self.diff.new.version

    def change_of(self, mnemonic: str | None) -> InstructionChange | None:
        return self.diff.change_of(mnemonic) if mnemonic else None


def release_history(old: Catalog, new: Catalog, changelog: str | None = None, label: str | None = None) -> ReleaseHistory:
    """The history a site of ``new`` shows, compared with ``old``. ``label``: how the previous release is named
    (default: its declared version)."""
    old_side = Side(label or old.release.version, old.release.version, old.release.commit)
    new_side = Side(new.release.version, new.release.version, new.release.commit)
    diff = diff_analyses(old, new, old_side=old_side, new_side=new_side)
    by_mnemonic = {u.mnemonic: u for u in sorted(old.instructions, key=lambda u: (u.surface != "block", u.id))
                   if u.mnemonic}
    notes = ReleaseNotes(new, changelog)
    removed = []
    for entry in diff.removed:
        unit = by_mnemonic.get(entry.mnemonic)
        if unit is None:
            continue
        named = notes.naming(entry.mnemonic, unit.id)
        removed.append(RemovedInstruction(unit, named.adrs, named.changelog, named.replacements))
    key = hashlib.sha256(json.dumps([diff.document(), [(r.unit.id, r.unit.path, r.adrs, r.changelog, r.replacements)
                                                       for r in removed]],
                                    sort_keys=True, default=repr).encode()).hexdigest()
    return ReleaseHistory(diff, tuple(removed), key)
