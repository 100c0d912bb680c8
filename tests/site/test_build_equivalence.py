"""`pto-docs build` produces the same site as `mkdocs build --strict` (issue 3)."""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def tree_files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_pto_docs_build_equals_mkdocs_build(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    via_mkdocs, via_cli = tmp_path / "mkdocs-site", tmp_path / "cli-site"
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "--site-dir", str(via_mkdocs)],
                   cwd=REPO, env=env, check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "pto_docs.cli", "build", "catalog", "--site-dir", str(via_cli), "-q",
                    "--no-cache"], cwd=REPO, env=env, check=True, capture_output=True)
    files = tree_files(via_mkdocs)
    assert files == tree_files(via_cli)
    assert "instructions/tile/elementwise-tile-tile/arithmetic/TMUL/index.html" in files
    assert "zh-CN/instructions/tile/elementwise-tile-tile/arithmetic/TMUL/index.html" in files
    # gzip members carry a timestamp; everything else must be byte-identical
    different = [f for f in sorted(files) if not f.endswith(".gz")
                 and not filecmp.cmp(via_mkdocs / f, via_cli / f, shallow=False)]
    assert different == []
