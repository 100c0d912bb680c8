"""UI labels per language (data files beside this module) and lookup of catalog translations.

Labels: ``labels("zh-CN")`` -> a :class:`Labels` whose ``t("instruction.field")`` returns the string and
``t("home.intro", version=...)`` formats it. Every key exists in every language (a test checks it).

Prose: :func:`localize` returns the text to show for one English string of a record in a locale, with its
state: ``source`` (English page), ``translated``, ``stale`` (the English changed since it was translated:
the English is shown) or ``missing`` (no translation: the English is shown).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from ..model.catalog import Catalog
from ..model.frozen import sha256_text

SOURCE_LOCALE = "en"
LOCALES = ("en", "zh-CN")
# MkDocs Material theme.language per page locale (zh-CN has its own partial that extends "zh").
MATERIAL_LANGUAGE = {"en": "en", "zh-CN": "zh-CN"}
SEARCH_LANGUAGE = {"en": ["en"], "zh-CN": ["zh"]}

_HERE = Path(__file__).parent


class Labels:
    def __init__(self, locale: str, data: Mapping[str, Any]):
        self.locale = locale
        self._flat = _flatten(data)

    def t(self, key: str, **values: Any) -> str:
        try:
            text = self._flat[key]
        except KeyError:
            raise KeyError(f"UI label {key!r} is missing from pto_docs/i18n/{self.locale}.yaml") from None
        return text.format(**values) if values else text

    __call__ = t

    def keys(self) -> set[str]:
        return set(self._flat)


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(_flatten(value, name + "."))
        else:
            out[name] = str(value)
    return out


@cache
def labels(locale: str) -> Labels:
    path = _HERE / f"{locale}.yaml"
    if not path.is_file():
        raise ValueError(f"no UI label file for language {locale!r} (expected {path})")
    return Labels(locale, yaml.safe_load(path.read_text("utf-8")) or {})


@dataclass(frozen=True)
class Localized:
    text: str
    state: str  # "source" | "translated" | "stale" | "missing"
    pointer: str = ""

    @property
    def lang(self) -> str:
        return "" if self.state in ("source", "translated") else SOURCE_LOCALE


class Translator:
    """Lookup of one locale's translations; remembers which strings were stale or missing."""

    def __init__(self, catalog: Catalog, locale: str):
        self.catalog = catalog
        self.locale = locale
        self.stale: set[tuple[str, str]] = set()
        self.missing: set[tuple[str, str]] = set()

    def __call__(self, subject: str, pointer: str, english: str) -> Localized:
        if self.locale == SOURCE_LOCALE or not english.strip():
            return Localized(english, "source", pointer)
        translation = self.catalog.translations.get((self.locale, subject))
        entry = translation.strings.get(pointer) if translation else None
        if entry is None:
            self.missing.add((subject, pointer))
            return Localized(english, "missing", pointer)
        if entry.en_sha256 != sha256_text(english):
            self.stale.add((subject, pointer))
            return Localized(english, "stale", pointer)
        return Localized(entry.text, "translated", pointer)
