"""pto-docs validate: print every diagnostic, then one summary line."""

from __future__ import annotations

import json
from typing import TextIO

from ..analysis.load import LoadResult, load_catalog
from ..model.diagnostics import SpecRootError, count
from ..sources.mkdocs_options import ConfigProblem, configured_spec_root


def summary_counts(result: LoadResult, errors: int, warnings: int) -> dict[str, int]:
    cat = result.catalog
    return {
        "units": len(cat.units),
        "instructions": sum(1 for u in cat.units.values() if u.is_instruction),
        "ndf_clauses": sum(len(u.ndf) for u in cat.units.values()),
        "requirements": len(cat.requirements),
        "tests": len(cat.tests),
        "adrs": len(cat.adrs),
        "errors": errors,
        "warnings": warnings,
    }


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
    result = load_or_report(args.spec_root, err)
    if result is None:
        return 2
    diags = list(result.diagnostics)
    from ..checks.consistency import consistency_diagnostics
    diags += consistency_diagnostics(result.catalog)
    if args.strict:
        diags = [d if d.is_error else type(d)(d.path, d.line, d.col, "error", d.code, d.message, d.pointer) for d in diags]
    errors, warnings = count(diags)
    counts = summary_counts(result, errors, warnings)
    if args.format == "json":
        doc = {"schema": "pto-docs.validate.v1", "spec_root": args.spec_root or configured_spec_root(),
               "counts": counts, "diagnostics": [d.as_json() for d in diags]}
        out.write(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    else:
        for d in diags:
            (err if d.is_error else err).write(d.format() + "\n")
        out.write(
            f"{counts['units']} units ({counts['instructions']} instructions), {counts['ndf_clauses']} NDF clauses, "
            f"{counts['requirements']} requirements, {counts['tests']} tests, {counts['adrs']} ADRs: "
            f"{errors} errors, {warnings} warnings\n")
    io_problem = any(d.code.startswith("IO-") for d in diags)
    return 2 if io_problem else (1 if errors else 0)
