"""Long names of the instructions ("LW — Load Word") and the search synonyms of their words, from our reviewed
table ``long_names.yaml`` beside this module (the spec's records carry no name field; see the file's header).

``long_name("LW", "zh-CN")`` -> "加载字"; ``search_terms("TTRANS", "en")`` -> the other language's long name and
the synonyms of the English name's words, for the search index of the instruction's pages; ``missing(mnemonics)``
-> the mnemonics the table lacks (the build warns about each, warning[LONG-NAME])."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import yaml

from ..model.diagnostics import WARNING, Diagnostic

PATH = Path(__file__).with_name("long_names.yaml")
SEPARATOR = " — "  # between a mnemonic and its long name in a title


@cache
def _table() -> tuple[dict[str, dict[str, str]], dict[str, tuple[str, ...]]]:
    data = yaml.safe_load(PATH.read_text("utf-8")) or {}
    names = {str(m): {str(k): str(v) for k, v in (entry or {}).items()} for m, entry in (data.get("names") or {}).items()}
    synonyms = {str(w).lower(): tuple(str(s) for s in (words or ())) for w, words in (data.get("synonyms") or {}).items()}
    return names, synonyms


def long_name(mnemonic: str | None, locale: str) -> str:
    """The long name in ``locale`` (the English one where that language has none); "" when the table lacks it."""
    entry = _table()[0].get(mnemonic or "")
    if not entry:
        return ""
    return entry.get(locale) or entry.get("en", "")


def titled(mnemonic: str, locale: str) -> str:
    """``LW — Load Word``, or the mnemonic alone when it has no long name."""
    name = long_name(mnemonic, locale)
    return f"{mnemonic}{SEPARATOR}{name}" if name else mnemonic


def search_terms(mnemonic: str | None, locale: str) -> list[str]:
    """Words that find the instruction besides its title: its long names in the other languages and the synonyms
    of its English name's words (each once, in table order)."""
    entry = _table()[0].get(mnemonic or "")
    if not entry:
        return []
    synonyms = _table()[1]
    out: list[str] = [text for loc, text in entry.items() if loc != locale and text]
    for word in re.findall(r"[a-z0-9]+", entry.get("en", "").lower()):
        out.extend(synonyms.get(word, ()))
    seen: set[str] = set()
    return [t for t in out if not (t in seen or seen.add(t))]


def missing(mnemonics: Iterable[str]) -> list[str]:
    names = _table()[0]
    return sorted({m for m in mnemonics if m and m not in names})


def missing_diagnostics(units) -> list[Diagnostic]:
    """A warning for each instruction unit whose mnemonic the table lacks (its pages show the mnemonic alone)."""
    names = _table()[0]
    return [Diagnostic(u.path, 1, 1, WARNING, "LONG-NAME",
                       f"instruction {u.mnemonic} has no long name in pto-docs' table ({PATH.parent.name}/{PATH.name}); "
                       "its pages show the mnemonic alone")
            for u in sorted(units, key=lambda u: u.path) if u.is_instruction and u.mnemonic and u.mnemonic not in names]
