"""One traceability run of a loaded tree: (stamp the review lock) -> report -> findings -> verdict. Data only:
no printing, no exit, no reading of mkdocs.yml (commands/trace_cmd.py does that)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .gate import Policy, PolicyError, exit_code, parse_policy_items
from .lock import LockError, ReviewLock, atomic_write, lock_path, lock_text, read_lock
from .report import build_report, findings_of, source_date, stamp_document


class StampError(Exception):
    """The review lock could not be stamped; the message is the one diagnostic line."""


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


def _examples(catalog) -> tuple[tuple, list[tuple[str, str, str, str]]]:
    from ..bridge.examples import worked_examples
    try:
        return tuple(worked_examples(catalog)), []
    except Exception as exc:  # an executor bug must fail the gate, not crash it
        return (), [("example-failed", "executor", "", f"worked examples could not run: {type(exc).__name__}: {exc}")]


def trace(result, *, check: bool = False, stamp: bool = False, policy_items: Iterable[str] = (),
          options: Mapping | None = None, environ: Mapping[str, str] | None = None, avs: Mapping | None = None):
    """The report and findings of ``result`` (a LoadResult); ``avs``: a pto-docs.avs.v1 document whose results join
    the test rows. Raises PolicyError for a bad policy or SOURCE_DATE_EPOCH (before anything is written),
    StampError when the review lock cannot be stamped."""
    policy = configured_policy(policy_items, options)
    try:
        date = source_date(environ or {})
    except ValueError as exc:
        raise PolicyError(str(exc)) from None
    catalog = result.catalog
    examples, extra = _examples(catalog)
    lock: ReviewLock | str = "auto"
    if stamp:
        target = lock_path(catalog.root)
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise StampError(f"{target}: error[OUTPUT-REFUSED]: the review lock is a symbolic link or not a regular "
                             "file; refusing to replace it")
        document = stamp_document(catalog, examples, avs)
        if "avs_examples" not in document["items"]:  # stamped without AVS results: the pinned examples stay pinned
            try:
                previous = read_lock(catalog.root)
            except (LockError, OSError):
                previous = None
            pinned = previous.items.get("avs_examples") if previous is not None else None
            if pinned:
                document["items"]["avs_examples"] = {uid: dict(entry) for uid, entry in pinned.items()
                                                     if uid in catalog.units}
        try:
            atomic_write(target, lock_text(document).encode("utf-8"))
        except OSError as exc:
            raise StampError(f"{target}: error[IO-WRITE]: cannot write the review lock: {exc.strerror or exc}") from None
        try:
            lock = read_lock(catalog.root)
        except (LockError, OSError) as exc:
            raise StampError(f"{target}: error[IO-WRITE]: the review lock just written cannot be read back: {exc}") from None
    report = build_report(catalog, result.tree, examples, lock=lock, check=check, policy=policy, date=date,
                          diagnostics=result.diagnostics, extra_findings=extra, avs=avs)
    findings = findings_of(report)
    return TraceRun(report, findings, exit_code(findings), stamp)


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

