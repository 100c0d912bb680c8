"""Run one pto-docs executor case through the spec's own ASL model (the normative reference).

The bridge sets up the architectural state the ASL reads the way the spec's AVS ``execution`` tests do
(the state ``ResetProfileState`` leaves; ``ConfigureTile`` / ``ConfigurePredicateTile``; ``WriteTileElement`` /
``WriteTilePredicateBit``; ``SetBundleDataAttributeState`` plus ``_BundleDataAttributesPresent`` for an
explicit PadValue), asks the operation's ``InstructionContractOperandsLegal_<M>`` (false:
``Fault_TileLegality`` before any effect), calls ``InstructionContractExecute_<M>`` and reads back the
destination (``ReadTileElement`` / ``ReadTilePredicateBit``, ``TileElementDefined`` /
``TilePredicateBitDefined``) and ``NumericStatusFlags()`` (NV bit 0 .. NX bit 4).

Scope: the direct one-level call of the AVS execution tests, so the destination must already be
configured in the case (the bundle path's renaming allocation and B.DIM checks are not exercised), and
the bundle controls are PadValue and CMode. TCVT is the exception: its destination is the new tile the
executor allocates (the source's rows, columns and valid region, the bundle's ``data_type`` or the source
type, ``destination_capacity_bytes`` or the exact size), configured before the call as the spec's TCVT
tests do, and its ``NumericExecutionControl`` is the bundle's ``rounding`` (resolved to the mode the ASL's
``ResolveTileNumericExecutionControl`` picks for RMode 0: RTZ floating to integer, RNE otherwise) and
``saturate``; legality is ``TileOperandsLegal_TCVT``.
The interpreter runs with the ``ieee`` numeric profile (``pto_docs.asl.profiles``).
"""

from __future__ import annotations

from ..asl.errors import AslAssertionError
from ..asl.harness import Session
from ..asl.model import Unit, load_model
from ..asl.runner import run_in_big_stack
from ..asl.values import BV
from ..executor import case as case_mod
from ..executor import conversion, dtypes, state
from ..executor.faults import FAULT_TILE_LEGALITY
from ..executor.flags import FLAG_NAMES
from ..executor.registry import OPS
from ..runtime.gc_pause import full_collections_paused
from ..store import sealed_folder
from .avs import PARSED_UNITS

# B.DATR RMode codes of the executor's semantic mode names (None: the operation default, code 0)
RMODE_CODES = {None: 0, "RNE": 1, "RTZ": 2, "RTM": 3, "RTP": 4, "RNA": 5, "RTO": 6, "RHB": 7}
PAD_CODES = {"Zero": 0b00, "Max": 0b01, "Min": 0b10, "Null": 0b11}
WORD = 64
UNBRIDGED: frozenset[str] = frozenset()

# The ASL names this bridge calls, sets or reads (record fields included), and the prefixes of the names it composes
# ("TileDataType_" + data type): what checks/semantics.py roots its witnesses' model at. tests/bridge keeps them
# in step with the calls below.
ASL_NAMES: frozenset[str] = frozenset({
    "ConfigurePredicateTile", "ConfigureTile", "DecodeBundleRoundingSelection",
    "InstructionContractDefaultRounding_TCVT", "NumericStatusFlags", "ReadTileElement", "ReadTilePredicateBit",
    "ResetProfileState", "SetBundleDataAttributeState", "TileElementDefined", "TileOperandsLegal_TCVT",
    "TilePredicateBitDefined", "WriteTileElement", "WriteTilePredicateBit", "_BundleDataAttributesPresent",
    "rounding_mode", "saturating", "use_operation_default",
})
ASL_PREFIXES: tuple[str, ...] = ("InstructionContractExecute_", "InstructionContractOperandsLegal_", "TileComparison_",
                                 "TileDataType_", "TileLayout_", "TileLocation_")


class UnsupportedCase(ValueError):
    """A case outside the bridge's scope (see the module docstring)."""


def bridged_mnemonics() -> list[str]:
    return sorted(m for m in OPS if m not in UNBRIDGED)


class AslBridge:
    """One linked ASL program (``ieee`` profile), reused case after case."""

    def __init__(self, units: list[Unit], generated: str | None, cache_dir=None):
        with full_collections_paused():  # a linked model: a large structure that lives on (gc_pause.py)
            self.session = Session(load_model(units, generated, sealed_folder(cache_dir), PARSED_UNITS), "ieee")
            self.program = self.session.program
            # Every case starts from the state ResetProfileState() leaves (the first call of every AVS test):
            # run it once and make that the state the session restores before each case.
            run_in_big_stack(self.program.call, "ResetProfileState")
            self.program.keep_state_as_initial()

    # -- state helpers -------------------------------------------------------------------------
    def _configure(self, tile: state.Tile) -> None:
        call = self.program.call
        if tile.kind == state.PREDICATE:
            call("ConfigurePredicateTile", tile.index, tile.capacity_bytes, tile.rows, tile.columns,
                 tile.valid_rows, tile.valid_columns)
            for r in range(tile.rows):
                for c in range(tile.columns):
                    if tile.defined[r, c]:
                        call("WriteTilePredicateBit", tile.index, r, c, bool(tile.bits[r, c]))
            return
        call("ConfigureTile", tile.index, tile.capacity_bytes, tile.rows, tile.columns,
             tile.valid_rows, tile.valid_columns, "TileDataType_" + tile.data_type,
             "TileLayout_" + tile.layout, "TileLocation_" + tile.location)
        for r in range(tile.rows):
            for c in range(tile.columns):
                if tile.defined[r, c]:
                    call("WriteTileElement", tile.index, r, c, BV(int(tile.bits[r, c]), WORD))

    def _set_pad(self, pad: str | None) -> None:
        if pad is None:
            return
        self.program.call("SetBundleDataAttributeState", BV(0, 5), BV(0, 5), BV(PAD_CODES[pad], 2),
                          BV(0, 3), BV(0, 3), False, False)
        self.program.set_global("_BundleDataAttributesPresent", True)

    def _read(self, tile: state.Tile) -> tuple[list[list[int | None]]]:
        call = self.program.call
        out = []
        for r in range(tile.rows):
            row = []
            for c in range(tile.columns):
                if tile.kind == state.PREDICATE:
                    defined = call("TilePredicateBitDefined", tile.index, r, c)
                    row.append(int(bool(call("ReadTilePredicateBit", tile.index, r, c)))
                               if defined else None)
                else:
                    defined = call("TileElementDefined", tile.index, r, c)
                    mask = (1 << tile.dt.bits) - 1
                    row.append(call("ReadTileElement", tile.index, r, c).val & mask if defined else None)
            out.append(row)
        return out

    # -- one case ------------------------------------------------------------------------------
    def run(self, case: dict) -> dict:
        """``{"status", "fault", "destination": rows of bits (None = undefined), "status_flags"}``."""
        return run_in_big_stack(self.run_here, case)

    def run_here(self, case: dict) -> dict:
        """``run`` in the calling thread (which must have a big stack: ``asl.runner.run_in_big_stack``)."""
        if "bundle_text" in case:
            raise UnsupportedCase("bundle_text cases are not bridged")
        ex = case["execute"]
        mnemonic, dst, srcs = ex["instruction"], ex["destination"], list(ex["sources"])
        if mnemonic in UNBRIDGED or (mnemonic not in OPS and  # (one the executor lacks: exec_v1_model.py)
                                     not self.program.has_subprogram("InstructionContractExecute_" + mnemonic)):
            raise UnsupportedCase(f"{mnemonic} is not bridged")
        bundle = case.get("bundle", {})
        if bundle.get("pe_mask", "0001") != "0001" or (bundle.get("data_type") and mnemonic != "TCVT"):
            raise UnsupportedCase("only PE_MASK 0001 without a DataType override (but TCVT's) is bridged")
        tf = case_mod.build_state(case)
        if mnemonic == "TCVT":
            tf.tiles[dst] = self._tcvt_destination(case, tf)
        dest = tf.get(dst)
        if dest is None:
            raise UnsupportedCase("the destination must be configured in the case")
        self.session.restore()
        call = self.program.call
        for index in sorted(tf.tiles):
            self._configure(tf.tiles[index])
        pad = bundle.get("pad_value")
        self._set_pad(case_mod.bundle_mod.PAD_CODES.get(pad, pad))
        args = [dst, *srcs]
        if mnemonic == "TCMP":
            args.append("TileComparison_" + bundle.get("cmode", "EQ"))
        if mnemonic == "TCVT":
            args.append(self._tcvt_control(bundle, tf.tiles[srcs[0]], dest))
            legal = call("TileOperandsLegal_TCVT", *args)
        else:
            legal = call("InstructionContractOperandsLegal_" + mnemonic, *args)
        # a faulting TCVT allocates no destination: no destination to read (None), as in the executor
        unallocated = mnemonic == "TCVT"
        if not legal:
            return self._result("fault", FAULT_TILE_LEGALITY, tf.tiles[dst], unallocated)
        try:
            call("InstructionContractExecute_" + mnemonic, *args)
        except AslAssertionError as exc:  # a legality the OperandsLegal function did not cover
            return self._result("fault", f"assertion: {exc}", tf.tiles[dst], unallocated)
        return self._result("ok", None, tf.tiles[dst])

    @staticmethod
    def _tcvt_destination(case: dict, tf) -> state.Tile:
        ex = case["execute"]
        if ex["destination"] in [int(s) for s in ex["sources"]] and case.get("bundle", {}).get("data_type"):
            raise UnsupportedCase("a TCVT destination aliasing its source with another type is not bridged")
        src = tf.get(ex["sources"][0])
        if src is None:
            raise UnsupportedCase("the TCVT source must be configured in the case")
        data_type = case.get("bundle", {}).get("data_type") or src.data_type
        capacity = ex.get("destination_capacity_bytes") or \
            src.rows * src.columns * dtypes.get(data_type).bits // 8
        if not state.capacity_is_legal(capacity):
            raise UnsupportedCase(f"TCVT destination capacity {capacity} is not legal (an allocation fault)")
        return state.Tile(ex["destination"], capacity, src.rows, src.columns, src.valid_rows,
                          src.valid_columns, data_type)

    def _tcvt_control(self, bundle: dict, source: state.Tile, destination: state.Tile) -> dict:
        """The NumericExecutionControl the ASL resolves from B.DATR RMode and Sat (DecodeBundleRoundingSelection,
        then InstructionContractDefaultRounding_TCVT for RMode 0)."""
        selector = bundle.get("rounding")
        code = selector if isinstance(selector, int) and not isinstance(selector, bool) else \
            RMODE_CODES[conversion.RMODE_NAMES[selector] if selector is not None else None]
        call = self.program.call
        selection = call("DecodeBundleRoundingSelection", BV(code, 3))
        mode = selection["rounding_mode"]
        if selection["use_operation_default"]:
            mode = call("InstructionContractDefaultRounding_TCVT", "TileDataType_" + source.data_type,
                        "TileDataType_" + destination.data_type)
        return {"rounding_mode": mode, "saturating": bool(bundle.get("saturate", False))}

    def _result(self, status: str, fault: str | None, dest: state.Tile, unallocated: bool = False) -> dict:
        flags = self.program.call("NumericStatusFlags").val
        return {"status": status, "fault": fault, "destination": None if unallocated else self._read(dest),
                "status_flags": {name: bool(flags >> i & 1) for i, name in enumerate(FLAG_NAMES)}}


def numpy_view(result: dict, destination: int) -> dict:
    """The same view of a ``run_case`` result: destination bits as integers (None = undefined; the whole
    destination None when it was never allocated: a faulting TCVT)."""
    tile = result["tiles"].get(str(destination))
    if tile is None:
        return {"status": result["status"], "fault": result["fault"], "destination": None,
                "status_flags": result["status_flags"]}
    rows = [[None if b is None else int(b, 16) for b in row] for row in tile["bits"]]
    return {"status": result["status"], "fault": result["fault"], "destination": rows,
            "status_flags": result["status_flags"]}
