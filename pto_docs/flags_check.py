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

from .diagnostics import Diagnostic, warning
from .model import Catalog

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


def flags_prose_diagnostics(catalog: Catalog) -> list[Diagnostic]:
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
    diags = []
    for name, path, line, body in functions:
        if not name.startswith("Execute") or RECORD_FUNCTION + "(" in body:
            continue
        head, _, rest = body.partition("\n")
        match = calls.search(rest)
        if not match:
            continue
        d_path, d_line, with_flags = discarders[match.group(1)]
        diags.append(warning(path, line, 1, "FLAGS-PROSE",
                             f"{name} publishes no numeric status flags: it calls {match.group(1)} "
                             f"({d_path}:{d_line}), which discards the flags of {with_flags}, and never calls "
                             f"{RECORD_FUNCTION}; {clause.id} ({clause.path}:{clause.line}) says a successful "
                             "numeric operation ORs its produced flags into the sticky status"))
    return diags
