"""pto-docs diff OLD NEW: what changed between two releases (exit 0 done, 2 usage, refused or unloadable)."""

from __future__ import annotations

import argparse
from typing import TextIO


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("old", help="the earlier release: a spec tree directory, or inside a git checkout a revision "
                                    "(tag, branch, commit sha, HEAD) read from .git without running git")
    parser.add_argument("new", help="the later release, as OLD")
    parser.add_argument("--json", dest="json_out", metavar="OUT",
                        help="write the comparison (pto-docs.diff.v1, canonical JSON) to OUT, or - for stdout")
    parser.add_argument("--markdown", dest="markdown_out", metavar="OUT",
                        help="write the comparison as a Markdown page to OUT, or - for stdout")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import os

    from .. import api
    from ..history.markdown import diff_markdown, summary_text
    from ..store.output_guard import OutputRefused, check_output_file, printable
    from ..trace.report import report_bytes
    from .trace import _write
    if args.json_out == "-" and args.markdown_out == "-":
        err.write("pto-docs diff: error[USAGE]: --json - and --markdown - cannot both take standard output\n")
        return 2
    trees = [spec for spec in (args.old, args.new) if os.path.isdir(spec)]
    try:
        for path in (args.json_out, args.markdown_out):
            if path and path != "-":
                for tree in trees or [None]:
                    check_output_file(path, tree)
    except OutputRefused as exc:
        err.write(exc.format() + "\n")
        return 2
    try:
        old = api.load_release(args.old)
        new = api.load_release(args.new)
    except api.ConfigProblem as exc:
        err.write(f"{exc}\n")
        return 2
    for loaded in (old, new):
        errors = [d for d in loaded.diagnostics if d.is_error]
        if errors:
            err.write(f"pto-docs diff: note: {printable(loaded.side.label)} loaded with {len(errors)} error(s) "
                      f"(`pto-docs validate` lists them); compared as loaded\n")
        for problem in loaded.diagnostics:
            if problem.code in ("PATH-OUTSIDE-ROOT", "PATH-UNSAFE", "GIT-SUBMODULE", "SYMLINK-LOOP"):
                err.write(problem.format() + "\n")
    diff = api.diff(old, new)
    outputs = []
    if args.json_out:
        outputs.append((args.json_out, report_bytes(diff.document())))
    if args.markdown_out:
        outputs.append((args.markdown_out, diff_markdown(diff).encode("utf-8")))
    for path, data in outputs:
        try:
            _write(path, data, out)
        except OSError as exc:
            err.write(f"{printable(path)}: error[IO-WRITE]: cannot write the comparison: {exc.strerror or exc}\n")
            return 2
    ("-" in (args.json_out, args.markdown_out) and err or out).write(summary_text(diff))
    return 0
