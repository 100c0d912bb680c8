"""How operands are spelled: the Reg5 register names (sources and destinations), the FP type and conversion
suffixes, the tile hands and PE masks, and the names a unit's prose or operand roles give a field's codes
(suffix modifiers, ``{FALL, IND, RET}``-style choices, ``NAME.{a, b}``, abbreviated field names)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ...model.catalog import Unit
from .syntax import Slot
from .tokens import _key

GPR_NAMES = ("zero", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "ra",
             "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "x0", "x1", "x2", "x3")
SOURCE_NAMES = GPR_NAMES + ("t#1", "t#2", "t#3", "t#4", "u#1", "u#2", "u#3", "u#4")
DEST_NAMES = GPR_NAMES + ("t#1", "t#2", "t#3", "t#4", "u#1", "u#2", "u", "t")
SOURCE_CODE = {n: i for i, n in enumerate(SOURCE_NAMES)}
DEST_CODE = {n: i for i, n in enumerate(DEST_NAMES)}
FP_TYPES = {"fd": 0, "fs": 1}
# .{srcT2dstT} conversions (the scalar FSU model: SrcType 0/1 is the 64/32-bit source of the operation's kind;
# destination type codes 0 and 1 are FP64/FP32 or the unsigned 64/32-bit integers, 8 and 9 the signed ones; the
# other assigned codes 2..7 and 10..14 have no name in the records)
CONVERSIONS = {"fcvt": ("fp", "fp"), "scvtf": ("sint", "fp"), "ucvtf": ("uint", "fp"),
               **{f"fcvt{r}": ("fp", "int") for r in "amnpz"}}
TYPE_SUFFIXES = {"fp": {"fd": 0, "fs": 1}, "sint": {"sd": 0, "sw": 1}, "uint": {"ud": 0, "uw": 1},
                 "fp-dst": {"fd": 0, "fs": 1}, "int-dst": {"ud": 0, "uw": 1, "sd": 8, "sw": 9}}
# B.IOT (its unit's prose): a Local tile operand is hand#n, the 64-entry namespace T, U, M, N x 1..16; DstTile
# is the hand (0 T, 1 U, 2 M, 3 N); PEMode 0..7 expands to these four-PE masks (PE3..PE0, so 0011 = PE0+PE1)
TILE_HANDS = ("T", "U", "M", "N")
PE_MASKS = ("0000", "0001", "0010", "0100", "1000", "0011", "0111", "1111")  # SrcType: 0 = FP64 carrier, 1 = FP32 carrier


def _prose(unit: Unit) -> str:
    c = unit.contract
    parts = [*c.get("legality", ()), *c.get("defaults", ()), *(c.get("field_zero_meanings") or {}).values()]
    return " ".join(p for p in parts if isinstance(p, str))


def _modifier_codes(unit: Unit, options: Sequence[str]) -> dict[str, int]:
    prose = _prose(unit)
    codes: dict[str, int] = {}
    for bits, name in re.findall(r"SrcRType=([01]{2}) selects \.(\w+)", prose):
        codes[name] = int(bits, 2)
    none = re.search(r"SrcRType=([01]{2}) selects no modifier", prose)
    if none:
        codes[""] = int(none.group(1), 2)
    # the AGU wording: "SrcRType=0 leaves SrcR unchanged, SrcRType=1 sign-extends SrcR[31:0], SrcRType=2
    # zero-extends SrcR[31:0], and SrcRType=3 negates the full PTO_XLEN value"
    for code, verb in re.findall(r"SrcRType=([0-3]) (leaves SrcR unchanged|sign-extends|zero-extends|negates)", prose):
        codes[{"leaves SrcR unchanged": "", "sign-extends": "sw", "zero-extends": "uw", "negates": "neg"}[verb]] = \
            int(code)
    raw = re.search(r"raw code ([01]{2}) is \.(\w+)", prose)
    if raw:
        codes[raw.group(2)] = int(raw.group(1), 2)
        if "unmodified" in prose and "" not in codes:
            codes[""] = 0
    out = {}
    for i, opt in enumerate(options):
        out[opt] = codes.get(opt, i) if codes else i
    out[""] = codes.get("", 3)
    return out


def _enum_from_prose(unit: Unit, names: Sequence[str]) -> dict[str, int] | None:
    prose = _prose(unit)
    found = {}
    for n in names:
        m = re.search(r"(\d+) \(" + re.escape(n) + r"\)", prose)
        if not m:
            return None
        found[n] = int(m.group(1))
    return found


def _roles(unit: Unit) -> dict[str, str]:
    """field -> its operand role sentence (the contract's ``operands``)."""
    return {o["field"]: o["role"] for o in unit.contract.get("operands") or ()
            if isinstance(o, Mapping) and isinstance(o.get("field"), str) and isinstance(o.get("role"), str)}


def _prose_names(unit: Unit, field: str) -> dict[str, int]:
    """Value names of one field the unit's text gives: "<field> codes 0..5 select EQ, NE, ... respectively",
    "Codes 21 through 26 select ND2M32, ... respectively" (in a sentence about the field), "code 31 DTYPE_NONE",
    and the operand role's "0 operation default, 1 RNE, ..." (a meaning of several words is also written by its last
    word: "operation default", "Default")."""
    out: dict[str, int] = {}
    for sentence in unit.contract.get("legality") or ():
        if not isinstance(sentence, str) or not re.match(re.escape(field) + r"\b", sentence):
            continue
        for first, last, listed in re.findall(r"[Cc]odes (\d+)(?:\.\.| through )(\d+) select ([^.;:]*?) respectively",
                                              sentence):
            names = [n.strip() for n in re.split(r",\s*(?:and\s+)?|\s+and\s+", listed) if n.strip()]
            if len(names) == int(last) - int(first) + 1:
                out.update({n: int(first) + i for i, n in enumerate(names)})
        for value, n in re.findall(r"\bcode (\d+) ([A-Z][A-Z0-9_]{2,})\b", sentence):
            out[n] = int(value)
    role = _roles(unit).get(field, "")
    listed = role.partition(":")[2] if ":" in role else role
    pairs = [m.groups() for chunk in re.split(r",\s*|\s+and\s+", listed.strip())
             for m in [re.fullmatch(r"(\d+) ([A-Za-z][\w/ ]*)", chunk.strip())] if m]
    if len(pairs) >= 2:
        for value, meaning in pairs:
            for alt in meaning.split("/"):  # "0 unlikely/fallthrough": either name
                out.setdefault(alt, int(value))
                if " " in alt:
                    out.setdefault(alt.split()[-1], int(value))
    return out


def _dotted(unit: Unit, fields: Mapping, free: Sequence[str], tok: str) -> Slot | None:
    """``TRACE.{begin, end}``, ``BR.{likely, unlikely}``: the free field whose operand role gives these names their
    codes ("trace boundary: 0 begin, 1 end"); a role that holds "when V=1" makes each name set V=1 too."""
    m = re.fullmatch(r"(\w+)\.\{([^{}]*)\}", tok)
    options = [o.strip() for o in m.group(2).split(",")]
    hit = [n for n in free if set(options) <= set(_prose_names(unit, n))]
    if len(hit) != 1:
        return None
    codes = _prose_names(unit, hit[0])
    slot = Slot("enum", hit[0], text=tok, names={f"{m.group(1)}.{o}": codes[o] for o in options})
    for other, value in re.findall(r"\bwhen (\S+?)=(\d+)", _roles(unit).get(hit[0], "")):
        if other in fields and other in free:
            slot.sets[other] = int(value)
    return slot


def _abbreviates(short: str, name: str) -> bool:
    """``PRFSIZE`` of prefetch_size, ``C-ID`` of CROSS-BID: the letters of one, in order, within the other's,
    starting with the same letter and ending with the same."""
    a, b = _key(short), _key(name)
    if len(a) < 2 or a[0] != b[0] or a[-1] != b[-1]:
        return False
    it = iter(b)
    return all(ch in it for ch in a)
