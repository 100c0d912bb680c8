"""site/uptodate.py: ``pto-docs build`` with nothing changed and the published site as the last build left it does
nothing; any change to the tree, the site, the build date or the plugins builds again (no timings asserted)."""

from __future__ import annotations

import io
import os
from pathlib import Path

from pto_docs.site import uptodate

from .test_site_cache import TMUL, _config

PAGE = TMUL[:-3] + "/index.html"


def _build(tmp_path: Path, root: Path) -> str:
    """The summary line of a `pto-docs build` (in this process; the second language in a forked child)."""
    from pto_docs.cli import build as build_cmd
    args = type("Args", (), {"spec_root": str(root), "site_dir": str(tmp_path / "site"),
                             "config_file": str(_config(tmp_path, None)), "no_strict": False,
                             "cache_dir": str(tmp_path / "cache"), "no_cache": False, "quiet": True})()
    err = io.StringIO()
    assert build_cmd.run(args, io.StringIO(), err) == 0, err.getvalue()
    return err.getvalue().strip().splitlines()[-1]


def _entries(site: Path) -> dict:
    """Every entry of the site with what a rewrite would change (inode, modification time) and its bytes."""
    out = {}
    for path in sorted(site.rglob("*")):
        st = path.lstat()
        out[str(path.relative_to(site))] = (st.st_ino, st.st_mtime_ns, path.read_bytes() if path.is_file() else None)
    return out


def _refuse_loading(monkeypatch) -> None:
    from pto_docs.site import build as site_build

    def refuse(*args, **kwargs):
        raise AssertionError("the spec tree was loaded although nothing changed")
    monkeypatch.setattr(site_build, "build_state", refuse)


def test_nothing_changed_leaves_the_published_site_untouched(tmp_path, tree, monkeypatch):
    first = _build(tmp_path, tree)
    assert "reused from the cache" in first and (tmp_path / "cache" / uptodate.STAMP).is_file()
    before = _entries(tmp_path / "site")
    _refuse_loading(monkeypatch)
    second = _build(tmp_path, tree)
    assert "nothing changed since the last build" in second
    assert _entries(tmp_path / "site") == before  # not one file written, replaced or removed
    assert not [p for p in tmp_path.iterdir() if ".pto-build-" in p.name]  # no staging left


def test_a_changed_site_file_is_built_again_and_restored(tmp_path, tree):
    _build(tmp_path, tree)
    page = tmp_path / "site" / PAGE
    html = page.read_bytes()
    page.write_bytes(b"<p>edited by hand</p>")
    again = _build(tmp_path, tree)
    assert "reused from the cache" in again  # the no-change path: every page written from the page pack
    assert page.read_bytes() == html
    assert "nothing changed" in _build(tmp_path, tree)  # and the next build finds it as it left it


def test_a_removed_or_added_site_file_is_built_again(tmp_path, tree):
    _build(tmp_path, tree)
    (tmp_path / "site" / "extra.txt").write_text("a stranger\n", "utf-8")
    assert "reused from the cache" in _build(tmp_path, tree)
    assert not (tmp_path / "site" / "extra.txt").exists()
    os.remove(tmp_path / "site" / "zh-CN" / PAGE)
    assert "reused from the cache" in _build(tmp_path, tree)
    assert (tmp_path / "site" / "zh-CN" / PAGE).is_file()


def test_a_changed_unit_or_build_date_is_built_again(tmp_path, tree, monkeypatch):
    _build(tmp_path, tree)
    path = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    path.write_text(path.read_text("utf-8") + "// changed\n", "utf-8")
    assert "nothing changed" not in _build(tmp_path, tree)
    assert "nothing changed" in _build(tmp_path, tree)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")  # the sitemap's dates change: build
    assert "reused from the cache" in _build(tmp_path, tree)
    assert "nothing changed" in _build(tmp_path, tree)


def test_only_pto_docs_and_search_may_skip():
    config = type("Config", (), {})()
    config.plugins = {"search": None, "pto-docs": None}
    assert uptodate.eligible(config)
    config.plugins = {"search": None, "pto-docs": None, "git-revision-date": None}
    assert not uptodate.eligible(config)


def test_a_damaged_stamp_is_a_build(tmp_path, tree):
    _build(tmp_path, tree)
    (tmp_path / "cache" / uptodate.STAMP).write_bytes(b"\xff{not json")
    assert "reused from the cache" in _build(tmp_path, tree)
    assert "nothing changed" in _build(tmp_path, tree)


def _mkdocs_build_dirty(config_file: Path, site: Path) -> str:
    """MkDocs' own `mkdocs build --dirty` (as its CLI runs it, in this process): the plugin's summary line."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    config = load_config(config_file=str(config_file), site_dir=str(site))
    config.plugins.on_startup(command="build", dirty=True)
    config.plugins["pto-docs"].progress = None  # (a `pto-docs build` of an earlier test in this process set one)
    build(config, dirty=True)
    return config.plugins["pto-docs"].summary_text


def test_mkdocs_build_dirty_with_nothing_changed_builds_nothing_and_an_edit_builds_again(tmp_path, tree,
                                                                                      monkeypatch):
    """`pto-docs init` + `mkdocs build --dirty`: the second build with nothing changed neither loads the tree nor
    writes, replaces or removes a file of the published site (it was 0.27x upstream's whole build on 0.58.3,
    writing every page again); an edit of a unit, or of a file of the site, is built again."""
    from tests.mkdocs_config import config_copy
    config_file = config_copy(tmp_path, tree, cache_dir=tmp_path / "cache")
    site = tmp_path / "site"
    assert "reused from the cache" in _mkdocs_build_dirty(config_file, site)
    assert (tmp_path / "cache" / uptodate.STAMP).is_file()
    before = _entries(site)
    with monkeypatch.context() as patched:
        _refuse_loading(patched)
        assert "nothing changed since the last build" in _mkdocs_build_dirty(config_file, site)
    assert _entries(site) == before  # not one file written, replaced or removed
    assert not [p for p in tmp_path.iterdir() if ".pto-build-" in p.name]  # no staging left
    path = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    path.write_text(path.read_text("utf-8") + "// changed by mkdocs build --dirty\n", "utf-8")
    assert "nothing changed" not in _mkdocs_build_dirty(config_file, site)
    assert "changed by mkdocs build --dirty" in (site / PAGE).read_text("utf-8")
    assert "changed by mkdocs build --dirty" in (site / "zh-CN" / PAGE).read_text("utf-8")
    (site / PAGE).write_bytes(b"<p>edited by hand</p>")
    assert "nothing changed" not in _mkdocs_build_dirty(config_file, site)
    assert "changed by mkdocs build --dirty" in (site / PAGE).read_text("utf-8")
