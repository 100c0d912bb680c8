"""``pto-docs avs``: run the spec's AVS test points on our ASL interpreter.

Exit status: 0 when every selected test point passes, 1 otherwise, 2 for usage or I/O errors.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from .harness import run_avs
from .report import kind_medians, write_json, write_junit


def add_avs_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("avs", help="run the spec's ASL AVS test points on the built-in ASL interpreter")
    p.add_argument("spec_root", nargs="?", default=None,
                   help="pto-spec checkout (default: $PTO_SPEC_CHECKOUT, else the current directory)")
    p.add_argument("--json", metavar="OUT", help="write the pto-docs.avs.v1 JSON document here")
    p.add_argument("--junit", metavar="OUT", help="write JUnit XML here")
    p.add_argument("-k", dest="pattern", metavar="PATTERN",
                   help="only test points whose id or path contains PATTERN (or matches it as a glob)")
    p.add_argument("--jobs", type=int, default=None, metavar="N", help="worker processes (default: all cores)")
    p.add_argument("--cache-dir", default=None, metavar="DIR",
                   help="parsed-model cache (default: .pto-docs-cache/asl under the spec root)")
    p.add_argument("--profile", choices=("pto-v0", "ieee"), default="pto-v0",
                   help="numeric profile for the floating-point hooks (default pto-v0, ASLRef's behaviour)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress, only the summary line")
    return p


def run_avs_command(args, stdout, stderr) -> int:
    root = args.spec_root or os.environ.get("PTO_SPEC_CHECKOUT") or "."
    root = Path(root)
    if not (root / "asl").is_dir() or not (root / "tests" / "asl").is_dir():
        print(f"pto-docs avs: {root} has no asl/ and tests/asl/ directories", file=stderr)
        return 2
    if args.jobs is not None and args.jobs < 1:
        print("pto-docs avs: --jobs must be at least 1", file=stderr)
        return 2
    cache = Path(args.cache_dir) if args.cache_dir else root / ".pto-docs-cache" / "asl"
    progress = None
    started = time.monotonic()
    if not args.quiet and stderr.isatty():
        def progress(result, done, total):
            elapsed = time.monotonic() - started
            if result["status"] != "pass":
                stderr.write(f"\r{result['status'].upper()} {result['id']}\n")
            stderr.write(f"\r[{done}/{total}] {elapsed:6.1f} s")
            stderr.flush()
    try:
        doc = run_avs(root, pattern=args.pattern, jobs=args.jobs, cache_dir=cache, progress=progress,
                      profile=args.profile)
    except (OSError, RuntimeError, ValueError) as exc:
        print(f"pto-docs avs: {exc}", file=stderr)
        return 2
    if progress is not None:
        stderr.write("\n")
    try:
        if args.json:
            write_json(doc, args.json)
        if args.junit:
            write_junit(doc, args.junit)
    except OSError as exc:
        print(f"pto-docs avs: {exc}", file=stderr)
        return 2
    s = doc["summary"]
    if not args.quiet:
        for t in doc["tests"]:
            if t["status"] != "pass":
                print(f"{t['status'].upper()} {t['id']} ({t['path']}): {t['message']}", file=stdout)
        medians = ", ".join(f"{k} {v:.3f}" for k, v in kind_medians(doc).items())
        print(f"median seconds per kind: {medians}", file=stdout)
    print(f"avs ({doc['profile']}): {s['total']} test points, {s['pass']} pass, {s['fail']} fail, "
          f"{s['error']} error in {time.monotonic() - started:.1f} s", file=stdout)
    if s["total"] == 0:
        return 1
    return 0 if s["pass"] == s["total"] else 1


def main(argv=None) -> int:
    """``python -m pto_docs.asl.cli [SPEC_ROOT] [options]``: the same as ``pto-docs avs``."""
    parser = argparse.ArgumentParser(prog="pto-docs")
    sub = parser.add_subparsers(dest="command", required=True)
    add_avs_parser(sub)
    args = parser.parse_args(["avs", *(sys.argv[1:] if argv is None else argv)])
    return run_avs_command(args, sys.stdout, sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
