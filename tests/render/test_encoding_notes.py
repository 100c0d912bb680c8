"""The encoding module's notes, localized: the English label rebuilds each note exactly, zh-CN has no English."""

from __future__ import annotations

import re

import pytest

from pto_docs.i18n import labels
from pto_docs.render.encoding_notes import item_value, note, title

NOTES = [
    "TMUL is carried by BSTART.TEPL and written BSTART.VEC; TMUL fixes Mode 0 Function 2 (selector 0x002).",
    "TMUL is carried by BSTART.TEPL; TMUL fixes Mode 0 Function 2.",
    "TLOAD is carried by BSTART.TLSU.",
    "Selector 0x003 does not equal (Mode << 5) | Function = 0x002.",
    "The carrier form (none named) of TFOO is not in this tree; no encoding is shown.",
    "Mode 1 is not a field of BSTART.CUBE; it is part of the carrier's fixed match bits.",
    "BSTART.CUBE match bits 24:20 hold 3, not Function 4.",
    "TFOO uses the wide encoding variant of BSTART.TLSU.",
    "BSTART.SFU is an assembly alias of BSTART.TEPL (engine SFU); it has no encoding of its own and is encoded as its target.",
    "B.X is an assembly alias of B.Y; it has no encoding of its own and is encoded as its target.",
    "The alias target B.Y is not in this tree.",
]


@pytest.mark.parametrize("text", NOTES)
def test_every_note_is_recognised_and_rebuilt_exactly(text):
    n = note(text)
    assert n.key is not None, text
    assert labels("en").t(f"encoding_note.{n.key}", **dict(n.values)) == text
    zh = labels("zh-CN").t(f"encoding_note.{n.key}", **dict(n.values))
    assert not re.search(r"\b(?:is|the|of|by|and|not)\b", zh), zh


def test_titles_and_fixed_values():
    t = title("BSTART.SFU (alias of BSTART.TEPL)")
    assert labels("en").t(f"encoding_note.{t.key}", **dict(t.values)) == "BSTART.SFU (alias of BSTART.TEPL)"
    assert title("TMUL (BSTART.VEC)").key is None
    for text in ("BSTART.TMOV variant TMOV.L2S.INSERT (Function 9)", "BSTART.TMOV variant X",
                 "L.BSTOP, word 0 (bits 31:0)", "X variant V (Function 3), word 1 (bits 63:32)"):
        t = title(text)
        head = labels("en").t(f"encoding_note.{t.key}", **dict(t.values)) if t.key else t.english
        suffix = labels("en").t("encoding_note.title_word", **dict(t.word)) if t.word else ""
        assert head + suffix == text
    assert item_value("0 (Mode fixed by TMUL)") == ("0", "Mode", "TMUL")
    assert item_value("3 (Function fixed by the form's match bits)") == ("3", "Function", "")
    assert item_value("variable") is None
    assert note("Something new the encoding module says.").key is None
