"""Every build path gives the same bytes: an incremental build (most pages from the page cache) and a
`mkdocs serve --dirty` rebuild give the search index, and the incremental build the whole site, of a clean
build of the same tree."""

from __future__ import annotations

import io
import json
from pathlib import Path

from tests.mkdocs_config import config_copy

from .test_serve_incremental import _rebuild, _serve_config
from .test_site_cache import TMUL, build, rebuilt

SEARCH = "search/search_index.json"


def _edit(tree: Path) -> None:
    unit = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    unit.write_text(unit.read_text("utf-8") + "// an added comment line\n", "utf-8")


def _clean(tmp_path: Path, tree: Path) -> Path:
    from pto_docs.cli import build as build_cmd
    site = tmp_path / "clean-site"
    args = type("Args", (), {"spec_root": str(tree), "site_dir": str(site), "config_file": str(config_copy(tmp_path, name="clean.yml")),
                             "no_strict": False, "cache_dir": None, "no_cache": True, "quiet": True})()
    err = io.StringIO()
    assert build_cmd.run(args, io.StringIO(), err) == 0, err.getvalue()
    return site


def _files(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def test_an_incremental_build_gives_the_clean_builds_bytes(tmp_path, tree):
    build(tmp_path, tree)
    _edit(tree)
    report = build(tmp_path, tree)
    assert rebuilt(report)["en"] == {TMUL, "reports/traceability.md"} and report["en"]["reused"]
    clean = _clean(tmp_path, tree)
    assert _files(tmp_path / "site") == _files(clean)


def test_a_serve_dirty_rebuild_gives_the_clean_builds_search_index(tmp_path, tree):
    config_file = _serve_config(tmp_path, tree)
    site = tmp_path / "serve-site"
    _rebuild(config_file, site)
    _edit(tree)
    assert _rebuild(config_file, site)["en"] == {TMUL, "reports/traceability.md"}
    clean = _clean(tmp_path, tree)
    for lang in ("", "zh-CN/"):
        assert json.loads((site / lang / SEARCH).read_bytes()) == json.loads((clean / lang / SEARCH).read_bytes())
        assert (site / lang / SEARCH).read_bytes() == (clean / lang / SEARCH).read_bytes()
