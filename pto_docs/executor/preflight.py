"""Preflight of one operation, shared by the engine and its operation modules.

The checks of step 2 of :mod:`.engine` (type set, source allocation, kind, definedness and
encoding, shapes, B.DIM geometry, destination capacity) and the :class:`Plan` a ``prepare`` returns.
A fault raises :class:`TileFault` before anything has changed.  The operation modules import this
module, never the engine, so that the engine can import them (no import cycle).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import dtypes, state
from .bundle import Bundle
from .faults import allocation, legality
from .registry import OpSpec
from .state import Tile, TileFile


@dataclass
class Plan:
    spec: OpSpec
    sources: list[Tile]
    destination: Tile  # descriptor of the result (payload filled later)
    new_allocation: bool


def source_tile(tf: TileFile, index: int, role: str = "source") -> Tile:
    t = tf.get(index)
    if t is None:
        raise legality(f"{role} T{index} is not allocated")
    return t


def require_numeric(t: Tile, role: str = "source"):
    if t.kind != state.NUMERIC:
        raise legality(f"{role} T{t.index} is a predicate tile, a numeric tile is required")


def require_defined(t: Tile, role: str = "source"):
    if not t.contents_defined():
        rows, cols = np.nonzero(~t.defined[t.valid_slice])
        raise legality(f"{role} T{t.index} element [{rows[0]},{cols[0]}] of the valid region is undefined")


def require_encodings(t: Tile, role: str = "source"):
    dt = t.dt
    if dt.is_float and dt.low_zero_bits:
        ok = dtypes.encoding_valid(t.valid_bits(), dt)
        if not ok.all():
            rows, cols = np.nonzero(~ok)
            raise legality(f"{role} T{t.index} element [{rows[0]},{cols[0]}] is not a valid "
                           f"{dt.name} encoding (low {dt.low_zero_bits} bits must be zero)")


def require_type(spec: OpSpec, data_type: str, role: str = "DataType"):
    if data_type not in spec.data_types:
        raise legality(f"unsupported {role} {data_type} for {spec.mnemonic} "
                       f"(accepted: {', '.join(spec.data_types)})")


def same_shape(a: Tile, b: Tile, what: str, physical: bool = True, dtype: bool = True):
    if physical and (a.rows, a.columns) != (b.rows, b.columns):
        raise legality(f"{what}: physical shape {a.rows}x{a.columns} of T{a.index} does not match "
                       f"{b.rows}x{b.columns} of T{b.index}")
    if (a.valid_rows, a.valid_columns) != (b.valid_rows, b.valid_columns):
        raise legality(f"{what}: valid shape {a.valid_rows}x{a.valid_columns} of T{a.index} does "
                       f"not match {b.valid_rows}x{b.valid_columns} of T{b.index}")
    if a.layout != b.layout:
        raise legality(f"{what}: layouts differ")
    if dtype and a.data_type != b.data_type:
        raise legality(f"{what}: data type {a.data_type} of T{a.index} does not match "
                       f"{b.data_type} of T{b.index}")


def new_destination(tf: TileFile, index: int, bundle: Bundle, data_type: str, columns: int,
                    valid_rows: int, valid_columns: int, capacity: int, min_rows: int,
                    exact_rows: int | None = None, kind: str = state.NUMERIC,
                    rows: int | None = None) -> Tile:
    """Allocate a renamed Local destination (faults: Fault_TileAllocation)."""
    if not state.capacity_is_legal(capacity):
        raise allocation(f"destination TSize {capacity} is not a legal Local tile capacity")
    if kind == state.PREDICATE:
        if state.predicate_storage_bytes(rows, columns) > capacity:
            raise allocation(f"destination TSize {capacity} cannot hold {rows}x{columns} predicate bits")
        prow = rows
    else:
        prow = state.derived_rows(capacity, columns, dtypes.get(data_type))
        if prow == 0 or prow < min_rows or (exact_rows is not None and prow != exact_rows):
            need = exact_rows if exact_rows is not None else min_rows
            raise allocation(f"destination TSize {capacity} does not give {need} row(s) of "
                             f"{columns} {data_type} columns")
    charge = state.popcount4(bundle.pe_mask) * capacity
    in_use = tf.capacity_in_use(excluding=index)
    if in_use + charge > state.TILE_CAPACITY_LIMIT_BYTES:
        raise allocation(f"tile capacity exhausted: {in_use} bytes in use + {charge} requested "
                         f"> {state.TILE_CAPACITY_LIMIT_BYTES}")
    return Tile(index, capacity, prow, columns, valid_rows, valid_columns, data_type, kind=kind,
                allocation_mask=bundle.pe_mask)


def check_dims(bundle: Bundle, subject: Tile, what: str):
    """B.DIM (from bundle text) must describe ``subject``'s geometry."""
    if not bundle.dims_given:
        return
    if bundle.lb0 is None:
        raise legality("missing B.DIM LB0: ValidCol is required")
    for name, v in (("LB0", bundle.lb0), ("LB1", bundle.lb1), ("LB2", bundle.lb2)):
        if v is not None and v == 0:
            raise legality(f"B.DIM {name}=0: an explicitly present dimension must be nonzero")
    vc = bundle.lb0
    vr = bundle.lb1 if bundle.lb1 is not None else 1
    col = bundle.lb2 if bundle.lb2 is not None else vc
    if (subject.valid_rows, subject.valid_columns, subject.columns) != (vr, vc, col):
        raise legality(f"B.DIM geometry ValidRow={vr} ValidCol={vc} Col={col} does not match the "
                       f"{what} T{subject.index} ({subject.valid_rows}x{subject.valid_columns} "
                       f"valid, {subject.columns} columns)")


def check_datr_applicable(spec: OpSpec, bundle: Bundle):
    """An operation-inapplicable nonzero B.DATR field faults before effects."""
    nonzero = {"RMode": bundle.rounding not in (None, 0, "Default", "NONE", "None"),
               "Sat": bool(bundle.saturate), "Canonicalize": bool(bundle.canonicalize)}
    if spec.mnemonic == "TCVT":
        nonzero["CMode"] = bundle.cmode != "EQ"
    for name, present in nonzero.items():
        if present and name not in spec.datr_fields:
            raise legality(f"B.DATR field {name} is not applicable to {spec.mnemonic}")
