"""What users get, as sha256 manifests: the outputs the house move (issue 31) kept byte-identical.

``python3 -m tests.goldens.outputs OUT_DIR`` builds them with the code checked out and writes one manifest per
output: the catalog site (``pto-docs build`` and ``mkdocs build``), the catalog's traceability report (JSON and
both Markdown pages) and, with PTO_SPEC_CHECKOUT, the real tree's site on both build paths and its reports.
``tests/goldens/test_goldens.py`` builds the same outputs and compares them with ``current/``; ``pre-move/`` was
made by this module on the code before the move (commit c7b9d10), and every difference since is a reviewed change
(``reviewed-changes.txt``). Manifests hold hashes only, no content of the tree.

A manifest is ``<sha256>  <path>`` lines, sorted by path. Gzip members are left out (they carry a timestamp);
everything else of a site is listed."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def manifest(root: Path) -> str:
    lines = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.name.endswith(".gz")):
        lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.relative_to(root).as_posix()}")
    return "\n".join(lines) + "\n"


def file_manifest(files: dict[str, Path]) -> str:
    return "".join(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {name}\n" for name, p in sorted(files.items()))


def _run(args: list[str], cwd: Path, ok=(0,)) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([sys.executable, "-m", *args], cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=3600)
    if result.returncode not in ok:
        raise RuntimeError(f"{args}: exit {result.returncode}\n{result.stderr[-4000:]}")


def catalog_site_cli(work: Path) -> Path:
    site = work / "catalog-cli"
    _run(["pto_docs.cli", "build", "catalog", "--site-dir", str(site), "-q", "--no-cache"], REPO)
    return site


def catalog_site_mkdocs(work: Path) -> Path:
    site = work / "catalog-mkdocs"
    _run(["mkdocs", "build", "--strict", "-q", "--site-dir", str(site)], REPO)
    return site


def reports(tree: Path, work: Path, name: str) -> dict[str, Path]:
    out = {"report.json": work / f"{name}-report.json", "report.en.md": work / f"{name}-report.en.md",
           "report.zh-CN.md": work / f"{name}-report.zh-CN.md"}
    _run(["pto_docs.cli", "trace", str(tree), "--json", str(out["report.json"]), "--markdown",
          str(out["report.en.md"])], REPO, ok=(0, 1))
    _run(["pto_docs.cli", "trace", str(tree), "--markdown", str(out["report.zh-CN.md"]), "--locale", "zh-CN"],
         REPO, ok=(0, 1))
    return out


def real_copy(real: Path, work: Path) -> Path:
    root = work / "pto-spec"
    shutil.copytree(real, root, symlinks=True, ignore=shutil.ignore_patterns(".git", "site"))
    return root


def real_site_mkdocs(root: Path) -> Path:
    """The maintainer's path: `pto-docs init` then `mkdocs build` in the tree (no avs_results)."""
    _run(["pto_docs.cli", "init", "."], root)
    _run(["mkdocs", "build", "-q"], root)
    return root / "site"


def real_site_cli(root: Path, work: Path) -> Path:
    site = work / "real-cli"
    _run(["pto_docs.cli", "build", str(root), "--site-dir", str(site), "-q", "--no-cache"], work)
    return site


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        (out / "catalog-site-cli.sha256").write_text(manifest(catalog_site_cli(work)), "utf-8")
        (out / "catalog-site-mkdocs.sha256").write_text(manifest(catalog_site_mkdocs(work)), "utf-8")
        (out / "catalog-reports.sha256").write_text(file_manifest(reports(REPO / "catalog", work, "catalog")),
                                                    "utf-8")
        real = os.environ.get("PTO_SPEC_CHECKOUT")
        if real:
            root = real_copy(Path(real), work)
            (out / "real-reports.sha256").write_text(file_manifest(reports(root, work, "real")), "utf-8")
            (out / "real-site-cli.sha256").write_text(manifest(real_site_cli(root, work)), "utf-8")
            (out / "real-site-mkdocs.sha256").write_text(manifest(real_site_mkdocs(root)), "utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
