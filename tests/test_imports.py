"""The house (issue 31): every module imports in a fresh interpreter; imports, including those inside functions,
run only down the layer order of ``LAYERS``; no two modules import each other, directly or through others, even
lazily; at most four modules sit directly under ``pto_docs/``; the plugin module stays small."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "pto_docs"

# Top to bottom: a module may import its own package and any package below it, never one above it. ``api`` is
# the one module both shells (cli/, site/) call; asl/ and executor/ are libraries of their own at the bottom.
LAYERS = ("cli", "site", "api", "render", "history", "analysis", "checks", "bridge", "isa", "trace", "evidence", "i18n",
          "sources", "store", "runtime", "executor", "model", "schemas", "asl")


def _module(path: Path, repo: Path = REPO) -> str:
    parts = list(path.relative_to(repo).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    return {_module(p, package.parent): p for p in sorted(package.rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every pto_docs module that ``name`` imports anywhere in its text: at import time and inside functions."""
    tree = ast.parse(path.read_text("utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
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


def graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    found = modules(package)
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def layer(name: str) -> str | None:
    """The layer of a module: the package (or module) right under pto_docs; None for pto_docs itself."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else None


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import that runs up the layer order, or names a layer the order does not know."""
    wrong = []
    for name, deps in sorted(edges.items()):
        for dep in sorted(deps):
            mine, theirs = layer(name), layer(dep)
            if mine is None or theirs is None or mine == theirs:
                continue  # pto_docs/__init__ (the version) is below everything
            if mine not in LAYERS or theirs not in LAYERS:
                wrong.append(f"{name} -> {dep} (a layer LAYERS does not list)")
            elif LAYERS.index(theirs) < LAYERS.index(mine):
                wrong.append(f"{name} -> {dep}")
    return wrong


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of modules (Tarjan), as sorted lists: a group is an import circle. A package's
    __init__ importing its own submodules (to re-export them) is not an edge of a circle."""
    edges = {n: {m for m in deps if not m.startswith(n + ".")} for n, deps in edges.items()}
    index, low, on_stack, stack, groups = {}, {}, set(), [], []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_no_import_runs_up_the_layers_even_inside_a_function():
    assert upward(graph()) == []


def test_no_import_circle_even_through_imports_inside_functions():
    assert cycles(graph()) == []


def test_every_package_of_pto_docs_has_a_place_in_the_layers():
    tops = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    tops |= {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert tops <= set(LAYERS) | {"__main__"}


def test_at_most_four_modules_sit_directly_under_pto_docs():
    assert len(list(PACKAGE.glob("*.py"))) <= 4


def test_the_plugin_module_is_small():
    assert len((PACKAGE / "site" / "plugin.py").read_text("utf-8").splitlines()) <= 250


def test_the_checks_find_a_lazy_circle_and_an_upward_import(tmp_path):
    package = tmp_path / "pto_docs"
    for folder, text in {"model": "", "render": "", "isa": ""}.items():
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text(text)
    (package / "__init__.py").write_text("")
    # model imports render inside a function (up the layers); render imports model at the top: also a circle
    (package / "model" / "catalog.py").write_text("def f():\n    from ..render import pages\n    return pages\n")
    (package / "render" / "pages.py").write_text("from ..model import catalog\n")
    (package / "isa" / "a.py").write_text("import pto_docs.isa.b\n")
    (package / "isa" / "b.py").write_text("def g():\n    from . import a\n")
    edges = graph(package)
    assert upward(edges) == ["pto_docs.model.catalog -> pto_docs.render.pages"]
    assert cycles(edges) == [["pto_docs.isa.a", "pto_docs.isa.b"],
                             ["pto_docs.model.catalog", "pto_docs.render.pages"]]


def test_every_module_imports_in_a_fresh_interpreter():
    names = sorted(n for n in modules() if not n.endswith("__main__"))
    script = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    result = subprocess.run([sys.executable, "-c", script, *names], cwd=REPO, capture_output=True, text=True,
                            env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
