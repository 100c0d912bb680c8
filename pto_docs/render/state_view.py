"""The page view of an instruction's own teaching example (``bridge.teaching_run.Taught``): the assembly that ran,
its operands as the syntax names them with typed values, the state it changed named the way a reader knows it
(``a4``, ``memory[0x200]``, tile ``T1``), the bookkeeping (program counter, cycle counters, block and trap
context) folded away, and a one-line caption.

Values are typed: an FP register of an FP32/FP64 example shows its number (``3.75``), an integer a signed
decimal (``-12``), a byte ``0x7f``; the exact bits are the cell's hover title."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..bridge.exec_model import FLAG_NAMES
from ..bridge.teaching_run import is_bookkeeping, shown_change
from ..bridge.teaching_tiles import PREDICATE
from .state_values import (
    FLOAT_FORMATS,
    GPR_NAMES,
    MEMORY,
    Change,
    ModelRow,
    Value,
    _int,
    _short,
    _split,
    address_name,
    is_mirror,
    memory_runs,
    memory_words,
    model_change,
    register_values,
    typed,
)

__all__ = ["Change", "Value", "shown_change", "teaching_view", "teaching_views", "typed"]

TILE = re.compile(r"^_Tiles\[(\d+)\]\.")
WRAP = 16  # cells a line of a wider tile's row
# the operand kinds whose register holds an address (hex): a frame's stack pointer, a byte-address operand
# (teaching.address_roles)
ADDRESS_KINDS = ("stack", "source_address", "destination_address")


@dataclass(frozen=True)
class OperandRow:
    name: str
    kind: str
    value: Value | None
    data_type: str


@dataclass(frozen=True)
class TileGrid:
    name: str
    role: str
    data_type: str
    rows: tuple[tuple[Value, ...], ...]
    columns: int = 0  # a wide tile's valid columns (> WRAP): its rows are shown WRAP cells a line


@dataclass(frozen=True)
class TeachingView:
    asm: str
    word: str | None
    surface: str
    call: str | None  # a tile operation: the semantic handler called
    data_type: str
    in_bundle: bool
    alias_of: str
    fault: str  # a fault example: the fault the instruction raised ('' for an example that completes)
    operands: tuple[OperandRow, ...]
    changes: tuple[Change, ...]
    folded: tuple[tuple[str, str, str], ...]  # bookkeeping and model-internal rows: (name, before, after)
    tiles: tuple[TileGrid, ...]
    flags: tuple[tuple[str, bool], ...]
    caption_inputs: str
    caption_outputs: str
    digest: str
    fallbacks: tuple[str, ...] = ()  # ieee hooks the model ran as pto-v0 (the result's profile_fallbacks)
    hint: bool = False  # a prefetch: it completed and changed nothing (the caption says so)
    conditions: tuple[str, ...] = ()  # what set a fault example apart (labels teaching.conditions.*)
    quiet: bool = False  # it completed without a fault and changed no architectural state (a prefetch hint)
    # a frame example whose model reads its stack pointer from another register than the names' sp: (the model's
    # register name, its index, the named sp, its index, the model's constant, its unit's path, line, the address)
    stack: tuple = ()


def teaching_view(taught) -> TeachingView:
    s, result = taught.scenario, taught.result
    # each register typed as its operand is (a source of an FP32 example, an FP or integer destination)
    # (a stack pointer is an address: hex)
    regs_fp = {o.name: "address" if o.kind in ADDRESS_KINDS else o.data_type for o in s.operands
               if o.kind in ("source", "destination") + ADDRESS_KINDS}
    fp = s.data_type if s.surface != "tile" else ""
    known: set[str] = set()  # the changes of state a reader knows by name (registers, pc, memory)
    folded: list[tuple[str, str, str]] = []
    rows = [tuple(c) for c in result.get("changed", ())]
    mirrored = register_values(rows)
    memory: dict[int, tuple[str | None, str | None]] = {}  # a changed byte's address -> (before, after)
    at = 0  # where the memory rows are shown: where the run listed its first changed byte
    addresses: set[str] = set()  # the new values of the mirrors whose name says they hold an address
    changes: list = []  # (a model variable's row is a ModelRow until every row is known)
    for name, before, after in rows:
        parts = _split(str(name), before, after)
        # (memory shown where the first changed byte was: values of a typed access's size, else runs of bytes)
        if parts and MEMORY.match(str(name)) and getattr(s, "access", 0) != 1:
            at = len(changes) if not memory else at
            first = int(MEMORY.match(str(name)).group(1))
            memory.update({first + i: (b, a) for i, (_n, b, a, _w) in enumerate(parts)})
        elif parts:
            for shown, b, a, width in parts:
                dtype = regs_fp.get(shown, "") if width == 64 else ""
                changes.append(Change(shown, typed(b or "0", dtype, width), typed(a or "0", dtype, width)))
                known.add(shown)
        elif name == "_PC" and shown_change((name, before, after), result):  # a branch: its target, an address
            changes.append(Change("pc", typed(before or "0", "address"), typed(after or "0", "address")))
            known.add("pc")
        elif s.surface != "tile" and not is_bookkeeping(str(name)) and not is_mirror(before, after, mirrored):
            # block state a B.* descriptor sets, ...: typed below, as its declared type and name say
            changes.append(ModelRow(_model_label(str(name)), before, after))
        else:
            folded.append((str(name), str(before), str(after)))
            if s.surface != "tile" and not is_bookkeeping(str(name)) and address_name(_model_label(str(name))):
                addresses.add(str(after))  # a mirror whose name says it holds an address
    if addresses:  # a register an address variable mirrors holds an address (SETRET's ra = 0x18): hex
        changes = [Change(c.name, typed(c.before.bits, "address"), typed(c.after.bits, "address"))
                   if isinstance(c, Change) and c.name in known and c.after.bits in addresses else c for c in changes]
    # a model value equal to an address the example shows (the pc it branched to, a variable named an address) is
    # that address: hex (a trap's argument that is its fault address)
    targets = {str(c.after) for c in changes if isinstance(c, ModelRow) and address_name(c.name)}
    targets |= {c.after.bits for c in changes if isinstance(c, Change) and c.name == "pc"}
    changes = [model_change(c, targets) if isinstance(c, ModelRow) else c for c in changes]
    if memory:
        # (typed by the example's data type where it has the access size: an FP32 or S32 tile store's elements)
        dtype = s.data_type if re.fullmatch(r"[A-Z]+\d+", s.data_type) and _width(s.data_type) == 8 * s.access else ""
        words = memory_words(memory, s.access, result.get("before") or (), dtype) if getattr(s, "access", 0) > 1 \
            else memory_runs(memory, result.get("before") or ())
        changes[at:at] = words
        known.update(c.name for c in words)
    operands = tuple(OperandRow(o.name, o.kind, _operand_value(o, fp), o.data_type) for o in s.operands
                     if o.kind not in ("destination", "tile"))  # (tiles are shown as their grids)
    tiles = _tiles(s, result)
    raised = result.get("status_flags") or {}
    flags = tuple((k, bool(raised[k])) for k in FLAG_NAMES if k in raised)  # (a cached result's keys are sorted)
    inputs = ", ".join(f"{o.name} = {o.value.text}" for o in operands if o.value is not None)
    if s.surface == "tile":
        inputs = ", ".join(f"{t.name} ({t.data_type})" for t in tiles if t.role == "source") or inputs
        outputs = ", ".join(f"{t.name}" for t in tiles if t.role == "destination") \
            or _named(changes)  # a store: the memory it wrote
    else:
        # registers and pc, then memory, then the model's own state (an atomic's caption names its register
        # result before the bytes it stored; FENTRY's the stack pointer it moved before the saved bytes)
        first = sorted(changes, key=lambda c: 2 if c.name not in known else 1 if c.name.startswith("memory[") else 0)
        outputs = _named(first)
        if not outputs and folded:
            outputs = ", ".join(_model_label(n) for n, _b, _a in folded if not is_bookkeeping(n))[:200]
    decoded = result.get("decoded") or {}
    call = None
    if "call" in s.instruction:
        call = f"{s.instruction['call']}({', '.join(s.instruction.get('arguments', ()))})"
    return TeachingView(s.asm, decoded.get("word"), s.surface, call, s.data_type, s.in_bundle,
                        getattr(taught, "alias_of", ""), _fault(result), operands,
                        tuple(changes), tuple(folded), tiles, flags, inputs, outputs, str(result.get("digest", "")),
                        _fallbacks(result), bool(getattr(s, "hint", False)), _conditions(getattr(s, "condition", "")),
                        not changes and not _fault(result) and s.surface != "tile", _stack_note(s))


CAPTION_CHANGES = 4  # the changes a caption names; "…" says the table below has more


def _named(changes) -> str:
    """The first changes as a caption names them (``a0 = 7, memory[0x200] = 0x11``), then "…" when there are more:
    the caption is a claim about what the run changed, and the table below has the rest."""
    shown = ", ".join(f"{c.name} = {c.after.text}" for c in changes[:CAPTION_CHANGES])
    return shown + (", …" if shown and len(changes) > CAPTION_CHANGES else "")


def _stack_note(s) -> tuple:
    """What the page says of a frame example whose model moves another register than the one named sp."""
    note = getattr(s, "stack", ())
    if len(note) != 5:
        return ()
    from ..bridge.teaching_stack import STACK_BASE
    model, named, constant, path, line = note
    name = (lambda i: GPR_NAMES[i] if 0 <= i < len(GPR_NAMES) else f"gpr{i}")
    return (name(model), model, name(named), named, constant, path, line, f"0x{STACK_BASE:x}")


CONDITIONS = ("reserved", "zero_source", "ring_2", "saved_context")


def _conditions(text: str) -> tuple[str, ...]:
    return tuple(c for c in str(text).split("+") if c in CONDITIONS)


def _fallbacks(result: Mapping) -> tuple[str, ...]:
    found = result.get("profile_fallbacks")
    return tuple(sorted({str(f) for f in found if isinstance(f, str)})) if isinstance(found, list) else ()


def _fault(result: Mapping) -> str:
    fault = result.get("fault")
    return fault if isinstance(fault, str) and fault not in ("", "Fault_None") else ""


SSR = re.compile(r"^_ExtendedSystemRegisters\[(\d+)(?:\.\.(\d+))?\]$")


def _model_label(name: str) -> str:
    """A model variable as the row names it; a system register by its hex index (ring x 0x1000 + its 12-bit
    address, as the model's ContextRegisterIndex makes it: ssr[0xf00] is ring 0's 0xf00), not the decimal 3840."""
    m = SSR.match(name)
    if m:
        return "ssr[" + "..".join(f"0x{int(g):x}" for g in m.groups() if g is not None) + "]"
    return name.lstrip("_")


def _operand_value(o, fp: str) -> Value | None:
    if not o.value:
        return None
    if o.kind == "memory":
        return Value(o.value, o.value)
    if o.data_type in FLOAT_FORMATS:
        from ..bridge.teaching import fp_bits
        bits = fp_bits(float(o.value), o.data_type)
        return Value(o.value, f"0x{bits:0{FLOAT_FORMATS[o.data_type][2] // 4}x}")
    n = _int(o.value)
    return Value(o.value, f"0x{n & (1 << 64) - 1:x}" if n is not None else o.value)


def _tiles(s, result: Mapping) -> tuple[TileGrid, ...]:
    out: list[TileGrid] = []
    reads = result.get("read") or {}
    for index, role, dtype, rows, cols, grid in sorted(s.tiles, key=lambda t: t[1] != "source"):  # inputs first
        if dtype == PREDICATE:  # one bit an element: 1 or 0 (a destination read bit by bit)
            bits = grid if role == "source" and grid is not None else tuple(
                tuple(reads.get(f"ReadTilePredicateBit({index}, {r}, {c})") for c in range(cols)) for r in range(rows))
            values = tuple(tuple(_bit(b) for b in row) for row in bits)
        elif role == "source" and grid is not None:
            values = tuple(tuple(_tile_value(v, dtype) for v in row) for row in grid)
        else:
            values = tuple(tuple(typed(str(reads.get(f"ReadTileElement({index}, {r}, {c})", "?")), dtype,
                                       _width(dtype)) for c in range(cols)) for r in range(rows))
        if cols > WRAP:  # (THISTOGRAM's 256 bins): lines of WRAP cells, the caption says so
            values = tuple(row[i:i + WRAP] for row in values for i in range(0, len(row), WRAP))
        out.append(TileGrid(f"T{index}", role, dtype, values, cols if cols > WRAP else 0))
    return tuple(out)


def _bit(value) -> Value:
    if value in (True, "TRUE"):
        return Value("1", "TRUE")
    if value in (False, "FALSE"):
        return Value("0", "FALSE")
    return Value("?", str(value))


def _width(dtype: str) -> int:
    digits = "".join(ch for ch in dtype if ch.isdigit())
    return int(digits) if digits else 64


def _tile_value(v, dtype: str) -> Value:
    if dtype in FLOAT_FORMATS:
        from ..bridge.teaching import fp_bits
        return Value(_short(float(v), FLOAT_FORMATS[dtype][1]) if dtype != "FP64" else repr(float(v)),
                     f"0x{fp_bits(float(v), dtype):0{FLOAT_FORMATS[dtype][2] // 4}x}")
    width = _width(dtype)
    return Value(str(v), f"0x{int(v) & ((1 << width) - 1):0{width // 4}x}")


def teaching_views(taught: Sequence) -> tuple[TeachingView, ...]:
    return tuple(teaching_view(t) for t in taught)
