"""The NumPy executor's opinion of a tile teaching example: the same tiles and operation as a v1 case
(``executor.run_case``), its destination's valid region compared with what the ASL model wrote.

A disagreement is a finding (``TEACH-NUMPY``, a warning of the build and of ``pto-docs validate``'s analysis), never a
page error: the page shows the model's result either way."""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping

from .teaching import Scenario
from .teaching_tiles import FLOAT_TYPES

# tile operations whose ASL handler takes an operand the executor's v1 case cannot say (a scalar, a comparison)
NOT_COMPARABLE = frozenset({"TCMP", "TCVT", "TSEL"})


def numpy_case(scenario: Scenario) -> dict | None:
    """The v1 case of a tile scenario, or None when the executor lacks the operation or the case cannot say it."""
    from ..executor import supported_instructions
    if scenario.surface != "tile" or scenario.mnemonic not in supported_instructions() \
            or scenario.mnemonic in NOT_COMPARABLE:
        return None
    tiles, sources, destination = {}, [], None
    for index, role, dtype, rows, cols, grid in scenario.tiles:
        physical = 1 if cols == 1 else 4
        spec = {"capacity_bytes": 128, "rows": 8, "columns": physical, "data_type": dtype, "valid_rows": rows,
                "valid_columns": cols}
        if role == "source":
            spec["elements"] = [list(row) for row in grid]
            tiles[str(index)] = spec
            sources.append(index)
        elif destination is None:
            destination = index
    if destination is None or not sources:
        return None
    return {"schema": "pto-docs.case.v1", "tiles": tiles, "bundle": {"pad_value": "Zero"},
            "execute": {"instruction": scenario.mnemonic, "destination": destination, "sources": sources}}


def disagreement(scenario: Scenario, result: Mapping) -> str | None:
    """Why the NumPy executor's destination differs from the ASL model's, or None (they agree, or no comparison)."""
    case = numpy_case(scenario)
    if case is None or result.get("status") != "ok":
        return None
    from ..executor import CaseError, run_case
    try:
        theirs = run_case(case)
    except CaseError:
        return None
    if theirs.get("status") != "ok":
        return f"the NumPy executor faults ({theirs.get('fault')}) where the ASL model does not"
    index = case["execute"]["destination"]
    tile = (theirs.get("tiles") or {}).get(str(index)) or {}
    values = tile.get("values") or []
    reads = result.get("read") or {}
    dtype = next(t[2] for t in scenario.tiles if t[0] == index)
    for r, row in enumerate(values[: tile.get("valid_rows", 0)]):
        for c, value in enumerate(row[: tile.get("valid_columns", 0)]):
            raw = reads.get(f"ReadTileElement({index}, {r}, {c})")
            if raw is None:
                continue
            ours = _decode(raw, dtype)
            if not _same(ours, value):
                return (f"element [{r}][{c}] of T{index} ({dtype}): the ASL model writes {ours!r}, "
                        f"the NumPy executor {value!r}")
    return None


def _decode(raw: str, dtype: str):
    try:
        n = int(raw, 16) if raw.startswith("0x") else int(raw)
    except ValueError:
        return raw
    if dtype in FLOAT_TYPES:
        fmt = {"FP32": ("<I", "<f", 32), "FP64": ("<Q", "<d", 64), "FP16": ("<H", "<e", 16)}.get(dtype)
        if fmt is None:
            return n
        return struct.unpack(fmt[1], struct.pack(fmt[0], n & ((1 << fmt[2]) - 1)))[0]
    width = int("".join(ch for ch in dtype if ch.isdigit()) or 64)
    n &= (1 << width) - 1
    return n - (1 << width) if dtype.startswith("S") and n >> (width - 1) else n


def _same(ours, theirs) -> bool:
    if isinstance(theirs, str):
        theirs = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}.get(theirs.lower(), theirs)
    if isinstance(ours, float) or isinstance(theirs, float):
        try:
            a, b = float(ours), float(theirs)
        except (TypeError, ValueError):
            return False
        return (a != a and b != b) or a == b
    return ours == theirs
