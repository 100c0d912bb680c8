"""The page view of an instruction's own teaching example (``bridge.teaching_run.Taught``): the assembly that ran,
its operands as the syntax names them with typed values, the state it changed named the way a reader knows it
(``a4``, ``memory[0x200]``, tile ``T1``), the bookkeeping (program counter, cycle counters, block and trap
context) folded away, and a one-line caption.

Values are typed: an FP register of an FP32/FP64 example shows its number (``3.75``), an integer a signed
decimal (``-12``), a byte ``0x7f``; the exact bits are the cell's hover title."""

from __future__ import annotations

import re
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..bridge.exec_model import FLAG_NAMES
from ..bridge.teaching_run import is_bookkeeping, shown_change
from ..bridge.teaching_tiles import PREDICATE

__all__ = ["shown_change", "teaching_view", "teaching_views", "typed"]

GPR = re.compile(r"^_PEGPRs\[0\]\[(\d+)(?:\.\.(\d+))?\]$")
MEMORY = re.compile(r"^_Memory\[(\d+)(?:\.\.(\d+))?\]$")
TILE = re.compile(r"^_Tiles\[(\d+)\]\.")
GPR_NAMES = ("zero", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "ra",
             "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "x0", "x1", "x2", "x3")
WRAP = 16  # cells a line of a wider tile's row
FLOAT_FORMATS = {"FP32": ("<I", "<f", 32), "FP64": ("<Q", "<d", 64), "FP16": ("<H", "<e", 16)}


@dataclass(frozen=True)
class Value:
    text: str
    bits: str  # the exact bits (hover title)


@dataclass(frozen=True)
class Change:
    name: str  # as a reader knows it: a4, memory[0x1e0], T1[0][2]
    before: Value
    after: Value


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


def _int(text: str) -> int | None:
    try:
        return int(text, 16) if text.startswith("0x") else int(text)
    except (TypeError, ValueError):
        return None


def typed(raw: str, data_type: str = "", width: int = 64) -> Value:
    """The reader's text of a model value: a float of an FP type, a signed decimal, or the text as it is."""
    n = _int(raw)
    if n is None:
        return Value(raw, raw)
    if data_type == "address":  # a stack pointer, a return target: hex
        return Value(f"0x{n:x}", f"0x{n:0{width // 4}x}")
    if data_type in FLOAT_FORMATS:
        ifmt, ffmt, bits = FLOAT_FORMATS[data_type]
        low = n & ((1 << bits) - 1)
        value = struct.unpack(ffmt, struct.pack(ifmt, low))[0]
        text = "NaN" if value != value else repr(value) if data_type == "FP64" else _short(value, ffmt)
        return Value(text, f"0x{low:0{bits // 4}x}")
    if width == 8:
        return Value(f"0x{n:02x}", f"0x{n:02x}")
    signed = n - (1 << width) if n >> (width - 1) & 1 else n
    text = str(signed) if abs(signed) < 1 << 20 else f"0x{n:x}"
    return Value(text, f"0x{n:0{width // 4}x}")


def _short(value: float, ffmt: str) -> str:
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    for digits in range(1, 18):
        text = format(value, f".{digits}g")
        if struct.unpack(ffmt, struct.pack(ffmt, float(text)))[0] == value:
            return text if any(ch in text for ch in ".en") else text + ".0"  # a float reads as one: 99.0
    return repr(value)


def _split(name: str, before: str | None, after: str | None) -> list[tuple[str, str | None, str | None, int]]:
    """A grouped row (``_PEGPRs[0][2..3]``) as its elements: (reader's name, before, after, width)."""
    for pattern, label, width in ((GPR, "gpr", 64), (MEMORY, "mem", 8)):
        m = pattern.match(name)
        if not m:
            continue
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        bs = (before or "").split() if before is not None else [None] * (last - first + 1)
        as_ = (after or "").split() if after is not None else [None] * (last - first + 1)
        out = []
        for i, index in enumerate(range(first, last + 1)):
            shown = (GPR_NAMES[index] if index < len(GPR_NAMES) else f"gpr{index}") if label == "gpr" \
                else f"memory[0x{index:x}]"
            out.append((shown, bs[i] if i < len(bs) else None, as_[i] if i < len(as_) else None, width))
        return out
    return []


def teaching_view(taught) -> TeachingView:
    s, result = taught.scenario, taught.result
    # each register typed as its operand is (a source of an FP32 example, an FP or integer destination)
    # (a stack pointer is an address: hex)
    regs_fp = {o.name: "address" if o.kind == "stack" else o.data_type for o in s.operands
               if o.kind in ("source", "destination", "stack")}
    fp = s.data_type if s.surface != "tile" else ""
    known: set[str] = set()  # the changes of state a reader knows by name (registers, pc, memory)
    folded: list[tuple[str, str, str]] = []
    rows = [tuple(c) for c in result.get("changed", ())]
    mirrored = _register_values(rows)
    memory: dict[int, tuple[str | None, str | None]] = {}  # a changed byte's address -> (before, after)
    at = 0  # where the memory rows are shown: where the run listed its first changed byte
    addresses: set[str] = set()  # the new values of the mirrors whose name says they hold an address
    changes: list = []  # (a model variable's row is a _ModelRow until every row is known)
    for name, before, after in rows:
        parts = _split(str(name), before, after)
        if parts and MEMORY.match(str(name)) and getattr(s, "access", 0) > 1:  # (shown where the first was)
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
        elif s.surface != "tile" and not is_bookkeeping(str(name)) and not _mirror(before, after, mirrored):
            # block state a B.* descriptor sets, ...: typed below, as its declared type and name say
            changes.append(_ModelRow(_model_label(str(name)), before, after))
        else:
            folded.append((str(name), str(before), str(after)))
            if s.surface != "tile" and not is_bookkeeping(str(name)) and _address_name(_model_label(str(name))):
                addresses.add(str(after))  # a mirror whose name says it holds an address
    if addresses:  # a register an address variable mirrors holds an address (SETRET's ra = 0x18): hex
        changes = [Change(c.name, typed(c.before.bits, "address"), typed(c.after.bits, "address"))
                   if isinstance(c, Change) and c.name in known and c.after.bits in addresses else c for c in changes]
    # a model value equal to an address the example shows (the pc it branched to, a variable named an address) is
    # that address: hex (a trap's argument that is its fault address)
    targets = {str(c.after) for c in changes if isinstance(c, _ModelRow) and _address_name(c.name)}
    targets |= {c.after.bits for c in changes if isinstance(c, Change) and c.name == "pc"}
    changes = [_model_change(c, targets) if isinstance(c, _ModelRow) else c for c in changes]
    if memory:
        dtype = s.data_type if s.data_type in FLOAT_FORMATS and FLOAT_FORMATS[s.data_type][2] == 8 * s.access else ""
        words = _memory_words(memory, s.access, result.get("before") or (), dtype)
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
            or ", ".join(f"{c.name} = {c.after.text}" for c in changes[:4])  # a store: the memory it wrote
    else:
        # registers and pc, then memory, then the model's own state (an atomic's caption names its register
        # result before the bytes it stored; FENTRY's the stack pointer it moved before the saved bytes)
        first = sorted(changes, key=lambda c: 2 if c.name not in known else 1 if c.name.startswith("memory[") else 0)
        outputs = ", ".join(f"{c.name} = {c.after.text}" for c in first[:4])
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


def _register_values(rows) -> set[str]:
    """The new values (as the model prints them) of the general registers a run changed."""
    out: set[str] = set()
    for name, before, after in rows:
        if GPR.match(str(name)):
            out.update(a for _n, _b, a, _w in _split(str(name), before, after) if a)
    return out


def _mirror(before, after, registers: set[str]) -> bool:
    """A model variable set to the new value of a register the same instruction wrote: a mirror of that register
    (0.58.3's ``_ReturnAddress`` of ra, "the bundle-local return address mirrors the same target"), shown once, as
    the register; the variable's row is folded with the bookkeeping."""
    return isinstance(after, str) and WORD.match(after) is not None and after != before and after in registers


def _memory_words(memory: Mapping[int, tuple], size: int, before_rows, dtype: str = "") -> list[Change]:
    """The changed bytes as little-endian values of the access ``size`` at aligned addresses (``memory[0x3f0]`` = 5,
    an 8-byte slot), a byte the run did not change read from the state before it (the setup's bytes, else the
    model's reset value, 0); the hover title is the value's hex and its bytes in memory order."""
    known: dict[int, str] = {}
    for name, values in before_rows:
        m = MEMORY.match(str(name))
        if m:
            known.update({int(m.group(1)) + i: v for i, v in enumerate(str(values).split())})
    out = []
    for base in sorted({address - address % size for address in memory}):
        olds, news = [], []
        for address in range(base, base + size):
            old = known.get(address, "0x00")
            b, a = memory.get(address, (old, old))
            olds.append(_byte(b if b is not None else old))
            news.append(_byte(a if a is not None else old))
        out.append(Change(f"memory[0x{base:x}]", _word(olds, dtype), _word(news, dtype)))
    return out


def _byte(text: str) -> int:
    n = _int(str(text))
    return n & 0xFF if n is not None else 0


def _word(data: list[int], dtype: str = "") -> Value:
    """A little-endian value typed as a register is (an FP element of a tile's FP type: its number)."""
    value = typed(hex(int.from_bytes(bytes(data), "little")), dtype, 8 * len(data))
    return Value(value.text, f"{value.bits} ({' '.join(f'{b:02x}' for b in data)})")


WORD = re.compile(r"^0x[0-9a-f]{16}$")  # a 64-bit value (an ASL Word, the type of the registers) as the model prints it
# the words of a model variable's name that say it holds an address (shown in hex, as an address operand is), and
# those that say it holds bits (a state, flags, a mask: hex too)
ADDRESS_WORDS = frozenset({"address", "pc", "bpc", "bpcn", "target", "ptr", "pointer", "sp", "source", "destination"})
BITS_WORDS = frozenset({"state", "flags", "mask", "mode", "control", "status", "bits"})
_NAME_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


@dataclass(frozen=True)
class _ModelRow:
    name: str
    before: object
    after: object


def _words(label: str) -> set[str]:
    """The words of a model variable's last field: ``BundleSequentialPC`` bundle, sequential, pc (an index is no
    word: ``ssr[0xf40..0xf41]`` has none)."""
    field = re.sub(r"\[[^\]]*\]", "", label).rsplit(".", 1)[-1]
    return {w.lower() for w in _NAME_WORDS.findall(field)} - {"ssr"}


def _address_name(label: str) -> bool:
    return bool(_words(label) & ADDRESS_WORDS)


def _state_kind(label: str) -> str:
    """'address' (hex) for a model variable whose name says it holds an address or bits, or gives no word to type
    by (a system register by its index); '' (a signed decimal, as a register) otherwise."""
    words = _words(label)
    return "address" if not words or words & (ADDRESS_WORDS | BITS_WORDS) else ""


def _model_change(row: _ModelRow, addresses: set[str]) -> Change:
    kind = "address" if str(row.after) in addresses else _state_kind(row.name)
    return Change(row.name, _state_value(row.before, kind), _state_value(row.after, kind))


def _state_value(raw, kind: str) -> Value:
    """A model variable's value typed as a register's is: a 64-bit Word (its declared type, which the model prints
    as 16 hex digits) a signed decimal (``LastFrameSize`` 16), or hex (``kind`` 'address': ``ReturnAddress``
    0x1000); any other value (a narrower bit field, an integer, a boolean, an enumeration) as the model prints it.
    The exact bits are the hover title."""
    text = str(raw)
    parts = text.split(" ")
    if not all(WORD.match(p) for p in parts):
        return Value(text, text)
    shown = [typed(p, kind) for p in parts]
    return Value(" ".join(v.text for v in shown), " ".join(v.bits for v in shown))


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
