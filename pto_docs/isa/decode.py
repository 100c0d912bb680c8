"""Encoded words to the catalog's forms: pto-docs' own decoder, from the catalog records' encoding words.

Used by the assembler (to check what it made), the worked examples of the AVS results (``bridge.avs_examples``)
and ``pto-docs exec`` of a v2 case (``bridge.exec_model``)."""

from __future__ import annotations

from collections.abc import Mapping

from ..model.catalog import Catalog, Unit
from .encoding import encoding_words, form_fields


class Decoder:
    """Scalar and block words to forms, from the catalog records' encoding words (most specific first).

    Each form is one (mask, match) over its whole length; forms of one length are bucketed by the bits that
    every one of them fixes (the major opcode), so a word is compared with few forms."""

    def __init__(self, catalog: Catalog):
        forms: dict[int, list] = {}
        for unit in catalog.instructions:
            for rec in unit.catalog_records:
                if not isinstance(rec, Mapping) or "encoding" not in rec or not isinstance(rec.get("length_bits"), int):
                    continue
                mask = match = 0
                for _i, width, m, x, off in encoding_words(rec):
                    if width > 0:
                        full = (1 << width) - 1
                        mask |= ((m or 0) & full) << off
                        match |= ((x or 0) & full) << off
                if mask:
                    forms.setdefault(rec["length_bits"], []).append((bin(mask).count("1"), unit.path, unit, rec, mask, match))
        self.buckets: dict[int, tuple[int, dict[int, list]]] = {}
        for length, found in forms.items():
            found.sort(key=lambda f: (-f[0], f[1]))
            common = -1
            for f in found:
                common &= f[4]
            table: dict[int, list] = {}
            for _n, _path, unit, rec, mask, match in found:
                table.setdefault(match & common, []).append((unit, rec, mask, match))
            self.buckets[length] = (common, table)
        self._memo: dict[tuple[int, int], list] = {}
        self._fields: dict[int, list] = {}

    def decode(self, word: int, length_bits: int) -> list[tuple[Unit, Mapping]]:
        key = (word, length_bits)
        hit = self._memo.get(key)
        if hit is None:
            common, table = self.buckets.get(length_bits, (0, {}))
            hit = self._memo[key] = [(unit, rec) for unit, rec, mask, match in table.get(word & common, ())
                                     if word & mask == match]
        return hit

    def fields(self, rec: Mapping, word: int) -> tuple[tuple[str, int], ...]:
        parsed = self._fields.get(id(rec))
        if parsed is None:
            parsed = self._fields[id(rec)] = form_fields(rec)
        out = []
        for field in parsed:
            value = 0
            for lsb, vlsb, width in field["pieces"]:
                value |= ((word >> lsb) & ((1 << width) - 1)) << vlsb
            out.append((field["name"], value))
        return tuple(out)
