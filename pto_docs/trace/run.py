"""The data of one traceability run: the gate's policy from the options, the run's outcome (report, findings,
exit code) and its summary line. Data in, data out: running the worked examples, stamping the review lock and
building the report is ``analysis.trace_run.trace``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .gate import Policy, PolicyError, parse_policy_items


@dataclass(frozen=True)
class TraceRun:
    report: dict
    findings: list  # gate.Finding, in report order
    exit_code: int  # 0 clean, 1 defects (the gate's verdict)
    stamped: bool


def configured_policy(policy_items: Iterable[str] = (), options: Mapping | None = None) -> Policy:
    """``trace_policy`` of the plugin options (from mkdocs.yml), then ``--policy`` items (later wins); checked by
    parse_policy_items, the same check as the plugin's trace_policy option (site/config.py)."""
    pairs = []
    configured = options.get("trace_policy") if isinstance(options, Mapping) else None
    if configured is not None:
        if not isinstance(configured, Mapping):
            raise PolicyError("mkdocs.yml: trace_policy must be a mapping of finding code to error|warning|ignore")
        pairs += parse_policy_items(configured, "mkdocs.yml trace_policy")
    pairs += parse_policy_items(list(policy_items), "--policy")
    return Policy(tuple(pairs))


def summary_line(report: Mapping) -> str:
    s = report["summary"]
    rec = s["recorders"].get("traceability.sources")
    hashes = ""
    if rec:
        total = sum(rec.values())
        hashes = f"; {rec['match']} of {total} recorded source hashes match"
        if rec.get("recorded-only"):
            hashes += f" ({rec['recorded-only']} recorded-only)"
    links = s.get("links")
    link_text = ""
    if links:
        link_text = f"; links: {links['clean']} clean, {links['suspect']} suspect, {links['unstamped']} unstamped, {links['removed']} removed"
    return (f"trace: {s['unit_count']} units, {s['documentation_page_count']} documentation pages, "
            f"{s['mnemonic_count']} mnemonics, {s['requirement_count']} requirements "
            f"({s['executable_requirement_count']} executable), {s['test_count']} tests, "
            f"{s['uncovered_unit_count'] + s['uncovered_executable_requirement_count']} uncovered{hashes}{link_text}: "
            f"{s['findings']['error']} errors, {s['findings']['warning']} warnings ({s['verdict']})")

