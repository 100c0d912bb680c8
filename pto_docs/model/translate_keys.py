"""Which strings of a record are translatable prose, and JSON-pointer lookup into frozen records."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

ADR_BODY_POINTER = "/body"  # pseudo-pointer: the ADR's Markdown body after its front matter

CONTRACT_PROSE = ("defaults", "legality", "exceptions", "state_effects", "memory_effects", "ordering")


def resolve_pointer(doc: Any, pointer: str) -> Any:
    if pointer == "":
        return doc
    node = doc
    for token in pointer.lstrip("/").split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping):
            if token not in node:
                return None
            node = node[token]
        elif isinstance(node, tuple | list):
            if not token.isdigit() or int(token) >= len(node):
                return None
            node = node[int(token)]
        else:
            return None
    return node


def translatable_pointers(record: Mapping[str, Any], is_instruction: bool) -> Iterator[str]:
    """Pointers of the prose a reader sees on an instruction page (code and ids are never translated)."""
    if not is_instruction:
        return
    if isinstance(record.get("summary"), str):
        yield "/summary"
    contract = record.get("contract", {})
    for key in CONTRACT_PROSE:
        for index, text in enumerate(contract.get(key, ())):
            if isinstance(text, str) and text.strip() and text != "none":
                yield f"/contract/{key}/{index}"
    for index, operand in enumerate(contract.get("operands", ())):
        if isinstance(operand, Mapping) and isinstance(operand.get("role"), str):
            yield f"/contract/operands/{index}/role"
    for field, text in contract.get("field_zero_meanings", {}).items():
        if isinstance(text, str):
            yield "/contract/field_zero_meanings/" + field.replace("~", "~0").replace("/", "~1")


def subject_record(catalog, subject: str) -> Mapping[str, Any] | None:
    """The record a translation's pointers resolve in: a unit's record, or an ADR's front matter plus /body."""
    if subject in catalog.units:
        return catalog.units[subject].record
    if subject in catalog.adrs:
        adr = catalog.adrs[subject]
        return {**adr.front, ADR_BODY_POINTER[1:]: adr.body}
    return None
