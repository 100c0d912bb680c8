"""``pto-docs exec`` of a v2 case (``pto_docs.bridge.exec_model``): load the tree, link its ASL model, run, print.

Exit codes as for v1 cases: 0 the case ran (whatever the instruction did, faults included), 2 the case is
malformed, cannot run on this model, or the tree or decoders cannot be read."""

from __future__ import annotations

import json
from typing import TextIO


def v2_runner(args, out: TextIO, err: TextIO):
    def run(case, name: str, text: str) -> int | None:
        from ..bridge.exec_model import CaseProblem, check_case, is_v2
        if not is_v2(case):
            return _run_v1_on_model(case, args, out, err)

        try:
            check_case(case)
        except CaseProblem as exc:
            err.write(f"{name}:1:1: error[EXEC-SCHEMA]: {exc} (at {exc.pointer})\n")
            return 2
        return _run(case, name, args, out, err)
    return run


def _run_v1_on_model(case, args, out: TextIO, err: TextIO) -> int | None:
    """A v1 case of an operation the NumPy executor lacks, with ``--spec-root`` given: run on that tree's ASL
    model (bridge.exec_v1_model; its CaseError is printed by the executor's command). None: the executor's."""
    from ..bridge.exec_v1_model import needs_model
    if args.spec_root is None or not needs_model(case):
        return None
    from ..api import run_case
    from ..executor.case import validate_schema
    validate_schema(case)  # a malformed case: the executor's own diagnostic, before the tree is loaded
    model = _model(args, err)
    if isinstance(model, int):
        return model
    _print(run_case(case, **model), out)
    return 0


def _model(args, err: TextIO) -> dict | int:
    """The tree loaded (through the user's cache) and its decoders, as ``run_case``'s keywords; an int is the exit
    code of a tree or decoders that cannot be read (their diagnostics written)."""
    from .avs import decoders_for, load_with_cache
    loaded = load_with_cache(args, err, "exec", "the case was not run", tree_errors_exit=2)
    if isinstance(loaded, int):
        return loaded
    result, cache = loaded
    generated = decoders_for(result.catalog, args.decoders, err, cache)
    if generated is False:
        return 2
    return {"loaded": result, "decoders": generated, "cache": cache}


def _print(doc, out: TextIO) -> None:
    out.write(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def _run(case, name: str, args, out: TextIO, err: TextIO) -> int:
    from ..api import run_case
    from ..bridge.exec_model import CaseProblem
    model = _model(args, err)
    if isinstance(model, int):
        return model
    try:
        doc = run_case(case, **model)
    except CaseProblem as exc:
        err.write(f"{name}:1:1: error[EXEC-CASE]: {exc} (at {exc.pointer})\n")
        return 2
    _print(doc, out)
    return 0
