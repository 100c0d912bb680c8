"""Assemble one instruction's assembly text into its encoded word, by pto-docs' own encoding model.

The inverse of ``avs_examples.Decoder``. Each catalog form's assembly template (its ``asm``, e.g.
``lw.smin<.{aq, rl, f, aqrl, aqf, rlf, aqrlf}> [SrcL], SrcR, {->t, ->u, ->Rd}``) is read as a syntax whose
operand slots are bound to the form's encoding fields; a line of text is matched against the syntaxes of its
mnemonic, each operand is turned into its field value, and the word is the form's match bits with the field
pieces put in place. The word must decode back (``Decoder``) to the same form.

What the templates do not say, the spec says elsewhere, and this module takes it from there:

* Reg5 operands (ADR-0076, ADR-0008 and the scalar operand unit): selectors 0..23 are the absolute GPRs,
  written ``zero, sp, a0..a7, ra, s0..s8, x0..x3``; as sources 24..27 are ``t#1..t#4`` and 28..31 ``u#1..u#4``;
  as destinations 31 is ``->t`` and 30 ``->u`` (24..29 are non-writing codes, written ``t#1..t#4, u#1, u#2``).
  So ``x5`` is not a register of this architecture: ``x0..x3`` are selectors 20..23.
* Suffix modifiers of the mnemonic (``.aq``, ``.rl``, ``.f``, ``.aqrl`` ...) are sets of one-bit fields: each
  atom names the field it sets (``f`` the field ``far``).
* ``SrcR<{.sw,.uw,.neg}>``: the codes of SrcRType come from the unit's legality prose ("SrcRType=10 selects .neg",
  "SrcRType=11 selects no modifier"); without such prose, option i is code i and no modifier is code 3.
  ``<<n`` after a register is its shamt (absent: 0).
* ``.{T}``: SrcType 0 is ``.fd`` (FP64 carrier), 1 is ``.fs`` (FP32).
* ``M, N`` (bit-field forms): imms encodes M, imml encodes N minus one.
* ``{FALL, IND, RET}``-style choices: the value named in the legality prose ("5 (IND)"), else the position.
* An operand whose field has a field domain (``field_contracts`` -> ``PTO-FIELD-...``) is written by the domain's
  names (``DataType`` -> ``FP16``, ``U8`` ...).
* Labels (``<symbol>``, ``label``) are written as the encoded offset, a number; ``<br_label>, <rt_label>``
  (BSTART.CALL) are the two displacement fields, told apart by their operand roles (the return-address one is
  ``rt``).
* ``{a, b, ...}`` whose items name fields (B.DATR) is a record: every field's value in that order, by the names the
  records give (its field domain, "codes 21 through 26 select ND2M32, ...", "code 31 DTYPE_NONE", the operand
  role's "0 operation default, 1 RNE"), or as a number for a field without a domain. ``{trap, atomic, <aq, rl,
  aqrl>, dr}`` whose items name one-bit fields (B.CATR) is a set: each item written sets its fields.
* ``NAME.{a, b}`` (``TRACE.{begin, end}``) is the field whose operand role gives those names codes.
* ``M, N`` without such prose: the fields whose roles say "first ... bit" and "last ... bit" (HL.BFI).
* A suffix group the template cannot say whole (``hl.qmt[.{i,e,...}] SrcL[, SrcR when i], ->RegDst``) is read
  from the instruction's ``assembly`` list, one syntax per listed suffix, each letter its one-bit field.
* An abbreviation (XB's ``C-ID``, B.HINT's ``PRFSIZE``) is the one free field whose name holds its letters in
  order, with the same first and last letter (CROSS-BID, prefetch_size).
* ``BR.{likely, unlikely}`` inside a record is the field whose role names them (L/UL: "when V=1, 0
  unlikely/fallthrough and 1 likely/taken"), and the role's "when V=1" sets V: V=0 (no branch hint) has no text.

Anything a template has that none of these rules reads makes
that syntax unsupported: it is listed by :func:`Assembler.unsupported` and counted by the round-trip measure, not
guessed. Every failure is an :class:`AsmError` whose message is one line naming what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as _dcfield
from typing import Any

from .encoding import _fields, _words
from .model import Catalog, Unit

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

SHIFT, ARROW = "\x01", "\x02"
REG_TOKEN = re.compile(r"^(Src\w*|src\w*|RegSrc\d*|<gpr>)((?:<[^<>]*>)?)(" + SHIFT + r"\w+)?$")
# English function words: a bundle line segment holding one is a remark ("BSTART.TSTORE FP16 using Function 14")
PROSE = re.compile(r"(?<=\s)(?:using|with|or|and|for|the|of|by|from|when|if|defaults|selected)(?=\s|$)")
LABEL_TOKENS = {"<symbol>", "symbol", "label", "<label>"}
IDENT = re.compile(r"^[A-Za-z_][\w-]*$")


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


# -- reading templates ---------------------------------------------------------------------------
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


class Assembler:
    """Every form of a tree, as syntaxes indexed by mnemonic (lower case)."""

    def __init__(self, catalog: Catalog):
        from .avs_examples import Decoder
        self.catalog = catalog
        self.decoder = Decoder(catalog)
        self.domains: dict[str, dict[str, int]] = {}
        for unit in catalog.units.values():
            for d in unit.record.get("field_domains") or ():
                if isinstance(d, Mapping) and isinstance(d.get("id"), str):
                    self.domains[d["id"]] = {str(a.get("meaning")): a.get("value") for a in d.get("assigned") or ()
                                             if isinstance(a, Mapping) and isinstance(a.get("value"), int)}
        self.form_contracts: dict[int, Mapping] = {}  # id(form) -> the owning unit's field_contracts
        for unit in catalog.instructions:
            for form in unit.catalog_records:
                if isinstance(form, Mapping) and "encoding" in form:
                    self.form_contracts[id(form)] = unit.contract.get("field_contracts") or {}
        self.syntaxes: list[Syntax] = []
        self.by_base: dict[str, list[Syntax]] = {}
        self.by_unit: dict[str, list[Syntax]] = {}
        for unit in catalog.instructions:
            for form in unit.catalog_records:
                if isinstance(form, Mapping) and "encoding" in form and isinstance(form.get("asm"), str):
                    syns = [self._syntax(unit, form, alt.strip()) for alt in form["asm"].split(" | ")]
                    if any(syn.problem for syn in syns):
                        syns = self._record_alternatives(unit, form, syns)
                    for syn in syns:
                        self._add(syn)
            self._tile_syntax(unit)

    def _record_alternatives(self, unit: Unit, form: Mapping, syns: list[Syntax]) -> list[Syntax]:
        """A template with a suffix group the assembler cannot read as a whole (``hl.qmt[.{i,e,...}] SrcL[, SrcR when
        i], ->RegDst``) read instead from the instruction's ``assembly`` list, one syntax per written suffix
        (``hl.qmt.ie SrcL, SrcR, ->RegDst``): each suffix letter is the one-bit field of that name, set to 1, the
        other letters' fields 0. Only when every listed syntax of this mnemonic reads; else ``syns`` unchanged."""
        head = _head(str(form.get("asm", "")))[0]
        m = re.match(r"^([\w.]+?)(?:<|\[)\.\{([^}]*)\}(?:>|\])$", head)
        listed = [t for t in unit.record.get("assembly") or () if isinstance(t, str)]
        if not m or not listed:
            return syns
        base = m.group(1)
        fields = {f["name"]: f for f in _fields(form)}
        letters = {o.strip() for o in m.group(2).split(",")}
        atoms = {a for o in letters for a in o}
        if not all(fields.get(a, {}).get("width") == 1 for a in atoms):
            return syns
        out = []
        for template in listed:
            t_head, rest = _head(template)
            if t_head.lower() != base.lower() and not t_head.lower().startswith(base.lower() + "."):
                continue
            suffix = t_head[len(base) + 1:]
            if suffix and suffix not in letters:
                return syns
            syn = self._syntax(unit, form, f"{base} {rest}".strip(), fixed={a: int(a in suffix) for a in atoms},
                               base=t_head)
            syn.template = template
            if syn.problem:
                return syns
            out.append(syn)
        return out or syns

    def _add(self, syntax: Syntax) -> None:
        self.syntaxes.append(syntax)
        self.by_base.setdefault(syntax.base.lower(), []).append(syntax)
        self.by_unit.setdefault(syntax.unit.id, []).append(syntax)

    # -- building syntaxes ----------------------------------------------------------------------
    def _syntax(self, unit: Unit, form: Mapping, template: str, fixed: Mapping[str, int] | None = None,
                tile: str | None = None, base: str | None = None) -> Syntax:
        head, rest = _head(template)
        fields = {f["name"]: f for f in _fields(form)}
        by_lower = {_key(n): n for n in fields}
        syn = Syntax(unit, form, template, head, "", fixed=dict(fixed or {}), tile=tile)
        m = re.match(r"^(.*?)(?:<\.\{([^}]*)\}>|\[\.\{([^}]*)\}\])$", head)
        if m:
            syn.base = m.group(1)
            options = tuple(o.strip() for o in (m.group(2) or m.group(3)).split(","))
            atoms = [o for o in options if not any(o != p and o.startswith(p) for p in options)]
            syn.suffix_kind, syn.suffix_options = "flags", options
            for atom in atoms:
                hit = [n for n, f in fields.items() if f["width"] == 1 and (n == atom or n.startswith(atom))]
                if len(hit) != 1:
                    syn.problem = f"suffix .{atom} names no one-bit field"
                syn.suffix_fields[atom] = hit[0] if hit else atom
        elif head.endswith(".{T}"):
            syn.base, syn.suffix_kind, syn.suffix_required = head[:-4], "type", True
            if "SrcType" not in fields:
                syn.problem = "suffix .{T} without a SrcType field"
        elif re.fullmatch(r"[^{]*\{\.\w+(?:, ?\.\w+)+\}", head):
            syn.base, _, group = head.partition("{")
            names = [n.strip().lstrip(".") for n in group.rstrip("}").split(",")]
            slot = self._enum(unit, fields, syn.bound, names, head)
            syn.suffix_kind, syn.suffix_required, syn.suffix_options = "enum", True, tuple(names)
            if slot is None:
                syn.problem = f"suffix {{{group} names no field"
            else:
                syn.suffix_fields = {n: slot.field for n in names}
                syn.suffix_codes = slot.names
        elif head.endswith(".{srcT2dstT}") and {"SrcType", "DstType"} <= set(fields):
            syn.base, syn.suffix_kind, syn.suffix_required = head[:-len(".{srcT2dstT}")], "conv", True
            kinds = CONVERSIONS.get(syn.base.lower())
            if kinds is None:
                syn.problem = f"conversion {syn.base} has no known source and destination kinds"
            else:
                sources, dests = TYPE_SUFFIXES[kinds[0]], TYPE_SUFFIXES[kinds[1] + "-dst"]
                syn.suffix_codes = {f"{a}2{b}": (sources[a] << 8) | dests[b] for a in sources for b in dests}
                syn.suffix_options = tuple(syn.suffix_codes)
        elif "{" in head:
            syn.base, syn.problem = head.split(".{", 1)[0], f"mnemonic suffix {head[head.index('{'):]} has no known spelling"
        if base:
            syn.base = base
        text = _prep_template(rest)
        if "<gpr>" in text:
            syn.ior = True
            syn.slots = [Slot("reg", "RegSrc0", optional=True), Slot("reg", "RegSrc1", optional=True),
                         Slot("reg", "RegSrc2", optional=True), Slot("dest", "RegDst", text=ARROW + "<gpr>", optional=True)]
            return self._check_fields(syn, fields)
        in_mem = False
        last_dest = False
        for tok in _tokens(text) if text.strip() else []:
            if tok in "[]":
                in_mem = tok == "["
                syn.slots.append(tok)
                continue
            slot = self._slot(unit, form, fields, by_lower, tok, syn, last_dest)
            if slot is None:
                syn.problem = syn.problem or f"operand {tok.replace(ARROW, '->').replace(SHIFT, '<<')!r} has no known spelling"
                slot = Slot("lit", text=tok)
            slot.in_memory = in_mem
            last_dest = slot.kind == "dest"
            syn.slots.append(slot)
        return self._check_fields(syn, fields)

    def _check_fields(self, syn: Syntax, fields: Mapping) -> Syntax:
        for s in syn.slots:
            if isinstance(s, Slot) and s.field and s.field not in fields and s.kind != "lit":
                syn.problem = syn.problem or f"operand {s.text or s.field} names no field of the form"
        return syn

    def _slot(self, unit, form, fields, by_lower, tok: str, syn: Syntax, after_dest: bool) -> Slot | None:
        bound = syn.bound
        if re.fullmatch(r"SrcTile\d", tok) and tok in fields:
            return Slot("tile", tok, text=tok)
        if tok == "S<SharedTID>" and {"SharedTID", "SizeCode"} <= set(fields):
            return Slot("shared", "SharedTID", text=tok, modifier="SizeCode")  # source form: SizeCode 0
        if tok == ARROW + "S<SharedTID><SizeCode>" and {"SharedTID", "SizeCode"} <= set(fields):
            return Slot("sdest", "SharedTID", text=tok, modifier="SizeCode")
        if tok in ("mask=PE_MASK", "mask=<PE_MASK>") and "PEMode" in fields:
            return Slot("mask", "PEMode", text=tok)
        if tok == "<last>" and "L" in fields:
            return Slot("flag", "L", text="last", optional=True)
        if tok == ARROW + "DstTile<SizeCode>" and {"DstTile", "SizeCode"} <= set(fields):
            return Slot("tdest", "DstTile", text=tok, modifier="SizeCode")
        if tok.startswith(ARROW) or re.fullmatch(r"\{" + ARROW + r"t, ?" + ARROW + r"u, ?" + ARROW + r"Rd\}", tok):
            name = tok.lstrip(ARROW)
            if name in ("{t, u, Rd}", "{t,u,Rd}", "Rd", "rd", "RegDst", "{" + ARROW + "t, " + ARROW + "u, " + ARROW + "Rd}") or \
                    tok.startswith("{"):
                target = "RegDst" if "RegDst" in fields else "RegDst0" if "RegDst0" in fields else None
                return Slot("dest", target, text=tok) if target else None
            if re.fullmatch(r"(Reg)?Dst(\d)", name) or re.fullmatch(r"RegDst\d", name):
                target = "RegDst" + name[-1]
                return Slot("dest", target, text=tok) if target in fields else None
            if name.startswith("{"):
                names = [n.strip() for n in name.strip("{}").split(",")]
                return self._enum(unit, fields, bound, names, tok)
            if IDENT.match(name):
                return Slot("lit", text="->" + name)
            return None
        if after_dest and re.fullmatch(r"(Reg)?Dst\d", tok):
            target = "RegDst" + tok[-1]
            return Slot("dest", target, text=tok) if target in fields else None
        m = re.fullmatch(r"(\S+) ~ (\S+)", tok)
        if m:  # "[RegSrc0 ~ RegSrcn]": a register range, held by the form's *Begin and *End fields
            begin = [n for n in fields if n.endswith("Begin")]
            end = [n for n in fields if n.endswith("End")]
            if len(begin) != 1 or len(end) != 1:
                return None
            slot = Slot("range", end[0], text=tok, modifier=begin[0])
            if m.group(1).lower() in SOURCE_CODE:  # "[ra ~ RegDstn]": the range starts at a named register
                slot.names = {m.group(1).lower(): SOURCE_CODE[m.group(1).lower()]}
            return slot
        m = re.fullmatch(r"(RegSrc\d)=\w+", tok)
        if m:
            return Slot("reg", m.group(1), text=tok)
        m = REG_TOKEN.match(tok)
        if m:
            name = by_lower.get(m.group(1).lower())
            if name is None:
                return None
            slot = Slot("reg", name, text=tok)
            if m.group(2):
                options = [o.strip().lstrip(".") for o in m.group(2).strip("<>{}").split(",")]
                slot.modifier = "SrcRType" if "SrcRType" in fields else None
                if slot.modifier is None:
                    return None
                slot.modifier_codes = _modifier_codes(unit, options)
            if m.group(3):
                amount = m.group(3)[1:]
                if amount.isdigit():
                    slot.shift_literal = int(amount)
                elif amount in fields:
                    slot.shift = amount
                else:
                    return None
            return slot
        if tok.lower() in SOURCE_CODE or tok == "sp!":
            return Slot("lit", text=tok.lower())
        if tok.startswith("{") and tok.endswith("}"):
            group = self._group(unit, fields, by_lower, bound, tok)
            if group is not None:
                return group
        if tok.startswith("{") and tok.endswith("}") and "{" not in tok[1:]:
            names = [n.strip() for n in tok.strip("{}").split(",")]
            if all(IDENT.match(n) for n in names):
                return self._enum(unit, fields, bound, names, tok)
            return None
        free = [n for n in fields if n not in bound]
        if re.fullmatch(r"(\w+)\.\{([^{}]*)\}", tok):
            return _dotted(unit, fields, free, tok)
        m = re.fullmatch(r"<(\w+)_label>", tok)
        if m:  # BSTART.CALL <br_label>, <rt_label>: the displacement fields, told apart by their operand roles
            roles = _roles(unit)
            disp = [n for n in free if fields[n]["width"] and "displacement" in roles.get(n, "")]
            want = [n for n in disp if ("return" in roles.get(n, "")) == (m.group(1) == "rt")]
            if len(want) != 1:
                return None
            signed = self._signed(form, want[0], want[0])
            return Slot("imm", want[0], text=tok, signed=signed)
        if tok in LABEL_TOKENS:
            signed = [n for n in free if fields[n]["width"] and n.lower().startswith(("simm", "imm"))]
            return Slot("imm", signed[0], text=tok, signed=True) if signed else None
        if not IDENT.match(tok):
            return None
        key = _key(tok)
        contracts = self.form_contracts.get(id(form)) or unit.contract.get("field_contracts") or {}
        if key in by_lower:
            name = by_lower[key]
            ref = contracts.get(name, {}).get("ref") if isinstance(contracts.get(name), Mapping) else None
            if ref in self.domains:
                return Slot("enum", name, text=tok, names=dict(self.domains[ref]))
            return Slot("imm", name, text=tok, signed=self._signed(form, name, tok))
        if tok in ("M", "N"):  # bit-field position and width: the legality prose says which field holds which
            m = re.search(r"\b(\w+) (?:directly )?encodes " + tok + r"( minus one)?\b", _prose(unit))
            if m and m.group(1) in fields:
                return Slot("imm", m.group(1), text=tok, bias=1 if m.group(2) else 0)
            roles = _roles(unit)  # hl.bfi: immr "first destination bit", imms "last destination bit"
            want = "first" if tok == "M" else "last"
            hit = [n for n in fields if n not in bound and re.match(want + r" \w+ bit\b", roles.get(n, ""))]
            if len(hit) == 1:
                return Slot("imm", hit[0], text=tok)
            return None
        prefix = [n for n in free if n.lower().startswith(key) and n[len(key):].isdigit()]
        if not prefix and key in ("simm", "uimm", "imm"):
            prefix = [n for n in free if re.fullmatch(r"[su]?imm\d+", n)]
        if len(prefix) == 1:
            return Slot("imm", prefix[0], text=tok, signed=self._signed(form, prefix[0], tok))
        if re.fullmatch(r"[A-Z][A-Z0-9_]*", tok):
            return Slot("lit", text=tok)
        hit = [n for n in free if fields[n]["width"] and _abbreviates(tok, n)]
        if re.fullmatch(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+", tok) and len(hit) == 1:
            return Slot("imm", hit[0], text=tok)  # XB's C-ID: the template's abbreviation of CROSS-BID
        return None

    # -- {...} groups: a record of field values (B.DATR) or a set of one-bit flags (B.CATR) ------------------
    def _group(self, unit, fields, by_lower, bound, tok: str) -> Slot | None:
        items = [i.strip() for i in _split_top(tok[1:-1])]
        if len(items) < 2:
            return None
        flags = []
        for item in items:  # a set of flags: every item (or every option of a <a, b, ab> choice) a one-bit field
            options = [o.strip() for o in item.strip("<>").split(",")] if item.startswith("<") else [item]
            atoms = [o for o in options if not any(o != p and o.startswith(p) for p in options)]
            hit = {a: self._flag_field(fields, a) for a in atoms}
            if not all(hit.values()):
                flags = None
                break
            for option in options:
                parts = _decompose(option, atoms) if option not in hit else [option]
                flags.append(Slot("flag", None, text=option, names={hit[a]: 1 for a in parts}))
        if flags:
            return Slot("group-flags", None, text=tok, parts=flags)
        parts: list[Slot] = []
        taken = set(bound)
        for item in items:  # each item a field: by name, "NAME.{a, b}" by its role's names, or an abbreviation
            free = [n for n in fields if n not in taken and fields[n]["width"]]
            name = by_lower.get(_key(item))
            if name is not None and name not in taken:
                part = self._named(unit, fields, name, item)
            elif re.fullmatch(r"\w+\.\{[^{}]*\}", item):
                part = _dotted(unit, fields, free, item)
            else:
                hit = [n for n in free if _abbreviates(item, n)]
                part = self._named(unit, fields, hit[0], item) if len(hit) == 1 else None
            if part is None:
                return None
            taken |= {part.field, *part.sets}
            parts.append(part)
        if not any(by_lower.get(_key(i)) == p.field or "{" in i for p, i in zip(parts, items)):
            return None  # no item names a field or its values: abbreviations alone do not make a record
        return Slot("group-record", None, text=tok, parts=parts)

    @staticmethod
    def _flag_field(fields, atom: str) -> str | None:
        """The one-bit field a flag names: the same name, or one a prefix of the other (atomic: atom)."""
        key = _key(atom)
        hit = [n for n, f in fields.items() if f["width"] == 1 and (
            _key(n) == key or (min(len(key), len(_key(n))) >= 2 and (key.startswith(_key(n)) or _key(n).startswith(key))))]
        return hit[0] if len(hit) == 1 else None

    def _named(self, unit, fields, name: str, item: str) -> Slot:
        """A record item: its field's value by the names the records give (the field's domain, its legality
        sentences "codes 21 through 26 select A, B ...", "code 31 NAME", its operand role "0 EQ, 1 NE"), or as a
        number where they give none (``numbers``: the names do not cover the field)."""
        contracts = self.form_contracts.get(id(unit.catalog_records[0]) if unit.catalog_records else 0) or \
            unit.contract.get("field_contracts") or {}
        ref = contracts.get(name, {}).get("ref") if isinstance(contracts.get(name), Mapping) else None
        names: dict[str, int] = {}
        for meaning, value in (self.domains.get(ref) or {}).items():
            for half in meaning.split("-or-"):  # Zero-or-ByteId0: Zero, ByteId0 (written by the first)
                names.setdefault(half, value)
            names.setdefault(meaning, value)
        names.update(_prose_names(unit, name))
        slot = Slot("named", name, text=item, names=names)
        slot.numbers = ref not in self.domains  # a field without a domain: numbers are its spelling too
        return slot

    def _signed(self, form, name: str, tok: str) -> bool:
        for f in form.get("fields") or ():
            if isinstance(f, Mapping) and f.get("name") == name:
                return f.get("signedness") == "signed" or tok.lower().startswith("simm")
        return False

    def _enum(self, unit, fields, bound, names, tok) -> Slot | None:
        free = [n for n in fields if n not in bound and fields[n]["width"]]
        constrained = {c.get("field") for c in unit.catalog_records[0].get("constraints") or () if isinstance(c, Mapping)} \
            if unit.catalog_records else set()
        pick = [n for n in free if n in constrained] or free
        if len(pick) != 1:
            return None
        values = _enum_from_prose(unit, names) or {n: i for i, n in enumerate(names)}
        if max(values.values()) >> fields[pick[0]]["width"]:
            return None
        return Slot("enum", pick[0], text=tok, names=values)

    def _tile_syntax(self, unit: Unit) -> None:
        """A tile operation is written as its carrier's mnemonic, the operation's name, then the carrier's
        remaining operands: ``BSTART.VEC TMUL, FP16`` is BSTART.TEPL with TMUL's Mode and Function."""
        if unit.surface != "tile":
            return
        from .encoding import _carrier, encoding_for
        enc = encoding_for(self.catalog, unit)
        if enc is None or not enc.carrier_mnemonic or not enc.fixed:
            return
        found = _carrier(self.catalog, enc.carrier_mnemonic)
        if found is None:
            return
        form = found[1][0]
        template = str(form.get("asm", ""))
        fields = {f["name"] for f in _fields(form)}
        fixed = {k: v for k, v in enc.fixed.items() if k in fields}
        if not fixed:
            return  # the carrier's own form (CUBE, TLSU) is the operation: its syntax already covers it
        rest = [t for t in _split_top(template.partition(" ")[2]) if t.strip() not in fixed]
        text = f"{enc.engine_mnemonic or enc.carrier_mnemonic} " + ", ".join(rest)
        syn = self._syntax(unit, form, text.strip(), fixed=fixed, tile=unit.mnemonic)
        syn.slots.insert(0, Slot("lit", text=str(unit.mnemonic)))
        self._add(syn)

    # -- assembling -----------------------------------------------------------------------------
    def candidates(self, head: str) -> list[tuple[Syntax, str]]:
        """(syntax, suffix) for every syntax whose mnemonic starts the written head at a '.' boundary."""
        head = head.lower()
        out = []
        for i in [len(head)] + [i for i, ch in enumerate(head) if ch == "."]:
            for syn in self.by_base.get(head[:i], ()):
                out.append((syn, head[i + 1:] if i < len(head) else ""))
        return out

    def _candidates(self, head: str) -> list[tuple[Syntax, str]]:
        """candidates() without a suffix the syntax cannot take (BSTART.TLSU is not BSTART with a suffix)."""
        return [(s, x) for s, x in self.candidates(head) if not x or s.suffix_kind or s.problem]

    def assemble(self, text: str, *, units: Sequence[str] | None = None) -> Assembled:
        """The word of one line of assembly text. ``units``: only forms of these instruction units."""
        line = " ".join(text.strip().split())
        if not line:
            raise AsmError("empty assembly text")
        head, _, rest = line.partition(" ")
        cands = [(s, x) for s, x in self.candidates(head) if units is None or s.unit.id in units]
        if not cands:
            raise AsmError(f"unknown mnemonic {head!r}")
        # a suffix another syntax names exactly wins over a flags suffix (lr.d vs lr with suffix .d)
        exact = [(s, x) for s, x in cands if x == "" or s.suffix_kind]
        cands = exact or cands
        ok: list[Assembled] = []
        errors: list[str] = []
        for syn, suffix in cands:
            if syn.problem:
                message = f"{syn.base} ({syn.form_id}): the assembler cannot read its template: {syn.problem}"
                errors.append((0, *_error_rank(message), message))
                continue
            try:
                ok.append(self._assemble(syn, suffix, rest))
            except AsmError as exc:
                errors.append((-getattr(exc, "position", 0), *_error_rank(str(exc)), str(exc)))
        words = {(a.word, a.length_bits) for a in ok}
        if len(words) == 1:
            return ok[0]
        if len(words) > 1:
            forms = ", ".join(sorted({str(a.form.get("form_id")) for a in ok}))
            raise AsmError(f"{line!r} is ambiguous: it assembles to {len(words)} different words (forms {forms})")
        raise AsmError(min(errors)[-1])

    def check_line(self, text: str, units: Sequence[str], own: bool = True,
                   roles: frozenset[str] = frozenset()) -> tuple[str, str]:
        """A contract example or block line of the instruction units ``units``: (verdict, message).

        ``ok``: it assembles to a form of those units. ``descriptive``: pseudo-syntax, by this rule: the line is
        one of the instruction's own templates, or it has the mnemonic, suffix, operand count and bracket shape
        of one of its syntaxes and every operand that does not assemble is a placeholder word of that syntax
        (a word of its template, ``SrcL``, ``simm``, ``{t, u, Rd}``, ``DataType``, a field name of the form, a
        CamelCase or ``Src``/``Dst`` role name, or a word of the example's own instruction's operand roles,
        ``roles``: ``Left`` for "persistent Local left source"),
        so it describes the operands instead of giving them. A line that is not the instruction's own (``own``
        false: another instruction of a bundle line) is also descriptive when no operand is a concrete value
        (a number, a register, a named value) and its shape can be that instruction's (``_wrong_shape``: a
        mnemonic the tree has, an operand count and brackets of one of its syntaxes), or when it holds an English
        function word (a remark). ``unchecked``: the syntax is one the assembler cannot read, or a record's
        attributes written by name (``B.DATR FP32, RNE``). ``mismatch``: anything else (another mnemonic, a wrong
        operand count, an operand the form does not have, a value out of range); the message says what."""
        line = " ".join(text.strip().split())
        if line.startswith("#"):
            return "descriptive", "a comment"
        line = re.sub(r"^[A-Z][A-Za-z ]*:\s+", "", line)  # "Local: BSTART.TSTORE DataType": a caption
        remark = PROSE.search(line)
        if remark:  # "BSTOP or the next BSTART completion boundary": the words from there on are a remark
            line = line[:remark.start()].rstrip(" ,;")
        head, _, rest = line.partition(" ")
        mine = [(s, x) for s, x in self._candidates(head) if s.unit.id in units]
        owners = {s.unit.id for s, _x in mine} | (set(units) if len(units) <= 8 else set())
        if any(_norm(line) in self._templates(uid) for uid in owners):
            return "descriptive", "the instruction's own assembly template"
        alternatives = re.search(r"[\w#.]+(?:\|[\w#.]+)+", rest)
        if alternatives:  # "S8|U8": one line for each; the worst verdict counts
            verdicts = [self.check_line(line.replace(alternatives.group(0), alt, 1), units, own, roles)
                        for alt in alternatives.group(0).split("|")]
            for verdict in ("mismatch", "unchecked", "descriptive", "ok"):
                hit = [v for v in verdicts if v[0] == verdict]
                if hit:
                    return hit[0]
        bound = re.fullmatch(r"(LB\d)=\w+", rest.strip())
        if bound and not own and any(bound.group(1).lower() in s.template.lower().replace(",", " ").split()
                                     or "->" + bound.group(1).lower() in s.template.lower() for s, _x in self._candidates(head)):
            return "descriptive", "the bundle notation LBn=value (the loop bound it binds), as the block lines write it"
        if not own and not self._concrete(rest):
            wrong = self._wrong_shape(head, rest)
            if wrong:
                return "mismatch", wrong
            return "descriptive", "no operand is a concrete value (number, register or named value)"
        if not mine:
            others = sorted({s.unit.mnemonic or "" for s, _x in self._candidates(head)})
            if others:
                more = f" and {len(others) - 3} more" if len(others) > 3 else ""
                return "mismatch", f"{head!r} is written for {', '.join(others[:3])}{more}, not for this instruction"
            bases = sorted({s.base for uid in units for s in self.by_unit.get(uid, ())})
            if not bases:
                return "unchecked", "this tree has no encoding form (no assembly syntax) for the instruction"
            return "mismatch", f"unknown mnemonic {head!r} (this instruction is written {', '.join(bases[:3])})"
        try:
            self.assemble(line, units=units)
            return "ok", ""
        except AsmError as exc:
            error = str(exc)
        self._shape_error = ""
        records = [syn for syn, _x in mine if any(isinstance(sl, Slot) and sl.kind == "group-record" for sl in syn.slots)]
        if records and not rest.strip().startswith("{"):
            return "unchecked", (f"written as a shorthand of some attributes, not the {{...}} record of all its fields "
                                 f"({records[0].template}): the others' values are not given")
        if re.search(r"'[A-Za-z_]\w*' is not a number", error):
            return "unchecked", "an immediate written by a name the records give no value for"
        if not mine:
            return "mismatch", error
        if any(s.problem for s, _x in mine) and not any(
                self._placeholders(syn, x, rest, roles) for syn, x in mine if not syn.problem):
            return "unchecked", next(s.problem for s, _x in mine if s.problem)
        if all(s.problem for s, _x in mine):
            return "unchecked", mine[0][0].problem
        for syn, suffix in mine:
            if syn.problem:
                continue
            if self._placeholders(syn, suffix, rest, roles):
                return "descriptive", "operands written as placeholders"
        return "mismatch", self._shape_error or error

    def _wrong_shape(self, head: str, rest: str) -> str:
        """Why a placeholder line of another instruction of a bundle cannot be that instruction: its head is a dotted
        mnemonic of a family the tree has (``B.*``, ``BSTART.*``) but no form of the tree has it, or no syntax of that
        mnemonic takes its number of operands and memory brackets. "" when it can be, or when the line is prose (a
        head that is no mnemonic, an operand of several words), names the instruction only (no operands), gives a
        record's attributes by name (``B.DATR BType, RMode``) or a word of one of its syntaxes (``B.DIM LB0``)."""
        if not re.fullmatch(r"[A-Z][A-Z0-9]*(?:\.[A-Za-z0-9]+)+|[A-Z][A-Z0-9]+|[a-z][a-z0-9]*(?:\.[a-z0-9]+)+", head):
            return ""  # "optional B.DATR Layout", "replace B.IOT ...": a sentence, not an instruction
        known = self._candidates(head)
        if not known:
            family = head.lower().split(".")[0] + "."
            if "." in head and any(base.startswith(family) for base in self.by_base):
                return f"unknown mnemonic {head!r} (the tree's {family.upper()}* instructions have no such one)"
            return ""  # a family this tree has no instruction of: nothing to compare with
        cands = [s for s, _x in known if not s.problem]
        given = _tokens(_prep_input(rest)) if rest.strip() else []
        toks = [g for g in given if g not in "[]"]
        if not toks:
            return ""  # "B.IOT", "B.DATR (optional)": the bundle has one, its operands are not written
        if any(re.search(r"\w\s+\w", t) and not t.startswith("{") for t in toks):
            return ""  # an operand of several words describes in prose
        if any(isinstance(x, Slot) and x.kind == "group-record" for syn in cands for x in syn.slots):
            return ""  # "B.DATR BType, RMode, Sat": the attributes it sets, by name (the shorthand of a record)
        brackets = [g for g in given if g in "[]"]
        words = {w.lower() for syn in cands for w in re.findall(r"[A-Za-z_][\w#]*", syn.template)}
        if all(t.replace(ARROW, "").lower() in words for t in toks) and \
                any(brackets == [x for x in syn.slots if isinstance(x, str)] for syn in cands):
            return ""  # "B.DIM LB0": which of its syntaxes, by a word of that syntax
        counts, count_fits = set(), False
        for syn in cands:
            slots = [x for x in syn.slots if isinstance(x, Slot)]
            low = 0 if syn.ior else len(slots) - sum(1 for x in slots if x.optional)
            if low <= len(toks) <= len(slots):
                if brackets == [x for x in syn.slots if isinstance(x, str)]:
                    return ""
                count_fits = True
            counts.add(len(slots))
        if not cands:
            return ""  # only syntaxes the assembler cannot read
        if count_fits:
            return f"{head}: memory brackets do not match {_show(cands[0])}"
        shown = ", ".join(map(str, sorted(counts)))
        return f"{head} takes {shown} operand{'s' if counts != {1} else ''} ({_show(cands[0])}), not {len(toks)}"

    def _templates(self, uid: str) -> set[str]:
        cache = self.__dict__.setdefault("_template_cache", {})
        if uid not in cache:
            found = {_norm(s.template) for s in self.by_unit.get(uid, ())}
            unit = self.catalog.units.get(uid)
            if unit is not None:
                found.update(_norm(t) for t in unit.record.get("assembly") or () if isinstance(t, str))
                found.update(_norm(t) for t in unit.contract.get("canonical_assembly") or () if isinstance(t, str))
            cache[uid] = found
        return cache[uid]

    @property
    def value_names(self) -> set[str]:
        if "_value_names" not in self.__dict__:
            self.__dict__["_value_names"] = {n.lower() for d in self.domains.values() for n in d}
        return self.__dict__["_value_names"]

    def _concrete(self, rest: str) -> bool:
        """Does the operand text give any concrete value: a number, a register, a named field value?"""
        names = self.value_names
        for word in re.findall(r"-?[\w#]+", rest):
            w = word.lower()
            if _number(w) is not None or w in names or (w in SOURCE_CODE) or (w in DEST_CODE and w not in ("t", "u")):
                return True
        return False

    def _camel(self, word: str) -> bool:
        """A CamelCase name (BaseGPR, ValidCol) that is no named value: how the spec writes an operand's role."""
        names = self.value_names
        return (bool(re.fullmatch(r"[A-Z][A-Za-z0-9_]*", word)) and bool(re.search(r"[a-z]", word))
                and len(re.findall(r"[A-Z]", word)) >= 2 and word.lower() not in names)

    def _placeholders(self, syn: Syntax, suffix: str, rest: str, roles: frozenset[str] = frozenset()) -> bool:
        """Does the text match this syntax's shape with at least one placeholder and every other operand real?"""
        words = {w.lower() for w in re.findall(r"[A-Za-z_][\w#-]*", syn.template)}
        words |= {f["name"].lower() for f in _fields(syn.form)}
        if suffix and syn.suffix_kind == "flags" and suffix not in syn.suffix_options:
            return False
        given = _tokens(_prep_input(rest)) if rest.strip() else []
        slots = [s for s in syn.slots if isinstance(s, Slot)]
        toks = [g for g in given if g not in "[]"]
        if any(s.optional for s in slots):
            if len(toks) > len(slots):
                return False
            if syn.ior:
                slots = slots[:len(toks)]
            elif len(toks) < len(slots):
                slots = [s for s in slots if not s.optional]
        if len(toks) != len(slots) or [g for g in given if g in "[]"] != [s for s in syn.slots if isinstance(s, str)]:
            return False
        self._current = syn
        placeholder = 0
        values: dict[str, int] = {}
        for slot, tok in zip(slots, toks):
            try:
                self._operand(slot, tok, syn.base, values)
            except AsmError as exc:
                if slot.kind == "imm" and slot.text in LABEL_TOKENS and IDENT.match(tok):
                    placeholder += 1  # a symbol: real assembly, but only a linker knows its offset
                    continue
                bare = re.sub(r"[<>{}!]", " ", tok.replace(ARROW, "").replace(SHIFT, " "))
                parts = [p for p in re.split(r"[\s,.=]+", bare) if p]
                if parts and all(p.lower() in words or p.lower() in roles or p.isdigit() or self._camel(p)
                                 or re.fullmatch(r"(?i)(src|dst)\w*", p) for p in parts):
                    placeholder += 1
                else:
                    self._shape_error = self._shape_error or str(exc)  # the shape fits: this operand is what is wrong
                    return False
        return placeholder > 0

    def _assemble(self, syn: Syntax, suffix: str, rest: str) -> Assembled:
        self._current = syn
        values: dict[str, int] = dict(syn.fixed)
        name = syn.base + ("." + suffix if suffix else "")
        if syn.suffix_kind == "flags":
            if suffix and suffix not in syn.suffix_options:
                raise AsmError(f"{name}: .{suffix} is not a suffix of {syn.base} (allowed: "
                               f"{', '.join('.' + o for o in syn.suffix_options)})")
            atoms = _decompose(suffix, list(syn.suffix_fields)) if suffix else []
            for atom in syn.suffix_fields:
                values[syn.suffix_fields[atom]] = int(atom in atoms)
        elif syn.suffix_kind == "enum":
            if suffix not in syn.suffix_codes:
                raise AsmError(f"{name}: {syn.base} needs one of the suffixes {', '.join('.' + o for o in syn.suffix_options)}")
            values[syn.suffix_fields[suffix]] = syn.suffix_codes[suffix]
        elif syn.suffix_kind == "conv":
            if suffix not in syn.suffix_codes:
                raise AsmError(f"{name}: {syn.base} needs a conversion suffix, one of "
                               f"{', '.join('.' + o for o in syn.suffix_options)}")
            values["SrcType"], values["DstType"] = syn.suffix_codes[suffix] >> 8, syn.suffix_codes[suffix] & 0xFF
        elif syn.suffix_kind == "type":
            if suffix not in FP_TYPES:
                raise AsmError(f"{name}: {syn.base} needs a type suffix .fd or .fs")
            values["SrcType"] = FP_TYPES[suffix]
        elif suffix:
            raise AsmError(f"{name}: {syn.base} takes no suffix")
        given = _tokens(_prep_input(rest)) if rest.strip() else []
        self._match(syn, given, values, name)
        for c in syn.form.get("constraints") or ():  # a field the text cannot show but the form allows one value of
            if isinstance(c, Mapping) and c.get("operator") == "one-of" and len(c.get("values") or ()) == 1:
                values.setdefault(c.get("field"), c["values"][0])
        try:
            return self._encode(syn, values, name)
        except AsmError as exc:
            exc.position = 99  # every operand was read: this is the error of the syntax the text is written in
            raise

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

    _current: Syntax | None = None
    _shape_error = ""

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
        for f in _fields(self._current.form):
            if f["name"] == fname:
                return f
        raise AsmError(f"no field {fname}")

    def _encode(self, syn: Syntax, values: dict[str, int], name: str) -> Assembled:
        form = syn.form
        mask = match = 0
        for _i, width, m, x, off in _words(form):
            full = (1 << width) - 1
            mask |= ((m or 0) & full) << off
            match |= ((x or 0) & full) << off
        word = match
        for f in _fields(form):
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

    # -- rendering (the disassembler the round trip uses) ---------------------------------------
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
        f = next(f for f in _fields(syn.form) if f["name"] == s.field)
        width = f["width"] or sum(p[2] for p in f["pieces"])
        if s.signed and v >> (width - 1):
            v -= 1 << width
        return str(v + s.bias)

    def syntax_of(self, unit: Unit, form: Mapping) -> list[Syntax]:
        return [s for s in self.by_unit.get(unit.id, ()) if s.form is form]

    def units_written(self, mnemonic: str) -> set[str]:
        """The units with a syntax whose mnemonic is ``mnemonic`` (an alias or carrier: the operations it writes)."""
        return {s.unit.id for s in self.by_base.get(mnemonic.lower(), ())}

    def unsupported(self) -> list[Syntax]:
        return [s for s in self.syntaxes if s.problem]


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


def _error_rank(message: str) -> tuple[int, int]:
    """The most telling of several candidates' errors: a wrong value before a wrong shape."""
    order = ("out of range", "not allowed", "multiple of", "is not a source", "is not a destination", "modifier",
             "is not a Local tile operand", "is not a tile destination", "is not a Shared tile", "is not mask=", "where",
             "is not one of", "suffix", "expects", "brackets", "cannot read")
    for i, key in enumerate(order):
        if key in message:
            return i, len(message)
    return len(order), len(message)


# -- the round trip: words of every form -> text -> words ----------------------------------------
@dataclass
class FormTrip:
    surface: str  # scalar | block | tile
    unit_id: str
    form_id: str
    status: str  # full | partial | none | unsupported | no-word
    samples: int = 0
    same: int = 0
    equivalent: int = 0
    example: str = ""  # one rendered text, or why the form has no usable syntax
    failure: str = ""  # the first word that did not come back, and why
    unbound: tuple[str, ...] = ()  # fields of the form the syntax has no place for
    zero_unbound: bool = False  # with those fields zero, every sampled word round-trips
    zero_failure: str = ""  # with those fields zero, the first word that still did not come back, and why


def _sample_word(rng, form: Mapping, fixed: Mapping[str, int], zero=()) -> tuple[int, dict[str, int]]:
    mask = match = 0
    for _i, width, m, x, off in _words(form):
        full = (1 << width) - 1
        mask |= ((m or 0) & full) << off
        match |= ((x or 0) & full) << off
    constraints = {c.get("field"): c for c in form.get("constraints") or () if isinstance(c, Mapping)}
    word, values = match, {}
    for f in _fields(form):
        width = f["width"] or sum(p[2] for p in f["pieces"])
        low = min((p[1] for p in f["pieces"]), default=0)
        c = constraints.get(f["name"])
        if f["name"] in fixed:
            v = fixed[f["name"]]
        elif f["name"] in zero:
            v = 0
        elif c and c.get("operator") == "one-of" and c.get("values"):
            v = rng.choice(list(c["values"]))
        else:
            v = rng.randrange(1 << width) & ~((1 << low) - 1)
            if c and c.get("operator") == "not-equal" and v == c.get("value"):
                v = (v + (1 << low)) & ((1 << width) - 1)
        values[f["name"]] = v
        for lsb, vlsb, pw in f["pieces"]:
            word |= ((v >> vlsb) & ((1 << pw) - 1)) << lsb
    return word, values


def _words_of(rng, dec, form, fixed, samples, zero) -> list[int]:
    words, length = [], int(form["length_bits"])
    for _ in range(samples * 8):
        word, _values = _sample_word(rng, form, fixed, zero)
        hits = dec.decode(word, length)
        if hits and hits[0][1] is form:
            words.append(word)
        if len(words) == samples:
            break
    return words


def _render_any(assembler: Assembler, syntaxes: Sequence[Syntax], values: Mapping[str, int]) -> str:
    """The text of the first syntax (of a form's alternatives, B.IOS's source and destination) that can say it."""
    error = None
    for syn in syntaxes:
        try:
            return assembler.render(syn, values)
        except AsmError as exc:
            error = error or exc
    fixed = sorted({f for syn in syntaxes for f in syn.fixed})
    if syntaxes and all(syn.fixed for syn in syntaxes) and not any(syn.tile for syn in syntaxes):
        shown = ", ".join(f"{f}={values.get(f, 0)}" for f in fixed)
        raise AsmError(f"{syntaxes[0].form.get('mnemonic', '')}: {shown} have no spelling (no listed syntax sets them so)")
    raise error or AsmError("no syntax")


def _one_trip(assembler: Assembler, syns: Sequence[Syntax], form: Mapping, word: int) -> tuple[bool, str]:
    try:
        back = assembler.assemble(_render_any(assembler, syns, dict(assembler.decoder.fields(form, word))))
    except AsmError as exc:
        return False, str(exc)
    return back.word == word, back.hex


def round_trip(assembler: Assembler, samples: int = 16, seed: int = 0) -> list[FormTrip]:
    """For every encoding form (and every tile operation on its carrier): random words of that form, each
    rendered as text by its syntax and assembled back. ``same``: the very word; ``equivalent``: another word of
    the same form with the same operand values (never seen on 0.58.3; counted so it would show)."""
    import random

    from .encoding import _carrier, encoding_for
    rng = random.Random(seed)
    dec = assembler.decoder
    out: list[FormTrip] = []
    jobs = []
    for unit in assembler.catalog.instructions:
        if unit.surface == "tile":
            enc = encoding_for(assembler.catalog, unit)
            found = _carrier(assembler.catalog, enc.carrier_mnemonic) if enc and enc.carrier_mnemonic else None
            if found is None:
                out.append(FormTrip("tile", unit.id, "", "unsupported", example="no carrier form"))
                continue
            form = found[1][0]
            syns = [s for s in assembler.syntaxes if s.unit is unit] or assembler.syntax_of(found[0], form)
            names = {f["name"] for f in _fields(form)}
            jobs.append(("tile", unit, form, syns, {k: v for k, v in enc.fixed.items() if k in names}))
            continue
        for form in unit.catalog_records:
            if isinstance(form, Mapping) and "encoding" in form:
                jobs.append((unit.surface, unit, form, assembler.syntax_of(unit, form), {}))
    for surface, unit, form, syns, fixed in jobs:
        trip = FormTrip(surface, unit.id, str(form.get("form_id", "")), "unsupported")
        out.append(trip)
        usable = [s for s in syns if not s.problem]
        if not usable:
            trip.example = syns[0].problem if syns else "no assembly template"
            continue
        syn = usable[0]
        singles = {c.get("field") for c in form.get("constraints") or ()
                   if isinstance(c, Mapping) and c.get("operator") == "one-of" and len(c.get("values") or ()) == 1}
        trip.unbound = tuple(sorted({f["name"] for f in _fields(form)} - syn.bound - singles))
        length = int(form["length_bits"])
        words = _words_of(rng, dec, form, fixed, samples, ())
        if not words:
            trip.status, trip.example = "no-word", "no random word decodes to this form first"
            continue
        if trip.unbound:
            zeroed = _words_of(rng, dec, form, fixed, samples, trip.unbound)
            results = [(w, _one_trip(assembler, usable, form, w)) for w in zeroed]
            trip.zero_unbound = bool(zeroed) and all(ok for _w, (ok, _why) in results)
            trip.zero_failure = next((f"0x{w:x}: {why}" for w, (ok, why) in results if not ok), "")
        for word in words:
            trip.samples += 1
            values = dict(dec.fields(form, word))
            try:
                text = _render_any(assembler, usable, values)
                back = assembler.assemble(text)
            except AsmError as exc:
                trip.failure = trip.failure or f"0x{word:x}: {exc}"
                continue
            if back.word == word and back.length_bits == length:
                trip.same += 1
                trip.example = trip.example or text
            elif back.form is form and dict(back.fields) == values:
                trip.equivalent += 1
            else:
                trip.failure = trip.failure or f"0x{word:x} -> {text!r} -> {back.hex}"
        ok = trip.same + trip.equivalent
        trip.status = "full" if ok == trip.samples else "partial" if ok else "none"
    return out



def main(argv: Sequence[str] | None = None) -> int:
    """The word of each TEXT (or its one-line error), the round-trip coverage per surface, the verdicts of the
    contract example and block lines. Exit 0, or 1 when a TEXT does not assemble, 2 when the tree cannot be read."""
    import argparse
    import collections
    import sys
    parser = argparse.ArgumentParser(prog="python -m pto_docs.assembler", description=main.__doc__)
    parser.add_argument("texts", nargs="*", metavar="TEXT", help="assembly text of one instruction each")
    parser.add_argument("--spec-root", required=True, metavar="TREE")
    parser.add_argument("--round-trip", action="store_true", help="words of every form -> text -> words, per surface")
    parser.add_argument("--samples", type=int, default=16, help="random words per form (default 16)")
    parser.add_argument("--examples", action="store_true", help="verdicts of every contract example and block line")
    args = parser.parse_args(argv)
    from .diagnostics import SpecRootError
    from .load import load_catalog
    try:
        catalog = load_catalog(args.spec_root).catalog
    except SpecRootError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    assembler = Assembler(catalog)
    code = 0
    for text in args.texts:
        try:
            done = assembler.assemble(text)
        except AsmError as exc:
            print(f"{text}: error: {exc}")
            code = 1
            continue
        fields = " ".join(f"{k}={v}" for k, v in done.fields)
        print(f"{text}: {done.hex} ({done.length_bits} bits) {done.form.get('form_id')} {fields}")
    if args.round_trip:
        trips = round_trip(assembler, args.samples)
        for surface in ("scalar", "block", "tile"):
            mine = [t for t in trips if t.surface == surface]
            count = collections.Counter(t.status for t in mine)
            print(f"{surface}: {count['full']} of {len(mine)} forms round-trip every sampled word; "
                  + ", ".join(f"{k} {count[k]}" for k in ("partial", "none", "unsupported", "no-word") if count[k]))
        for t in trips:
            if t.status != "full":
                why = t.failure or t.example
                extra = f" (fields not in the template: {', '.join(t.unbound)}; with them zero: " \
                        f"{'all round-trip' if t.zero_unbound else 'still failing: ' + t.zero_failure})" if t.unbound else ""
                print(f"  {t.status:11} {t.form_id or t.unit_id}: {why}{extra}")
    if args.examples:
        from .examples_check import assembly_lines
        every = frozenset(u.id for u in catalog.instructions)
        verdicts: collections.Counter = collections.Counter()
        for unit in catalog.instructions:
            for pointer, segment, verdict, message, _owner in assembly_lines(catalog, unit, assembler, every):
                verdicts[unit.surface, verdict] += 1
                if verdict == "mismatch":
                    print(f"  EXAMPLE-ASM {unit.mnemonic} {pointer}: {segment!r}: {message}")
        for surface in ("scalar", "block", "tile"):
            print(f"{surface}: " + ", ".join(f"{v} {verdicts[surface, v]}" for v in ("ok", "descriptive", "unchecked", "mismatch")))
    return code


if __name__ == "__main__":
    raise SystemExit(main())
