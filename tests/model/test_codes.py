"""Every diagnostic code the loader and validator emit is registered in pto_docs.model.codes, which the manual's codes page
is written from (tests/manual/test_manual.py checks the built page against it); pto-docs exec's own codes are
listed on that page by hand."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from pto_docs.model.codes import CODES

REPO = Path(__file__).resolve().parents[2]
EMITTERS = {"error", "warning"}


def emitted_codes() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in (REPO / "pto_docs").rglob("*.py"):
        if {"executor", "trace"} & set(path.relative_to(REPO / "pto_docs").parts):
            continue  # their own code namespaces (EXEC-*, trace finding codes)
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in EMITTERS:
                # error(path, line, col, CODE, ...) — a starred (line, col) pair counts as two arguments
                position = 0
                for arg in node.args:
                    if position == 3:
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                            found[arg.value] = f"{path.relative_to(REPO)}:{node.lineno}"
                        break
                    position += 2 if isinstance(arg, ast.Starred) else 1
    return found


def printed_codes() -> set[str]:
    """Codes the commands print themselves (``...: error[CODE]: ...`` in an f-string), or print as the one-line
    message of an exception a library module raises (history/, sources/gitrev.py: a release that cannot be read)."""
    found = set()
    package = REPO / "pto_docs"
    for path in [*(package / "cli").rglob("*.py"), *(package / "history").rglob("*.py"), package / "sources/gitrev.py"]:
        found |= set(re.findall(r"(?:error|warning|fail)\[([A-Z][A-Z0-9-]*)\]", path.read_text("utf-8")))
    return found - {"CODE"}


def test_every_printed_code_is_documented():
    printed = printed_codes()
    assert {"USAGE", "EVIDENCE-OWNER", "AVS-DECODERS"} <= printed
    # pto-docs exec's own namespace (v2 cases are run by cli/exec_v2.py): listed on the manual's codes page
    exec_codes = {code for code in printed if code.startswith("EXEC-")}
    page = (REPO / "manual" / "docs" / "diagnostics.md").read_text("utf-8")
    assert exec_codes and {code for code in exec_codes if f"`{code}`" not in page} == set()
    assert printed - exec_codes - set(CODES) == set()


def test_every_emitted_code_is_documented():
    emitted = emitted_codes()
    assert len(emitted) > 40
    missing = {code: where for code, where in emitted.items() if code not in CODES}
    assert missing == {}


def test_no_documented_code_is_dead():
    from pto_docs.schemas.registry import _CODES as SCHEMA_CODES
    # IO-ROOT, IO-WRITE and OUTPUT-REFUSED are printed by the CLI (the last two through pto_docs.store.output_guard);
    # the SCHEMA-* codes come from the jsonschema keyword mapping
    emitted = (set(emitted_codes()) | {"IO-ROOT", "IO-WRITE", "OUTPUT-REFUSED", "SCHEMA"} | set(SCHEMA_CODES.values())
               | printed_codes())
    assert set(CODES) - emitted == set()
