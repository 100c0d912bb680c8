"""The round trip: sampled words of every form -> text (rendered) -> words (assembled), per form a
:class:`FormTrip`; the measure ``python -m pto_docs.cli.assemble --round-trip`` prints."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..encoding import encoding_words, form_fields
from .assemble import Assembler
from .syntax import AsmError, Syntax


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
    for _i, width, m, x, off in encoding_words(form):
        full = (1 << width) - 1
        mask |= ((m or 0) & full) << off
        match |= ((x or 0) & full) << off
    constraints = {c.get("field"): c for c in form.get("constraints") or () if isinstance(c, Mapping)}
    word, values = match, {}
    for f in form_fields(form):
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

    from ..encoding import _carrier, encoding_for
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
            names = {f["name"] for f in form_fields(form)}
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
        trip.unbound = tuple(sorted({f["name"] for f in form_fields(form)} - syn.bound - singles))
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
