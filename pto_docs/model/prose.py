"""Record prose a translation may replace: the English text with its subject id and JSON pointer."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Prose:
    """One English string of a record that a translation may replace: subject id + JSON pointer."""

    subject: str
    pointer: str
    english: str
