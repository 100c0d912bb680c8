"""Assemble one instruction's assembly text into its encoded word, by pto-docs' own encoding model.

The inverse of ``avs_examples.Decoder``. Each catalog form's assembly template (its ``asm``, e.g.
``lw.smin<.{aq, rl, f, aqrl, aqf, rlf, aqrlf}> [SrcL], SrcR, {->t, ->u, ->Rd}``) is read as a syntax whose
operand slots are bound to the form's encoding fields; a line of text is matched against the syntaxes of its
mnemonic, each operand is turned into its field value, and the word is the form's match bits with the field
pieces put in place. The word must decode back (``Decoder``) to the same form.

What the templates do not say, the spec says elsewhere, and this package takes it from there:

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

The package, one concern a module: ``syntax`` (Syntax, Slot, Assembled, AsmError), ``tokens`` (template and
line text), ``spelling`` (register names, suffixes, the names prose gives codes), ``templates`` (a template ->
a Syntax), ``operands`` (operands -> field values -> the word), ``render`` (field values -> text), ``assemble``
(the :class:`Assembler`) and ``round_trip`` (the round-trip measure). Its developer's command line is
``python -m pto_docs.cli.assemble`` (pto_docs/cli/assemble.py).
"""

from __future__ import annotations

from .assemble import Assembler
from .round_trip import round_trip
from .syntax import AsmError

__all__ = ["AsmError", "Assembler", "round_trip"]
