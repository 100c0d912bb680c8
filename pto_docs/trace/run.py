"""run_gate: load -> (stamp) -> report -> outputs -> findings on stderr -> exit code 0/1/2."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from typing import TextIO

from .gate import Policy, PolicyError, exit_code, parse_policy_items
from .lock import LOCK_NAME, ReviewLock, atomic_write, lock_path, lock_text
from .report import build_report, findings_of, report_bytes, source_date, stamp_document


def configured_policy(policy_items: Iterable[str] = (), options: Mapping | None = None) -> Policy:
    """``trace_policy`` of the pto-docs plugin in ./mkdocs.yml, then ``--policy`` flags (later wins)."""
    if options is None:
        from ..config import plugin_options
        options = plugin_options()
    pairs = []
    configured = options.get("trace_policy") if isinstance(options, Mapping) else None
    if configured is not None:
        if not isinstance(configured, Mapping):
            raise PolicyError("mkdocs.yml: trace_policy must be a mapping of finding code to error|warning|ignore")
        pairs += parse_policy_items(configured, "mkdocs.yml trace_policy")
    pairs += parse_policy_items(list(policy_items), "--policy")
    return Policy(tuple(pairs))


def _examples(catalog) -> tuple[tuple, list[tuple[str, str, str, str]]]:
    try:
        from ..examples import worked_examples
        return tuple(worked_examples(catalog)), []
    except ImportError:
        return (), []
    except Exception as exc:  # an executor bug must fail the gate, not crash it
        return (), [("example-failed", "executor", "", f"worked examples could not run: {type(exc).__name__}: {exc}")]


def _write(path: str, data: bytes, out: TextIO) -> None:
    if path == "-":
        out.flush()
        stream = getattr(out, "buffer", None)
        if stream is not None:
            stream.write(data)
            stream.flush()
        else:
            out.write(data.decode("utf-8"))
        return
    atomic_write(path, data)


def run_gate(spec_root: str | None = None, *, check: bool = False, stamp: bool = False, json_out: str | None = None,
             markdown_out: str | None = None, locale: str = "en", policy_items: Iterable[str] = (),
             out: TextIO | None = None, err: TextIO | None = None, environ: Mapping[str, str] | None = None,
             options: Mapping | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    environ = os.environ if environ is None else environ
    try:
        policy = configured_policy(policy_items, options)
    except PolicyError as exc:
        err.write(f"pto-docs trace: error[USAGE]: {exc}\n")
        return 2
    try:
        date = source_date(environ)
    except ValueError as exc:
        err.write(f"pto-docs trace: error[USAGE]: {exc}\n")
        return 2
    from ..output_guard import OutputRefused, check_output_file
    try:
        for path in (json_out, markdown_out):
            if path and path != "-":
                from ..config import configured_spec_root
                check_output_file(path, spec_root or configured_spec_root())
    except OutputRefused as exc:
        err.write(exc.format() + "\n")
        return 2
    from ..commands.validate_cmd import load_or_report
    result = load_or_report(spec_root, err)
    if result is None:
        return 2
    catalog = result.catalog
    examples, extra = _examples(catalog)
    lock: ReviewLock | str = "auto"
    if stamp:
        text = lock_text(stamp_document(catalog, examples))
        target = lock_path(catalog.root)
        if target.is_symlink() or (target.exists() and not target.is_file()):
            err.write(f"{target}: error[OUTPUT-REFUSED]: the review lock is a symbolic link or not a regular file; "
                      "refusing to replace it\n")
            return 2
        try:
            atomic_write(lock_path(catalog.root), text.encode("utf-8"))
        except OSError as exc:
            err.write(f"{lock_path(catalog.root)}: error[IO-WRITE]: cannot write the review lock: {exc.strerror or exc}\n")
            return 2
        from .lock import LockError, read_lock
        try:
            lock = read_lock(catalog.root)
        except (LockError, OSError) as exc:
            err.write(f"{lock_path(catalog.root)}: error[IO-WRITE]: the review lock just written cannot be read back: {exc}\n")
            return 2
    report = build_report(catalog, result.tree, examples, lock=lock, check=check, policy=policy, date=date,
                          diagnostics=result.diagnostics, extra_findings=extra)
    outputs = []
    if json_out:
        outputs.append((json_out, report_bytes(report)))
    if markdown_out:
        from .markdown import report_markdown
        outputs.append((markdown_out, report_markdown(report, locale).encode("utf-8")))
    for path, data in outputs:
        try:
            _write(path, data, out)
        except OSError as exc:
            from ..output_guard import printable
            err.write(f"{printable(path)}: error[IO-WRITE]: cannot write the report: {exc.strerror or exc}\n")
            return 2
    findings = findings_of(report)
    for finding in findings:
        err.write(finding.format() + "\n")
    summary = report["summary"]
    stdout_taken = "-" in (json_out, markdown_out)
    line = _summary_line(report)
    (err if stdout_taken else out).write(line + "\n")
    if stamp:
        (err if stdout_taken else out).write(f"stamped {summary['links']['clean'] if summary['links'] else 0} links "
                                             f"in {LOCK_NAME}\n")
    return exit_code(findings)


def _summary_line(report: Mapping) -> str:
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

