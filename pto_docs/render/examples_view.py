"""Worked examples as tables: input and output tiles (valid region vs padding), flags, fault and digest."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model.frozen import thaw
from . import routes
from .numbers import exact_title, number_text

MAX_ROWS = 32
MAX_COLS = 32
FLAGS = ("NV", "DZ", "OF", "UF", "NX")


@dataclass(frozen=True)
class Cell:
    text: str
    valid: bool
    undefined: bool
    title: str = ""  # the exact bits and value, when the text is a rounded float


@dataclass(frozen=True)
class RowRun:
    """Rows ``first``..``last`` (0-based, inclusive) outside the valid region, every element ``cell``: one table row."""

    first: int
    last: int
    cell: Cell

    @property
    def count(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class TileTable:
    name: str
    data_type: str
    rows: int
    columns: int
    valid_rows: int
    valid_columns: int
    grid: tuple[tuple[Cell, ...], ...]
    truncated: bool

    @property
    def folded_columns(self) -> tuple[int, Cell] | None:
        """(how many, the element) when the two or more columns right of the valid region hold one padding
        element throughout (TCOLEXPAND: four columns of -3.4028235e+38): shown as one cell per row."""
        width = len(self.grid[0]) if self.grid else 0
        start = self.valid_columns
        if not 0 < start <= width - 2 or any(len(row) != width for row in self.grid):
            return None
        cells = {c for row in self.grid for c in row[start:]}
        if len(cells) != 1:
            return None
        cell = next(iter(cells))
        return None if cell.valid else (width - start, cell)

    @property
    def shown_columns(self) -> int:
        folded = self.folded_columns
        width = len(self.grid[0]) if self.grid else 0
        return self.valid_columns if folded else width

    @property
    def runs(self) -> tuple[tuple[Cell, ...] | RowRun, ...]:
        """The grid with every run of two or more identical, uniform rows outside the valid region folded
        into one :class:`RowRun` (the valid region and any differing row stay element by element)."""
        out: list[tuple[Cell, ...] | RowRun] = []
        r = 0
        while r < len(self.grid):
            row = self.grid[r]
            uniform = bool(row) and not any(c.valid for c in row) and all(c == row[0] for c in row)
            end = r
            if uniform:
                while end + 1 < len(self.grid) and self.grid[end + 1] == row:
                    end += 1
            if end > r:
                out.append(RowRun(r, end, row[0]))
            else:
                out.append(row)
            r = end + 1
        return tuple(out)


@dataclass(frozen=True)
class ExampleView:
    key: str
    name: str
    caption: Mapping[str, str]
    bundle_text: str
    inputs: tuple[TileTable, ...]
    outputs: tuple[TileTable, ...]
    flags: tuple[tuple[str, bool], ...]
    fault: str | None
    message: str
    digest: str | None
    problem: str | None
    file: str  # site path of the downloadable case JSON
    case_json: str


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _text(value: Any, data_type: str = "") -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return repr(value)
        return number_text(value, data_type)
    return str(value)


def _title(value: Any, data_type: str, bits: Any) -> str:
    """A title only where the text does not say everything (a float shown rounded for its type)."""
    if not isinstance(value, float) or value != value or value in (float("inf"), float("-inf")):
        return ""
    if value.is_integer() and abs(value) < 1e15 and not isinstance(bits, str):
        return ""
    return exact_title(value, data_type, bits if isinstance(bits, str) else None)


def _table(name: str, spec: Mapping[str, Any], key: str) -> TileTable:
    rows, cols = _int(spec.get("rows"), 1), _int(spec.get("columns"), 1)
    vr, vc = _int(spec.get("valid_rows"), rows), _int(spec.get("valid_columns"), cols)
    values = spec.get(key) or []
    bits = spec.get("bits") or []
    data_type = str(spec.get("data_type", ""))
    grid = []
    for r in range(min(rows, MAX_ROWS)):
        line = values[r] if r < len(values) and isinstance(values[r], list) else []
        bit_line = bits[r] if r < len(bits) and isinstance(bits[r], list) else []
        cells = []
        for c in range(min(cols, MAX_COLS)):
            value = line[c] if c < len(line) else None
            raw = bit_line[c] if c < len(bit_line) else None
            cells.append(Cell(_text(value, data_type), r < vr and c < vc, value is None, _title(value, data_type, raw)))
        grid.append(tuple(cells))
    return TileTable(name, str(spec.get("data_type", "")), rows, cols, vr, vc, tuple(grid),
                     rows > MAX_ROWS or cols > MAX_COLS)


def example_views(examples: tuple) -> tuple[ExampleView, ...]:
    out = []
    for ex in examples:
        case = thaw(ex.case)
        result = thaw(ex.result) if ex.result else {}
        tiles = case.get("tiles", {}) if isinstance(case.get("tiles"), Mapping) else {}
        execute = case.get("execute", {}) if isinstance(case.get("execute"), Mapping) else {}
        inputs = tuple(_table(f"T{i}", spec, "elements") for i, spec in sorted(tiles.items(), key=lambda kv: str(kv[0]))
                       if isinstance(spec, Mapping))
        outputs: list[TileTable] = []
        dest = execute.get("destination")
        result_tiles = result.get("tiles", {}) if isinstance(result.get("tiles"), Mapping) else {}
        if dest is not None and str(dest) in result_tiles and result.get("status") == "ok":
            outputs.append(_table(f"T{dest}", result_tiles[str(dest)], "values"))
        flags_data = result.get("status_flags", {}) if isinstance(result.get("status_flags"), Mapping) else {}
        name = ex.key.split("/", 1)[-1]
        out.append(ExampleView(
            key=ex.key, name=name, caption=dict(ex.caption or {}),
            bundle_text=str(case.get("bundle_text", "")),
            inputs=inputs, outputs=tuple(outputs),
            flags=tuple((f, bool(flags_data.get(f))) for f in FLAGS),
            fault=result.get("fault"), message=str(result.get("message", "")),
            digest=ex.digest, problem=ex.problem,
            file=routes.example_file(ex.instruction, name), case_json=ex.case_json,
        ))
    return tuple(out)
