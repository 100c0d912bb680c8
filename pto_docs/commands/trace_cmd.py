"""pto-docs trace: the traceability report and release gate (exit 0 clean, 1 defects, 2 usage or I/O)."""

from __future__ import annotations

import argparse
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
    parser.add_argument("--policy", action="append", default=[], metavar="CODE=SEVERITY",
                        help="severity of a finding code (fnmatch patterns allowed): error, warning or ignore; "
                             "repeatable, applied after trace_policy in mkdocs.yml")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..trace.run import run_gate
    return run_gate(args.spec_root, check=args.check, stamp=args.stamp, json_out=args.json_out,
                    markdown_out=args.markdown_out, locale=args.locale, policy_items=args.policy, out=out, err=err)
