"""Tile register state: 64 tile registers with geometry and definedness.

Geometry follows upstream ``ConfigureTile`` (asl/tile/model/state/
allocation.asl, shape/rows-columns.asl, state/descriptors.asl): capacity is a
multiple of the 128-byte cell up to the 64 KiB Local allocation bound, the
physical column count is a power of two, and physical rows are derived as
capacity bits / (columns x element bits).  Predicate tiles (the TCMP result,
the TSEL mask) follow ``ConfigurePredicateTile``: one bit per element packed
into ceil(rows x columns / 8) bytes of a legal capacity.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

from . import dtypes
from .dtypes import DataType

TILE_REGISTER_COUNT = 64
TILE_CELL_BYTES = 128
TILE_MAX_ALLOCATION_BYTES = 65536
TILE_CAPACITY_LIMIT_BYTES = 262144  # reset value of TILE_CAPACITY (256 KiB per PE)

NUMERIC = "numeric"
PREDICATE = "predicate"


def capacity_is_legal(capacity_bytes: int) -> bool:
    return (TILE_CELL_BYTES <= capacity_bytes <= TILE_MAX_ALLOCATION_BYTES
            and capacity_bytes % TILE_CELL_BYTES == 0)


def is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0 and value <= 32768


def derived_rows(capacity_bytes: int, columns: int, dt: DataType) -> int:
    """Physical rows derived from capacity, columns and type; 0 when none."""
    if capacity_bytes <= 0 or not is_power_of_two(columns):
        return 0
    capacity_bits = capacity_bytes * 8
    row_bits = columns * dt.bits
    if capacity_bits % row_bits:
        return 0
    rows = capacity_bits // row_bits
    return rows if 0 < rows <= 65535 else 0


def predicate_storage_bytes(rows: int, columns: int) -> int:
    return (rows * columns + 7) // 8


def popcount4(mask: str) -> int:
    return mask.count("1")


@dataclass
class Tile:
    index: int
    capacity_bytes: int
    rows: int
    columns: int
    valid_rows: int
    valid_columns: int
    data_type: str
    kind: str = NUMERIC
    layout: str = "RowMajor"
    location: str = "Any"
    allocation_mask: str = "0001"
    bits: np.ndarray = field(default=None, repr=False)  # uint64 (rows, columns)
    defined: np.ndarray = field(default=None, repr=False)  # bool (rows, columns)

    def __post_init__(self):
        if self.bits is None:
            self.bits = np.zeros((self.rows, self.columns), np.uint64)
        if self.defined is None:
            self.defined = np.zeros((self.rows, self.columns), bool)

    @property
    def dt(self) -> DataType:
        return dtypes.get(self.data_type)

    @property
    def valid_slice(self):
        return (slice(0, self.valid_rows), slice(0, self.valid_columns))

    def valid_bits(self) -> np.ndarray:
        return self.bits[self.valid_slice]

    def contents_defined(self) -> bool:
        return bool(self.defined[self.valid_slice].all())

    def charged_bytes(self) -> int:
        return popcount4(self.allocation_mask) * self.capacity_bytes

    def clone(self) -> Tile:
        return copy.deepcopy(self)


def configure_tile(index: int, capacity_bytes: int, rows: int, columns: int,
                   valid_rows: int, valid_columns: int, data_type: str) -> Tile:
    """Upstream ConfigureTile; raises ValueError for a shape it rejects."""
    dt = dtypes.get(data_type)
    if not capacity_is_legal(capacity_bytes):
        raise ValueError(
            f"capacity_bytes {capacity_bytes} is not a multiple of {TILE_CELL_BYTES} "
            f"between {TILE_CELL_BYTES} and {TILE_MAX_ALLOCATION_BYTES}")
    if not is_power_of_two(columns):
        raise ValueError(f"columns {columns} is not a power of two")
    physical = derived_rows(capacity_bytes, columns, dt)
    if physical == 0:
        raise ValueError(
            f"no whole number of {columns}-column {data_type} rows fits {capacity_bytes} bytes")
    if rows <= 0 or rows > physical:
        raise ValueError(f"rows {rows} must be between 1 and the derived physical rows {physical}")
    if valid_rows > rows or valid_columns > columns:
        raise ValueError(
            f"valid region {valid_rows}x{valid_columns} exceeds the tile bound {rows}x{columns}")
    return Tile(index, capacity_bytes, physical, columns, valid_rows, valid_columns, data_type)


def configure_predicate_tile(index: int, capacity_bytes: int, rows: int, columns: int,
                             valid_rows: int, valid_columns: int) -> Tile:
    """Upstream ConfigurePredicateTile; raises ValueError for a rejected shape."""
    if not capacity_is_legal(capacity_bytes):
        raise ValueError(f"capacity_bytes {capacity_bytes} is not a legal tile capacity")
    if rows <= 0 or columns <= 0:
        raise ValueError("predicate rows and columns must be nonzero")
    if valid_rows > rows or valid_columns > columns:
        raise ValueError("valid region exceeds the predicate tile")
    if predicate_storage_bytes(rows, columns) > capacity_bytes:
        raise ValueError("predicate bits do not fit the capacity")
    return Tile(index, capacity_bytes, rows, columns, valid_rows, valid_columns, "U8",
                kind=PREDICATE)


class TileFile:
    """The 64 tile registers plus sticky numeric status."""

    def __init__(self):
        self.tiles: dict[int, Tile] = {}

    def capacity_in_use(self, excluding: int | None = None) -> int:
        return sum(t.charged_bytes() for i, t in self.tiles.items() if i != excluding)

    def get(self, index: int) -> Tile | None:
        return self.tiles.get(index)

    def snapshot(self) -> TileFile:
        # Published Tile objects are never mutated in place (every operation
        # publishes a fresh destination), so a shallow copy is a true snapshot.
        other = TileFile()
        other.tiles = dict(self.tiles)
        return other
