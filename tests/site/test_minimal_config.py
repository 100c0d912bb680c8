"""A maintainer's minimal mkdocs.yml at the root of a spec tree (what `pto-docs init` writes) builds both
languages with our stylesheet and theme overrides; the tree's own docs/ is left out (``docs: ignore``, the
default) or kept under docs/ (``docs: include``), never on a generated route."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pto_docs.cli.init import MINIMAL

REPO = Path(__file__).resolve().parents[2]
ADR = "docs/status/decisions/0062-mnemonic-review-decisions.md"


def _build(tmp_path: Path, extra: str = "") -> Path:
    root = tmp_path / "spec"
    shutil.copytree(REPO / "catalog", root)
    (root / "mkdocs.yml").write_text(MINIMAL.replace("      spec_root: .\n", "      spec_root: .\n" + extra), "utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=root, capture_output=True,
                            text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return root / "site"


@pytest.fixture(scope="module")
def ignored(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("ignore"))


def test_minimal_config_builds_both_languages_with_our_stylesheet_and_overrides(ignored):
    css = (REPO / "site_src/assets/pto-docs.css").read_bytes()
    for lang in ("", "zh-CN/"):
        home = (ignored / lang / "index.html").read_text("utf-8")
        assert 'href="' in home and "assets/pto-docs.css" in home
        assert (ignored / lang / "assets/pto-docs.css").read_bytes() == css
        # the exact-id search the page loads (templates/overrides/main.html) is in the site too
        assert "assets/pto-search.js" in home
        assert (ignored / lang / "assets/pto-search.js").read_bytes() == (REPO / "site_src/assets/pto-search.js").read_bytes()
    # our language switch override (templates/overrides/partials/alternate.html) links the other language
    assert 'hreflang="zh-CN"' in (ignored / "index.html").read_text("utf-8")
    assert any(ignored.rglob("*.html")) and "<svg" in "".join(p.read_text("utf-8") for p in ignored.rglob("instructions/**/index.html"))


def test_docs_dir_in_the_spec_root_is_ignored_by_default(ignored):
    assert not (ignored / "status").exists() and not (ignored / "docs").exists()
    assert (ignored / "adrs").is_dir()  # the ADRs are rendered by pto-docs itself


def test_docs_include_keeps_them_under_their_own_section(tmp_path):
    site = _build(tmp_path, "      docs: include\n")
    page = site / ADR[: -len(".md")] / "index.html"
    assert page.is_file() and (site / "zh-CN" / ADR[: -len(".md")] / "index.html").is_file()
    assert not (site / "status").exists()
    assert (site / "adrs").is_dir() and (site / "index.html").is_file()
