"""Operation class elementwise-tile-tile (24 of the 25 release-0.58.3 ops; TCVT is ops_convert).

Binary (TADD TSUB TMUL TDIV TREM TMAX TMIN TAND TOR TXOR TSHL TSHR), fused
(TFMA), unary (TABS TNEG TNOT TRELU TSQRT TRSQRT TEXP TLOG TRECIP), compare
(TCMP, predicate destination) and select (TSEL, predicate mask).

Legality follows asl/tile/model/legality/operand-schema.asl
(TileOperandsLegal_ExecuteTileBinary / Unary / Compare / Select),
legality/indexed-layout.asl (TileOperandsLegal_TFMA) and
legality/allocation-capacity.asl (TilePayloadNonzero: an integer zero divisor
in the valid region faults before effects).
"""

from __future__ import annotations

import numpy as np

from . import numeric, state
from .bundle import Bundle
from .faults import legality
from .preflight import (
    Plan,
    check_dims,
    new_destination,
    require_defined,
    require_encodings,
    require_numeric,
    require_type,
    same_shape,
    source_tile,
)
from .registry import OpSpec
from .state import Tile, TileFile

KINDS = frozenset({"binary", "unary", "fma", "compare", "select"})


def _default_predicate_capacity(rows: int, columns: int) -> int:
    need = state.predicate_storage_bytes(rows, columns)
    cells = max(1, -(-need // state.TILE_CELL_BYTES))
    return cells * state.TILE_CELL_BYTES


def prepare(spec: OpSpec, tf: TileFile, bundle: Bundle, dst: int, srcs: list[int],
            dst_capacity: int | None) -> Plan:
    tiles = [source_tile(tf, i) for i in srcs]
    if spec.kind == "select":
        mask, data = tiles[0], tiles[1:]
    else:
        mask, data = None, tiles
    for t in data:
        require_numeric(t)
    first = data[0]
    require_type(spec, first.data_type)
    check_dims(bundle, first, "destination geometry of source")
    if first.valid_rows == 0 or first.valid_columns == 0:
        raise legality(f"zero dimension: the valid region of T{first.index} is "
                       f"{first.valid_rows}x{first.valid_columns} (ValidRow and ValidCol "
                       "must be nonzero)")
    for t in data[1:]:
        same_shape(t, first, "sources")
    for t in data:
        require_defined(t)
    # TileOperandsLegal_ExecuteTileBinary checks floating encodings only for MAX/MIN: TADD, TSUB, TMUL,
    # TDIV and TREM accept a TF32/HF32 source with nonzero low bits (numeric.float_binary: an invalid operand)
    arithmetic = spec.kind == "binary" and spec.op in ("ADD", "SUB", "MUL", "DIV", "REM")
    if first.dt.is_float and spec.kind != "select" and not arithmetic:
        for t in data:
            require_encodings(t)
    if mask is not None:
        if mask.kind != state.PREDICATE:
            raise legality(f"TSEL mask T{mask.index} must be a predicate tile; an ordinary "
                           "numeric tile is not a legal mask")
        same_shape(mask, first, "predicate mask and data sources", dtype=False)
        require_defined(mask, "predicate")
    if spec.kind == "binary" and spec.op in ("DIV", "REM") and first.dt.is_integer:
        zero = data[1].valid_bits() == 0
        if zero.any():
            r, c = np.nonzero(zero)
            raise legality(f"integer zero divisor at [{r[0]},{c[0]}] of T{data[1].index}")

    existing = tf.get(dst)
    if spec.kind == "compare":
        if existing is not None:
            if existing.kind != state.PREDICATE:
                raise legality(f"TCMP destination T{dst} must be a predicate tile")
            same_shape(existing, first, "destination", dtype=False)
            dest = Tile(dst, existing.capacity_bytes, existing.rows, existing.columns,
                        existing.valid_rows, existing.valid_columns, "U8", kind=state.PREDICATE,
                        allocation_mask=existing.allocation_mask)
        else:
            cap = dst_capacity or _default_predicate_capacity(first.rows, first.columns)
            dest = new_destination(tf, dst, bundle, "U8", first.columns, first.valid_rows,
                                   first.valid_columns, cap, 0, kind=state.PREDICATE,
                                   rows=first.rows)
    elif existing is not None:
        require_numeric(existing, "destination")
        same_shape(existing, first, "destination")
        dest = Tile(dst, existing.capacity_bytes, existing.rows, existing.columns,
                    existing.valid_rows, existing.valid_columns, existing.data_type,
                    allocation_mask=existing.allocation_mask)
    else:
        cap = dst_capacity or first.capacity_bytes
        dest = new_destination(tf, dst, bundle, first.data_type, first.columns, first.valid_rows,
                               first.valid_columns, cap, first.rows, exact_rows=first.rows)
    return Plan(spec, tiles, dest, existing is None)


def bundle_type(plan: Plan) -> str:
    data = plan.sources[1:] if plan.spec.kind == "select" else plan.sources
    return data[0].data_type


def compute(plan: Plan, snaps: list[np.ndarray], bundle: Bundle):
    spec = plan.spec
    vr, vc = plan.destination.valid_rows, plan.destination.valid_columns
    vals = [s[:vr, :vc] for s in snaps]
    dt = plan.sources[-1].dt
    if spec.kind == "binary":
        # ExecuteTileBinary (execution/elementwise.asl) calls TileProfileBinary, which discards the
        # flags of TileProfileBinaryWithFlags: a tile-tile binary operation publishes no status flags.
        result, _ = numeric.binary(spec.op, vals[0], vals[1], dt)
        return result, numeric._flags(result.shape)
    if spec.kind == "unary":
        return numeric.unary(spec.op, vals[0], dt)
    if spec.kind == "fma":
        return numeric.fma(vals[0], vals[1], vals[2], dt)
    if spec.kind == "compare":
        res, flags = numeric.compare(bundle.cmode, vals[0], vals[1], dt)
        return res.astype(np.uint64), flags
    # select: a one bit selects SrcTrue, a zero bit SrcFalse, raw carrier copy
    pick = vals[0] != 0
    out = np.where(pick, vals[1], vals[2]).astype(np.uint64)
    return out, numeric._flags(out.shape)
