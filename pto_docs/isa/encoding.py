"""Instruction encodings as data: per catalog form and encoding word, an MSB-to-LSB list of decoded items.

Pure functions over the immutable model. Scalar and block instructions are decoded from their own catalog forms
(``encoding[{index, mask, match, width_bits}]`` and ``fields[{name, width, pieces[...]}]``); aliases
(``alias_of``) borrow their target's forms; tile instructions borrow the carrier form named by the tile record's
``command_mnemonic`` and substitute the operation's own fixed values (TEPL: Mode and Function; CUBE/TLSU: Function,
which those carriers already hold in their fixed match bits).

Bit numbers are instruction-global: encoding word ``k`` covers bits ``[offset_k, offset_k + width_bits)`` where
``offset_k`` is the sum of the widths of the words before it (L.BSTOP: word 0 = bits 31:0, word 1 = bits 63:32).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..model.catalog import Catalog, Unit

FIELD, CONSTANT, UNSPECIFIED = "field", "constant", "unspecified"
VARIABLE = "variable"


@dataclass(frozen=True)
class EncodingItem:
    name: str  # display label: field name, "imm[11:5]" for one piece of a split field, "Constant", "Unspecified"
    kind: str  # "field" | "constant" | "unspecified"
    msb: int
    lsb: int
    value: str  # "variable" | "0 (Mode fixed by TMUL)" | "20'b0001..." | "unspecified"
    field: str | None = None
    piece: int | None = None  # index into the field's pieces

    @property
    def width(self) -> int:
        return self.msb - self.lsb + 1

    @property
    def bit_range(self) -> str:
        return str(self.msb) if self.msb == self.lsb else f"{self.msb}:{self.lsb}"

    @property
    def fixed(self) -> bool:
        return self.kind == FIELD and self.value != VARIABLE


@dataclass(frozen=True)
class EncodingWord:
    form_id: str
    mnemonic: str
    asm: str
    index: int
    width_bits: int
    mask: str  # the form's mask, as written in the catalog (lower-case hex, 0x-prefixed)
    match: str
    items: tuple[EncodingItem, ...]  # MSB -> LSB
    wavejson: dict
    title: str
    offset: int = 0  # instruction bit number of this word's bit 0

    @property
    def effective_mask(self) -> int:
        """Word-local mask of every bit with a known value: constants plus fixed fields."""
        return _known_bits(self)[0]

    @property
    def effective_match(self) -> int:
        return _known_bits(self)[1]


@dataclass(frozen=True)
class InstructionEncoding:
    unit_id: str
    carrier_mnemonic: str | None  # the form mnemonic whose bits these are (BSTART.TEPL for TMUL)
    engine_mnemonic: str | None  # the assembly mnemonic readers write (BSTART.VEC for TMUL)
    words: tuple[EncodingWord, ...]
    fixed: Mapping[str, int]
    notes: tuple[str, ...]


# -- public API ---------------------------------------------------------------------------------
def encoding_for(catalog: Catalog, unit: Unit) -> InstructionEncoding | None:
    """The encoding of an instruction unit, or None for non-instruction units and units without any record."""
    if not unit.is_instruction:
        return None
    record = unit.record
    alias = record.get("alias_of")
    if isinstance(alias, str) and alias:
        return _alias_encoding(catalog, unit, alias)
    records = [r for r in unit.catalog_records if isinstance(r, Mapping)]
    tile = [r for r in records if "command_mnemonic" in r]
    if tile:
        return _tile_encoding(catalog, unit, tile[0])
    forms = [r for r in records if "encoding" in r]
    if not forms:
        return None
    words: list[EncodingWord] = []
    notes: list[str] = []
    for form in forms:
        words += _form_words(form, notes=notes)
        for variant in form.get("encoding_variants") or ():
            if isinstance(variant, Mapping) and isinstance(variant.get("encoding"), Sequence):
                label = f"{_text(form.get('mnemonic'))} variant {_text(variant.get('name'))}"
                if isinstance(variant.get("function"), int):
                    label += f" (Function {variant['function']})"
                words += _form_words(form, title=label, override=variant["encoding"])
    mnemonic = _text(forms[0].get("mnemonic")) or unit.mnemonic
    return InstructionEncoding(unit.id, mnemonic, unit.mnemonic, tuple(words), {}, tuple(notes))


def validate_form(form: Mapping[str, Any]) -> list[str]:
    """Problems of one catalog form: bad words, match outside mask, pieces overlapping or beyond the width."""
    problems: list[str] = []
    name = _text(form.get("form_id")) or _text(form.get("mnemonic")) or "form"
    words = encoding_words(form)
    total = sum(w for _i, w, _m, _x, _o in words)
    length = form.get("length_bits")
    if isinstance(length, int) and words and length != total:
        problems.append(f"{name}: length_bits {length} != sum of encoding word widths {total}")
    for index, width, mask, match, _offset in words:
        if width <= 0:
            problems.append(f"{name}: encoding word {index} has no positive width_bits")
            continue
        if mask is None or match is None:
            problems.append(f"{name}: encoding word {index} has an unreadable mask or match")
            continue
        if mask >> width:
            problems.append(f"{name}: word {index} mask 0x{mask:x} has bits beyond width {width}")
        if match & ~mask:
            problems.append(f"{name}: word {index} match bits 0x{match & ~mask:x} lie outside the mask")
    width = total or (length if isinstance(length, int) else 0)
    owner: dict[int, str] = {}
    for field in form_fields(form):
        fname = field["name"]
        value_bits = 0
        for p, piece in enumerate(field["pieces"]):
            lsb, vlsb, pw = piece
            if pw <= 0 or lsb < 0 or vlsb < 0:
                problems.append(f"{name}: field {fname} piece {p} has a negative or empty extent")
                continue
            if lsb + pw > width:
                problems.append(f"{name}: field {fname} piece {p} (bits {lsb + pw - 1}:{lsb}) lies beyond width {width}")
            if field["width"] is not None and vlsb + pw > field["width"]:
                problems.append(f"{name}: field {fname} piece {p} value bits {vlsb + pw - 1}:{vlsb} exceed field width {field['width']}")
            for index, ww, mask, _match, off in words:
                inside = ((mask or 0) << off) & (((1 << pw) - 1) << lsb)
                if inside and inside != ((1 << pw) - 1) << lsb and 0 <= lsb - off < ww:
                    problems.append(f"{name}: field {fname} piece {p} lies partly inside the mask of word {index}")
            vmask = ((1 << pw) - 1) << vlsb
            if value_bits & vmask:
                problems.append(f"{name}: field {fname} piece {p} repeats value bits of an earlier piece")
            value_bits |= vmask
            for bit in range(lsb, lsb + pw):
                if bit in owner:
                    problems.append(f"{name}: field {fname} piece {p} overlaps {owner[bit]} at bit {bit}")
                    break
            for bit in range(lsb, lsb + pw):
                owner.setdefault(bit, fname)
    return problems


# -- scalar and block forms ---------------------------------------------------------------------
def _form_words(form: Mapping[str, Any], *, fixed: Mapping[str, tuple[int, str]] | None = None,
                title: str | None = None, notes: list[str] | None = None,
                override: Sequence[Mapping[str, Any]] | None = None) -> list[EncodingWord]:
    fixed = fixed or {}
    mnemonic = _text(form.get("mnemonic")) or _text(form.get("form_id"))
    form_id = _text(form.get("form_id"))
    asm = _text(form.get("asm"))
    words = encoding_words(form, override)
    if notes is not None:
        notes += validate_form(form)
    fields = form_fields(form)
    out: list[EncodingWord] = []
    for index, width, mask, match, offset in words:
        if width <= 0:
            continue
        items = _word_items(width, offset, mask or 0, match or 0, fields, fixed)
        head = title or mnemonic
        if len(words) > 1:
            head += f", word {index} (bits {offset + width - 1}:{offset})"
        out.append(EncodingWord(form_id, mnemonic, asm, index, width, _hex(mask, width), _hex(match, width),
                                items, wavejson(items, width, offset), head, offset))
    return out


def _word_items(width: int, offset: int, mask: int, match: int, fields: list[dict],
                fixed: Mapping[str, tuple[int, str]]) -> tuple[EncodingItem, ...]:
    # Per word-local bit: (kind, key) where key identifies the run; fields win over the mask.
    slots: list[tuple[str, Any] | None] = [None] * width
    for fi, field in enumerate(fields):
        for p, (lsb, _vlsb, pw) in enumerate(field["pieces"]):
            for bit in range(max(lsb, offset), min(lsb + pw, offset + width)):
                if slots[bit - offset] is None:
                    slots[bit - offset] = (FIELD, (fi, p))
    for bit in range(width):
        if slots[bit] is None:
            slots[bit] = (CONSTANT, None) if (mask >> bit) & 1 else (UNSPECIFIED, None)
    items: list[EncodingItem] = []
    bit = width - 1
    while bit >= 0:
        kind, key = slots[bit]  # type: ignore[misc]
        low = bit
        while low - 1 >= 0 and slots[low - 1] == (kind, key):
            low -= 1
        msb, lsb = bit + offset, low + offset
        if kind == FIELD:
            items.append(_field_item(fields, key, msb, lsb, mask, match, offset, fixed))
        elif kind == CONSTANT:
            bits = "".join(str((match >> b) & 1) for b in range(bit, low - 1, -1))
            items.append(EncodingItem("Constant", CONSTANT, msb, lsb, f"{bit - low + 1}'b{bits}"))
        else:
            items.append(EncodingItem("Unspecified", UNSPECIFIED, msb, lsb, "unspecified"))
        bit = low - 1
    return tuple(items)


def _field_item(fields: list[dict], key: tuple[int, int], msb: int, lsb: int, mask: int, match: int,
                offset: int, fixed: Mapping[str, tuple[int, str]]) -> EncodingItem:
    fi, p = key
    field = fields[fi]
    name = field["name"]
    piece_lsb, vlsb, pw = field["pieces"][p]
    v_lo = vlsb + (lsb - piece_lsb)
    v_hi = vlsb + (msb - piece_lsb)
    whole = len(field["pieces"]) == 1 and vlsb == 0 and pw == (field["width"] or pw) and v_lo == 0 and v_hi == pw - 1
    label = name if whole else f"{name}[{v_hi}:{v_lo}]" if v_hi != v_lo else f"{name}[{v_hi}]"
    n = msb - lsb + 1
    local = lsb - offset
    if name in fixed:
        full, reason = fixed[name]
        part = (full >> v_lo) & ((1 << n) - 1)
        value = f"{part} ({reason})" if whole else f"{part} (bits {v_hi}:{v_lo} of {full}; {reason})"
    elif (mask >> local) & ((1 << n) - 1) == (1 << n) - 1:
        part = (match >> local) & ((1 << n) - 1)
        value = f"{part} ({name} fixed by the form's match bits)"
    else:
        value = VARIABLE
    return EncodingItem(label, FIELD, msb, lsb, value, name, p)


def wavejson(items: Sequence[EncodingItem], width: int, offset: int = 0) -> dict:
    """Upstream's WaveDrom ``reg`` shape (LSB first) with the fixed values as ``attr``."""
    reg: list[dict] = []
    for item in reversed(items):
        if item.kind == CONSTANT:
            reg.append({"bits": item.width, "name": item.value})
        elif item.kind == UNSPECIFIED:
            reg.append({"bits": item.width, "type": 1})
        else:
            entry: dict[str, Any] = {"bits": item.width, "name": item.name}
            if item.fixed:
                entry["attr"] = int(item.value.split(" ", 1)[0])
            reg.append(entry)
    lanes = -(-width // 32) if width > 32 else 1
    config = {"bits": width, "fontsize": 13, "hspace": 640 if width <= 16 else 900, "lanes": lanes, "offset": offset}
    return {"reg": reg, "config": config}


# -- aliases and tile operations ---------------------------------------------------------------
def _alias_encoding(catalog: Catalog, unit: Unit, target: str) -> InstructionEncoding:
    engine = _text(unit.record.get("alias_engine"))
    found = _carrier(catalog, target)
    note = f"{unit.mnemonic} is an assembly alias of {target}" + (f" (engine {engine})" if engine else "") + \
        "; it has no encoding of its own and is encoded as its target."
    if found is None:
        return InstructionEncoding(unit.id, target, unit.mnemonic, (), {}, (note, f"The alias target {target} is not in this tree."))
    notes = [note]
    words: list[EncodingWord] = []
    for form in found[1]:
        words += _form_words(form, title=f"{unit.mnemonic} (alias of {target})", notes=notes)
    return InstructionEncoding(unit.id, target, unit.mnemonic, tuple(words), {}, tuple(notes))


def _tile_encoding(catalog: Catalog, unit: Unit, rec: Mapping[str, Any]) -> InstructionEncoding:
    mnemonic = unit.mnemonic or _text(rec.get("name"))
    carrier = _text(rec.get("command_mnemonic"))
    family = _text(rec.get("family"))
    function, mode = rec.get("function"), rec.get("mode")
    fixed: dict[str, int] = {}
    if isinstance(function, int):
        fixed["Function"] = function
    if isinstance(mode, int):
        fixed["Mode"] = mode
    notes: list[str] = []
    found = _carrier(catalog, carrier) if carrier else None
    engine_mnemonic = carrier
    if family == "TEPL":
        engine_mnemonic = f"BSTART.{unit.engine}" if unit.engine else carrier
        if found is not None:
            by_engine = found[1][0].get("canonical_assembly_by_engine")
            if isinstance(by_engine, Mapping) and isinstance(by_engine.get(unit.engine), str):
                engine_mnemonic = by_engine[unit.engine]
        selector = rec.get("selector")
        if isinstance(mode, int) and isinstance(function, int) and isinstance(selector, str):
            try:
                sel = int(selector, 16)
            except ValueError:
                sel = None
            if sel != (mode << 5) | function:
                notes.append(f"Selector {selector} does not equal (Mode << 5) | Function = 0x{(mode << 5) | function:03x}.")
    if not carrier or found is None:
        notes.insert(0, f"The carrier form {carrier or '(none named)'} of {mnemonic} is not in this tree; no encoding is shown.")
        return InstructionEncoding(unit.id, carrier or None, engine_mnemonic, (), fixed, tuple(notes))
    sel_text = f" (selector {rec['selector']})" if isinstance(rec.get("selector"), str) else ""
    pairs = " ".join(f"{k} {fixed[k]}" for k in ("Mode", "Function") if k in fixed)
    head = f"{mnemonic} is carried by {carrier}"
    if engine_mnemonic and engine_mnemonic != carrier:
        head += f" and written {engine_mnemonic}"
    notes.insert(0, head + (f"; {mnemonic} fixes {pairs}{sel_text}." if pairs else "."))
    words: list[EncodingWord] = []
    for form in found[1]:
        names = {f["name"] for f in form_fields(form)}
        subst = {k: (v, f"{k} fixed by {mnemonic}") for k, v in fixed.items() if k in names}
        override = _variant_for(form, function, mnemonic, notes)
        for k in sorted(set(fixed) - names):
            notes.append(f"{k} {fixed[k]} is not a field of {carrier}; it is part of the carrier's fixed match bits.")
        words += _form_words(form, fixed=subst, title=f"{mnemonic} ({engine_mnemonic or carrier})", notes=notes,
                             override=override)
    if family != "TEPL" and isinstance(function, int):
        slot = _function_slot(catalog)
        for word in words:
            if slot is not None and word.index == 0 and "Function" not in {i.field for i in word.items}:
                hi, lo = slot
                mask, match = int(word.mask, 16), int(word.match, 16)
                bits = ((1 << (hi - lo + 1)) - 1) << lo
                if mask & bits == bits and (match & bits) >> lo != function:
                    notes.append(f"{carrier} match bits {hi}:{lo} hold {(match & bits) >> lo}, not Function {function}.")
    return InstructionEncoding(unit.id, carrier, engine_mnemonic, tuple(words), fixed, tuple(notes))


def _variant_for(form: Mapping[str, Any], function: Any, mnemonic: str, notes: list[str]):
    """A carrier ``encoding_variants`` entry selected by the operation's Function, if the base does not hold it."""
    variants = form.get("encoding_variants")
    if not isinstance(variants, Sequence) or not isinstance(function, int):
        return None
    for variant in variants:
        if isinstance(variant, Mapping) and variant.get("function") == function and isinstance(variant.get("encoding"), Sequence):
            notes.append(f"{mnemonic} uses the {variant.get('name')} encoding variant of {form.get('mnemonic')}.")
            return variant["encoding"]
    return None


def _function_slot(catalog: Catalog) -> tuple[int, int] | None:
    found = _carrier(catalog, "BSTART.TEPL")
    if found is None:
        return None
    for field in form_fields(found[1][0]):
        if field["name"] == "Function" and len(field["pieces"]) == 1:
            lsb, _v, pw = field["pieces"][0]
            return lsb + pw - 1, lsb
    return None


# -- indexes and record reading -----------------------------------------------------------------
def _carrier(catalog: Catalog, mnemonic: str) -> tuple[Unit, tuple[Mapping[str, Any], ...]] | None:
    """The (block or scalar) unit and forms whose form mnemonic is ``mnemonic`` (load.py indexes them)."""
    found = catalog.forms_by_mnemonic.get(mnemonic)
    return (catalog.units[found[0]], found[1]) if found is not None else None


def encoding_words(form: Mapping[str, Any], override: Sequence[Mapping[str, Any]] | None = None):
    """(index, width, mask, match, offset) per encoding word, ordered by index; unreadable hex -> None."""
    raw = override if override is not None else form.get("encoding")
    entries = [e for e in raw if isinstance(e, Mapping)] if isinstance(raw, Sequence) else []
    entries.sort(key=lambda e: e.get("index") if isinstance(e.get("index"), int) else 0)
    out, offset = [], 0
    for n, e in enumerate(entries):
        width = e.get("width_bits") if isinstance(e.get("width_bits"), int) else 0
        index = e.get("index") if isinstance(e.get("index"), int) else n
        out.append((index, width, _int(e.get("mask")), _int(e.get("match")), offset))
        offset += max(width, 0)
    if not out and isinstance(form.get("length_bits"), int):
        out.append((0, form["length_bits"], 0, 0, 0))
    return out


def form_fields(form: Mapping[str, Any]) -> list[dict]:
    out = []
    raw = form.get("fields")
    for field in raw if isinstance(raw, Sequence) else ():
        if not isinstance(field, Mapping) or not isinstance(field.get("name"), str):
            continue
        pieces = []
        for piece in field.get("pieces") or ():
            if isinstance(piece, Mapping) and all(isinstance(piece.get(k), int) for k in ("instruction_lsb", "value_lsb", "width")):
                pieces.append((piece["instruction_lsb"], piece["value_lsb"], piece["width"]))
        width = field.get("width") if isinstance(field.get("width"), int) else None
        out.append({"name": field["name"], "width": width, "pieces": pieces})
    return out


def _known_bits(word: EncodingWord) -> tuple[int, int]:
    mask = match = 0
    for item in word.items:
        lo, n = item.lsb - word.offset, item.width
        if item.kind == CONSTANT:
            bits = int(item.value.split("'b", 1)[1], 2)
        elif item.fixed:
            bits = int(item.value.split(" ", 1)[0])
        else:
            continue
        mask |= ((1 << n) - 1) << lo
        match |= (bits & ((1 << n) - 1)) << lo
    return mask, match


def _int(value: Any) -> int | None:
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value, 16)
        except ValueError:
            return None
    return None


def _hex(value: int | None, width: int) -> str:
    return f"0x{(value or 0):0{max(1, -(-width // 4))}x}"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
