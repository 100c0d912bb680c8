"""Operand values: the mixin of :class:`Assembler` that matches written operands to a syntax's slots, turns each
into its field value (registers, named values, suffix modifiers, shifts, tile operands, labels, numbers), checks it
fits its field, and encodes the word, checked by decoding it back to the same form."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..encoding import encoding_words, form_fields
from .spelling import DEST_CODE, GPR_NAMES, PE_MASKS, SOURCE_CODE, TILE_HANDS
from .syntax import AsmError, Assembled, Slot, Syntax
from .tokens import ARROW, SHIFT, _number, _ranges, _show, _show_slot, _split_top


class OperandEncoder:
    """Operands -> field values -> the word, for :class:`Assembler`."""

    def _match(self, syn: Syntax, given: list[str], values: dict[str, int], name: str) -> None:
        slots = syn.slots
        want = sum(1 for s in slots if isinstance(s, Slot) and not s.optional)
        have = sum(1 for g in given if g not in "[]")
        opt = sum(1 for s in slots if isinstance(s, Slot) and s.optional)
        if not want <= have <= want + opt:
            raise AsmError(f"{name}: expects {want if not opt else f'{want} to {want + opt}'} operands "
                           f"({_show(syn)}), got {have}")
        if [g for g in given if g in "[]"] != [s for s in slots if isinstance(s, str)]:
            raise AsmError(f"{name}: memory brackets do not match {_show(syn)}")
        if opt and not syn.ior:  # an optional flag (B.IOT's <last>): present when the count says so
            present = have - want
            it = iter(g for g in given if g not in "[]")
            position = 0
            for slot in slots:
                if isinstance(slot, str):
                    continue
                if slot.optional and not present:
                    values[slot.field] = 0
                    continue
                if slot.optional:
                    present -= 1
                position += 1
                try:
                    values[slot.field] = self._operand(slot, next(it), name, values)
                except AsmError as exc:
                    exc.position = position
                    raise
            return
        if opt:  # B.IOR: sources in order, then an optional ->destination
            dests = [g for g in given if g.startswith(ARROW)]
            srcs = [g for g in given if not g.startswith(ARROW) and g not in "[]"]
            if len(dests) > 1 or (dests and given[-1] != dests[0]) or len(srcs) > 3:
                raise AsmError(f"{name}: expects up to three sources and one ->destination ({_show(syn)})")
            for slot, tok in zip(slots, srcs):
                values[slot.field] = self._operand(slot, tok, name, values)
            for slot in slots:
                values.setdefault(slot.field, 0)
            if dests:
                values["RegDst"] = self._operand(slots[3], dests[0], name, values)
            return
        it = iter(g for g in given if g not in "[]")
        for position, slot in enumerate(s for s in slots if isinstance(s, Slot)):
            tok = next(it)
            try:
                v = self._operand(slot, tok, name, values)
            except AsmError as exc:
                exc.position = position + 1  # how far the text matched this syntax: the best error is the furthest
                raise
            if slot.field is not None and slot.kind != "lit":
                values[slot.field] = v

    def _operand(self, slot: Slot, tok: str, name: str, values: dict[str, int]) -> int:
        shown = tok.replace(ARROW, "->").replace(SHIFT, "<<")
        if slot.kind == "lit":
            want = slot.text.replace(ARROW, "->")
            if tok.replace(ARROW, "->").lower() != want.lower():
                raise AsmError(f"{name}: operand {shown!r} where {_show_slot(slot)!r} is written")
            return 0
        if slot.kind == "dest":
            if not slot.text.startswith(("{", ARROW)):  # "->Dst0, Dst1": the second destination has no arrow
                if tok.startswith(ARROW):
                    raise AsmError(f"{name}: the second destination {shown!r} is written without '->' (template {_show_slot(slot)})")
                tok = ARROW + tok
            if not tok.startswith(ARROW):
                raise AsmError(f"{name}: destination {shown!r} must be written ->REG (template {_show_slot(slot)})")
            reg = tok[1:].strip().lower()
            if reg not in DEST_CODE:
                raise AsmError(f"{name}: {reg!r} is not a destination register (zero, sp, a0..a7, ra, s0..s8, x0..x3, t, u)")
            return DEST_CODE[reg]
        if slot.kind == "reg":
            reg, shift = tok, None
            if SHIFT in tok:
                reg, _, shift = tok.partition(SHIFT)
            mod = ""
            low = reg.strip().lower()
            if "." in low:
                low, _, mod = low.partition(".")
            if low not in SOURCE_CODE:
                raise AsmError(f"{name}: {reg.strip()!r} is not a source register (zero, sp, a0..a7, ra, s0..s8, x0..x3, "
                               f"t#1..t#4, u#1..u#4)")
            if mod or slot.modifier:
                if not slot.modifier:
                    raise AsmError(f"{name}: operand {shown!r} takes no .{mod} modifier")
                codes = {k: v for k, v in slot.modifier_codes.items()}
                if mod not in codes:
                    raise AsmError(f"{name}: .{mod} is not a modifier of this operand "
                                   f"(allowed: {', '.join('.' + k for k in codes if k)})")
                values[slot.modifier] = codes[mod]
            if shift is not None:
                amount = _number(shift.strip())
                if slot.shift_literal is not None:
                    if amount != slot.shift_literal:
                        raise AsmError(f"{name}: the shift must be <<{slot.shift_literal}")
                elif slot.shift:
                    values[slot.shift] = self._fit(slot.shift, amount, False, 0, name, values)
                else:
                    raise AsmError(f"{name}: operand {shown!r} takes no shift")
            else:
                if slot.shift_literal is not None:
                    raise AsmError(f"{name}: operand {shown!r} needs <<{slot.shift_literal}")
                if slot.shift:
                    values[slot.shift] = 0
            return SOURCE_CODE[low]
        if slot.kind == "tile":
            m = re.fullmatch(r"([TUMN])#(\d+)", tok.strip(), re.I)
            if not m or not 1 <= int(m.group(2)) <= 16:
                raise AsmError(f"{name}: {shown!r} is not a Local tile operand (T#1..T#16, U#1..U#16, M#1..M#16, N#1..N#16)")
            return TILE_HANDS.index(m.group(1).upper()) * 16 + int(m.group(2)) - 1
        if slot.kind in ("shared", "sdest"):
            pattern = (ARROW + r"S(\d+)<(\d+)>") if slot.kind == "sdest" else r"S(\d+)()"
            m = re.fullmatch(pattern, tok.strip(), re.I)
            if not m or int(m.group(1)) > 255:
                raise AsmError(f"{name}: {shown!r} is not a Shared tile " + ("destination ->Sn<size>" if slot.kind == "sdest"
                                                                                else "S0..S255"))
            values[slot.modifier] = 0 if slot.kind == "shared" else \
                self._fit(slot.modifier, int(m.group(2)), False, 0, name, values, "SizeCode")
            return int(m.group(1))
        if slot.kind == "mask":
            m = re.fullmatch(r"mask=([01]{4})", tok.strip())
            if not m or m.group(1) not in PE_MASKS:
                raise AsmError(f"{name}: {shown!r} is not mask=BBBB with one of the PE masks {', '.join(PE_MASKS)}")
            return PE_MASKS.index(m.group(1))
        if slot.kind == "flag":
            if tok.strip().lower() != slot.text:
                raise AsmError(f"{name}: operand {shown!r} where {slot.text!r} is written")
            return 1
        if slot.kind == "tdest":
            m = re.fullmatch(ARROW + r"([TUMN])<(\d+)>", tok.strip(), re.I)
            if not m:
                raise AsmError(f"{name}: {shown!r} is not a tile destination ->T<size>, ->U<size>, ->M<size> or ->N<size>")
            values[slot.modifier] = self._fit(slot.modifier, int(m.group(2)), False, 0, name, values, "SizeCode")
            return TILE_HANDS.index(m.group(1).upper())
        if slot.kind == "range":
            parts = [p.strip().lower() for p in tok.split("~")]
            if len(parts) != 2 or not all(p in GPR_NAMES for p in parts):
                raise AsmError(f"{name}: {shown!r} is not a register range REG ~ REG of absolute GPRs")
            if slot.names and parts[0] not in slot.names:
                raise AsmError(f"{name}: the range must start at {next(iter(slot.names))}")
            values[slot.modifier] = SOURCE_CODE[parts[0]]
            return SOURCE_CODE[parts[1]]
        if slot.kind == "group-flags":
            given = [g.strip().lower() for g in _split_top(tok.strip()[1:-1])] if tok.strip().startswith("{") else None
            if given is None or not tok.strip().endswith("}"):
                raise AsmError(f"{name}: {shown!r} is not a {{...}} set of {', '.join(p.text for p in slot.parts)}")
            options = {p.text.lower(): p for p in slot.parts}
            for g in [g for g in given if g]:
                if g not in options:
                    raise AsmError(f"{name}: {g!r} is not one of {', '.join(p.text for p in slot.parts)}")
                for field, bit in options[g].names.items():
                    if values.get(field):
                        raise AsmError(f"{name}: {g!r} sets {field} twice")
                    values[field] = bit
            for p in slot.parts:
                for field in p.names:
                    values.setdefault(field, 0)
            return 0
        if slot.kind == "group-record":
            given = [g.strip() for g in _split_top(tok.strip()[1:-1])] if tok.strip().startswith("{") else None
            if given is None or not tok.strip().endswith("}") or len(given) != len(slot.parts):
                raise AsmError(f"{name}: {shown!r} is not {_show_slot(slot)} ({len(slot.parts)} values in braces)")
            for part, g in zip(slot.parts, given):
                values[part.field] = self._operand(part, g, name, values)
            return 0
        if slot.kind == "named":
            hit = {k.lower(): v for k, v in slot.names.items()}.get(tok.strip().lower())
            if hit is not None:
                return self._fit(slot.field, hit, False, 0, name, values, slot.text)
            if not slot.numbers:
                raise AsmError(f"{name}: {shown!r} is not one of {', '.join(dict.fromkeys(slot.names))} ({slot.text})")
            value = _number(tok)
            if value is None:
                raise AsmError(f"{name}: {shown!r} is not a number (operand {slot.text}"
                               + (f"; its named values: {', '.join(slot.names)})" if slot.names else ")"))
            return self._fit(slot.field, value, False, 0, name, values, slot.text)
        if slot.kind == "enum":
            if slot.text.startswith(ARROW):
                if not tok.startswith(ARROW):
                    raise AsmError(f"{name}: {shown!r} must be written ->NAME (template {_show_slot(slot)})")
                tok = tok[1:]
            hit = {k.lower(): v for k, v in slot.names.items()}.get(tok.lower())
            if hit is None:
                raise AsmError(f"{name}: {shown!r} is not one of {', '.join(slot.names)}")
            values.update(slot.sets)
            return hit
        value = _number(tok)
        if value is None:
            raise AsmError(f"{name}: {shown!r} is not a number (operand {slot.text})")
        return self._fit(slot.field, value - slot.bias, slot.signed, slot.bias, name, values, slot.text)

    _current: Syntax | None = None  # the syntax being assembled (Assembler sets it)

    def _fit(self, fname, value, signed, bias, name, values, label=None) -> int:
        f = self._field(fname)
        width = f["width"] or sum(p[2] for p in f["pieces"])
        low = min((p[1] for p in f["pieces"]), default=0)
        lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
        if not lo <= value <= hi:
            raise AsmError(f"{name}: {label or fname} {value + bias} is out of range {lo + bias}..{hi + bias}")
        if value & ((1 << low) - 1):
            raise AsmError(f"{name}: {label or fname} {value + bias} must be a multiple of {1 << low}")
        return value & ((1 << width) - 1)

    def _field(self, fname):
        for f in form_fields(self._current.form):
            if f["name"] == fname:
                return f
        raise AsmError(f"no field {fname}")

    def _encode(self, syn: Syntax, values: dict[str, int], name: str) -> Assembled:
        form = syn.form
        mask = match = 0
        for _i, width, m, x, off in encoding_words(form):
            full = (1 << width) - 1
            mask |= ((m or 0) & full) << off
            match |= ((x or 0) & full) << off
        word = match
        for f in form_fields(form):
            v = values.get(f["name"], 0)
            for lsb, vlsb, pw in f["pieces"]:
                word |= ((v >> vlsb) & ((1 << pw) - 1)) << lsb
        for c in form.get("constraints") or ():
            if not isinstance(c, Mapping):
                continue
            v = values.get(c.get("field"), 0)
            if c.get("operator") == "one-of" and v not in (c.get("values") or ()):
                raise AsmError(f"{name}: {c.get('field')} {v} is not allowed by the form (one of {_ranges(c.get('values') or ())})")
            if c.get("operator") == "not-equal" and v == c.get("value"):
                raise AsmError(f"{name}: {c.get('field')} {v} is not allowed by the form")
        length = int(form["length_bits"])
        hits = self.decoder.decode(word, length)
        if not hits or hits[0][1] is not form:
            other = f"form {hits[0][1].get('form_id')}" if hits else "no form"
            raise AsmError(f"{name}: the word 0x{word:x} decodes to {other}, not {syn.form_id}")
        return Assembled(word, length, syn.unit, form, self.decoder.fields(form, word))
