"""Operation class reduce-and-expand (all 28 release-0.58.3 ops).

Row/column reductions TROW*/TCOL* SUM PROD MAX MIN ARGMAX ARGMIN and row/
column expansions TROWEXPAND*/TCOLEXPAND* (COPY ADD SUB MUL DIV MAX MIN
EXPDIF).  Semantics follow asl/tile/model/execution/reduction.asl (typed
left fold in increasing index order, SUM from zero, PROD from one, MIN/MAX
seeded with the first element, ARG keeps the lowest winning index) and
execution/expansion.asl (broadcast of BroadcastTile[0,c] down rows or
BroadcastTile[r,0] across columns; EXPDIF = exp(src - broadcast), with exact
FP16/BF16 -> FP32 widening for mixed pairs).  Legality follows
asl/tile/model/legality/reduction-and-expansion.asl.
"""

from __future__ import annotations

import numpy as np

from . import dtypes, numeric, state
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

_REDUCE_BINARY = {"SUM": "ADD", "PRODUCT": "MUL", "MAX": "MAX", "MIN": "MIN",
                  "ARGMAX": "MAX", "ARGMIN": "MIN"}
_EXPDIF_PAIRS = {("FP16", "FP16"), ("BF16", "BF16"), ("FP32", "FP32"),
                 ("FP16", "FP32"), ("BF16", "FP32")}


def _min_capacity(columns: int, rows: int, dt_name: str) -> int:
    need = rows * columns * dtypes.get(dt_name).bits // 8
    cap = state.TILE_CELL_BYTES
    while cap < need or state.derived_rows(cap, columns, dtypes.get(dt_name)) == 0:
        cap *= 2
    return cap


def _existing_dest(existing: Tile, data_type: str | None = None) -> Tile:
    require_numeric(existing, "destination")
    return Tile(existing.index, existing.capacity_bytes, existing.rows, existing.columns,
                existing.valid_rows, existing.valid_columns, data_type or existing.data_type,
                allocation_mask=existing.allocation_mask)


def _require_nonzero_valid(t: Tile, role: str):
    if t.valid_rows == 0 or t.valid_columns == 0:
        raise legality(f"{role} T{t.index} has a zero valid dimension "
                       f"({t.valid_rows}x{t.valid_columns})")


def prepare(spec: OpSpec, tf: TileFile, bundle: Bundle, dst: int, srcs: list[int],
            dst_capacity: int | None) -> Plan:
    tiles = [source_tile(tf, i) for i in srcs]
    for t in tiles:
        require_numeric(t)
    if spec.kind == "reduce":
        return _prepare_reduce(spec, tf, bundle, dst, tiles, dst_capacity)
    return _prepare_expand(spec, tf, bundle, dst, tiles, dst_capacity)


def _prepare_reduce(spec, tf, bundle, dst, tiles, dst_capacity):
    src = tiles[0]
    require_type(spec, src.data_type)
    check_dims(bundle, src, "source")
    _require_nonzero_valid(src, "source")
    require_defined(src)
    require_encodings(src)
    if dst == src.index:
        raise legality("a reduction destination must not be its source")
    arg = spec.op.startswith("ARG")
    existing = tf.get(dst)
    if existing is not None:
        dest = _existing_dest(existing)
    else:
        dtype = (bundle.dst_data_type or "S32") if arg else src.data_type
        if spec.axis == "row":
            cols, vr, vc, min_rows = 1, src.valid_rows, 1, src.valid_rows
        else:
            cols, vr, vc, min_rows = src.columns, 1, src.valid_columns, 1
        if dtype not in dtypes.DATA_TYPES:
            raise legality(f"unknown destination data type {dtype}")
        cap = dst_capacity or _min_capacity(cols, min_rows, dtype)
        dest = new_destination(tf, dst, bundle, dtype, cols, vr, vc, cap, min_rows)
    if arg:
        if dest.data_type not in ("S32", "U32"):
            raise legality(f"{spec.mnemonic} destination must be S32 or U32, not {dest.data_type}")
    elif dest.data_type != src.data_type:
        raise legality(f"destination type {dest.data_type} does not match source {src.data_type}")
    if spec.axis == "row":
        ok = (dest.columns == 1 and dest.valid_columns == 1 and dest.valid_rows == src.valid_rows
              and dest.rows >= src.valid_rows)
        want = f"one column with {src.valid_rows} valid row(s)"
    else:
        ok = (dest.columns == src.columns and dest.valid_rows == 1
              and dest.valid_columns == src.valid_columns)
        want = f"{src.columns} columns with one valid row of {src.valid_columns}"
    if not ok:
        raise legality(f"{spec.mnemonic} destination T{dst} must have {want}")
    return Plan(spec, tiles, dest, existing is None)


def _prepare_expand(spec, tf, bundle, dst, tiles, dst_capacity):
    copy = spec.op == "COPY"
    bcast = tiles[-1]
    src = tiles[0]
    require_type(spec, src.data_type)
    existing = tf.get(dst)
    if spec.op == "EXPDIF":
        dst_type = existing.data_type if existing is not None else (
            bundle.dst_data_type or src.data_type)
        if (src.data_type, dst_type) not in _EXPDIF_PAIRS:
            raise legality(f"unsupported (source, destination) type pair ({src.data_type}, {dst_type})")
    else:
        dst_type = src.data_type
    if existing is not None:
        dest = _existing_dest(existing)
        if dest.data_type != dst_type:
            raise legality(f"destination type {dest.data_type} does not match {dst_type}")
    else:
        shape_src = bcast if copy else src
        if dst_capacity:
            cap = dst_capacity
        else:
            ratio = dtypes.get(dst_type).bits // dtypes.get(src.data_type).bits
            cap = shape_src.capacity_bytes * max(1, ratio)
        dest = new_destination(tf, dst, bundle, dst_type, shape_src.columns, shape_src.valid_rows,
                               shape_src.valid_columns, cap, shape_src.rows,
                               exact_rows=None if copy else shape_src.rows)
    check_dims(bundle, dest, "destination")
    _require_nonzero_valid(dest, "destination")
    if bcast.data_type != src.data_type:
        raise legality(f"broadcast type {bcast.data_type} does not match {src.data_type}")
    require_defined(bcast, "broadcast source")
    if not copy:
        same_shape(src, dest, "source and destination", dtype=spec.op != "EXPDIF")
        require_defined(src)
        require_encodings(src)
        require_encodings(bcast, "broadcast source")
    if spec.axis == "row":
        ok = bcast.valid_rows == dest.valid_rows and bcast.valid_columns == 1 and bcast.columns == 1
        want = f"{dest.valid_rows} valid row(s) and one column"
    else:
        ok = (bcast.valid_rows == 1 and bcast.valid_columns == dest.valid_columns
              and bcast.columns == dest.columns)
        want = f"one valid row of {dest.valid_columns} and {dest.columns} columns"
    if not ok:
        raise legality(f"{spec.mnemonic} broadcast source T{bcast.index} must have {want}")
    if spec.op == "DIV" and dest.dt.is_integer:
        used = _broadcast_values(bcast.bits, spec.axis, dest.valid_rows, dest.valid_columns)
        if (used == 0).any():
            raise legality(f"integer zero divisor in broadcast source T{bcast.index}")
    return Plan(spec, tiles, dest, existing is None)


def bundle_type(plan: Plan) -> str:
    return plan.sources[0].data_type


def _broadcast_values(bits, axis, vr, vc):
    if axis == "row":
        return np.broadcast_to(bits[:vr, 0:1], (vr, vc))
    return np.broadcast_to(bits[0:1, :vc], (vr, vc))


def _widen_to_fp32(bits, dt_name):
    """Exact FP16/BF16 -> FP32 widening (ExactWidenFP16ToFP32 / BF16ToFP32)."""
    if dt_name == "BF16":
        return (bits << np.uint64(16)).astype(np.uint64)
    fp32 = dtypes.get("FP32")
    src = dtypes.get("FP16")
    vals = dtypes.decode(bits, src).astype(np.float32)
    out = vals.view(np.uint32).astype(np.uint64)
    return np.where(dtypes.classify(bits, src)["nan"], np.uint64(fp32.canonical_nan), out)


def compute(plan: Plan, snaps, bundle: Bundle):
    spec = plan.spec
    dest = plan.destination
    if spec.kind == "reduce":
        return _reduce(plan, snaps[0])
    vr, vc = dest.valid_rows, dest.valid_columns
    b = np.ascontiguousarray(_broadcast_values(snaps[-1], spec.axis, vr, vc))
    if spec.op == "COPY":
        return b.astype(np.uint64), numeric._flags(b.shape)
    left = snaps[0][:vr, :vc]
    src_dt = plan.sources[0].dt
    if spec.op == "EXPDIF":
        dt = dest.dt
        if src_dt.name != dt.name:
            left, b = _widen_to_fp32(left, src_dt.name), _widen_to_fp32(b, src_dt.name)
        diff, f1 = numeric.binary("SUB", left, b, dt)
        res, f2 = numeric.unary("EXP", diff, dt)
        return res, {k: f1[k] | f2[k] for k in f1}
    return numeric.binary(spec.op, left, b, src_dt)


def _reduce(plan: Plan, snap):
    spec = plan.spec
    src = plan.sources[0]
    dt = src.dt
    a = snap[:src.valid_rows, :src.valid_columns]
    if spec.axis == "column":
        a = a.T
    outer, inner = a.shape
    op = _REDUCE_BINARY[spec.op]
    if spec.op == "SUM":
        acc, start = np.zeros(outer, np.uint64), 0
    elif spec.op == "PRODUCT":
        acc, start = np.full(outer, dt.one_bits, np.uint64), 0
    else:
        acc, start = a[:, 0].copy(), 1
    index = np.zeros(outer, np.uint64)
    flags = numeric._flags((outer,))
    for k in range(start, inner):
        v = a[:, k]
        res, f = numeric.binary(op, acc, v, dt)
        selected = (res == v) & (res != acc)
        if dt.is_integer and dt.is_signed and dt.bits < 64:
            # TileReductionStepWithFlags (execution/reduction.asl) compares the sign-extended MIN/MAX Word
            # with the stored, zero-extended element: a negative winner is never selected.
            selected &= (res & np.uint64(dt.sign_bit)) == 0
        index = np.where(selected, np.uint64(k), index)
        acc = res
        for name in flags:
            flags[name] = flags[name] | f[name]
    out = index if spec.op.startswith("ARG") else acc
    out = out.reshape((outer, 1)) if spec.axis == "row" else out.reshape((1, outer))
    return out.astype(np.uint64), flags
