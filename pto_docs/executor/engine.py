"""Order of effects shared by every operation.

1. PE_MASK 0000 is a strict no-op (before any read, fault or effect).
2. Complete preflight: type set, source allocation/kind/definedness/encoding,
   shapes, operation rules, B.DIM geometry, destination capacity.  A fault
   raises :class:`TileFault` here and nothing has changed.
3. Snapshot every source payload (an aliasing destination reads old values).
4. Compute the valid region (vectorised).
5. Pad the rest of the physical destination (Zero / Max / Min / Null).
6. Publish payload, definedness and status flags together.

Upstream: asl/tile/model/execution/elementwise.asl (ExecuteTileBinary),
unary.asl, reduction.asl, expansion.asl, comparison.asl,
definedness/elements.asl (TileWithPadding, TilePadValueForDataType),
block/model/dispatch/destination-shape.asl (allocation faults).

The checks of step 2 live in :mod:`.preflight`, which the operation modules share; the engine
imports the operation modules and dispatches to them (one direction, no import cycle).
"""

from __future__ import annotations

import numpy as np

from . import dtypes, ops_convert, ops_elementwise, ops_reduce_expand, state
from .bundle import Bundle
from .faults import legality
from .flags import Flags
from .preflight import check_datr_applicable
from .registry import OPS
from .state import Tile, TileFile

# -------------------------------------------------------------- padding

def pad_bits(dt_name: str, pad: str, kind: str) -> int:
    if kind == state.PREDICATE:
        return 1 if pad == "Max" else 0
    dt = dtypes.get(dt_name)
    if pad == "Max":
        return dt.pad_max
    if pad == "Min":
        return dt.pad_min
    return 0


def publish_tile(dest: Tile, valid_bits: np.ndarray, pad: str) -> Tile:
    """Build the complete destination: valid region, then physical padding."""
    bits = np.full((dest.rows, dest.columns), np.uint64(pad_bits(dest.data_type, pad, dest.kind)),
                   np.uint64)
    defined = np.full((dest.rows, dest.columns), pad != "Null", bool)
    if pad == "Null":
        bits[:] = 0
    vr, vc = dest.valid_rows, dest.valid_columns
    bits[:vr, :vc] = valid_bits
    defined[:vr, :vc] = True
    dest.bits = bits
    dest.defined = defined
    return dest


# ------------------------------------------------------------ execution

def execute(tf: TileFile, bundle: Bundle, mnemonic: str, destination: int,
            sources: list[int], dst_capacity: int | None = None,
            bundle_type: str | None = None) -> tuple[TileFile, Flags, bool]:
    """Run one operation; returns (new state, flags, executed)."""
    if bundle.pe_mask == "0000":
        return tf, Flags(), False
    spec = OPS[mnemonic]
    check_datr_applicable(spec, bundle)
    if spec.kind in ops_convert.KINDS:
        module = ops_convert
    elif spec.kind in ops_elementwise.KINDS:
        module = ops_elementwise
    else:
        module = ops_reduce_expand
    plan = module.prepare(spec, tf, bundle, destination, sources, dst_capacity)
    if bundle_type is not None and bundle_type != module.bundle_type(plan):
        raise legality(f"BSTART DataType {bundle_type} does not match the source data type "
                       f"{module.bundle_type(plan)}")
    snapshots = [t.bits.copy() for t in plan.sources]
    valid_bits, flag_arrays = module.compute(plan, snapshots, bundle)
    dest = publish_tile(plan.destination, valid_bits, bundle.effective_pad)
    out = tf.snapshot()
    out.tiles[destination] = dest
    flags = Flags().add(**flag_arrays)
    return out, flags, True
