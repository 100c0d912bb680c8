"""The values a teaching example's page shows (render/state_view.py): typed as a reader reads them, the exact bits on
hover. A register or memory value is a signed decimal (a float of an FP type, hex where it is an address or wide);
memory a store changed is shown as values of its access size; a 64-bit model variable is typed as a register is, by
its declared width and its name; a variable that mirrors a register the instruction wrote is that register."""

from __future__ import annotations

import re
import struct
from collections.abc import Mapping
from dataclasses import dataclass

GPR = re.compile(r"^_PEGPRs\[0\]\[(\d+)(?:\.\.(\d+))?\]$")
MEMORY = re.compile(r"^_Memory\[(\d+)(?:\.\.(\d+))?\]$")
GPR_NAMES = ("zero", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "ra",
             "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "x0", "x1", "x2", "x3")
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
    n &= (1 << width) - 1  # (a tile's S32 element the model reads sign-extended to 64 bits: its own 32 bits)
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


def register_values(rows) -> set[str]:
    """The new values (as the model prints them) of the general registers a run changed."""
    out: set[str] = set()
    for name, before, after in rows:
        if GPR.match(str(name)):
            out.update(a for _n, _b, a, _w in _split(str(name), before, after) if a)
    return out


def is_mirror(before, after, registers: set[str]) -> bool:
    """A model variable set to the new value of a register the same instruction wrote: a mirror of that register
    (0.58.3's ``_ReturnAddress`` of ra, "the bundle-local return address mirrors the same target"), shown once, as
    the register; the variable's row is folded with the bookkeeping."""
    return isinstance(after, str) and WORD.match(after) is not None and after != before and after in registers


def memory_words(memory: Mapping[int, tuple], size: int, before_rows, dtype: str = "") -> list[Change]:
    """The changed bytes as little-endian values of the access ``size`` at aligned addresses (``memory[0x3f0]`` = 0x5,
    an 8-byte slot; hex unless ``dtype``, the example's data type of that size, types them), a byte the run did not change read from the state before it (the setup's bytes, else the
    model's reset value, 0); the hover title is the value's hex and its bytes in memory order."""
    known = _known_bytes(before_rows)
    out = []
    for base in sorted({address - address % size for address in memory}):
        olds, news = _before_after(memory, known, range(base, base + size))
        out.append(Change(f"memory[0x{base:x}]", _word(olds, dtype), _word(news, dtype)))
    return out


def _before_after(memory: Mapping[int, tuple], known: Mapping[int, str], addresses) -> tuple[list[int], list[int]]:
    """The bytes at ``addresses`` before and after the run: a changed byte's own (before and after as the run gave
    them), else the byte the state before the run held there (``known``; the model's reset value 0 if none)."""
    olds, news = [], []
    for address in addresses:
        old = known.get(address, "0x00")
        b, a = memory.get(address, (old, old))
        olds.append(_byte(b if b is not None else old))
        news.append(_byte(a if a is not None else old))
    return olds, news


def _known_bytes(before_rows) -> dict[int, str]:
    """Address -> the byte the state before the run held there, as the model prints it (its memory rows)."""
    known: dict[int, str] = {}
    for name, values in before_rows:
        m = MEMORY.match(str(name))
        if m:
            known.update({int(m.group(1)) + i: v for i, v in enumerate(str(values).split())})
    return known


RUN_BYTES = 8  # the most changed bytes one row of a run shows (a row never crosses a multiple of it)


def memory_runs(memory: Mapping[int, tuple], before_rows) -> list[Change]:
    """Changed bytes that are no typed access (DMA's 64-byte copy, a block memory command) as rows of contiguous
    changed bytes, up to :data:`RUN_BYTES` a row and each within one aligned block of that many:
    ``memory[0x600..0x607]``, before and after as the bytes in memory order (``00 00 ...``, ``11 22 ...``); a lone
    byte as one (``memory[0x7]`` 0x11). A byte the run did not change is no changed byte: it ends the row (the run is
    split there, and the unchanged byte is not shown). The hover title is each byte's address and value."""
    known = _known_bytes(before_rows)
    rows: list[list[int]] = []
    for address in sorted(memory):
        if rows and address == rows[-1][-1] + 1 and address % RUN_BYTES:
            rows[-1].append(address)
        else:
            rows.append([address])
    out = []
    for row in rows:
        olds, news = _before_after(memory, known, row)
        if len(row) == 1:
            out.append(Change(f"memory[0x{row[0]:x}]", typed(hex(olds[0]), "", 8), typed(hex(news[0]), "", 8)))
        else:
            out.append(Change(f"memory[0x{row[0]:x}..0x{row[-1]:x}]", _bytes(row, olds), _bytes(row, news)))
    return out


def _bytes(addresses: list[int], data: list[int]) -> Value:
    return Value(" ".join(f"{b:02x}" for b in data),
                 " ".join(f"0x{a:x}=0x{b:02x}" for a, b in zip(addresses, data, strict=True)))


def _byte(text: str) -> int:
    n = _int(str(text))
    return n & 0xFF if n is not None else 0


def _word(data: list[int], dtype: str = "") -> Value:
    """A little-endian value of memory: raw bits, so hex (SH's 0x3423, not 13347), unless the example's data type
    types it (an element of a tile's FP32 type: its number; of S32: a signed decimal)."""
    value = typed(hex(int.from_bytes(bytes(data), "little")), dtype or "address", 8 * len(data))
    return Value(value.text, f"{value.bits} ({' '.join(f'{b:02x}' for b in data)})")


WORD = re.compile(r"^0x[0-9a-f]{16}$")  # a 64-bit value (an ASL Word, the type of the registers) as the model prints it
# the words of a model variable's name that say it holds an address (shown in hex, as an address operand is), and
# those that say it holds bits (a state, flags, a mask: hex too)
ADDRESS_WORDS = frozenset({"address", "pc", "bpc", "bpcn", "target", "ptr", "pointer", "sp", "source", "destination"})
BITS_WORDS = frozenset({"state", "flags", "mask", "mode", "control", "status", "bits"})
_NAME_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


@dataclass(frozen=True)
class ModelRow:
    name: str
    before: object
    after: object


def _words(label: str) -> set[str]:
    """The words of a model variable's last field: ``BundleSequentialPC`` bundle, sequential, pc (an index is no
    word: ``ssr[0xf40..0xf41]`` has none)."""
    field = re.sub(r"\[[^\]]*\]", "", label).rsplit(".", 1)[-1]
    return {w.lower() for w in _NAME_WORDS.findall(field)} - {"ssr"}


def address_name(label: str) -> bool:
    return bool(_words(label) & ADDRESS_WORDS)


def _state_kind(label: str) -> str:
    """'address' (hex) for a model variable whose name says it holds an address or bits, or gives no word to type
    by (a system register by its index); '' (a signed decimal, as a register) otherwise."""
    words = _words(label)
    return "address" if not words or words & (ADDRESS_WORDS | BITS_WORDS) else ""


def model_change(row: ModelRow, addresses: set[str]) -> Change:
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
