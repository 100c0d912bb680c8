"""The stack of a teaching scenario whose syntax writes ``sp!`` (a frame instruction: FENTRY, FEXIT, FRET.*).

Such an instruction saves or restores a register range in 8-byte slots that descend from the caller's stack
pointer, and moves the stack pointer by its frame size. Its scenario (``teaching``) sets the stack pointer to an
aligned address with recognisable memory where the slots are, picks a range that avoids the stack pointer and a
frame size that holds the range:

- a *save* (a range of sources, ``[RegSrc0 ~ RegSrcn]``): the range registers hold small distinct values, the
  frame below the stack pointer recognisable bytes (0x11, 0x22, ...) the stores overwrite;
- a *restore* (a range of destinations, ``[ra ~ RegDstn]``): the range registers hold an old value, the slots above
  the stack pointer (slot zero the highest, at the caller's sp - 8) small distinct values; a range that begins at
  the register the names call ``ra`` gets an even return target in slot zero.

Which register is the stack pointer: the one the register names call ``sp`` (the assembler's spelling), unless
the spec's ASL model reads its frame stack pointer from a register given by a constant of its own (0.58.3:
``constant PTO_FRAME_SP_INDEX = 2;``, R2, which the names call ``a0``). Then both registers are set to the stack
address, the range avoids both, and the page says which one the model moved (:class:`ModelStackPointer`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..model.catalog import Catalog
from ..store.memo import Memo

STACK_BASE = 0x400  # the stack pointer of every frame scenario: aligned, apart from the memory operands' 0x200
RETURN_TARGET = 0x1000  # slot zero of a range that begins at ra: an even (valid) return target
SLOT_BYTES = 8  # a slot holds one 64-bit register (the page shows a frame's memory as values of this size)
SLOT_VALUES = (7, 5, 3, 2, 9, 11)  # the saved values of the other slots (slot zero too without ra)
RING = range(2, 24)
MAX_FRAME = 8 * len(range(2, 24)) + 16  # the largest frame a scenario sets memory up for (the whole ring, and 16)  # registers a frame range may name when the form's constraints do not say
# a constant of the model that the model reads as a register index and whose name says it is the stack pointer
_CONSTANT = re.compile(r"^[ \t]*constant[ \t]+(\w+)[ \t]*=[ \t]*(\d{1,2})[ \t]*;", re.M)
_SP_NAME = re.compile(r"(?:^|_)SP(?:_|$)")
_READ_GPR = re.compile(r"\bReadGPR\([ \t]*(\w+)[ \t]*\)")
# a model variable a subprogram sets to the value it has just written to a register: WriteGPR(10, target); then
# _ReturnAddress = target; (the register's index a literal, the two statements adjacent)
_MIRROR = re.compile(r"\bWriteGPR\([ \t]*(\d{1,2})[ \t]*,[ \t]*(\w+)[ \t]*\)[ \t]*;[ \t]*\n[ \t]*(_\w+)[ \t]*=[ \t]*(\w+)[ \t]*;")


@dataclass(frozen=True)
class ModelStackPointer:
    """The register the model reads its frame stack pointer from, and where the model says so."""

    index: int
    constant: str
    path: str
    line: int


def model_stack_pointer(catalog: Catalog) -> ModelStackPointer | None:
    """The model's own stack pointer register: the one constant of a model unit (not an instruction) whose name
    has an ``SP`` word and that the same unit passes to ``ReadGPR``; None when there is none, or more than one
    register is named so (the scenario then uses the register the names call ``sp``)."""
    return _FOUND.of(catalog, lambda: _model_stack_pointer(catalog))


def _model_stack_pointer(catalog: Catalog) -> ModelStackPointer | None:
    found: dict[int, ModelStackPointer] = {}
    for unit in sorted(catalog.units.values(), key=lambda u: u.path):
        text = unit.file.text
        if unit.is_instruction or "ReadGPR(" not in text or "constant" not in text:
            continue
        read = set(_READ_GPR.findall(text))  # (one pass each: a hostile unit of many constants stays linear)
        for m in _CONSTANT.finditer(text):
            name, value = m.group(1), int(m.group(2))
            if value in RING and value not in found and name in read and _SP_NAME.search(name):
                # (counted once per register found, at most len(RING) times a unit: not once per constant)
                found[value] = ModelStackPointer(value, name, unit.path, text.count("\n", 0, m.start()) + 1)
    return next(iter(found.values())) if len(found) == 1 else None


_FOUND = Memo(__name__, "a catalog -> its model's own stack pointer register (Memo.of)", limit=4)


def register_mirror(catalog: Catalog, register: int) -> str | None:
    """The model variable that holds a copy of ``register`` (for ra, the return address a restore that does not
    restore it returns through: 0.58.3's FRET.RA reads ``_ReturnAddress``, which SETRET's SetReturnAddress sets next to
    R10): the one variable a model unit (not an instruction) assigns, in the statement right after it, the value it
    wrote to that register; None when no unit or more than one variable does (the scenario then sets no copy)."""
    return _MIRRORS.of(catalog, lambda: _register_mirror(catalog, register), register)


def _register_mirror(catalog: Catalog, register: int) -> str | None:
    found = {m.group(3) for unit in catalog.units.values() if not unit.is_instruction and "WriteGPR(" in unit.file.text
             for m in _MIRROR.finditer(unit.file.text) if int(m.group(1)) == register and m.group(2) == m.group(4)}
    return next(iter(found)) if len(found) == 1 else None


_MIRRORS = Memo(__name__, "(a catalog, a register) -> the model variable copying it (Memo.of)", limit=8)


def stack_registers(catalog: Catalog, named_sp: int) -> tuple[tuple[int, ...], ModelStackPointer | None]:
    """The registers a frame scenario sets to the stack address (the model's first), and the model's own stack
    pointer when it is not the one the names call ``sp``."""
    model = model_stack_pointer(catalog)
    if model is None or model.index == named_sp:
        return (named_sp,), None
    return (model.index, named_sp), model


def frame_range(begin_named: int | None, allowed_begin, allowed_end, avoid) -> tuple[int, int]:
    """(begin, end) of a two-register range: from the register the syntax names (``ra``) or the first allowed one
    that is no stack pointer, to the next allowed one that is none either."""
    begins = [v for v in (allowed_begin or RING) if isinstance(v, int)]
    ends = [v for v in (allowed_end or RING) if isinstance(v, int)]
    if begin_named is not None:
        begin = begin_named
    else:
        begin = next((v for v in begins if v not in avoid), begins[0] if begins else 2)
    end = next((v for v in ends if v > begin and v not in avoid), begin)
    return begin, end


def range_registers(begin: int, end: int) -> list[int]:
    """The registers of an inclusive ring range in ring order (R2..R23, wrapping after R23)."""
    if begin not in RING or end not in RING:
        return []
    count = end - begin + 1 if end >= begin else (RING.stop - begin) + (end - RING.start) + 1
    return [RING.start + (begin - RING.start + i) % len(RING) for i in range(count)]


def saved_values(count: int, variant: int) -> list[int]:
    """``count`` small distinct values (another rotation of :data:`SLOT_VALUES` a value set)."""
    return [SLOT_VALUES[(i + 2 * variant) % len(SLOT_VALUES)] for i in range(count)]


def slot_words(count: int, frame: int, restores_ra: bool, variant: int = 0) -> dict[int, int]:
    """Address -> 8-byte value of each slot of a restore frame (slot i at the caller's sp - 8 * (i + 1), the caller's
    sp the stack pointer plus the frame size)."""
    caller = STACK_BASE + frame
    values = saved_values(count, variant)
    return {caller - SLOT_BYTES * (i + 1): RETURN_TARGET if restores_ra and i == 0 else values[i] for i in range(count)}


def word(value: int) -> str:
    """An address as the model's setup writes it (teaching.word, which imports this module)."""
    return f"Zeros{{PTO_XLEN}} + 0x{value & (1 << 64) - 1:x}"


def memory_setup(words: Mapping[int, int], low: int = 0, high: int = 0, pattern=()) -> list[str]:
    """Setup lines writing each 8-byte word little-endian, or ``pattern``'s bytes over [low, high)."""
    lines = [f"WriteMemoryByte({word(low + i)}, Zeros{{8}} + 0x{pattern[i % len(pattern)]:02x});"
             for i in range(high - low)] if pattern else []
    for address, value in sorted(words.items()):
        lines += [f"WriteMemoryByte({word(address + i)}, Zeros{{8}} + 0x{value >> (8 * i) & 0xFF:02x});"
                  for i in range(8)]
    return lines
