"""Static, deterministic inline SVG register diagrams (WaveDrom ``reg`` style) for encoding words.

No JavaScript, no external fonts, integer geometry, every string escaped. One lane up to 32 bits; wider words
are split into equal lanes (48 bits -> two lanes of 24), the most significant lane on top. Items that cross a
lane boundary are drawn once per lane. CSS hooks: ``pto-reg`` (root), ``pto-reg-item`` plus one of
``pto-reg-field`` / ``pto-reg-fixed`` / ``pto-reg-const`` / ``pto-reg-unspec``, ``pto-reg-bit`` (bit numbers),
``pto-reg-label``, ``pto-reg-digit``.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from ..isa.encoding import CONSTANT, UNSPECIFIED, EncodingItem, EncodingWord

CELL = 22  # px per bit
MARGIN = 6
NUM_H = 14  # bit-number row above each lane
BOX_H = 64
LANE_GAP = 8
LABEL_PX = 11
CHAR_W10 = 67  # ten times the monospace advance at LABEL_PX (0.6 em, rounded up)
DIGIT_PX = 11
NUM_PX = 9
ROTATED_CLEARANCE = 14  # px of a box's height a rotated label leaves free (ticks at the foot, a margin at the head)

_FILL = {"field": "#ffffff", "fixed": "#dbeafe", "const": "#eeeeee", "unspec": "#f7f7f7"}


def _esc(text: object) -> str:
    return escape(str(text), {'"': "&quot;", "'": "&#39;"})


def _short_value(item: EncodingItem) -> str:
    """``0`` of ``0 (Mode fixed by TMUL)``."""
    return item.value.split(" ", 1)[0]


def _style(item: EncodingItem) -> str:
    if item.kind == CONSTANT:
        return "const"
    if item.kind == UNSPECIFIED:
        return "unspec"
    return "fixed" if item.fixed else "field"


def _caption(item: EncodingItem) -> str:
    """The full text of one item, used in its <title>: names, bits and values only, no English words (one
    drawing serves both languages): ``Mode 26:25 = 0``, ``DataType 31:27`` (a variable field)."""
    if item.kind == CONSTANT or item.fixed:
        return f"{item.name} {item.bit_range} = {_short_value(item)}"
    return f"{item.name} {item.bit_range}"


def _fit(text: str, room_px: int, suffix: str = "") -> str | None:
    """``text + suffix`` if it fits ``room_px``, else ``text`` truncated with an ellipsis (the suffix, a fixed
    value such as ``=0``, is always kept), else None."""
    chars = room_px * 10 // CHAR_W10
    if len(text) + len(suffix) <= chars:
        return text + suffix
    keep = chars - len(suffix) - 1
    if keep >= 1:
        return text[:keep] + "\u2026" + suffix
    return None


def register_svg(word: EncodingWord, *, label: str, lane_bits: int = 32, cell: int = CELL,
                 sizes: tuple[int, ...] = (LABEL_PX, LABEL_PX - 1, LABEL_PX - 2)) -> str:
    """``lane_bits``: the most bits in one lane; ``cell``: px per bit. The phone drawing (:func:`narrow_svg`)
    is 16 bits a lane at 21 px: 348 px wide, so a 390 px screen shows it unscaled (labels stay 11 px).
    ``sizes``: the font sizes a rotated label that does not fit may take before it is truncated."""
    width = max(1, word.width_bits)
    lanes = 1 if width <= lane_bits else -(-width // lane_bits)
    per_lane = -(-width // lanes)
    svg_w = 2 * MARGIN + per_lane * cell
    lane_h = NUM_H + BOX_H
    svg_h = 2 * MARGIN + lanes * lane_h + (lanes - 1) * LANE_GAP
    top_bit = word.offset + width - 1

    desc = "; ".join(_caption(i) for i in word.items)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="pto-reg" data-lane-bits="{lane_bits}" role="img" aria-label="{_esc(label)}" '
        f'viewBox="0 0 {svg_w} {svg_h}" width="{svg_w}" height="{svg_h}" font-family="monospace">',
        f"<title>{_esc(label)}</title>",
        f"<desc>{_esc(desc)}</desc>",
    ]
    for lane in range(lanes):
        lane_msb = top_bit - lane * per_lane
        lane_lsb = max(word.offset, lane_msb - per_lane + 1)
        y0 = MARGIN + lane * (lane_h + LANE_GAP)
        out.append(f'<g class="pto-reg-lane" data-bits="{lane_msb}:{lane_lsb}">')
        for item in word.items:
            msb, lsb = min(item.msb, lane_msb), max(item.lsb, lane_lsb)
            if msb < lsb:
                continue
            x = MARGIN + (lane_msb - msb) * cell
            out += _item(item, msb, lsb, x, y0, cell, sizes)
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _item(item: EncodingItem, msb: int, lsb: int, x: int, y0: int, cell: int = CELL,
          sizes: tuple[int, ...] = (LABEL_PX,)) -> list[str]:
    style = _style(item)
    n = msb - lsb + 1
    w = n * cell
    by = y0 + NUM_H
    cls = f"pto-reg-item pto-reg-{style}" + (" pto-reg-field" if style == "fixed" else "")
    dash = ' stroke-dasharray="3 2"' if style == "unspec" else ""
    data = f' data-field="{_esc(item.field)}"' if item.field else ""
    parts = [
        f'<g class="{cls}" data-bits="{item.bit_range}"{data}>',
        f"<title>{_esc(_caption(item))}</title>",
        f'<rect x="{x}" y="{by}" width="{w}" height="{BOX_H}" fill="{_FILL[style]}" stroke="#333333" stroke-width="1"{dash}/>',
    ]
    # bit numbers at the item's boundaries
    cx_msb = x + cell // 2
    parts.append(_num(msb, cx_msb, y0))
    if n > 1:
        parts.append(_num(lsb, x + w - cell // 2, y0))
    # bit ticks inside the box
    for k in range(1, n):
        tx = x + k * cell
        parts.append(f'<line x1="{tx}" y1="{by + BOX_H - 5}" x2="{tx}" y2="{by + BOX_H}" stroke="#333333" stroke-width="1"/>')
    if item.kind == CONSTANT:
        bits = item.value.split("'b", 1)[-1]
        # the constant's bits for this lane segment, MSB first
        start = item.msb - msb
        for k, digit in enumerate(bits[start:start + n]):
            dx = x + k * cell + cell // 2
            parts.append(f'<text class="pto-reg-digit" x="{dx}" y="{by + BOX_H // 2 + 4}" font-size="{DIGIT_PX}" '
                         f'text-anchor="middle" fill="#111111">{_esc(digit)}</text>')
    elif item.kind == UNSPECIFIED:
        parts.append(_label("\u2014", "", x, by, w, sizes))
    else:
        parts.append(_label(item.name, f"={_short_value(item)}" if item.fixed else "", x, by, w, sizes))
    parts.append("</g>")
    return parts


def _num(bit: int, cx: int, y0: int) -> str:
    return (f'<text class="pto-reg-bit" x="{cx}" y="{y0 + NUM_H - 3}" font-size="{NUM_PX}" text-anchor="middle" '
            f'fill="#555555">{bit}</text>')


def _label(text: str, suffix: str, x: int, by: int, w: int, sizes: tuple[int, ...] = (LABEL_PX,)) -> str:
    """Horizontal when the whole label fits (or the box is wide), else rotated; truncated with the suffix kept."""
    cx, cy = x + w // 2, by + BOX_H // 2
    common = f'class="pto-reg-label" font-size="{LABEL_PX}" text-anchor="middle" fill="#111111"'
    flat = _fit(text, w - 4, suffix)
    if flat == text + suffix or (flat is not None and w >= 88):  # 88: four bits of the desktop drawing
        return f'<text {common} x="{cx}" y="{cy + 4}">{_esc(flat)}</text>'
    # rotated -90 degrees about the box centre; the +4 baseline shift then centres the glyphs horizontally. The
    # room leaves the bit ticks at the box's foot clear (a real font may be a little wider than 0.6 em): a label
    # that does not fit is set one or two pixels smaller before it is truncated
    room = BOX_H - ROTATED_CLEARANCE
    whole = text + suffix
    for px in sizes:
        if len(whole) * CHAR_W10 * px <= room * 10 * LABEL_PX:
            size = "" if px == LABEL_PX else f' font-size="{px}"'
            label = common if not size else common.replace(f'font-size="{LABEL_PX}"', size.strip())
            return f'<text {label} x="{cx}" y="{cy + 4}" transform="rotate(-90 {cx} {cy})">{_esc(whole)}</text>'
    rotated = _fit(text, room, suffix) or whole[: room * 10 // CHAR_W10]
    return f'<text {common} x="{cx}" y="{cy + 4}" transform="rotate(-90 {cx} {cy})">{_esc(rotated)}</text>'


NARROW_LANE_BITS = 16
NARROW_CELL = 21


def narrow_svg(word: EncodingWord, *, label: str) -> str:
    """The phone drawing of ``word``: 16 bits a lane, 21 px a bit (a 16-bit word too: at 22 px it would be
    scaled down below 11 px labels on a 390 px screen). The page carries both drawings; CSS shows one."""
    return register_svg(word, label=label, lane_bits=NARROW_LANE_BITS, cell=NARROW_CELL, sizes=(LABEL_PX,))
