"""What the assembler reads a template into and gives back: :class:`Syntax` (one way to write a form, its
operand :class:`Slot` s bound to encoding fields), :class:`Assembled` (a word and its fields) and :class:`AsmError`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as _dcfield
from typing import Any

from ...model.catalog import Unit


class AsmError(ValueError):
    """The text does not assemble; ``str(error)`` is one line saying why."""


@dataclass
class Slot:
    kind: str  # reg | dest | imm | enum | lit | shift-only
    field: str | None = None
    text: str = ""  # literal text (lit), template token otherwise
    modifier: str | None = None  # field of the register's suffix modifier (SrcRType)
    modifier_codes: dict[str, int] = _dcfield(default_factory=dict)  # "" = no modifier
    shift: str | None = None  # field set by "<<n"
    shift_literal: int | None = None  # "<<3" the template requires
    names: dict[str, int] = _dcfield(default_factory=dict)  # enum spelling -> value
    signed: bool = False
    bias: int = 0  # encoded = value - bias (N of M, N)
    optional: bool = False
    in_memory: bool = False
    parts: list = _dcfield(default_factory=list)  # a {...} group's items: Slot each (kind group-record / group-flags)
    numbers: bool = False  # a record item (kind named) that may also be written as a number: its field has no domain
    sets: dict[str, int] = _dcfield(default_factory=dict)  # other fields an enum name implies ("when V=1")


@dataclass
class Syntax:
    unit: Unit
    form: Mapping[str, Any]
    template: str
    base: str  # mnemonic as the template writes it
    suffix_kind: str  # "" | flags | type
    suffix_options: tuple[str, ...] = ()
    suffix_fields: dict[str, str] = _dcfield(default_factory=dict)  # atom -> field
    suffix_required: bool = False
    slots: list = _dcfield(default_factory=list)  # Slot or "[" / "]"
    problem: str = ""  # why this syntax cannot be assembled
    suffix_codes: dict[str, int] = _dcfield(default_factory=dict)  # enum suffix -> value
    fixed: dict[str, int] = _dcfield(default_factory=dict)  # fields a tile operation fixes
    tile: str | None = None  # tile operation name written after the carrier mnemonic
    ior: bool = False  # B.IOR: up to three sources, then an optional ->destination

    @property
    def form_id(self) -> str:
        return str(self.form.get("form_id", ""))

    @property
    def bound(self) -> set[str]:
        out = set(self.suffix_fields.values()) | set(self.fixed)
        if self.suffix_kind == "type":
            out.add("SrcType")
        if self.suffix_kind == "conv":
            out |= {"SrcType", "DstType"}
        for s in self.slots:
            if isinstance(s, Slot):
                out.update(x for x in (s.field, s.modifier, s.shift) if x)
                out.update(s.sets)
                for p in s.parts:
                    out.update(x for x in (p.field, *p.names) if x) if s.kind == "group-flags" else out.update(
                        x for x in (p.field, *p.sets) if x)
        return out


@dataclass(frozen=True)
class Assembled:
    word: int
    length_bits: int
    unit: Unit
    form: Mapping[str, Any]
    fields: tuple[tuple[str, int], ...]

    @property
    def hex(self) -> str:
        return f"0x{self.word:0{max(1, self.length_bits // 4)}x}"
