"""pto-docs trace: the traceability report and release gate (exit 0 clean, 1 defects, 2 usage or I/O)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Mapping
from typing import TextIO


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec_root", nargs="?", default=None,
                        help="spec tree to read (default: the pto-docs spec_root of ./mkdocs.yml, else catalog/)")
    parser.add_argument("--check", action="store_true",
                        help="require the review lock and fail on every suspect, unstamped or removed link")
    parser.add_argument("--stamp", action="store_true",
                        help="review every link: record the hash of both ends in pto-docs.review-lock.json")
    parser.add_argument("--json", dest="json_out", metavar="OUT",
                        help="write the report (pto-docs.traceability.v1, canonical JSON) to OUT, or - for stdout")
    parser.add_argument("--markdown", dest="markdown_out", metavar="OUT", help="write the Markdown report page to OUT")
    parser.add_argument("--locale", choices=("en", "zh-CN"), default="en", help="language of the Markdown page")
    parser.add_argument("--avs", dest="avs_results", metavar="RESULTS",
                        help="join the results of `pto-docs avs --json` (pto-docs.avs.v1): each test's status on the "
                             "current tree; a failed, errored, stale or missing point is a finding")
    parser.add_argument("--previous", metavar="OLD",
                        help="the previous release (a spec tree, or a git revision of the checkout the spec tree is "
                             "in): every instruction removed and every encoding changed since it that no ADR or "
                             "CHANGELOG.md entry names is a CHANGE-UNDOCUMENTED finding (a warning by default)")
    parser.add_argument("--policy", action="append", default=[], metavar="CODE=SEVERITY",
                        help="severity of a finding code (fnmatch patterns allowed): error, warning or ignore; "
                             "repeatable, applied after trace_policy in mkdocs.yml")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    return run_gate(args.spec_root, check=args.check, stamp=args.stamp, json_out=args.json_out,
                    markdown_out=args.markdown_out, locale=args.locale, policy_items=args.policy, out=out, err=err,
                    avs_results=args.avs_results, previous=args.previous)


def _write(path: str, data: bytes, out: TextIO) -> None:
    from ..store.atomic import atomic_write
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
             options: Mapping | None = None, avs_results: str | None = None, previous: str | None = None) -> int:
    """load -> (stamp) -> report -> outputs -> findings on stderr -> summary -> exit code 0/1/2."""
    from .. import api
    from ..analysis.trace_run import StampError
    from ..sources.mkdocs_options import ConfigProblem, plugin_options
    from ..trace.gate import PolicyError
    from ..trace.lock import LOCK_NAME
    from ..trace.report import report_bytes, source_date
    from ..trace.run import configured_policy, summary_line
    from .validate import load_or_report
    out = out or sys.stdout
    err = err or sys.stderr
    environ = os.environ if environ is None else environ
    options = plugin_options() if options is None else options
    try:  # usage problems first, before the tree is read
        configured_policy(policy_items, options)
        source_date(environ)
    except (PolicyError, ValueError) as exc:
        err.write(f"pto-docs trace: error[USAGE]: {exc}\n")
        return 2
    from ..store.output_guard import OutputRefused, check_output_file, printable
    try:
        for path in (json_out, markdown_out):
            if path and path != "-":
                from ..sources.mkdocs_options import configured_spec_root
                check_output_file(path, spec_root or configured_spec_root())
    except OutputRefused as exc:
        err.write(exc.format() + "\n")
        return 2
    except ConfigProblem as exc:
        err.write(f"error[USAGE]: {exc}\n")
        return 2
    avs = None
    if avs_results:
        from ..trace.avs_status import AvsResultsError, read_avs_results
        try:
            avs = read_avs_results(avs_results)
        except AvsResultsError as exc:
            err.write(f"{printable(avs_results)}: error[AVS-RESULTS]: {exc}\n")
            return 2
    result = load_or_report(spec_root, err)
    if result is None:
        return 2
    old = None
    if previous is not None:
        try:  # a tree here, else a revision of the checkout the traced tree is in
            old = api.load_release(os.path.abspath(previous)) if os.path.isdir(previous) else \
                api.load_release(previous, result.catalog.root)
        except ConfigProblem as exc:
            err.write(f"pto-docs trace: {exc}\n")
            return 2
    try:
        run = api.run_trace(result, check=check, stamp=stamp, policy_items=policy_items, options=options,
                            environ=environ, avs=avs, previous=old)
    except ConfigProblem as exc:
        err.write(f"pto-docs trace: error[USAGE]: {exc}\n")
        return 2
    except StampError as exc:
        err.write(f"{exc}\n")
        return 2
    report = run.report
    outputs = []
    if json_out:
        outputs.append((json_out, report_bytes(report)))
    if markdown_out:
        from ..trace.markdown import report_markdown
        outputs.append((markdown_out, report_markdown(report, locale).encode("utf-8")))
    for path, data in outputs:
        try:
            _write(path, data, out)
        except OSError as exc:
            err.write(f"{printable(path)}: error[IO-WRITE]: cannot write the report: {exc.strerror or exc}\n")
            return 2
    for finding in run.findings:
        err.write(finding.format() + "\n")
    summary = report["summary"]
    stdout_taken = "-" in (json_out, markdown_out)
    (err if stdout_taken else out).write(summary_line(report) + "\n")
    if stamp:
        (err if stdout_taken else out).write(f"stamped {summary['links']['clean'] if summary['links'] else 0} links "
                                             f"in {LOCK_NAME}\n")
    return run.exit_code
