"""A v1 case (``pto-docs.case.v1``, executor/case.py) of a tile operation the NumPy executor does not model
(TGATHER, TCONCAT, TPARTADD/MAX/MIN/MUL, TTRANS, ...), run on the spec tree's own ASL model instead.

The case's tiles are configured and written as the AVS ``execution`` tests do (``executor_asl.AslBridge``: the
state ``ResetProfileState`` leaves, ``ConfigureTile``, ``WriteTileElement``), the operation's
``InstructionContractOperandsLegal_<M>`` decides legality (false: ``Fault_TileLegality`` before any effect), its
``InstructionContractExecute_<M>`` runs, and every tile of the case is read back. The result is the v1 result
document (``pto-docs.result.v1``) the NumPy executor would give, its message naming the model that ran it. The
destination must be configured in the case (as for every bridged case)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from ..asl.errors import AslError, internal_error, located
from ..executor import case as case_mod
from ..executor.faults import FAULT_TILE_LEGALITY, CaseError
from ..executor.registry import OPS


def needs_model(case: Mapping) -> bool:
    """A v1 case whose instruction the NumPy executor does not model (a bundle-text case never: it names the
    operation through the executor's own bundle parser)."""
    execute = case.get("execute")
    return (isinstance(execute, Mapping) and "bundle_text" not in case
            and isinstance(execute.get("instruction"), str) and execute["instruction"] not in OPS)


def run_on_model(catalog, generated: str | None, cache_dir, case: dict) -> dict:
    """The v1 result of ``case`` run on the ASL model of ``catalog`` (linked with ``generated``). Raises
    executor.CaseError (EXEC-SCHEMA for a malformed case, EXEC-SEMANTIC for one the model cannot run)."""
    from ..asl.harness import failure_text, memory_capped
    from ..asl.runner import run_in_big_stack
    from .avs import model_units
    from .executor_asl import AslBridge, UnsupportedCase
    case_mod.validate_schema(case)
    execute = case["execute"]
    mnemonic, sources = execute["instruction"], list(execute["sources"])
    tiles = case_mod.build_state(case)
    with memory_capped():
        try:
            bridge = AslBridge(model_units(catalog), generated, cache_dir)
        except Exception as exc:  # noqa: BLE001 - a model that cannot be linked, said with its position
            raise CaseError(f"the tree's ASL model cannot be linked: {failure_text(exc)}", "/",
                            "EXEC-SEMANTIC") from None
        program = bridge.program
        entry = f"InstructionContractExecute_{mnemonic}"
        if not program.has_subprogram(entry) or \
                not program.has_subprogram(f"InstructionContractOperandsLegal_{mnemonic}"):
            raise CaseError(f"unknown or unmodelled instruction {mnemonic}: neither the NumPy executor nor the "
                            f"tree's ASL model ({entry}) has it", "/execute/instruction", "EXEC-SEMANTIC")
        arity = program.arities(entry)
        if 1 + len(sources) not in arity:
            raise CaseError(f"{mnemonic} takes {min(arity) - 1} source(s) in the tree's ASL model, got "
                            f"{len(sources)}", "/execute/sources", "EXEC-SEMANTIC")
        try:
            out = run_in_big_stack(_run, bridge, case, tiles)
        except UnsupportedCase as exc:
            raise CaseError(f"{mnemonic} on the tree's ASL model: {exc}", "/execute", "EXEC-SEMANTIC") from None
        except (AslError, RecursionError) as exc:
            raise CaseError(f"{mnemonic} on the tree's ASL model: {type(exc).__name__}: {located(exc)}",
                            "/execute", "EXEC-SEMANTIC") from None
        except MemoryError:
            raise CaseError("the case needs more memory than this process can have", "/", "EXEC-SEMANTIC") from None
        except Exception as exc:  # noqa: BLE001 - the last-resort net: located, not a traceback
            raise CaseError(f"{mnemonic} on the tree's ASL model: {internal_error(exc)}", "/execute",
                            "EXEC-SEMANTIC") from None
    return out


def _run(bridge, case: dict, tiles) -> dict:
    """Run ``case`` on the bridge (``AslBridge.run_here``) and read every tile of the case back."""
    mnemonic = case["execute"]["instruction"]
    done = bridge.run_here(case)
    for tile in tiles.tiles.values():  # every tile as the model holds it after the operation
        grid = bridge._read(tile)
        for r, row in enumerate(grid):
            for c, bits in enumerate(row):
                tile.defined[r, c] = bits is not None
                tile.bits[r, c] = 0 if bits is None else bits
    if done["status"] == "fault":
        status, fault = "fault", FAULT_TILE_LEGALITY
        why = done["fault"] if done["fault"] != FAULT_TILE_LEGALITY else "its operands are not legal"
        message = f"{mnemonic} faulted on the spec's ASL model: {why}"
    else:
        status, fault = "ok", None
        message = f"{mnemonic} executed on the spec's ASL model (the NumPy executor does not model it)"
    result = {"status": status, "fault": fault, "message": message,
              "tiles": {str(i): case_mod.tile_result(t) for i, t in sorted(tiles.tiles.items())},
              "status_flags": done["status_flags"]}
    result["digest"] = hashlib.sha256(case_mod.canonical_bytes(result)).hexdigest()
    return result
