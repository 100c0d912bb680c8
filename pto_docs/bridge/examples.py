"""Worked examples: every case (executor defaults + catalog-authored) run through the reference executor.

This is the only module that joins the catalog and the executor; the executor knows nothing of pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model.catalog import Catalog
from ..model.frozen import canonical_json, freeze, thaw


@dataclass(frozen=True)
class WorkedExample:
    key: str  # "<MNEMONIC>/<name>", unique per tree
    instruction: str
    unit_id: str
    origin: str  # "default" | "catalog"
    source_path: str | None  # catalog file for authored cases
    case: Mapping[str, Any]
    caption: Mapping[str, str]  # locale -> caption
    result: Mapping[str, Any] | None
    digest: str | None
    problem: str | None  # why the case could not run (a malformed case), else None

    @property
    def case_json(self) -> str:
        """The case as a downloadable, self-contained JSON document."""
        return canonical_json(thaw(self.case))


def run_example_case(case: dict) -> tuple[dict | None, str | None]:
    from ..executor import CaseError, run_case
    try:
        result = run_case(case)
    except CaseError as exc:
        message = exc.message
        pointer = getattr(exc, "pointer", "") or "/"
        return None, message if "(at " in message else f"{message} (at {pointer})"
    return result, None


def worked_examples(catalog: Catalog) -> tuple[WorkedExample, ...]:
    """All worked examples of a tree, in a stable order (instruction, origin, name)."""
    from ..executor import default_cases, supported_instructions
    supported = supported_instructions()
    out: list[WorkedExample] = []
    for unit in sorted(catalog.instructions, key=lambda u: (u.mnemonic or "", u.id)):
        if unit.surface != "tile" or unit.mnemonic not in supported:
            continue
        for index, case in enumerate(default_cases(unit.mnemonic), start=1):
            case = dict(case)
            caption = dict(case.pop("caption", {}) or {})
            result, problem = run_example_case(case)
            out.append(WorkedExample(f"{unit.mnemonic}/default-{index}", unit.mnemonic, unit.id, "default", None,
                                     freeze(case), freeze(caption), freeze(result) if result else None,
                                     result.get("digest") if result else None, problem))
    for example in sorted(catalog.examples, key=lambda e: e.path):
        unit = catalog.find_instruction(example.instruction)
        case = thaw(example.case)
        caption = case.pop("caption", {}) or {}
        if unit is None:
            continue
        result, problem = run_example_case(thaw(example.case))
        out.append(WorkedExample(f"{example.instruction}/{example.name}", example.instruction, unit.id, "catalog",
                                 example.path, freeze(case), freeze(caption),
                                 freeze(result) if result else None, result.get("digest") if result else None, problem))
    return tuple(out)


def examples_by_unit(examples: tuple[WorkedExample, ...]) -> dict[str, tuple[WorkedExample, ...]]:
    grouped: dict[str, list[WorkedExample]] = {}
    for example in examples:
        grouped.setdefault(example.unit_id, []).append(example)
    return {k: tuple(v) for k, v in grouped.items()}
