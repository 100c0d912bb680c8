"""Encoding section data: per encoding word its decoded items, the inline SVG register diagram and WaveJSON."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from markupsafe import Markup

from ..model.catalog import Catalog, Unit
from .encoding_notes import Note, item_value, note, title
from .fragments import plain_code, readable_json


@dataclass(frozen=True)
class ItemRow:
    name: str
    bit_range: str
    value: str
    variable: bool
    fixed: tuple[str, str, str] | None = None  # (value, field, fixed by: a mnemonic or "" for the match bits)
    meaning: str | None = None  # what a fixed value of an enumerated field means (a data type's name, ...)


@dataclass(frozen=True)
class WordView:
    title: Note
    form_id: str
    asm: str
    index: int
    width_bits: int
    mask: str
    match: str
    own_mask: str  # the instruction's own: the carrier's mask plus the fields it fixes
    own_match: str
    items: tuple[ItemRow, ...]
    svg: Markup
    wavejson: Markup


@dataclass(frozen=True)
class EncodingView:
    available: bool
    carrier: str | None
    engine: str | None
    fixed: tuple[tuple[str, int], ...]
    notes: tuple[Note, ...]
    words: tuple[WordView, ...]


_TICKS = re.compile(r'(?:<line x1="(\d+)" y1="(\d+)" x2="\1" y2="(\d+)" stroke="(#[0-9a-f]{6})" stroke-width="(\d+)"/>\n?){2,}')
_TICK = re.compile(r'<line x1="(\d+)" y1="(\d+)" x2="\1" y2="(\d+)" stroke="(#[0-9a-f]{6})" stroke-width="(\d+)"/>')


_ELEMENT = re.compile(r'<(text|rect|path|line)((?: [\w:-]+="[^"]*")+)(\s*/?)>')
_ATTR = re.compile(r' ([\w:-]+)="([^"]*)"')
_PRESENTATION = ("font-size", "text-anchor", "fill", "stroke", "stroke-width")
_SVG_OPEN = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" class="pto-reg"')


def _shared_style(svg: str) -> str:
    """Presentation attributes that every element of one kind (tag and class) in this drawing repeats move
    into one rule of a ``<style>`` scoped to the drawing's own id: the same rendering, a fraction of the bytes
    (a register diagram repeats ``font-size``/``text-anchor``/``fill`` on every bit digit)."""
    if not _SVG_OPEN.match(svg):
        return svg
    groups: dict[tuple[str, str], list[dict[str, str]]] = {}
    for m in _ELEMENT.finditer(svg):
        attrs = dict(_ATTR.findall(m.group(2)))
        groups.setdefault((m.group(1), attrs.get("class", "")), []).append(attrs)
    shared: dict[tuple[str, str], dict[str, str]] = {}
    for key, items in groups.items():
        common = {k: v for k, v in items[0].items() if k in _PRESENTATION and all(i.get(k) == v for i in items)}
        if common and len(items) > 1:
            shared[key] = common
    if not shared:
        return svg
    ident = "pto-reg-" + hashlib.sha256(svg.encode("utf-8")).hexdigest()[:12]

    def strip(m: re.Match) -> str:
        attrs = _ATTR.findall(m.group(2))
        common = shared.get((m.group(1), dict(attrs).get("class", "")))
        if not common:
            return m.group(0)
        kept = "".join(f' {k}="{v}"' for k, v in attrs if k not in common)
        return f"<{m.group(1)}{kept}{m.group(3)}>"

    body = _ELEMENT.sub(strip, svg)
    rules = []
    for (tag, cls), common in shared.items():
        selector = f"#{ident} {tag}.{cls}" if cls else f"#{ident} {tag}:not([class])"
        decls = ";".join(f"{k}:{v}px" if k in ("font-size", "stroke-width") else f"{k}:{v}" for k, v in common.items())
        rules.append(f"{selector}{{{decls}}}")
    head, rest = body.split(">", 1)
    return f'{head} id="{ident}"><style>{"".join(rules)}</style>{rest}'


def compact_svg(svg: str) -> str:
    """The same drawing, smaller: a run of vertical bit ticks of one stroke becomes one ``<path>``, and the
    presentation attributes all elements of a kind share become one scoped style rule."""
    return _shared_style(_compact_ticks(svg))


def _compact_ticks(svg: str) -> str:
    def run(m: re.Match) -> str:
        ticks = _TICK.findall(m.group(0))
        if len({(t[3], t[4]) for t in ticks}) != 1:
            return m.group(0)
        d = "".join(f"M{x} {y1}V{y2}" for x, y1, y2, _s, _w in ticks)
        return f'<path d="{d}" stroke="{ticks[0][3]}" stroke-width="{ticks[0][4]}"/>\n'
    return _TICKS.sub(run, svg)


def encoding_view(catalog: Catalog, unit: Unit) -> EncodingView:
    from ..isa.encoding import encoding_for
    from .diagrams import narrow_svg, register_svg
    enc = encoding_for(catalog, unit)
    if enc is None:
        return EncodingView(True, None, None, (), (), ())
    from .field_values import field_domains_of
    domains = field_domains_of(catalog, unit)
    words = []
    for word in enc.words:
        label = f"{unit.mnemonic or unit.id} \u00b7 {word.form_id} \u00b7 {word.index}"  # no English: both languages share it
        words.append(WordView(
            title=title(word.title) if word.title else Note(None, (), ""), form_id=word.form_id, asm=word.asm, index=word.index, width_bits=word.width_bits,
            mask=word.mask, match=word.match,
            own_mask=_hex(word.effective_mask, word.width_bits), own_match=_hex(word.effective_match, word.width_bits),
            items=tuple(ItemRow(i.name, i.bit_range, i.value, i.value == "variable", item_value(i.value),
                                _meaning(catalog, domains.get(i.name), item_value(i.value) or (i.value, "", "")))
                        for i in word.items),
            # the desktop drawing (32 bits a lane), then the phone one (16 bits a lane): CSS shows one of them
            svg=Markup(compact_svg(register_svg(word, label=label)) + compact_svg(narrow_svg(word, label=label))),
            wavejson=plain_code(readable_json(word.wavejson, sort_keys=False), "json"),
        ))
    return EncodingView(True, enc.carrier_mnemonic, enc.engine_mnemonic, tuple(sorted(enc.fixed.items())),
                        tuple(note(n) for n in enc.notes), tuple(words))


def _meaning(catalog: Catalog, domain, fixed: tuple[str, str, str]) -> str | None:
    """The meaning of a fixed value (``fixed[0]``, decimal or ``0x``/``0b``) of a field with a domain."""
    if domain is None:
        return None
    from ..analysis.data_types import DATA_TYPE_DOMAIN, data_type_name
    try:
        value = int(fixed[0], 0)
    except ValueError:
        return None
    return data_type_name(catalog, value) if domain.id == DATA_TYPE_DOMAIN else domain.meaning(value)


def _hex(value: int, width_bits: int) -> str:
    return "0x" + format(value, f"0{max(1, -(-width_bits // 4))}x")
