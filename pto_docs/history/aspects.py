"""What one instruction is made of, aspect by aspect, for comparing two releases of it.

An instruction record's fields are sorted into aspects by where they sit (:func:`aspect_of`): ``encoding`` (the
encoded forms' fields, masks and fixed values, the catalog indices, the encoding class and standalone opcode, the
field contracts), ``syntax`` (assembly, block composition, operands, examples), ``contract`` (the rest of the
contract: legality, defaults, exceptions, ordering, effects) and ``record`` (everything else: summary,
classification, dependencies, engine, semantic handlers). Two derived aspects: ``data_types`` (the data-type
names the contract's legality lines allow) and ``semantics`` (the unit's ASL with comments removed and
whitespace normalised, so a reworded comment or a re-indented line is no change).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from ..model.frozen import thaw

ASPECTS = ("encoding", "syntax", "data_types", "contract", "semantics", "ndf", "tests", "record")

ENCODING_FORM_KEYS = frozenset({
    "encoding", "fields", "encoding_kind", "length_bits", "form_id", "constraints", "mode", "function", "selector",
    "family", "command_mnemonic", "encoding_variants", "carrier_mnemonic", "datr_contract", "complete_bundle_schema",
    "agu"})
SYNTAX_FORM_KEYS = frozenset({"asm", "operands", "arguments", "accepted_assembly_mnemonics",
                              "canonical_assembly_by_engine", "mnemonic", "name"})
ENCODING_CONTRACT_KEYS = frozenset({"encoding_class", "standalone_opcode", "field_contracts", "field_zero_meanings"})
SYNTAX_CONTRACT_KEYS = frozenset({"canonical_assembly", "block_composition", "operands", "examples"})
ENCODING_TOP = frozenset({"catalog_indices"})
SYNTAX_TOP = frozenset({"assembly", "block", "mnemonic"})

TYPE_NAME = re.compile(r"\b(?:[SU](?:4|8|16|32|64)|FP(?:4|8|16|32|64)|BF16|TF32|HF(?:8|16|32)|B(?:8|16|32|64)|"
                       r"E\d+M\d+(?:X\d+)?|MX\w+)\b")
_CODE_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/', re.S)
_SPACE = re.compile(r"[ \t\f\v]+")


def aspect_of(top: str, key: str | None) -> str:
    """The aspect of the record field ``/top/key`` (``key``: the field of a contract or of an encoded form)."""
    if top == "catalog_records":
        if key in ENCODING_FORM_KEYS or key is None:
            return "encoding"
        return "syntax" if key in SYNTAX_FORM_KEYS else "record"
    if top == "contract":
        if key in ENCODING_CONTRACT_KEYS:
            return "encoding"
        return "syntax" if key in SYNTAX_CONTRACT_KEYS else "contract"
    if top in ENCODING_TOP:
        return "encoding"
    return "syntax" if top in SYNTAX_TOP else "record"


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def record_fields(record: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
    """JSON pointer -> (aspect, value) of every field compared: top-level fields whole, except the contract
    (each of its fields) and the encoded forms (each field of each form, by position)."""
    out: dict[str, tuple[str, Any]] = {}
    for top, value in record.items():
        if top == "contract" and isinstance(value, Mapping):
            for key, sub in value.items():
                out[f"/contract/{_escape(key)}"] = (aspect_of(top, key), sub)
        elif top == "catalog_records" and isinstance(value, tuple | list):
            for index, form in enumerate(value):
                if isinstance(form, Mapping):
                    for key, sub in form.items():
                        out[f"/catalog_records/{index}/{_escape(key)}"] = (aspect_of(top, key), sub)
                else:
                    out[f"/catalog_records/{index}"] = (aspect_of(top, None), form)
        else:
            out[f"/{_escape(top)}"] = (aspect_of(top, None), value)
    return out


def field_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> Iterator[tuple[str, str, Any, Any]]:
    """(aspect, pointer, old value, new value) of every record field that differs (None: absent)."""
    before, after = record_fields(old), record_fields(new)
    for pointer in sorted(before.keys() | after.keys()):
        a, b = before.get(pointer), after.get(pointer)
        if a is None or b is None or thaw(a[1]) != thaw(b[1]):
            aspect = (a or b)[0]
            yield aspect, pointer, thaw(a[1]) if a else None, thaw(b[1]) if b else None


def data_types(record: Mapping[str, Any]) -> list[str]:
    """The data-type names the contract's legality lines that speak of a type name."""
    contract = record.get("contract")
    lines = contract.get("legality", ()) if isinstance(contract, Mapping) else ()
    found = set()
    for line in lines:
        if isinstance(line, str) and "type" in line.lower():
            found.update(TYPE_NAME.findall(line))
    return sorted(found)


def normalised_asl(text: str) -> str:
    """ASL without comments (string literals kept), each line's whitespace collapsed, blank lines dropped."""
    code = _CODE_OR_COMMENT.sub(lambda m: m.group(0) if m.group(0).startswith('"') else " ", text)
    lines = (_SPACE.sub(" ", line).strip() for line in code.split("\n"))
    return "\n".join(line for line in lines if line)
