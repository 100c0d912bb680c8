"""site/speedups/nav_cache.py: a site built with the navigation cache is byte-identical to one built without it."""

from __future__ import annotations

from pathlib import Path

from pto_docs.site.speedups import nav_cache
from tests.mkdocs_config import build_catalog, config_copy, instances_of

REPO = Path(__file__).resolve().parents[2]


def test_cached_navigation_gives_the_same_site_byte_for_byte(tmp_path, monkeypatch):
    caches = instances_of(monkeypatch, nav_cache.NavCache)
    build_catalog(tmp_path / "cached", nav_cache=True)
    cached = list(caches)
    caches.clear()
    build_catalog(tmp_path / "full", nav_cache=False)
    assert len(cached) == 2 and all(c.hits > 10 and c.groups for c in cached)  # en and zh-CN both used it
    assert all(c.hits == 0 for c in caches)
    a = sorted(p.relative_to(tmp_path / "cached") for p in (tmp_path / "cached").rglob("*.html"))
    b = sorted(p.relative_to(tmp_path / "full") for p in (tmp_path / "full").rglob("*.html"))
    assert a == b and len(a) > 50
    different = [str(p) for p in a if (tmp_path / "cached" / p).read_bytes() != (tmp_path / "full" / p).read_bytes()]
    assert different == []
    page = (tmp_path / "cached" / "instructions/tile/elementwise-tile-tile/arithmetic/TMUL/index.html").read_text("utf-8")
    assert page.count("md-nav__link--active") >= 1 and 'for="__toc"' in page  # its own entry, drawn active


def test_a_copy_of_the_override_in_a_projects_custom_dir_does_not_recurse(tmp_path):
    """A project that copied templates/overrides into its own custom_dir gets Material's navigation, not a loop."""
    import shutil
    custom = tmp_path / "my-overrides"
    shutil.copytree(REPO / "templates" / "overrides", custom)
    config_file = config_copy(tmp_path, custom_dir=custom, cache=False)
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    config = load_config(config_file=str(config_file), site_dir=str(tmp_path / "site"))
    config.plugins["pto-docs"].config.parallel = False
    config.plugins.on_startup(command="build", dirty=False)
    build(config, dirty=False)
    page = (tmp_path / "site" / "instructions/tile/elementwise-tile-tile/arithmetic/TMUL/index.html").read_text("utf-8")
    assert 'class="md-nav md-nav--primary"' in page and "md-nav__link--active" in page
