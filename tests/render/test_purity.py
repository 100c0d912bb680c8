"""render/ is pure (an analysed tree in, page parts out) and analysis/ knows nothing of pages (issue 31): counted
with every import, those inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "pto_docs"


def _imports(text: str, module: str) -> set[str]:
    """Every module the source ``text`` of ``module`` imports, absolute (``pto_docs.x.y``, ``multiprocessing``)."""
    package = module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            out.update(f"{base}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def _offending(folder: str, refused: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted((PACKAGE / folder).rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        found += [f"{module} imports {name}" for name in sorted(_imports(path.read_text("utf-8"), module))
                  if name == "multiprocessing" or name.startswith(refused)]
    return found


RENDER_REFUSED = ("pto_docs.analysis.load", "pto_docs.analysis.state", "pto_docs.checks", "pto_docs.runtime",
                  "pto_docs.trace", "pto_docs.site", "pto_docs.api", "pto_docs.cli", "concurrent.futures")


def test_render_neither_loads_nor_checks_nor_forks_nor_builds_the_report():
    assert _offending("render", RENDER_REFUSED) == []


def test_analysis_never_imports_render_or_its_callers():
    assert _offending("analysis", ("pto_docs.render", "pto_docs.site", "pto_docs.api", "pto_docs.cli")) == []


def test_an_import_inside_a_function_counts():
    text = "def f():\n    from ..trace import build_report\n    import multiprocessing\n"
    found = _imports(text, "pto_docs.render.m")
    assert {"pto_docs.trace.build_report", "multiprocessing"} <= found
    assert any(n.startswith(RENDER_REFUSED) for n in found)
