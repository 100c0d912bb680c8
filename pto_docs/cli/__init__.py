"""The pto-docs command line: a thin shell over the library. Exit codes: 0 clean, 1 defects, 2 usage or I/O."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__


def _add_spec_root(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec_root", nargs="?", default=None,
                        help="spec tree to read (default: the pto-docs spec_root of ./mkdocs.yml, else catalog/)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pto-docs", description=__doc__)
    parser.add_argument("--version", action="version", version=f"pto-docs {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("validate", help="load a spec tree, check every record and cross-reference")
    _add_spec_root(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")

    p = sub.add_parser("exec", help="run a worked-example case: v1 on the NumPy executor, v2 on the spec's ASL model")
    p.add_argument("case", help="case file (JSON or YAML), or - for standard input")
    p.add_argument("--spec-root", default=None, metavar="TREE",
                   help="v2 cases: the spec tree whose ASL model runs the case (default: the pto-docs spec_root of "
                        "./mkdocs.yml, else catalog/); given, it also runs v1 cases of the tile operations the "
                        "NumPy executor lacks (TTRANS, TCONCAT, TGATHER, TPART*)")
    p.add_argument("--decoders", metavar="FILE",
                   help="cases run on the ASL model: the generated decoder ASL it depends on ('generate': run the "
                        "tree's own generator, as for avs)")
    p.add_argument("--cache-dir", default=None, metavar="DIR", help="v2 cases: parsed-model cache")

    from .registry import register_more
    register_more(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "validate":
            from .validate import run_validate
            return run_validate(args, sys.stdout, sys.stderr)
        if args.command == "exec":
            from ..executor import exec_command
            from .exec_v2 import v2_runner
            return exec_command(args.case, sys.stdout, sys.stderr, v2_runner(args, sys.stdout, sys.stderr))
        from .registry import dispatch
        return dispatch(args, sys.stdout, sys.stderr)
    except KeyboardInterrupt:
        print("pto-docs: interrupted", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 2


def run(argv: Sequence[str] | None = None) -> None:
    """The console script: :func:`main`, then a quick exit.

    A site build leaves a heap of several hundred MB (the loaded tree, its page models), and an ordinary exit
    spends most of a second freeing it object by object, after the site is complete. When no other thread is
    left, this runs what an ordinary exit runs first (the ``atexit`` handlers: logging's flush, temporary
    directories, multiprocessing's cleanup), flushes standard output and error, and ends the process without the
    freeing. Anything else (a thread still running) takes the ordinary exit."""
    import threading
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: --help, --version, a usage error
        code = exc.code
    if not isinstance(code, int):  # (SystemExit with a message: the ordinary exit prints it)
        raise SystemExit(code)
    if threading.active_count() > 1:
        raise SystemExit(code)
    import atexit
    import os
    atexit._run_exitfuncs()  # noqa: SLF001 - what the ordinary exit would run (see above)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: as the ordinary exit, which then ends with 120 whatever
            code = 120  # the status was (Py_FinalizeEx failing to flush)
    os._exit(code)


