"""Teaching scenarios of tile operations: the semantic handler a unit's catalog record names, called with small
tiles (2 x 4 valid elements of one named data type, 8 x 4 physical) holding small distinct values.

The handler's arguments come from the record's ``arguments``: ``{"constant": ...}`` as written, a tile operand
(``destination0``, ``source1``) a tile index of its own, ``scalar0`` a small value, ``address`` an aligned address
of memory holding recognisable bytes, a flag FALSE, a natural offset 0, a comparison the first of its kind, a
numeric control round-to-nearest-even without saturation. Shapes follow the role prose: a ``one-row`` source is
1 x 4, a ``one-column`` source 2 x 1; a row reduction writes 2 x 1, a column reduction 1 x 4.

Roles that need data of their own get it: a predicate or mask operand is a predicate tile (a source mask
1 0 1 1 / 0 1 0 0, a destination read bit by bit), a row-index source holds row numbers of the value tile, a
sorted source ascending rows, a prefix filter the byte 0, a feature-map source a 3 x 3 image with its descriptor.
The CUBE matrix operations are composed by ``teaching_matrix``; a tile memory operation is retried inside a
selected tile memory operation of its data type; a prefetch that completes is its own example (``Scenario.hint``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from ..isa.assembler import Assembler
from ..model.catalog import Catalog, Unit
from .teaching import (
    MEMORY_BASE,
    MEMORY_BYTES,
    TILE_ROWS,
    TILE_SHAPE,
    TILE_TYPES,
    Operand,
    Scenario,
    fp_bits,
    word,
)
from .teaching_matrix import is_matrix, matrix_scenarios

ELEMENT_BYTES = {"FP64": 8, "S64": 8, "U64": 8, "FP32": 4, "S32": 4, "U32": 4, "FP16": 2, "BF16": 2, "S16": 2,
                 "U16": 2, "S8": 1, "U8": 1}
FLOAT_TYPES = ("FP32", "FP16", "FP64", "BF16")
# the 5-bit DataType encoding of the types a scenario uses (the spec's field domain PTO-FIELD-BLOCK-DATATYPE)
TYPE_CODES = {"FP64": 0, "FP32": 1, "FP16": 4, "BF16": 5, "S64": 16, "S32": 17, "S16": 18, "S8": 19, "U64": 24,
              "U32": 25, "U16": 26, "U8": 27}
GRIDS = (((1, 2, 3, 4), (5, 6, 7, 8)), ((8, 6, 4, 2), (7, 5, 3, 1)), ((2, 2, 3, 3), (4, 4, 5, 5)),
         ((1, 1, 2, 2), (3, 3, 1, 1)), ((3, 1, 4, 1), (5, 9, 2, 6)))
FLOAT_GRIDS = (((1.5, -2.0, 0.5, 4.0), (3.0, 0.25, -1.0, 8.0)), ((0.5, 2.0, 1.5, -4.0), (2.0, 0.75, 1.0, 0.5)),
               ((1.0, 1.0, 2.0, 2.0), (0.5, 0.5, 3.0, 3.0)), ((2.0, 1.0, 2.0, 1.0), (1.0, 2.0, 1.0, 2.0)),
               ((4.0, 2.0, 1.0, 0.5), (1.0, 2.0, 4.0, 8.0)))
SCALAR_VALUE = 3
ROW_INDICES = ((1, 0, 1, 0), (0, 1, 0, 1))  # a row-index source (TGATHER, TSCATTER): each column a permutation
# operations whose operands' shapes are tied otherwise than equal (valid rows x columns)
SHAPES = {"TTRANS": {"destination0": (4, 2)},
          "TCONCAT": {"source0": (2, 2), "source1": (2, 2), "destination0": (2, 4)},
          "TMRGSORT": {"source0": (1, 2), "source1": (1, 2), "destination0": (1, 4)},
          # a cumulative histogram of one byte of four values: 256 bins, a one-value filter of the other byte
          "THISTOGRAM": {"source0": (1, 4), "source1": (1, 1), "destination0": (1, 256)},
          # a 3 x 3 image (one channel, stored as one row) and its four 2 x 2 windows, one a row
          "TIMG2COL": {"source0": (1, 9), "destination0": (4, 4)}}
IMAGE = ((1, 2, 3, 4, 5, 6, 7, 8, 9),)
# its feature-map descriptor (ConfigureTileFeatureMapDescriptor after the tile index): NC1HWC0, one batch, depth and
# channel group, 3 x 3 of one channel, a 2 x 2 filter, stride and dilation 1, no padding, one logical channel
IMAGE_DESCRIPTOR = "TileFeatureMapLayout_NC1HWC0, 1, 1, 1, 3, 3, 1, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 1, Zeros{PTO_XLEN}, FALSE"
# a sorted source (TMRGSORT's), by source number: ascending rows that interleave when merged
SORTED_ROWS = (((1.5, 4.0),), ((-2.0, 3.0),))
SORTED_INT_ROWS = (((1, 5),), ((2, 3),))
TILE_OPERAND = re.compile(r"^(destination|source)(\d+)$")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def handler_record(unit: Unit) -> Mapping | None:
    return next((r for r in unit.catalog_records if isinstance(r, Mapping) and "semantic_handler" in r), None)


def _types_for(unit: Unit, record: Mapping) -> tuple[str, ...]:
    """The data types to try, most telling first, from the roles' prose."""
    roles = " ".join(str(o.get("role", "")) for o in record.get("operands") or () if isinstance(o, Mapping))
    named = [t for t in ELEMENT_BYTES if re.search(rf"\b{t}\b", roles)]
    if "floating" in roles or unit.mnemonic in ("TEXP", "TLOG", "TSQRT", "TRSQRT", "TRECIP"):
        return ("FP32", "FP16")
    if named:
        return tuple(dict.fromkeys(named + ["S32", "FP32"]))
    return TILE_TYPES


def _shape(role: str, reduce_axis: str | None, is_dest: bool) -> tuple[int, int]:
    rows, cols = TILE_SHAPE
    if "one-row" in role or "vector" in role or "sequence" in role:
        return 1, cols
    if "one-column" in role:
        return rows, 1
    if is_dest and reduce_axis == "TileAxis_Row":
        return rows, 1
    if is_dest and reduce_axis == "TileAxis_Column":
        return 1, cols
    return rows, cols


def _names_only(record: Mapping) -> bool:
    """The record's handler, constants and runtime values are ASL identifiers (they are written into the case's
    ASL text: anything else in a tree's record is not run)."""
    names = [record.get("semantic_handler")] + [a.get(k) for a in record.get("arguments") or () if isinstance(a, Mapping)
                                               for k in ("constant", "runtime", "operand") if k in a]
    return all(isinstance(n, str) and IDENT.match(n) for n in names)


def tile_scenarios(catalog: Catalog, assembler: Assembler, unit: Unit) -> list[Scenario]:
    record = handler_record(unit)
    if record is None or not isinstance(record.get("semantic_handler"), str) or not _names_only(record):
        return []
    if is_matrix(record):
        return matrix_scenarios(unit, record)
    plain = [made for variant, dtype in enumerate(_types_for(unit, record))
             if (made := _compose(unit, record, dtype, variant)) is not None]
    if record.get("family") != "TLSU":
        return plain
    # a memory operation retried inside a selected tile memory operation of its data type (a handler that reads
    # the bundle's type: TPREFETCH)
    selected = [dataclasses.replace(s, setup=(_descriptor(record, s.data_type),) + s.setup,
                                    variant=s.variant + len(plain)) for s in plain if s.data_type in TYPE_CODES]
    return plain + selected


def _descriptor(record: Mapping, dtype: str) -> str:
    operation = "TileMemory"
    function = record.get("function") if isinstance(record.get("function"), int) else 0
    return (f"InstallBundleOperationDescriptor(BundleOperationDescriptor {{ valid = TRUE, form_identity = Zeros{{7}}, "
            f"operation_class = BundleOperation_{operation}, selector_valid = TRUE, "
            f"selector = Zeros{{10}} + {function % 1024}, data_type_valid = TRUE, "
            f"data_type = '{TYPE_CODES[dtype]:05b}', mode_valid = FALSE, mode = Zeros{{2}}, "
            "branch_type_valid = FALSE, branch_type = Zeros{3} });")


PREDICATE = "predicate"  # the data type a page names a predicate tile by (one bit an element)
MASK = ((True, False, True, True), (False, True, False, False))  # a mask source's bits


def is_predicate(role: str) -> bool:
    return "predicate" in role or role == "mask"


def _predicate_tile(setup: list, reads: list, index: int, shape: tuple[int, int, int], is_dest: bool) -> tuple | None:
    """Configure a predicate tile shaped as the numeric tiles are (valid rows x columns, physical columns: a
    comparison's operands match in both); a source gets :data:`MASK`, a destination is read bit by bit
    (``ReadTilePredicateBit``: TRUE/FALSE)."""
    rows, cols, physical = shape
    setup.append(f"ConfigurePredicateTile({index}, 128, {TILE_ROWS}, {physical}, {rows}, {cols});")
    if is_dest:
        reads += [f"ReadTilePredicateBit({index}, {r}, {c})" for r in range(rows) for c in range(cols)]
        return None
    grid = tuple(tuple(MASK[r % 2][c % 4] for c in range(cols)) for r in range(rows))
    setup += [f"WriteTilePredicateBit({index}, {r}, {c}, {'TRUE' if grid[r][c] else 'FALSE'});"
              for r in range(rows) for c in range(cols)]
    return grid


def _command_line(unit: Unit, dtype: str) -> str:
    block = unit.record.get("block") or ()
    first = str(block[0]) if block else f"{unit.mnemonic}"
    return first.replace("DataType", dtype)


def _compose(unit: Unit, record: Mapping, dtype: str, variant: int) -> Scenario | None:
    handler = str(record["semantic_handler"])
    roles = {str(o.get("field")): str(o.get("role", "")) for o in record.get("operands") or ()
             if isinstance(o, Mapping)}
    args = [a for a in record.get("arguments") or () if isinstance(a, Mapping)]
    axis = next((str(a["constant"]) for a in args if str(a.get("constant", "")).startswith("TileAxis_")), None)
    reduce_axis = axis if handler == "ExecuteTileReduction" else None
    index_dest = "index" in " ".join(roles.values()) and "ARG" in "".join(str(a.get("constant", "")) for a in args)
    setup: list[str] = []
    operands: list[Operand] = []
    tiles: list[tuple] = []
    arguments: list[str] = []
    indices: dict[str, int] = {}
    reads: list[str] = []
    dest_index = None
    floating = dtype in FLOAT_TYPES
    location = "Matrix" if any("feature-map" in r for r in roles.values()) else "Any"  # (TIMG2COL's tiles)
    for arg in args:
        if "constant" in arg:
            arguments.append(str(arg["constant"]))
            continue
        if "runtime" in arg:
            arguments.append(f"{arg['runtime']}()")
            continue
        name = str(arg.get("operand", ""))
        m = TILE_OPERAND.match(name)
        if m:
            is_dest = m.group(1) == "destination"
            if name not in indices:
                indices[name] = len(indices) + 1  # T1, T2 ... in the order the handler takes them
                index = indices[name]
                named = [t for t in ELEMENT_BYTES if re.search(rf"\b{t}\b", roles.get(name, ""))]
                tdtype = "S32" if is_dest and index_dest else dtype if not named or dtype in named else named[0]
                rows, cols = SHAPES.get(unit.mnemonic or "", {}).get(name) or _shape(
                    roles.get(name, "") + (" sequence" if unit.mnemonic == "TCI" else ""), reduce_axis, is_dest)
                if "row-index" in roles.get(name, "") and "S32" in named:
                    tdtype = "S32"
                size = ELEMENT_BYTES.get(tdtype, 4)
                physical = 1 if cols == 1 else max(4, 1 << (cols - 1).bit_length())  # (one column: one wide)
                if is_predicate(roles.get(name, "")):  # a packed predicate (a comparison's result, a mask)
                    grid = _predicate_tile(setup, reads, index, (rows, cols, physical), is_dest)
                    tiles.append((index, "destination" if is_dest else "source", PREDICATE, rows, cols, grid))
                    operands.append(Operand(f"T{index}", "tile", f"_Tiles[{index}]", "", PREDICATE))
                    arguments.append(str(indices[name]))
                    continue
                setup.append(f"ConfigureTile({index}, {max(128, TILE_ROWS * physical * size)}, {TILE_ROWS}, {physical}, "
                             f"{rows}, {cols}, "
                             f"TileDataType_{tdtype}, TileLayout_RowMajor, TileLocation_{location});")
                grid = None
                if not is_dest:
                    k = int(m.group(2)) % len(GRIDS)
                    source = FLOAT_GRIDS[k] if tdtype in FLOAT_TYPES else GRIDS[k]
                    if "feature-map" in roles.get(name, ""):
                        source = IMAGE
                    if "prefix filter" in roles.get(name, ""):  # the other byte's value to count: 0
                        source = ((0,),)
                    if "sorted" in roles.get(name, ""):
                        source = (SORTED_ROWS if tdtype in FLOAT_TYPES else SORTED_INT_ROWS)[int(m.group(2)) % 2]
                    if "row-index" in roles.get(name, ""):  # row numbers of the value tile (a permutation a column)
                        source = ROW_INDICES
                    # (repeated to the tile's shape: a tree's roles may ask for a special grid on any shape)
                    grid = tuple(tuple(source[r % len(source)][c % len(source[r % len(source)])] for c in range(cols))
                                 for r in range(rows))
                    for r in range(rows):
                        for c in range(cols):
                            v = grid[r][c]
                            bits = fp_bits(v, tdtype) if tdtype in FLOAT_TYPES else v
                            setup.append(f"WriteTileElement({index}, {r}, {c}, {word(bits)});")
                else:
                    dest_index = dest_index or index
                    reads += [f"ReadTileElement({index}, {r}, {c})" for r in range(rows) for c in range(cols)]
                if "feature-map" in roles.get(name, "") and not is_dest:
                    setup.append(f"ConfigureTileFeatureMapDescriptor({index}, {IMAGE_DESCRIPTOR});")
                tiles.append((index, "destination" if is_dest else "source", tdtype, rows, cols, grid))
                operands.append(Operand(f"T{index}", "tile", f"_Tiles[{index}]", "", tdtype))
            arguments.append(str(indices[name]))
        elif name.startswith("scalar"):
            role = roles.get(name, "")
            scalar_fp = floating or "FP32" in role
            value = fp_bits(float(SCALAR_VALUE), "FP32" if "FP32" in role else dtype) if scalar_fp else SCALAR_VALUE
            if "zero point" in role:
                value = 0
            if unit.mnemonic in ("TLOAD", "TSTORE"):
                value = 16
            arguments.append(word(value))
            operands.append(Operand(name, "immediate", "", str(float(SCALAR_VALUE) if floating else value), dtype))
        elif name == "address":
            setup += [f"WriteMemoryByte({word(MEMORY_BASE + i)}, Zeros{{8}} + 0x{b:02x});"
                      for i, b in enumerate(MEMORY_BYTES)]
            arguments.append(word(MEMORY_BASE))
            operands.append(Operand("address", "memory", "", f"0x{MEMORY_BASE:x}"))
        elif name.startswith("flag"):
            arguments.append("FALSE")
        elif name.startswith(("natural", "diagonal")) or name in ("diagonal", "selected_byte"):
            arguments.append("0")
        elif name.startswith("positive") or name == "sort_width":
            arguments.append("4")
        elif name == "comparison":
            arguments.append("TileComparison_LT")
        elif name == "numeric_control":
            arguments.append("NumericExecutionControl{rounding_mode = NumericRound_RNE, saturating = FALSE}")
        else:
            return None
    if not reads and unit.mnemonic not in ("TSTORE", "MSCATTER", "MSCATTER_MASK", "TPREFETCH"):
        return None
    if unit.mnemonic in ("TSTORE", "MSCATTER", "MSCATTER_MASK"):
        reads = [f"ReadMemoryByte({word(MEMORY_BASE + i)})" for i in range(16)]
    # a prefetch (no tile operand at all: an address and a shape): nothing the model keeps is written, a hint
    hint = not indices and "PREFETCH" in handler.upper()
    # memory a store writes holds elements of the data type: the page shows it as values of their size
    digits = "".join(ch for ch in dtype if ch.isdigit())
    stores = any(o.kind == "memory" for o in operands)
    access = int(digits) // 8 if stores and digits in ("8", "16", "32", "64") else 0
    return Scenario(unit.id, unit.mnemonic or "", "tile", _command_line(unit, dtype), tuple(setup),
                    {"call": handler, "arguments": arguments}, tuple(reads), tuple(operands), data_type=dtype,
                    variant=variant, tiles=tuple(tiles), hint=hint, access=access)
