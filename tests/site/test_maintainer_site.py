"""The maintainer's build (`pto-docs init` + `mkdocs build`) is offline and complete: where the minimal
mkdocs.yml is silent the plugin turns Google Fonts off and gives heading permalinks and Material's reader
features; a user's own font, features and permalink setting stay. With ``site_url`` each language's sitemap lists
every page of that language at its own address; without it one line says how to get one (a warning, an info line
under --strict)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pto_docs.cli.init import MINIMAL
from pto_docs.site.config import MATERIAL_DEFAULT_FONT, READER_FEATURES

REPO = Path(__file__).resolve().parents[2]
TMUL = "instructions/tile/elementwise-tile-tile/arithmetic/TMUL/index.html"
SITEMAP_HINT = "pto-docs: no site_url in the configuration"


def build(tmp_path: Path, config: str = MINIMAL, *args: str) -> tuple[Path, str]:
    """A copy of the catalog with ``config`` as its mkdocs.yml, built by `mkdocs build ARGS`: (site, stderr)."""
    root = tmp_path / "spec"
    shutil.copytree(REPO / "catalog", root)
    (root / "mkdocs.yml").write_text(config, "utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", *args], cwd=root, capture_output=True,
                            text=True, env=env, timeout=600)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return root / "site", result.stderr


def features(html: str) -> list[str]:
    config = re.search(r'<script id="__config" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(config.group(1))["features"]


@pytest.fixture(scope="module")
def minimal(tmp_path_factory) -> tuple[Path, str]:
    return build(tmp_path_factory.mktemp("minimal"))


def test_the_minimal_config_loads_nothing_from_outside_and_has_the_reader_features(minimal):
    site, _ = minimal
    pages = list(site.rglob("*.html"))
    assert len(pages) > 70
    for page in pages:
        html = page.read_text("utf-8")
        assert "fonts.googleapis.com" not in html and "fonts.gstatic.com" not in html, page
    for lang in ("", "zh-CN/"):
        html = (site / lang / TMUL).read_text("utf-8")
        assert 'class="headerlink"' in html  # toc permalinks
        assert set(READER_FEATURES) <= set(features(html))
        assert {"navigation.prune", "navigation.indexes"} <= set(features(html))


def test_a_users_own_font_features_and_permalinks_stay(tmp_path):
    config = MINIMAL.replace("  name: material\n", "  name: material\n  font: {text: Inter}\n"
                             "  features: [navigation.tabs]\n")
    config += "markdown_extensions:\n  - toc:\n      permalink: false\n"
    site, _ = build(tmp_path, config)
    html = (site / TMUL).read_text("utf-8")
    assert "fonts.googleapis.com/css?family=Inter" in html
    assert 'class="headerlink"' not in html
    # the features the pages need are added; the reader features are the user's choice, who named their own
    assert features(html) == ["navigation.tabs", "navigation.prune", "navigation.indexes"]


def test_the_font_taken_for_silence_is_materials_default():
    from mkdocs.theme import Theme
    assert Theme(name="material")["font"] == MATERIAL_DEFAULT_FONT


def _pages(site: Path) -> set[str]:
    """The address of every page of one language's site, relative to it (its 404 page and other languages left out)."""
    found = set()
    for page in site.rglob("index.html"):
        rel = page.parent.relative_to(site).as_posix()
        if rel.split("/")[0] != "zh-CN":
            found.add("" if rel == "." else rel + "/")
    return found


def test_with_site_url_each_sitemap_lists_every_page_of_its_language(tmp_path):
    url = "https://example.org/pto-isa/"
    site, err = build(tmp_path, MINIMAL.replace("site_name:", f"site_url: {url}\nsite_name:", 1))
    assert SITEMAP_HINT not in err
    for lang in ("", "zh-CN/"):
        listed = re.findall(r"<loc>(.*?)</loc>", (site / lang / "sitemap.xml").read_text("utf-8"))
        assert len(listed) == len(set(listed))
        assert {u[len(url + lang):] for u in listed if u.startswith(url + lang)} == _pages(site / lang)
        assert len(listed) == len(_pages(site / lang)) > 30
        home = (site / lang / "index.html").read_text("utf-8")
        assert f'<link rel="canonical" href="{url}{lang}">' in home


def test_without_site_url_one_line_says_how_to_get_a_sitemap(minimal, tmp_path):
    _, err = minimal
    lines = [line for line in err.splitlines() if SITEMAP_HINT in line]
    assert len(lines) == 1 and lines[0].startswith("WARNING") and "site_url:" in lines[0], err
    # a strict build does not fail on it: the site is whole without a sitemap (manual/docs/configuration.md)
    _, err = build(tmp_path, MINIMAL, "--strict")
    lines = [line for line in err.splitlines() if SITEMAP_HINT in line]
    assert len(lines) == 1 and lines[0].startswith("INFO"), err
