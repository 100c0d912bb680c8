"""Diagnostics shaped like a compiler's: path:line:col: severity[CODE]: message (at /pointer)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    col: int
    severity: str
    code: str
    message: str
    pointer: str = ""

    def format(self) -> str:
        where = f"{self.path}:{self.line}:{self.col}" if self.line else (self.path or "<spec>")
        text = f"{where}: {self.severity}[{self.code}]: {self.message}"
        if self.pointer:
            text += f" (at {self.pointer})"
        return text

    def as_json(self) -> dict:
        return asdict(self)

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR


def error(path: str, line: int, col: int, code: str, message: str, pointer: str = "") -> Diagnostic:
    return Diagnostic(path, line, col, ERROR, code, message, pointer)


def warning(path: str, line: int, col: int, code: str, message: str, pointer: str = "") -> Diagnostic:
    return Diagnostic(path, line, col, WARNING, code, message, pointer)


def sort_diagnostics(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(set(diags), key=lambda d: (d.path, d.line, d.col, d.code, d.message, d.pointer))


def count(diags: Iterable[Diagnostic]) -> tuple[int, int]:
    errors = warnings = 0
    for d in diags:
        if d.is_error:
            errors += 1
        else:
            warnings += 1
    return errors, warnings


class SpecRootError(Exception):
    """The spec root itself is unusable (missing, not a directory): a usage/I-O problem, exit 2."""
