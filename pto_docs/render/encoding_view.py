"""Encoding section data: per encoding word its decoded items, the inline SVG register diagram and WaveJSON."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from markupsafe import Markup

from ..model import Catalog, Unit
from .fragments import plain_code


@dataclass(frozen=True)
class ItemRow:
    name: str
    bit_range: str
    value: str
    variable: bool


@dataclass(frozen=True)
class WordView:
    title: str
    form_id: str
    asm: str
    index: int
    width_bits: int
    mask: str
    match: str
    items: tuple[ItemRow, ...]
    svg: Markup
    wavejson: Markup


@dataclass(frozen=True)
class EncodingView:
    available: bool
    carrier: str | None
    engine: str | None
    fixed: tuple[tuple[str, int], ...]
    notes: tuple[str, ...]
    words: tuple[WordView, ...]


UNAVAILABLE = EncodingView(False, None, None, (), (), ())
_TICKS = re.compile(r'(?:<line x1="(\d+)" y1="(\d+)" x2="\1" y2="(\d+)" stroke="(#[0-9a-f]{6})" stroke-width="(\d+)"/>\n?){2,}')
_TICK = re.compile(r'<line x1="(\d+)" y1="(\d+)" x2="\1" y2="(\d+)" stroke="(#[0-9a-f]{6})" stroke-width="(\d+)"/>')


def compact_svg(svg: str) -> str:
    """The same drawing, smaller: a run of vertical bit ticks of one stroke becomes one ``<path>``."""
    def run(m: re.Match) -> str:
        ticks = _TICK.findall(m.group(0))
        if len({(t[3], t[4]) for t in ticks}) != 1:
            return m.group(0)
        d = "".join(f"M{x} {y1}V{y2}" for x, y1, y2, _s, _w in ticks)
        return f'<path d="{d}" stroke="{ticks[0][3]}" stroke-width="{ticks[0][4]}"/>\n'
    return _TICKS.sub(run, svg)


def encoding_view(catalog: Catalog, unit: Unit) -> EncodingView:
    try:
        from ..diagrams import register_svg
        from ..encoding import encoding_for
    except ImportError:
        return UNAVAILABLE
    enc = encoding_for(catalog, unit)
    if enc is None:
        return EncodingView(True, None, None, (), (), ())
    words = []
    for word in enc.words:
        label = f"{unit.mnemonic or unit.id}: {word.title or word.form_id} word {word.index}"
        words.append(WordView(
            title=word.title, form_id=word.form_id, asm=word.asm, index=word.index, width_bits=word.width_bits,
            mask=word.mask, match=word.match,
            items=tuple(ItemRow(i.name, i.bit_range, i.value, i.value == "variable") for i in word.items),
            svg=Markup(compact_svg(register_svg(word, label=label))),
            wavejson=plain_code(json.dumps(word.wavejson, indent=2, sort_keys=False), "json"),
        ))
    return EncodingView(True, enc.carrier_mnemonic, enc.engine_mnemonic, tuple(sorted(enc.fixed.items())),
                        tuple(enc.notes), tuple(words))
