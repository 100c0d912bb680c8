"""Rendering: the mixin of :class:`Assembler` that writes a word's field values as text in a syntax (the
disassembler the round trip uses)."""

from __future__ import annotations

from collections.abc import Mapping

from ..encoding import form_fields
from .spelling import DEST_NAMES, FP_TYPES, GPR_NAMES, PE_MASKS, SOURCE_NAMES, TILE_HANDS
from .syntax import AsmError, Slot, Syntax
from .tokens import ARROW


class Renderer:
    """Field values -> text, for :class:`Assembler`."""

    def render(self, syn: Syntax, values: Mapping[str, int]) -> str:
        """The text of a word's field values in this syntax; AsmError if a value has no spelling."""
        for fname, v in syn.fixed.items():
            if values.get(fname, 0) != v:
                raise AsmError(f"{syn.base}: {fname} {values.get(fname, 0)} is not this syntax's {v}")
        head = syn.base
        if syn.suffix_kind == "flags":
            atoms = [a for a in syn.suffix_fields if values.get(syn.suffix_fields[a], 0)]
            text = "".join(atoms)
            if text and text not in syn.suffix_options:
                raise AsmError(f"{syn.base}: modifier bits {'+'.join(atoms)} have no suffix")
            head += "." + text if text else ""
        elif syn.suffix_kind == "enum":
            back = {v: k for k, v in syn.suffix_codes.items()}
            code = values.get(next(iter(syn.suffix_fields.values())), 0)
            if code not in back:
                raise AsmError(f"{syn.base}: suffix value {code} has no name")
            head += "." + back[code]
        elif syn.suffix_kind == "conv":
            back = {v: k for k, v in syn.suffix_codes.items()}
            code = (values.get("SrcType", 0) << 8) | values.get("DstType", 0)
            if code not in back:
                raise AsmError(f"{syn.base}: SrcType {values.get('SrcType', 0)}, DstType {values.get('DstType', 0)} "
                               "have no suffix spelling")
            head += "." + back[code]
        elif syn.suffix_kind == "type":
            names = {v: k for k, v in FP_TYPES.items()}
            if values.get("SrcType", 0) not in names:
                raise AsmError(f"{syn.base}: SrcType {values.get('SrcType')} has no suffix")
            head += "." + names[values.get("SrcType", 0)]
        parts: list[str] = []
        group: list[str] | None = None
        slots = syn.slots
        if syn.ior:
            parts = [SOURCE_NAMES[values.get(s.field, 0)] for s in slots[:3]] + ["->" + DEST_NAMES[values.get("RegDst", 0)]]
            return head + " " + ", ".join(parts)
        for s in slots:
            if s == "[":
                group = []
                continue
            if s == "]":
                parts.append("[" + ", ".join(group or []) + "]")
                group = None
                continue
            text = self._render_slot(s, values, syn)
            if text or not s.optional:
                (group if group is not None else parts).append(text)
        return head + (" " + ", ".join(parts) if parts else "")

    def _render_slot(self, s: Slot, values: Mapping[str, int], syn: Syntax) -> str:
        if s.kind == "lit":
            return s.text.replace(ARROW, "->")
        v = values.get(s.field, 0)
        if s.kind == "dest":
            return ("->" if s.text.startswith(("{", ARROW)) else "") + DEST_NAMES[v]
        if s.kind == "reg":
            text = SOURCE_NAMES[v]
            if s.modifier:
                back = {c: k for k, c in s.modifier_codes.items()}
                code = values.get(s.modifier, 0)
                if code not in back:
                    raise AsmError(f"{syn.base}: {s.modifier} {code} has no modifier spelling")
                text += "." + back[code] if back[code] else ""
            if s.shift and values.get(s.shift, 0):
                text += f"<<{values[s.shift]}"
            if s.shift_literal is not None:
                text += f"<<{s.shift_literal}"
            return text
        if s.kind == "tile":
            return f"{TILE_HANDS[v // 16]}#{v % 16 + 1}"
        if s.kind == "shared":
            if values.get(s.modifier, 0):
                raise AsmError(f"{syn.base}: SizeCode {values.get(s.modifier)} has no spelling in the source form")
            return f"S{v}"
        if s.kind == "sdest":
            if not values.get(s.modifier, 0):
                raise AsmError(f"{syn.base}: SizeCode 0 has no spelling in the destination form")
            return f"->S{v}<{values.get(s.modifier)}>"
        if s.kind == "mask":
            return f"mask={PE_MASKS[v]}"
        if s.kind == "flag":
            return s.text if v else ""
        if s.kind == "tdest":
            return f"->{TILE_HANDS[v]}<{values.get(s.modifier, 0)}>"
        if s.kind == "range":
            begin, end = values.get(s.modifier, 0), v
            if begin >= len(GPR_NAMES) or end >= len(GPR_NAMES):
                raise AsmError(f"{syn.base}: register range {begin}..{end} has no spelling")
            return f"{GPR_NAMES[begin]} ~ {GPR_NAMES[end]}"
        if s.kind == "group-flags":
            chosen, left = [], {f for p in s.parts for f in p.names if values.get(f, 0)}
            for p in sorted(s.parts, key=lambda p: -len(p.names)):  # aqrl before aq and rl
                if p.names and set(p.names) <= left:
                    chosen.append(p)
                    left -= set(p.names)
            return "{" + ", ".join(p.text for p in s.parts if p in chosen) + "}"
        if s.kind == "group-record":
            return "{" + ", ".join(self._render_slot(p, values, syn) for p in s.parts) + "}"
        if s.kind == "named":
            back: dict[int, str] = {}
            for k, c in s.names.items():
                back.setdefault(c, k)
            if v in back:
                return back[v]
            if not s.numbers:
                raise AsmError(f"{syn.base}: {s.field} {v} has no name")
            return str(v)
        if s.kind == "enum":
            back = {c: k for k, c in s.names.items()}
            for other, want in s.sets.items():
                if values.get(other, 0) != want:
                    raise AsmError(f"{syn.base}: {other} {values.get(other, 0)} has no spelling ({s.text} sets {other}={want})")
            if v not in back:
                raise AsmError(f"{syn.base}: {s.field} {v} has no name")
            return ("->" if s.text.startswith(ARROW) else "") + back[v]
        f = next(f for f in form_fields(syn.form) if f["name"] == s.field)
        width = f["width"] or sum(p[2] for p in f["pieces"])
        if s.signed and v >> (width - 1):
            v -= 1 << width
        return str(v + s.bias)
