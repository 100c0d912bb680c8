"""Architectural faults raised by the model and case-format errors."""

from __future__ import annotations

FAULT_TILE_LEGALITY = "Fault_TileLegality"
FAULT_TILE_ALLOCATION = "Fault_TileAllocation"
FAULT_KINDS = (FAULT_TILE_LEGALITY, FAULT_TILE_ALLOCATION)


class TileFault(Exception):
    """An architectural fault: raised during preflight, before any effect."""

    def __init__(self, kind: str, message: str):
        assert kind in FAULT_KINDS, kind
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


def legality(message: str) -> TileFault:
    return TileFault(FAULT_TILE_LEGALITY, message)


def allocation(message: str) -> TileFault:
    return TileFault(FAULT_TILE_ALLOCATION, message)


class CaseError(Exception):
    """A malformed case (not an architectural fault).

    ``pointer`` is a JSON pointer into the case; ``code`` is the EXEC-*
    diagnostic code; ``line``/``column`` locate the problem in the source
    text when known.
    """

    def __init__(self, message: str, pointer: str = "", code: str = "EXEC-CASE",
                 line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.pointer = pointer
        self.code = code
        self.line = line
        self.column = column

    def __str__(self) -> str:  # pragma: no cover - trivial
        return f"{self.message} (at {self.pointer or '/'})"
