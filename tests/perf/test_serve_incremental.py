"""`mkdocs serve --dirty`: a rebuild after editing one unit regenerates exactly the pages that depend on it.

The test drives MkDocs the way its serve command does (one process, a fresh config per rebuild,
``build(config, serve_url=..., dirty=True)`` into the same site directory) on a copy of catalog/; the plugin
records which pages each language rebuilt in last-build.json. No timings are asserted.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.mkdocs_config import config_copy

TMUL = "instructions/tile/elementwise-tile-tile/arithmetic/TMUL.md"


def _serve_config(tmp_path: Path, root: Path) -> Path:
    return config_copy(tmp_path, root, cache_dir=tmp_path / "cache")


def _rebuild(config_file: Path, site_dir: Path, dirty: bool = True) -> dict[str, set[str]]:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    config = load_config(config_file=str(config_file), site_dir=str(site_dir))  # as serve's get_config()
    config.plugins.on_startup(command="serve", dirty=dirty)
    config.site_url = "http://127.0.0.1:8000/"
    build(config, serve_url=config.site_url, dirty=dirty)
    report = json.loads((config_file.parent / "cache" / "last-build.json").read_text("utf-8"))
    return {r["locale"]: set(r["built"]) for r in report}


def test_serve_dirty_rebuild_after_a_unit_edit_regenerates_only_its_dependants(tmp_path, tree):
    config_file = _serve_config(tmp_path, tree)
    site = tmp_path / "serve-site"
    first = _rebuild(config_file, site)
    assert all(pages for pages in first.values())  # the first serve build renders every page
    unit = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    unit.write_text(unit.read_text("utf-8") + "// an edit while serving\n", "utf-8")
    second = _rebuild(config_file, site)
    for locale, pages in second.items():
        # the unit's own page and the traceability report (it shows every unit's hash); nothing else
        assert pages == {TMUL, "reports/traceability.md"}, (locale, pages)
    assert "an edit while serving" in (site / TMUL[:-3] / "index.html").read_text("utf-8")
    assert "an edit while serving" in (site / "zh-CN" / TMUL[:-3] / "index.html").read_text("utf-8")
    third = _rebuild(config_file, site)  # saved again, nothing changed: nothing is rendered
    assert third == {"en": set(), "zh-CN": set()}


def test_serve_without_dirty_rebuilds_every_page(tmp_path, tree):
    config_file = _serve_config(tmp_path, tree)
    site = tmp_path / "serve-site"
    _rebuild(config_file, site)
    (tmp_path / "cache" / "last-build.json").unlink()
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    config = load_config(config_file=str(config_file), site_dir=str(site))
    config.plugins.on_startup(command="serve", dirty=False)
    build(config, serve_url="http://127.0.0.1:8000/", dirty=False)
    assert not (tmp_path / "cache" / "last-build.json").exists()  # a clean build neither reads nor writes the cache
    assert (site / TMUL[:-3] / "index.html").is_file()


TSQRT = "instructions/tile/elementwise-tile-tile/transcendental/TSQRT.md"
ADR_SOURCE = "docs/status/decisions/0086-numeric-profile-applicability.md"


def _page(site: Path, src: str, locale: str = "") -> Path:
    return site / locale / src[:-3] / "index.html"


def test_serve_dirty_leaves_unchanged_page_files_alone(tmp_path, tree):
    config_file = _serve_config(tmp_path, tree)
    site = tmp_path / "serve-site"
    _rebuild(config_file, site)
    stamps = {loc: _page(site, TSQRT, loc).stat().st_mtime_ns for loc in ("", "zh-CN")}
    _page(site, TMUL, "zh-CN").unlink()  # a page file removed behind the server's back is written again
    unit = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    unit.write_text(unit.read_text("utf-8") + "// edit one\n", "utf-8")
    _rebuild(config_file, site)
    assert {loc: _page(site, TSQRT, loc).stat().st_mtime_ns for loc in ("", "zh-CN")} == stamps  # not rewritten
    assert "edit one" in _page(site, TMUL, "zh-CN").read_text("utf-8")
    assert (site / "404.html").is_file() and (site / "zh-CN" / "404.html").is_file()


def test_serve_dirty_removes_the_page_of_a_removed_file(tmp_path, tree):
    config_file = _serve_config(tmp_path, tree)
    site = tmp_path / "serve-site"
    _rebuild(config_file, site)
    adr = tree / "docs/status/decisions/0090-a-second-decision.md"
    adr.write_text((tree / ADR_SOURCE).read_text("utf-8").replace('"id": "ADR-0086"', '"id": "ADR-0090"', 1), "utf-8")
    added = _rebuild(config_file, site)
    assert all("adrs/ADR-0090.md" in pages for pages in added.values())
    assert _page(site, "adrs/ADR-0090.md").is_file() and _page(site, "adrs/ADR-0090.md", "zh-CN").is_file()
    adr.unlink()
    _rebuild(config_file, site)
    assert not _page(site, "adrs/ADR-0090.md").exists()
    assert not _page(site, "adrs/ADR-0090.md", "zh-CN").exists()
    assert _page(site, "adrs/ADR-0086.md", "zh-CN").is_file()


def test_serve_dirty_keeps_serving_after_a_broken_record_and_recovers(tmp_path, tree, caplog):
    config_file = _serve_config(tmp_path, tree)
    site = tmp_path / "serve-site"
    _rebuild(config_file, site)
    before = {loc: _page(site, TMUL, loc).read_text("utf-8") for loc in ("", "zh-CN")}
    unit = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    good = unit.read_text("utf-8")
    unit.write_text(good.replace('"surface":"tile"', '"surface":"tile",,', 1), "utf-8")
    broken = _rebuild(config_file, site)  # the build goes on with the last good tree: nothing is rendered
    assert broken == {"en": set(), "zh-CN": set()}
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1  # the root cause only, not its knock-on cross-reference errors
    assert "error[JSON-SYNTAX]" in errors[0] and errors[0].startswith("asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl:1:")
    assert {loc: _page(site, TMUL, loc).read_text("utf-8") for loc in ("", "zh-CN")} == before  # still served
    assert "error[JSON-SYNTAX]" in (site / "assets/pto-docs.css").read_text("utf-8")  # the banner of every page
    unit.write_text(good + "// fixed while serving\n", "utf-8")
    fixed = _rebuild(config_file, site)
    for locale, pages in fixed.items():
        assert pages == {TMUL, "reports/traceability.md"}, (locale, pages)
    assert all("fixed while serving" in _page(site, TMUL, loc).read_text("utf-8") for loc in ("", "zh-CN"))


def test_serve_watches_the_tree_but_not_its_git_directory(tmp_path, tree):
    """The watcher scans every watched file twice a second: .git is left out, everything else is watched."""
    (tree / ".git" / "objects").mkdir(parents=True)
    (tree / ".git" / "objects" / "x").write_text("object", "utf-8")
    (tree / ".gitignore").write_text("site/\n", "utf-8")
    from mkdocs.config import load_config
    config = load_config(config_file=str(_serve_config(tmp_path, tree)))
    plugin = config.plugins["pto-docs"]
    watched = []

    class Server:
        def watch(self, path, func=None, *, recursive=True):
            watched.append((str(path), recursive))

    plugin.on_serve(Server(), config=config, builder=None)
    paths = {p for p, _ in watched}
    assert (str(tree), False) in watched  # top-level files come and go
    assert {str(tree / name) for name in ("asl", "spec", "tests", "docs")} <= paths  # (root files: the root watch)
    assert not [p for p in paths if "/.git" in p]
    assert all(recursive for p, recursive in watched if p != str(tree))
