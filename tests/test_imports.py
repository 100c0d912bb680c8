"""Every module of pto_docs imports on its own in a fresh interpreter, and no two modules import each other at
import time (a cycle), nor, inside the site package and api.py, anywhere (lazy imports included)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "pto_docs"


def _module(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {_module(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, path: Path, lazy: bool) -> set[str]:
    """The pto_docs modules ``name`` imports (at import time only, unless ``lazy``)."""
    tree = ast.parse(path.read_text("utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    nodes = ast.walk(tree) if lazy else [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    known = modules()
    out = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.add(full if full in known else base)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {m for m in out if m in known and m != name}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found, state, stack = [], {}, []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2
    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_no_import_time_cycles():
    graph = {name: _imports(name, path, lazy=False) for name, path in modules().items()}
    # a package's __init__ importing its own submodules is not a cycle of ours to break
    graph = {n: {m for m in deps if not n.startswith(m + ".")} for n, deps in graph.items()}
    assert _cycles(graph) == []


def test_site_package_and_api_have_no_cycles_even_through_lazy_imports():
    mine = {n: p for n, p in modules().items() if n.startswith("pto_docs.site") or n == "pto_docs.api"}
    graph = {name: {m for m in _imports(name, path, lazy=True) if m in mine and not name.startswith(m + ".")}
             for name, path in mine.items()}
    assert _cycles(graph) == []


def test_the_cycle_check_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"]]


def test_every_module_imports_in_a_fresh_interpreter():
    names = sorted(n for n in modules() if not n.endswith("__main__"))
    script = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    result = subprocess.run([sys.executable, "-c", script, *names], cwd=REPO, capture_output=True, text=True,
                            env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
