"""TCVT: elementwise-tile-tile format conversion (VEC Mode 0 Function 27).

Legality follows the TCVT contract, asl/tile/model/legality/operand-schema.asl
(``TileOperandsLegal_TCVT``) and asl/block/model/dispatch/tcvt-schema.asl:
exactly one source and one newly allocated (renamed) destination; the source
type is the BSTART DataType; the destination type is the concrete B.DATR
DataType or the inherited source type; source and destination have equal
Row, Col, ValidRow and ValidCol while each capacity matches its own type; the
source valid region is fully defined with valid encodings; an ordinary
(public) source requires Canonicalize=0.  Every modelled type pair is legal
(``HardwareTCVTTypePairSupported`` only restricts E8M0 destinations).

The source may alias the destination: the engine snapshots the source before
the destination is published.  Element semantics are in
:mod:`pto_docs.executor.conversion`.
"""

from __future__ import annotations

from . import conversion, dtypes
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
    source_tile,
)
from .registry import OpSpec
from .state import TileFile

KINDS = frozenset({"convert"})


def destination_type(bundle: Bundle, source_type: str) -> str:
    """InstructionContractDestinationDataType_TCVT: concrete DataType or the source type."""
    return bundle.dst_data_type or source_type


def prepare(spec: OpSpec, tf: TileFile, bundle: Bundle, dst: int, srcs: list[int],
            dst_capacity: int | None) -> Plan:
    src = source_tile(tf, srcs[0])
    require_numeric(src)
    require_type(spec, src.data_type)
    check_dims(bundle, src, "source")
    if src.valid_rows == 0 or src.valid_columns == 0:
        raise legality(f"zero dimension: the valid region of T{src.index} is "
                       f"{src.valid_rows}x{src.valid_columns} (ValidRow and ValidCol must be nonzero)")
    if bundle.canonicalize:
        raise legality(f"Canonicalize=1 requires a private CUBE source; the ordinary source "
                       f"T{src.index} requires Canonicalize=0")
    require_defined(src)
    require_encodings(src)
    dtype = destination_type(bundle, src.data_type)
    if dtype not in dtypes.DATA_TYPES:
        raise legality(f"unknown destination data type {dtype}")
    dbits = dtypes.get(dtype).bits
    cap = dst_capacity or src.rows * src.columns * dbits // 8
    dest = new_destination(tf, dst, bundle, dtype, src.columns, src.valid_rows,
                           src.valid_columns, cap, src.rows, exact_rows=src.rows)
    return Plan(spec, [src], dest, True)


def bundle_type(plan: Plan) -> str:
    return plan.sources[0].data_type


def compute(plan: Plan, snaps, bundle: Bundle):
    dest = plan.destination
    vals = snaps[0][:dest.valid_rows, :dest.valid_columns]
    return conversion.convert(vals, plan.sources[0].dt, dest.dt, bundle.rounding,
                              bundle.saturate)
