"""Schema-check one parsed record and turn problems into positioned diagnostics."""

from __future__ import annotations

from typing import Any

from ..model.diagnostics import Diagnostic, error
from ..schemas.jsonpos import offset_of
from ..schemas.registry import RECORD_SCHEMAS, schema_problems
from ..store import validation_cache


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
    label = kind if kind.isupper() else kind.replace("-", " ")
    for code, message, pointer, _where, offset in record_problems(kind, data, text):
        at_line, at_col = line, col
        if offset is not None:
            at_line, at_col = line_col_at(text, offset, line, col)
        diags.append(error(path, at_line, at_col, code, f"{label}: {message}", pointer))
    return diags


def _uncached_problems(kind: str, data: Any, text: str | None) -> list[tuple[str, str, str, tuple, int | None]]:
    out = []
    for problem in schema_problems(RECORD_SCHEMAS.get(kind, kind), data):
        offset = offset_of(text, list(problem.path)) if text is not None and problem.path else None
        out.append((problem.code, problem.message, problem.pointer, tuple(problem.path), offset))
    return out


def record_problems(kind: str, data: Any, text: str | None = None) -> list[tuple[str, str, str, tuple, int | None]]:
    """(code, message, pointer, instance path, offset in ``text``) of every schema problem of the record,
    memoised by validation_cache (a pure function of the schema bundle, the kind and the record text)."""
    if not validation_cache.enabled:
        return _uncached_problems(kind, data, text)
    key = validation_cache.record_key(kind, text, data)
    hit = validation_cache.lookup(key)
    if hit is None:
        hit = _uncached_problems(kind, data, text)
        validation_cache.store(key, hit)
    return hit
