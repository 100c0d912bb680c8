"""pto-docs avs: run the spec's AVS test points on pto-docs' ASL interpreter (pto_docs.asl).

The tree is read once by pto-docs' loader; the interpreter gets the unit and test texts. Nothing of the tree
runs as host code: a model that depends on ``generated:decoders`` gets that ASL from ``--decoders FILE`` (made
by the spec's own generator where its maintainers run it) or, without the option, from pto-docs' own generator
of the decoders and per-form tables (``avs_decoders``; no ``Validate*`` entry points, so a point calling one is
not run: status needs-decoders, reported as one line). ``--decoders generate`` runs the tree's own generator
(bridge/decoder_generator.py: the tree's code, in a limited child process). Exit codes: 0 every selected point
passes, 1 a point fails or errors (or the tree has errors), 2 usage or I/O (or the decoders cannot be made), 3 the
run was incomplete: every point that ran passed, but some need the generated decoders."""

from __future__ import annotations

import argparse
import time
from typing import TextIO


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec_root", nargs="?", default=None,
                        help="spec tree (default: the pto-docs spec_root of ./mkdocs.yml, else catalog/)")
    parser.add_argument("--decoders", metavar="FILE",
                        help="the generated decoder and validation ASL the model depends on (generated:decoders); "
                             "in a pto-spec checkout: python3 scripts/generate-asl-decoders --kind monolithic > FILE. "
                             "'generate': run that script of the tree (the tree's own code, in a child process with "
                             "time and memory limits; its output is cached). Without it pto-docs makes the decoders "
                             "from the tree's encoding records (no Validate* entry points: a test point calling one "
                             "is not run, status needs-decoders, exit 3)")
    parser.add_argument("--json", dest="json_out", metavar="OUT", help="write the pto-docs.avs.v1 document to OUT")
    parser.add_argument("--junit", dest="junit_out", metavar="OUT", help="write JUnit XML to OUT")
    parser.add_argument("-k", dest="pattern", metavar="PATTERN",
                        help="only test points whose id or path contains PATTERN (or matches it as a glob)")
    parser.add_argument("--kind", action="append", dest="kinds", metavar="KIND",
                        help="only test points of this kind (repeatable); worked examples come from "
                             "--kind execution --kind fault, about half of the points")
    parser.add_argument("--jobs", type=int, default=None, metavar="N", help="worker processes (default: all cores)")
    parser.add_argument("--cache-dir", default=None, metavar="DIR",
                        help="AVS cache: the parsed models, and the results of an --examples run of every point "
                             "(default: $XDG_CACHE_HOME/pto-docs/asl, never inside the spec tree)")
    parser.add_argument("--profile", choices=("pto-v0", "ieee"), default="pto-v0",
                        help="numeric profile of the floating-point hooks (default pto-v0: the ASL's own, as ASLRef)")
    parser.add_argument("--examples", action="store_true",
                        help="record every instruction a test point executes, with the state before and the state it "
                             "changed: the worked examples of the pages (plugin avs_results) and of the report")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress and no per-kind medians")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..api import run_avs
    from ..store.output_guard import OutputRefused, check_output_file

    if args.jobs is not None and args.jobs < 1:
        err.write("pto-docs avs: error[USAGE]: --jobs must be at least 1\n")
        return 2
    loaded = load_with_cache(args, err, "avs", "no test point run", tree_errors_exit=1)
    if isinstance(loaded, int):
        return loaded
    result, cache = loaded
    root = result.catalog.root
    try:
        targets = [check_output_file(p, root) if p != "-" else p for p in (args.json_out, args.junit_out) if p]
    except OutputRefused as exc:
        err.write(exc.format() + "\n")
        return 2
    generated = decoders_for(result.catalog, args.decoders, err, cache)
    if generated is False:
        return 2
    kinds = sorted({t.kind for t in result.catalog.tests.values()})
    unknown = sorted(set(args.kinds or ()) - set(kinds))
    if unknown:
        err.write(f"pto-docs avs: error[USAGE]: no test point of kind {', '.join(unknown)}; "
                  f"the tree's kinds are {', '.join(kinds) or 'none'}\n")
        return 2
    started = time.monotonic()
    progress = _progress(err, started) if not args.quiet and err.isatty() else None
    doc = run_avs(result.catalog, generated, cache_dir=cache, pattern=args.pattern, kinds=args.kinds,
                       profile=args.profile, examples=args.examples, jobs=args.jobs, progress=progress)
    if progress is not None:
        err.write("\n")
    code = _write_outputs(doc, targets, args, out, err)
    if code:
        return code
    _print_summary(doc, out, quiet=args.quiet, seconds=time.monotonic() - started, root=root)
    return exit_code(doc["summary"])


INCOMPLETE = 3  # every point that ran passed, but some were not run for lack of the generated decoders


def exit_code(summary: dict) -> int:
    """0 every point passed; 1 a point failed or errored (or none ran); INCOMPLETE: the rest need decoders."""
    waiting = summary.get("needs-decoders", 0)
    if summary["fail"] or summary["error"] or not summary["total"]:
        return 1
    if waiting:
        return INCOMPLETE if summary["pass"] + waiting == summary["total"] else 1
    return 0 if summary["pass"] == summary["total"] else 1


def load_with_cache(args, err: TextIO, command: str, consequence: str, tree_errors_exit: int):
    """The loaded tree and the checked parsed-model cache directory (``--cache-dir``, never inside the tree) of a
    command that links the tree's ASL model, or the exit code after printing why not."""
    from ..store import asl_cache_dir
    from ..store.output_guard import OutputRefused, check_cache_dir
    from .validate import load_or_report, report_tree_errors
    result = load_or_report(args.spec_root, err)
    if result is None:
        return 2
    if report_tree_errors(result, err, command, consequence):
        return tree_errors_exit
    try:
        cache = check_cache_dir(args.cache_dir or asl_cache_dir(), result.catalog.root)
    except OutputRefused as exc:
        err.write(exc.format() + "\n")
        return 2
    return result, cache


def decoders_for(catalog, path: str | None, err: TextIO, cache_dir=None) -> str | None | bool:
    """The generated decoder ASL at ``path`` (``generate``: what the tree's own generator prints, cached in
    ``cache_dir``); without a path, pto-docs' own decoders of the tree when its model depends on
    generated:decoders (None when it does not); or False after printing why the model cannot be linked: the file
    cannot be read, the generator failed, or the tree's records cannot make the decoders."""
    from ..bridge.avs import generated_decoders, needs_decoders
    from ..isa.decoders import DecodersUnavailable
    if path == GENERATE:
        from ..bridge.decoder_generator import GeneratorFailed, generate
        try:
            return generate(catalog.root, cache_dir)
        except GeneratorFailed as exc:
            err.write(f"{catalog.root}: error[AVS-DECODERS]: --decoders generate: {exc}\n")
            return False
    try:
        generated = _read_decoders(path)
    except OSError as exc:
        err.write(f"{path}: error[IO-READ]: cannot read the generated decoders: {exc.strerror or exc}\n")
        return False
    except UnicodeDecodeError:
        err.write(f"{path}: error[IO-READ]: the generated decoders are not UTF-8 text\n")
        return False
    if generated is None and needs_decoders(catalog):
        try:
            return generated_decoders(catalog)
        except DecodersUnavailable as exc:
            err.write(f"{catalog.root}: error[AVS-DECODERS]: the ASL model depends on generated:decoders and the "
                      f"tree's encoding records cannot make them ({exc}); pass the generated ASL with --decoders FILE "
                      "(python3 scripts/generate-asl-decoders --kind monolithic > FILE)\n")
            return False
    return generated


GENERATE = "generate"  # --decoders generate: run the tree's generator (a file of that name: ./generate)


def _read_decoders(path: str | None) -> str | None:
    if path is None:
        return None
    with open(path, "rb") as handle:
        return handle.read().decode("utf-8")


def _progress(err: TextIO, started: float):
    def report(result: dict, done: int, total: int) -> None:
        if result["status"] not in ("pass", "needs-decoders"):  # (those: one line at the end)
            err.write(f"\r{result['status'].upper()} {result['id']}\n")
        err.write(f"\r[{done}/{total}] {time.monotonic() - started:6.1f} s")
        err.flush()
    return report


def _write_outputs(doc: dict, targets: list, args, out: TextIO, err: TextIO) -> int:
    import json

    from ..asl.report import junit_xml
    from ..store.atomic import atomic_write
    data = {"json": (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8"),
            "junit": junit_xml(doc).encode("utf-8")}
    pairs = [(t, data[kind]) for t, kind in zip(targets, [k for k, p in (("json", args.json_out),
                                                                          ("junit", args.junit_out)) if p])]
    try:
        for target, payload in pairs:
            if target == "-":
                out.write(payload.decode("utf-8"))
            else:
                atomic_write(target, payload)
    except OSError as exc:
        err.write(f"{exc.filename or target}: error[IO-WRITE]: {exc.strerror or exc}\n")
        return 2
    return 0


def _print_summary(doc: dict, out: TextIO, quiet: bool, seconds: float, root=None) -> None:
    from ..asl.report import kind_medians
    s = doc["summary"]
    waiting = s.get("needs-decoders", 0)
    for t in doc["tests"]:
        if t["status"] == "fail":
            out.write(f"{t['path']}: error[AVS-FAIL]: {t['id']}: {t['message']}\n")
        elif t["status"] == "error":
            out.write(f"{t['path']}: error[AVS-ERROR]: {t['id']}: {t['message']}\n")
    if not quiet:
        medians = ", ".join(f"{k} {v:.3f}" for k, v in kind_medians(doc).items())
        out.write(f"median seconds per kind: {medians}\n")
    if waiting:
        out.write(needs_decoders_line(root, waiting) + "\n")
    more = f", {waiting} need decoders (not run)" if waiting else ""
    out.write(f"avs ({doc['profile']}): {s['total']} test points, {s['pass']} pass, {s['fail']} fail, "
              f"{s['error']} error{more} in {seconds:.1f} s\n")


def needs_decoders_line(root, count: int) -> str:
    """The one line that stands for every point not run for lack of the generated decoders, with the commands
    that make them."""
    import shlex
    from pathlib import Path

    from ..bridge.decoder_generator import COMMAND_HINT, generator_path
    from ..model.diagnostics import printable
    tree = shlex.quote(str(root))
    points = "test point calls" if count == 1 else "test points call"
    if root is not None and generator_path(Path(root)) is not None:
        how = (f"make them with `(cd {tree} && {COMMAND_HINT.replace(' > FILE', '')}) > decoders.asl`, then run "
               f"`pto-docs avs {tree} --decoders decoders.asl` (or `pto-docs avs {tree} --decoders generate`, "
               "which runs that script of the tree)")
    else:
        how = (f"the tree has no scripts/generate-asl-decoders; give its generator's output ({COMMAND_HINT} in a "
               "pto-spec checkout) with --decoders FILE")
    return printable(f"{root}: warning[AVS-NEEDS-DECODERS]: {count} {points} Validate* entry points of the spec's "
                     f"own decoder generator, which pto-docs' decoders lack, and were not run: {how}")
