"""Numeric status flags NV, DZ, OF, UF, NX (CORE_STATE[36:32], sticky OR)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FLAG_NAMES = ("NV", "DZ", "OF", "UF", "NX")


@dataclass
class Flags:
    NV: bool = False
    DZ: bool = False
    OF: bool = False
    UF: bool = False
    NX: bool = False

    def add(self, **arrays) -> Flags:
        """OR element flag arrays (or booleans) into this status vector."""
        for name, value in arrays.items():
            if value is None:
                continue
            if bool(np.any(value)):
                setattr(self, name, True)
        return self

    def merge(self, other: Flags) -> Flags:
        for name in FLAG_NAMES:
            if getattr(other, name):
                setattr(self, name, True)
        return self

    def as_dict(self) -> dict[str, bool]:
        return {name: bool(getattr(self, name)) for name in FLAG_NAMES}
