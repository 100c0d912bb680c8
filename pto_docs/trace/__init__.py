"""Traceability: recorded vs actual hashes, coverage, suspect links, the release gate and its report."""

from __future__ import annotations

from .markdown import report_markdown
from .report import build_report, report_bytes
from .run import TraceRun

__all__ = ["build_report", "report_bytes", "report_markdown", "TraceRun"]
