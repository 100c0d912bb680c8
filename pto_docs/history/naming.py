"""Where a release names an instruction: its ADRs (front matter and body) and its changelog (``CHANGELOG.md`` at
the root of its tree). The one rule both the gate's CHANGE-UNDOCUMENTED check (undocumented.py) and the pages
of removed instructions (notes.py) use.

"Named": the mnemonic, or the unit id, as a whole word (``B.EQ`` is not named by ``B.EQZ``, ``XB.EQ`` nor
``B.EQ.W``). A sentence or changelog line that names a removed instruction and also names instructions the new
release, and says that something replaces it ("replaced by", "superseded", "instead", "renamed", "successor",
"merged into", "moved to", "became"; 替代, 取代, 改用, 改为), tells what replaces it (``replacements``): a sentence
that only lists the removed instruction with others ("B.TEXT, MPAR/MSEQ and long BSTART forms are not active")
does not.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..model.frozen import thaw

CHANGELOG = "CHANGELOG.md"
MAX_CHANGELOG_BYTES = 16 << 20  # a larger changelog is not read (as if there were none)
MAX_LINE = 400  # characters of a naming line kept
MAX_LINES = 5  # naming lines kept per instruction
_WORD = re.compile(r"(?<![\w.])\w[\w.]*(?<!\.)")  # a candidate name: word characters and inner dots
_REPLACES = re.compile(r"(?i)\b(?:replac\w*|supersed\w*|instead|renam\w*|successors?|merged\s+into|moved\s+to|"
                       r"bec(?:ome|omes|ame))\b|替代|取代|改用|改为")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n\s*\n|\n\s*[-*]\s+")  # sentence, paragraph and list-item breaks


def names(text: str, *candidates: str) -> bool:
    """Whether ``text`` names one of ``candidates`` (a mnemonic, a unit id) as a whole word."""
    return any(re.search(rf"(?<![\w.]){re.escape(name)}(?!\w|\.\w)", text) for name in candidates if name)


def changelog_text(root: str | os.PathLike) -> str:
    """CHANGELOG.md of the tree at ``root``: a regular file (not a link) of at most 16 MiB, else ""."""
    from ..store.atomic import read_no_follow
    path = Path(root) / CHANGELOG
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_CHANGELOG_BYTES:
            return ""
        data = read_no_follow(path)
    except OSError:
        return ""
    return "" if len(data) > MAX_CHANGELOG_BYTES else data.decode("utf-8", "replace")


@dataclass(frozen=True)
class Naming:
    adrs: tuple[str, ...]  # ids of the ADRs that name it
    changelog: tuple[str, ...]  # the changelog lines that name it (at most MAX_LINES, each at most MAX_LINE long)
    replacements: tuple[str, ...]  # instructions of the release named in the same sentence or line, sorted

    def __bool__(self) -> bool:
        return bool(self.adrs or self.changelog)


class ReleaseNotes:
    """The ADRs and changelog of one release, read once, asked for each instruction."""

    def __init__(self, catalog, changelog: str | None = None):
        self.adrs = {a.id: (json.dumps(thaw(a.front), ensure_ascii=False), a.body) for a in catalog.adrs.values()}
        self.lines = [line.strip() for line in (changelog or "").splitlines() if line.strip()]
        self.mnemonics = frozenset(u.mnemonic for u in catalog.instructions if u.mnemonic)
        self._breaks: dict[str, list[tuple[int, int]]] = {}  # ADR id -> its sentence breaks (start, end)

    def named(self, *candidates: str) -> bool:
        """Whether an ADR or a changelog line names one of ``candidates``."""
        return any(names(body, *candidates) or names(front, *candidates) for front, body in self.adrs.values()) or \
            any(names(line, *candidates) for line in self.lines)

    def naming(self, *candidates: str) -> Naming:
        """Which ADRs and changelog lines name one of ``candidates``, and the replacements they name."""
        adrs = tuple(sorted(i for i, (front, body) in self.adrs.items()
                            if names(body, *candidates) or names(front, *candidates)))
        lines = [line for line in self.lines if names(line, *candidates)]
        replacements: set[str] = set()
        for i in adrs:
            for sentence in self._sentences_naming(i, candidates):
                replacements |= self._others(sentence, candidates)
        for line in lines:
            replacements |= self._others(line, candidates)
        return Naming(adrs, tuple(line[:MAX_LINE] for line in lines[:MAX_LINES]), tuple(sorted(replacements)))

    def _sentences_naming(self, adr: str, candidates: tuple[str, ...]) -> list[str]:
        """The sentences of an ADR's body that name one of ``candidates``: found where each naming occurs, so
        the cost follows the body's length once, not its number of sentences times the candidates."""
        body = self.adrs[adr][1]
        breaks = self._breaks.get(adr)
        if breaks is None:
            breaks = self._breaks[adr] = [(m.start(), m.end()) for m in _SENTENCE.finditer(body)]
        starts = [b[0] for b in breaks]
        out: dict[int, str] = {}
        for name in candidates:
            for m in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w|\.\w)", body) if name else ():
                k = bisect.bisect_right(starts, m.start())  # breaks[k-1] is the last break starting before it
                begin = breaks[k - 1][1] if k else 0
                end = breaks[k][0] if k < len(breaks) else len(body)
                out.setdefault(begin, body[begin:end])
        return [out[k] for k in sorted(out)]

    def _others(self, text: str, candidates: tuple[str, ...]) -> set[str]:
        """The instructions of this release ``text`` says replace ``candidates`` (none if it says nothing
        replaces them); the words of a candidate's own name (``BSTART CALL``) are not others."""
        if not _REPLACES.search(text):
            return set()
        for name in candidates:
            text = re.sub(rf"(?<![\w.]){re.escape(name)}(?!\w|\.\w)", " ", text)
        return {w for w in _WORD.findall(text) if w in self.mnemonics and w not in candidates}
