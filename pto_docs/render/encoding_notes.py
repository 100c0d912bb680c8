"""The encoding module's English notes and item values as label keys + values, so every sentence pto-docs
generates about an encoding is localized (an unrecognised note stays English, marked ``lang="en"``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_NOTES: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(r"(?P<m>\S+) is carried by (?P<c>\S+) and written (?P<e>\S+); (?P=m) fixes (?P<pairs>.+?) "
                r"\(selector (?P<sel>\S+)\)\.\Z"), "carried_written_fixes_selector"),
    (re.compile(r"(?P<m>\S+) is carried by (?P<c>\S+) and written (?P<e>\S+); (?P=m) fixes (?P<pairs>.+?)\.\Z"),
     "carried_written_fixes"),
    (re.compile(r"(?P<m>\S+) is carried by (?P<c>\S+); (?P=m) fixes (?P<pairs>.+?) \(selector (?P<sel>\S+)\)\.\Z"),
     "carried_fixes_selector"),
    (re.compile(r"(?P<m>\S+) is carried by (?P<c>\S+); (?P=m) fixes (?P<pairs>.+?)\.\Z"), "carried_fixes"),
    (re.compile(r"(?P<m>\S+) is carried by (?P<c>\S+) and written (?P<e>\S+)\.\Z"), "carried_written"),
    (re.compile(r"(?P<m>\S+) is carried by (?P<c>\S+)\.\Z"), "carried"),
    (re.compile(r"Selector (?P<sel>\S+) does not equal \(Mode << 5\) \| Function = (?P<want>\S+)\.\Z"),
     "selector_mismatch"),
    (re.compile(r"The carrier form (?P<c>.+?) of (?P<m>\S+) is not in this tree; no encoding is shown\.\Z"),
     "carrier_missing"),
    (re.compile(r"(?P<k>\S+) (?P<v>\S+) is not a field of (?P<c>\S+); it is part of the carrier's fixed match bits\.\Z"),
     "not_a_field"),
    (re.compile(r"(?P<c>\S+) match bits (?P<bits>\S+) hold (?P<held>\S+), not Function (?P<f>\S+)\.\Z"),
     "match_function"),
    (re.compile(r"(?P<m>\S+) uses the (?P<v>.+?) encoding variant of (?P<f>\S+)\.\Z"), "variant"),
    (re.compile(r"(?P<m>\S+) is an assembly alias of (?P<t>\S+) \(engine (?P<e>\S+)\); it has no encoding of its own "
                r"and is encoded as its target\.\Z"), "alias_engine"),
    (re.compile(r"(?P<m>\S+) is an assembly alias of (?P<t>\S+); it has no encoding of its own "
                r"and is encoded as its target\.\Z"), "alias"),
    (re.compile(r"The alias target (?P<t>\S+) is not in this tree\.\Z"), "alias_target_missing"),
)
_TITLES: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(r"(?P<m>\S+) \(alias of (?P<t>\S+)\)\Z"), "title_alias"),
    (re.compile(r"(?P<m>\S+) variant (?P<v>\S+) \(Function (?P<f>\S+)\)\Z"), "title_variant_function"),
    (re.compile(r"(?P<m>\S+) variant (?P<v>\S+)\Z"), "title_variant"),
)
_WORD = re.compile(r"(?P<head>.+), word (?P<index>\d+) \(bits (?P<bits>\S+)\)\Z")
_FIXED_BY = re.compile(r"(?P<value>\S+) \((?P<field>\S+) fixed by (?P<by>.+)\)\Z")


@dataclass(frozen=True)
class Note:
    key: str | None  # label key under "encoding_note." (None: ``english`` is shown, marked English)
    values: tuple[tuple[str, str], ...]
    english: str
    word: tuple[tuple[str, str], ...] = ()  # a title's ", word N (bits H:L)" suffix: (("bits", ..), ("index", ..))


def note(text: str) -> Note:
    for pattern, key in _NOTES:
        m = pattern.match(text)
        if m:
            return Note(key, tuple(sorted((k, v) for k, v in m.groupdict().items() if v is not None)), text)
    return Note(None, (), text)


def title(text: str) -> Note:
    """An encoding word's title: ``TMUL (BSTART.VEC)`` is names only; ``X (alias of Y)``, ``X variant V
    (Function F)`` and a ``, word N (bits H:L)`` suffix are localized."""
    word: tuple[tuple[str, str], ...] = ()
    head = text
    m = _WORD.match(text)
    if m:
        head, word = m.group("head"), (("bits", m.group("bits")), ("index", m.group("index")))
    for pattern, key in _TITLES:
        m = pattern.match(head)
        if m:
            return Note(key, tuple(sorted(m.groupdict().items())), head, word)
    return Note(None, (), head, word)


def item_value(value: str) -> tuple[str, str, str] | None:
    """``"0 (Mode fixed by TMUL)"`` -> ``("0", "Mode", "TMUL")``; ``by`` is ``""`` for the form's match bits."""
    m = _FIXED_BY.match(value)
    if not m:
        return None
    by = m.group("by")
    return m.group("value"), m.group("field"), "" if by == "the form's match bits" else by
