"""Contract prose and bundle examples checked against the reference executor.

Every ``contract.examples`` bundle and the ``block`` composition of an instruction the executor models
is parsed and run through the model's legality; a data-type list in legality prose that disagrees with
the model's accepted set is reported. Warnings here; errors under --strict and in a strict build.
"""

from __future__ import annotations

import re

from .diagnostics import Diagnostic, warning
from .model import Catalog, Unit

DATATYPE_SENTENCE = re.compile(r"\bDataType is one of ([A-Z0-9, ]+?(?:,? or [A-Z0-9]+)?)\.")
TYPE_TOKEN = re.compile(r"\b[A-Z][A-Z0-9]*\b")


def prose_data_types(sentence: str) -> set[str] | None:
    match = DATATYPE_SENTENCE.search(sentence)
    if not match:
        return None
    return {t for t in TYPE_TOKEN.findall(match.group(1)) if t != "or"}


def consistency_diagnostics(catalog: Catalog) -> list[Diagnostic]:
    try:
        from .executor import accepted_data_types, check_bundle, supported_instructions
    except ImportError:
        return []
    supported = supported_instructions()
    diags: list[Diagnostic] = []
    for unit in catalog.instructions:
        if unit.surface == "tile" and unit.mnemonic in supported:
            diags.extend(_check_unit(unit, accepted_data_types(unit.mnemonic), check_bundle))
    return diags


def _check_unit(unit: Unit, accepted: tuple[str, ...], check_bundle) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    contract = unit.contract
    for index, example in enumerate(contract.get("examples", ())):
        for problem in check_bundle(example, data_type_symbolic_ok=True):
            diags.append(warning(unit.path, unit.line, 1, "EXAMPLE-ILLEGAL",
                                 f"{unit.mnemonic} contract example is illegal in the reference model: {problem}",
                                 f"/contract/examples/{index}"))
    block = [line for line in unit.record.get("block", ()) if isinstance(line, str)]
    if block:
        text = "; ".join(re.sub(r"\s*\(optional\)\s*$", "", line) for line in block)
        for problem in check_bundle(text, data_type_symbolic_ok=True):
            diags.append(warning(unit.path, unit.line, 1, "BLOCK-ILLEGAL",
                                 f"{unit.mnemonic} block composition is illegal in the reference model: {problem}", "/block"))
    for index, sentence in enumerate(contract.get("legality", ())):
        listed = prose_data_types(sentence) if isinstance(sentence, str) else None
        if listed is None:
            continue
        model = set(accepted)
        if listed != model:
            missing = sorted(model - listed)
            extra = sorted(listed - model)
            parts = []
            if missing:
                parts.append("the model also accepts " + ", ".join(missing))
            if extra:
                parts.append("the model rejects " + ", ".join(extra))
            diags.append(warning(unit.path, unit.line, 1, "DATATYPE-PROSE",
                                 f"{unit.mnemonic} legality lists {len(listed)} data types but the reference model accepts "
                                 f"{len(model)}: {'; '.join(parts)}", f"/contract/legality/{index}"))
    return diags
