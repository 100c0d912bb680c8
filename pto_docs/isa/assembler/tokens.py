"""The text of templates and of written lines as the assembler reads it: ``<<`` and ``->`` turned into one-character
markers (``SHIFT``, ``ARROW``), the split of an operand list at its top-level commas, a template's mnemonic head
and suffix atoms, the patterns of register tokens, labels, identifiers and prose words, and the small normalisers
and printers the other modules share."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .syntax import AsmError, Slot, Syntax

SHIFT, ARROW = "\x01", "\x02"
REG_TOKEN = re.compile(r"^(Src\w*|src\w*|RegSrc\d*|<gpr>)((?:<[^<>]*>)?)(" + SHIFT + r"\w+)?$")
# English function words: a bundle line segment holding one is a remark ("BSTART.TSTORE FP16 using Function 14")
PROSE = re.compile(r"(?<=\s)(?:using|with|or|and|for|the|of|by|from|when|if|defaults|selected)(?=\s|$)")
LABEL_TOKENS = {"<symbol>", "symbol", "label", "<label>"}
IDENT = re.compile(r"^[A-Za-z_][\w-]*$")


def _prep_template(text: str) -> str:
    text = re.sub(r"<<<(\w+)>", lambda m: SHIFT + m.group(1), text)
    text = re.sub(r"<<(\d+)", lambda m: SHIFT + m.group(1), text)
    return text.replace("->", ARROW)


def _prep_input(text: str) -> str:
    return text.replace("<<", SHIFT).replace("->", ARROW)


def _split_top(text: str) -> list[str]:
    """Split on commas outside {} <> (template groups)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "{<":
            depth += 1
        elif ch in "}>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip() or out:
        out.append(cur.strip())
    return out


def _tokens(text: str) -> list[str]:
    """Operand items with memory brackets as their own tokens: '[a0, 4], ->a1' -> ['[', 'a0', '4', ']', '\x02a1']."""
    out: list[str] = []
    for item in _split_top(text):
        opened = item.startswith("[")
        closed = item.endswith("]") and not item.endswith("[]")
        core = item[1 if opened else 0: -1 if closed else None].strip()
        if opened:
            out.append("[")
        if core or not (opened or closed):
            out.append(core)
        if closed:
            out.append("]")
    return out

def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def _key(name: str) -> str:
    return name.lower().replace("-", "").replace("_", "")


def _head(template: str) -> tuple[str, str]:
    """The mnemonic part (which may hold a spaced suffix group) and the operands."""
    depth = 0
    for i, ch in enumerate(template):
        if ch in "{<[":
            depth += 1
        elif ch in "}>]":
            depth -= 1
        elif ch == " " and depth == 0:
            return template[:i], template[i + 1:]
    return template, ""


def _decompose(suffix: str, atoms: list[str]) -> list[str]:
    out, rest = [], suffix
    for atom in atoms:
        if rest.startswith(atom):
            out.append(atom)
            rest = rest[len(atom):]
    if rest:
        raise AsmError(f"suffix .{suffix} is not a combination of {', '.join('.' + a for a in atoms)}")
    return out


def _number(text: str) -> int | None:
    t = text.strip().replace("_", "")
    try:
        return int(t, 0)
    except ValueError:
        return None


def _ranges(values: Sequence[int]) -> str:
    vs = sorted(v for v in values if isinstance(v, int))
    if vs and vs == list(range(vs[0], vs[-1] + 1)):
        return f"{vs[0]}..{vs[-1]}"
    return ", ".join(map(str, vs))


def _show(syn: Syntax) -> str:
    return syn.template


def _show_slot(slot: Slot) -> str:
    return slot.text.replace(ARROW, "->").replace(SHIFT, "<<")
