"""Consistency of contract prose and bundle examples with the reference executor (filled in with the executor)."""

from __future__ import annotations

from .diagnostics import Diagnostic
from .model import Catalog


def consistency_diagnostics(catalog: Catalog) -> list[Diagnostic]:
    return []
