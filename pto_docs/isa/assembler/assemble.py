"""The :class:`Assembler`: every form of a tree as syntaxes indexed by mnemonic, and text -> word (the
candidates of a written head, the most telling error of several, the example-line check). Reading templates,
operand values and rendering are its mixins (templates.py, operands.py, render.py)."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence

from ...model.catalog import Catalog, Unit
from ..decode import Decoder
from ..encoding import form_fields
from .operands import OperandEncoder
from .render import Renderer
from .spelling import DEST_CODE, FP_TYPES, SOURCE_CODE
from .syntax import AsmError, Assembled, Slot, Syntax
from .templates import TemplateReader
from .tokens import (
    ARROW,
    IDENT,
    LABEL_TOKENS,
    PROSE,
    SHIFT,
    _decompose,
    _norm,
    _number,
    _prep_input,
    _show,
    _tokens,
)


class Assembler(TemplateReader, OperandEncoder, Renderer):
    """Every form of a tree, as syntaxes indexed by mnemonic (lower case)."""

    _shape_error = ""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self.decoder = Decoder(catalog)
        self._unit_templates: dict[str, set[str]] = {}  # unit id -> its normalised assembly templates (_templates)
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
        cache = self._unit_templates
        if uid not in cache:
            found = {_norm(s.template) for s in self.by_unit.get(uid, ())}
            unit = self.catalog.units.get(uid)
            if unit is not None:
                found.update(_norm(t) for t in unit.record.get("assembly") or () if isinstance(t, str))
                found.update(_norm(t) for t in unit.contract.get("canonical_assembly") or () if isinstance(t, str))
            cache[uid] = found
        return cache[uid]

    @functools.cached_property
    def value_names(self) -> set[str]:
        return {n.lower() for d in self.domains.values() for n in d}

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
        words |= {f["name"].lower() for f in form_fields(syn.form)}
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

    def syntax_of(self, unit: Unit, form: Mapping) -> list[Syntax]:
        return [s for s in self.by_unit.get(unit.id, ()) if s.form is form]

    def units_written(self, mnemonic: str) -> set[str]:
        """The units with a syntax whose mnemonic is ``mnemonic`` (an alias or carrier: the operations it writes)."""
        return {s.unit.id for s in self.by_base.get(mnemonic.lower(), ())}

    def unsupported(self) -> list[Syntax]:
        return [s for s in self.syntaxes if s.problem]


def _error_rank(message: str) -> tuple[int, int]:
    """The most telling of several candidates' errors: a wrong value before a wrong shape."""
    order = ("out of range", "not allowed", "multiple of", "is not a source", "is not a destination", "modifier",
             "is not a Local tile operand", "is not a tile destination", "is not a Shared tile", "is not mask=", "where",
             "is not one of", "suffix", "expects", "brackets", "cannot read")
    for i, key in enumerate(order):
        if key in message:
            return i, len(message)
    return len(order), len(message)
