"""Reading a form's assembly template into a :class:`Syntax`: the mixin of :class:`Assembler` that builds the
syntaxes (the template's suffix, its operand slots bound to encoding fields, ``{...}`` groups, the instruction's
``assembly`` list when a suffix group cannot be read whole, and the tile operations' syntaxes)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ...model.catalog import Unit
from ..encoding import form_fields
from .spelling import (
    CONVERSIONS,
    SOURCE_CODE,
    TYPE_SUFFIXES,
    _abbreviates,
    _dotted,
    _enum_from_prose,
    _modifier_codes,
    _prose,
    _prose_names,
    _roles,
)
from .syntax import Slot, Syntax
from .tokens import (
    ARROW,
    IDENT,
    LABEL_TOKENS,
    REG_TOKEN,
    SHIFT,
    _decompose,
    _head,
    _key,
    _prep_template,
    _split_top,
    _tokens,
)


class TemplateReader:
    """The syntax building of :class:`Assembler`: fills the ``syntaxes``, ``by_base`` and ``by_unit`` its ``__init__``
    creates, reading ``catalog``, ``domains`` and ``form_contracts``."""

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
        fields = {f["name"]: f for f in form_fields(form)}
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
        fields = {f["name"]: f for f in form_fields(form)}
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
        from ..encoding import _carrier, encoding_for
        enc = encoding_for(self.catalog, unit)
        if enc is None or not enc.carrier_mnemonic or not enc.fixed:
            return
        found = _carrier(self.catalog, enc.carrier_mnemonic)
        if found is None:
            return
        form = found[1][0]
        template = str(form.get("asm", ""))
        fields = {f["name"] for f in form_fields(form)}
        fixed = {k: v for k, v in enc.fixed.items() if k in fields}
        if not fixed:
            return  # the carrier's own form (CUBE, TLSU) is the operation: its syntax already covers it
        rest = [t for t in _split_top(template.partition(" ")[2]) if t.strip() not in fixed]
        text = f"{enc.engine_mnemonic or enc.carrier_mnemonic} " + ", ".join(rest)
        syn = self._syntax(unit, form, text.strip(), fixed=fixed, tile=unit.mnemonic)
        syn.slots.insert(0, Slot("lit", text=str(unit.mnemonic)))
        self._add(syn)
