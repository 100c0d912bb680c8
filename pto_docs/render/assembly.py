"""Assembly views of an instruction: the high-level assembly form and the complete bundle (data, no HTML).

Derived from the unit record only (``block``, ``contract.block_composition``, ``contract.operands``), following the
upstream portal's rules, with two of its defects fixed: a line is Repeatable only when it really repeats, and the
bundle's first line is not printed a second time as a separate "rule" line.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from ..model.catalog import Unit
from .env import Prose

LB_NAME = re.compile(r"\bLB(\d+)\s*[=/:]\s*([A-Za-z_][A-Za-z0-9_]*)")
# (pattern in a bundle line, operand name, role label key), first match wins per row
PARAMETERS = (
    (r"\bAType\b", "DataTypeA", "hla_role.data_type"),
    (r"\bBType\b", "DataTypeB", "hla_role.data_type"),
    (r"\bDataType\b", "DataType", "hla_role.data_type"),
    (r"\bLayout\b", "Layout", "hla_role.layout"),
    (r"\bPadValue\b", "PadValue", "hla_role.padding_value"),
    (r"\bByteId\b", "ByteId", "hla_role.byte_id"),
    (r"\bDstDataType\b", "DstDataType", "hla_role.data_type"),
)
NAMED_INPUTS = ("address", "comparison", "diagonal", "numeric_control", "selected_byte", "sort_width")
OPTIONAL = re.compile(r"optional|omitted", re.I)
CONDITIONAL = re.compile(r"only when|requires|if selected|depending on", re.I)
REPEATS = re.compile(r"\brepeat(?:s|ed|able)?\b|\bone or more\b|\bzero or more\b", re.I)
DESTINATION = re.compile(r"^(?:destination\d*|RegDst\d*|Dst[A-Za-z]*\d*)$")


@dataclass(frozen=True)
class OperandRow:
    group: str  # "parameter" | "input" | "output"
    operand: str
    role: Prose | None  # record prose (translatable)
    role_key: str | None  # or a UI label key
    source: str


@dataclass(frozen=True)
class BundleLine:
    text: str
    required: bool
    optional: bool
    conditional: bool
    repeatable: bool


@dataclass(frozen=True)
class AssemblyView:
    forms: tuple[str, ...]
    rows: tuple[OperandRow, ...]
    lines: tuple[BundleLine, ...]
    minimum: tuple[str, ...]
    rules: tuple[str, ...]  # block_composition entries that are not bundle lines
    examples: tuple[str, ...]


def _strings(value) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, tuple | list) else []


def bundle_lines(unit: Unit) -> list[str]:
    return [line for line in _strings(unit.record.get("block")) if not line.lstrip().startswith("#")]


def _operand_name(field: str, destinations: int) -> tuple[str, str]:
    m = re.fullmatch(r"(source|destination|scalar|natural|positive|flag)(\d+)", field)
    if m:
        kind, n = m.groups()
        if kind == "source":
            return "input", f"SrcTile{n}"
        if kind == "destination":
            return "output", "DstTile" if destinations == 1 else f"DstTile{n}"
        return "input", kind.capitalize() + n
    if field in NAMED_INPUTS:
        return "input", "".join(p.capitalize() for p in field.split("_"))
    return ("output" if DESTINATION.match(field) else "input"), field


def _operand_rows(unit: Unit) -> list[OperandRow]:
    operands = [o for o in unit.contract.get("operands", ()) if isinstance(o, Mapping)]
    destinations = sum(1 for o in operands if str(o.get("field", "")).startswith("destination"))
    rows: list[OperandRow] = []
    for index, operand in enumerate(operands):
        field = str(operand.get("field", ""))
        group, name = _operand_name(field, destinations)
        role = operand.get("role")
        prose = Prose(unit.id, f"/contract/operands/{index}/role", role) if isinstance(role, str) else None
        rows.append(OperandRow(group, name, prose, None, f"contract.operands[{index}].{field}"))
    return rows


def _parameter_rows(lines: list[str]) -> list[OperandRow]:
    slots: dict[int, tuple[str, str]] = {}
    for line in lines:
        if line.startswith("B.DIM"):
            for number, name in LB_NAME.findall(line):
                slots.setdefault(int(number), (name, line))
    rows = [OperandRow("parameter", f"LB{n}:{name}", None, "hla_role.dimension", line)
            for n, (name, line) in sorted(slots.items())]
    for pattern, name, role_key in PARAMETERS:
        for line in lines:
            if re.search(pattern, line):
                rows.append(OperandRow("parameter", name, None, role_key, line))
                break
    return rows


def _tags(lines: list[str]) -> list[BundleLine]:
    def key(line: str) -> str:
        return OPTIONAL.sub("", line).replace("()", "").strip()
    counts = Counter(key(line) for line in lines)
    out = []
    for line in lines:
        optional = bool(OPTIONAL.search(line))
        conditional = not optional and bool(CONDITIONAL.search(line))
        out.append(BundleLine(line, not optional and not conditional, optional, conditional,
                              counts[key(line)] > 1 or bool(REPEATS.search(line))))
    return out


def assembly_view(unit: Unit) -> AssemblyView:
    lines = bundle_lines(unit)
    composition = [c for c in _strings(unit.contract.get("block_composition")) if c.strip().lower() != "none"]
    examples = tuple(_strings(unit.contract.get("examples")))
    operand_rows = _operand_rows(unit)
    if lines:
        params = _parameter_rows(list(dict.fromkeys(composition + lines)))
        inputs = [r.operand for r in operand_rows if r.group == "input"]
        outputs = [r.operand for r in operand_rows if r.group == "output"]
        form = unit.mnemonic or unit.id
        if params:
            form += " <" + ", ".join(r.operand for r in params) + ">"
        if inputs:
            form += " " + ", ".join(inputs)
        if outputs:
            form += " -> " + ", ".join(outputs)
        forms: tuple[str, ...] = (form,)
        order = {"parameter": 0, "input": 1, "output": 2}
        rows = tuple(params + sorted(operand_rows, key=lambda r: order[r.group]))
    else:
        forms = tuple(_strings(unit.record.get("assembly")))
        rows = tuple(sorted(operand_rows, key=lambda r: r.group != "input"))
    tagged = tuple(_tags(lines))
    minimum = tuple(t.text for t in tagged if t.required)
    rules = tuple(c for c in composition if c not in lines)
    return AssemblyView(forms, rows, tagged, minimum, rules, examples)
