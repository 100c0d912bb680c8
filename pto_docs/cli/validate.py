"""pto-docs validate: print every diagnostic, then one summary line."""

from __future__ import annotations

import json
from typing import TextIO

from ..analysis.load import LoadResult
from ..api import load_catalog, validate
from ..model.diagnostics import SpecRootError
from ..sources.mkdocs_options import ConfigProblem, configured_spec_root


def load_or_report(spec_root: str | None, err: TextIO) -> LoadResult | None:
    try:
        root = spec_root or configured_spec_root()
    except ConfigProblem as exc:
        err.write(f"error[USAGE]: {exc}\n")
        return None
    try:
        return load_catalog(root)
    except SpecRootError as exc:
        err.write(f"{root}: error[IO-ROOT]: {exc}\n")
    except OSError as exc:
        err.write(f"{root}: error[IO-ROOT]: cannot read spec root: {exc.strerror or exc}\n")
    return None


def report_tree_errors(result: LoadResult, err: TextIO, command: str, consequence: str) -> bool:
    """For a command that needs an error-free tree: print its errors and one summary line; True if there were any."""
    if not result.errors:
        return False
    for diag in result.errors:
        err.write(diag.format() + "\n")
    err.write(f"pto-docs {command}: {len(result.errors)} error(s) in the tree; {consequence}\n")
    return True


def run_validate(args, out: TextIO, err: TextIO) -> int:
    try:
        root = args.spec_root or configured_spec_root()
    except ConfigProblem as exc:
        err.write(f"error[USAGE]: {exc}\n")
        return 2
    try:
        checked = validate(root, strict=args.strict)
    except ConfigProblem as exc:  # the spec root cannot be read: its one line
        err.write(f"{exc}\n")
        return 2
    diags, counts = checked.diagnostics, checked.counts
    if args.format == "json":
        doc = {"schema": "pto-docs.validate.v1", "spec_root": root,
               "counts": counts, "diagnostics": [d.as_json() for d in diags]}
        out.write(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    else:
        for d in diags:
            err.write(d.format() + "\n")
        out.write(
            f"{counts['units']} units ({counts['instructions']} instructions), {counts['ndf_clauses']} NDF clauses, "
            f"{counts['requirements']} requirements, {counts['tests']} tests, {counts['adrs']} ADRs: "
            f"{counts['errors']} errors, {counts['warnings']} warnings\n")
    return checked.exit_code
