"""Teaching scenarios of the CUBE matrix operations (TMATMUL*, TGEMV*): small matrices a reader multiplies by hand.

A CUBE handler runs only inside a selected matrix operation: the scenario installs the bundle's operation
descriptor the way the AVS tests do (class TileMatrix, the record's CUBE ``function`` as the selector, the input
type's encoding), then configures its tiles in the CUBE layouts: the left matrix (``left``, ``left-vector``) M x K
in CUBE_M16, the right matrix K x N in CUBE_N8, the destination and an accumulator M x N in CUBE_M16 of the
accumulator type, a bias 1 x N row-major. M = K = N = 2 (a matrix-vector product: M = 1). An MX operation runs
unscaled (scale tile index 0, as the spec's own unscaled tests call it): the value of the scaled hook without the
E8M0 scales a reader would have to decode.

FP16 inputs accumulate in FP32; the values are exact in FP16 and their products and sums exact in FP32, so the
result is the product a reader computes (and IEEE 754's). An integer variant (S8 into S32) follows.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..model.catalog import Unit
from .teaching import Operand, Scenario, fp_bits, word

# (input type, its 5-bit encoding, accumulator type) of each variant, most telling first
MATRIX_TYPES = (("FP16", 4, "FP32"), ("S8", 19, "S32"))
LEFT = ((1.5, -2.0), (0.25, 3.0))
RIGHT = ((2.0, 0.5), (-1.0, 4.0))
ACCUMULATOR = ((0.5, 1.0), (-1.0, 2.0))
BIAS = ((0.5, -1.0),)
INT_GRIDS = {"left": ((3, -2), (1, 4)), "right": ((2, 5), (-1, 3)), "accumulator": ((10, -10), (1, 2)),
             "bias": ((100, -100),)}
FLOAT_GRIDS = {"left": LEFT, "right": RIGHT, "accumulator": ACCUMULATOR, "bias": BIAS}
ROLE_KIND = {"left": "left", "left-vector": "left", "right": "right", "right-matrix": "right",
             "accumulator": "accumulator", "bias": "bias", "destination": "destination",
             "row-scale": "scale", "column-scale": "scale"}


def is_matrix(record: Mapping) -> bool:
    return record.get("family") == "CUBE" and isinstance(record.get("function"), int)


def matrix_scenarios(unit: Unit, record: Mapping) -> list[Scenario]:
    return [made for variant, types in enumerate(MATRIX_TYPES)
            if (made := _compose(unit, record, *types, variant)) is not None]


def _compose(unit: Unit, record: Mapping, dtype: str, code: int, acc: str, variant: int) -> Scenario | None:
    function = record["function"]
    if not 0 <= function < 32:
        return None
    roles = {str(o.get("field")): str(o.get("role", "")) for o in record.get("operands") or ()
             if isinstance(o, Mapping)}
    named = [roles.get(str(a.get("operand", "")), "") for a in record.get("arguments") or () if isinstance(a, Mapping)]
    kinds = [ROLE_KIND.get(role) for role in named]
    if None in kinds or kinds.count("left") != 1 or kinds.count("right") != 1 or kinds.count("destination") != 1:
        return None
    vector = "left-vector" in named
    m, k, n = (1 if vector else 2), 2, 2
    setup = [f"InstallBundleOperationDescriptor(BundleOperationDescriptor {{ valid = TRUE, "
             f"form_identity = Zeros{{7}}, operation_class = BundleOperation_TileMatrix, selector_valid = TRUE, "
             f"selector = Zeros{{10}} + {function}, data_type_valid = TRUE, data_type = '{code:05b}', "
             f"mode_valid = FALSE, mode = Zeros{{2}}, branch_type_valid = FALSE, branch_type = Zeros{{3}} }});"]
    grids = FLOAT_GRIDS if dtype.startswith("FP") else INT_GRIDS
    arguments: list[str] = []
    operands: list[Operand] = []
    tiles: list[tuple] = []
    reads: list[str] = []
    index = 0
    for kind in kinds:
        if kind == "scale":
            arguments.append("0")  # no scale tile: the unscaled form
            continue
        index += 1
        arguments.append(str(index))
        rows, cols = {"left": (m, k), "right": (k, n), "bias": (1, n)}.get(kind, (m, n))
        tdtype = dtype if kind in ("left", "right") else acc
        if kind == "bias":
            setup.append(f"ConfigureTile({index}, 128, 1, {cols}, 1, {cols}, TileDataType_{tdtype}, "
                         "TileLayout_RowMajor, TileLocation_Matrix);")
        else:
            layout = "CUBE_N8" if kind == "right" else "CUBE_M16"
            setup.append(f"let cube_tile_{index} = ConfigureCubeTile({index}, 128, {rows}, {cols}, "
                         f"TileDataType_{tdtype}, TileLayout_{layout}, TileLocation_Matrix);")
            setup.append(f"assert cube_tile_{index};")
        grid = None
        if kind == "destination":
            reads += [f"ReadTileElement({index}, {r}, {c})" for r in range(rows) for c in range(cols)]
        else:
            grid = tuple(tuple(grids[kind][r][c] for c in range(cols)) for r in range(rows))
            for r in range(rows):
                for c in range(cols):
                    v = grid[r][c]
                    bits = fp_bits(v, tdtype) if tdtype.startswith("FP") else v
                    setup.append(f"WriteTileElement({index}, {r}, {c}, {word(bits)});")
        tiles.append((index, "destination" if kind == "destination" else "source", tdtype, rows, cols, grid))
        operands.append(Operand(f"T{index}", "tile", f"_Tiles[{index}]", "", tdtype))
    block = unit.record.get("block") or ()
    asm = (str(block[0]) if block else str(unit.mnemonic)).replace("AType", dtype).replace("DataType", dtype)
    return Scenario(unit.id, unit.mnemonic or "", "tile", asm, tuple(setup),
                    {"call": str(record["semantic_handler"]), "arguments": arguments}, tuple(reads),
                    tuple(operands), data_type=dtype, variant=variant, tiles=tuple(tiles))
