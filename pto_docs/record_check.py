"""Schema-check one parsed record and turn problems into positioned diagnostics."""

from __future__ import annotations

from typing import Any

from .diagnostics import Diagnostic, error
from .jsonpos import offset_of
from .schema_registry import RECORD_SCHEMAS, schema_problems


def line_col_at(text: str, offset: int, first_line: int = 1, first_col: int = 1) -> tuple[int, int]:
    """Line and column of ``offset`` in ``text`` that itself starts at (first_line, first_col)."""
    before = text[:offset]
    newlines = before.count("\n")
    if newlines == 0:
        return first_line, first_col + offset
    return first_line + newlines, offset - before.rfind("\n")


def check_record(kind: str, data: Any, path: str, line: int, col: int, text: str | None = None) -> list[Diagnostic]:
    """Validate ``data`` (parsed from ``text`` which starts at line/col) against the schema of ``kind``."""
    diags = []
    for problem in schema_problems(RECORD_SCHEMAS.get(kind, kind), data):
        at_line, at_col = line, col
        if text is not None and problem.path:
            at_line, at_col = line_col_at(text, offset_of(text, list(problem.path)), line, col)
        label = kind if kind.isupper() else kind.replace("-", " ")
        diags.append(error(path, at_line, at_col, problem.code, f"{label}: {problem.message}", problem.pointer))
    return diags
