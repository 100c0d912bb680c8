"""FLAGS-PROSE: an ASL execution function that drops numeric status flags the NDF text says are recorded.

Data-driven from the tree: the NDF clause is found by its id (``PTO-NUMERIC-STATUS-STICKY-001``), the
recording function by name (``RecordNumericStatusFlags``). A *discarding* function binds the flag part of
a ``...WithFlags(...)`` call to ``-`` (``let (result, -) = TileProfileBinaryWithFlags(...)``); an
``Execute*`` function that calls a discarding function and never calls the recording function publishes
no flags, which contradicts the clause. The interpreter and the executor follow the ASL; the finding
names both places.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.catalog import Catalog
from ..model.diagnostics import Diagnostic, warning

STICKY_CLAUSE = "PTO-NUMERIC-STATUS-STICKY-001"
RECORD_FUNCTION = "RecordNumericStatusFlags"
FUNCTION = re.compile(r"^(?:(?:pure|readonly|impdef|implementation) )*func (\w+)\(.*?^end;",
                      re.MULTILINE | re.DOTALL)
DISCARD = re.compile(r"let\s*\(\s*\w+\s*,\s*-\s*\)\s*=\s*(\w+WithFlags)\s*\(")


def _functions(catalog: Catalog):
    """(name, path, line, body) of every ASL function of every unit."""
    for unit in sorted(catalog.units.values(), key=lambda u: u.path):
        text = unit.file.text
        for match in FUNCTION.finditer(text):
            yield match.group(1), unit.path, text.count("\n", 0, match.start()) + 1, match.group(0)


@dataclass(frozen=True)
class FlagsFinding:
    function: str  # the Execute* function that publishes no flags
    path: str
    line: int
    discarder: str  # the function it calls that drops the flags
    discarder_path: str
    discarder_line: int
    with_flags: str  # the ...WithFlags function whose flags are dropped
    clause: str  # the NDF clause that says the flags are recorded
    clause_path: str
    clause_line: int

    @property
    def message(self) -> str:
        return (f"{self.function} publishes no numeric status flags: it calls {self.discarder} "
                f"({self.discarder_path}:{self.discarder_line}), which discards the flags of {self.with_flags}, and "
                f"never calls {RECORD_FUNCTION}; {self.clause} ({self.clause_path}:{self.clause_line}) says a "
                "successful numeric operation ORs its produced flags into the sticky status")


def flags_findings(catalog: Catalog) -> list[FlagsFinding]:
    clause = next((c for c in catalog.ndf_clauses if c.id == STICKY_CLAUSE), None)
    if clause is None:
        return []
    functions = list(_functions(catalog))
    discarders = {}
    for name, path, line, body in functions:
        match = DISCARD.search(body)
        if match:
            discarders[name] = (path, line, match.group(1))
    if not discarders:
        return []
    calls = re.compile(r"\b(" + "|".join(map(re.escape, sorted(discarders))) + r")\s*\(")
    out = []
    for name, path, line, body in functions:
        if not name.startswith("Execute") or RECORD_FUNCTION + "(" in body:
            continue
        head, _, rest = body.partition("\n")
        match = calls.search(rest)
        if not match:
            continue
        d_path, d_line, with_flags = discarders[match.group(1)]
        out.append(FlagsFinding(name, path, line, match.group(1), d_path, d_line, with_flags, clause.id, clause.path,
                                clause.line))
    return out


def flags_prose_diagnostics(catalog: Catalog, findings=None) -> list[Diagnostic]:
    """``findings``: flags_findings(catalog), when the caller has them already."""
    found = findings if findings is not None else flags_findings(catalog)
    return [warning(f.path, f.line, 1, "FLAGS-PROSE", f.message) for f in found]


def executes_through(unit_text: str, stem: str, function: str) -> bool:
    """Whether the instruction's ``InstructionContractExecute_<stem>`` calls ``function`` directly."""
    for match in FUNCTION.finditer(unit_text):
        if match.group(1) == f"InstructionContractExecute_{stem}":
            head, _, rest = match.group(0).partition("\n")
            return re.search(r"\b" + re.escape(function) + r"\s*\(", rest) is not None
    return False
