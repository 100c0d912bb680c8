"""render/nav_cache.py: a site built with the navigation cache is byte-identical to one built without it."""

from __future__ import annotations

import logging
from pathlib import Path

from pto_docs.render import nav_cache

REPO = Path(__file__).resolve().parents[2]


def _build(site: Path, enabled: bool, counters: list) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    config = load_config(config_file=str(REPO / "mkdocs.yml"), site_dir=str(site))
    plugin = config.plugins["pto-docs"]
    plugin.config.spec_root = str(REPO / "catalog")
    plugin.config.cache = False
    plugin.config.parallel = False  # both languages in this process, so the counters see both
    plugin.config.nav_cache = enabled
    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    build(config, dirty=False)


def test_cached_navigation_gives_the_same_site_byte_for_byte(tmp_path, monkeypatch):
    caches = []
    original = nav_cache.NavCache.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        caches.append(self)

    monkeypatch.setattr(nav_cache.NavCache, "__init__", init)
    _build(tmp_path / "cached", True, caches)
    cached = list(caches)
    caches.clear()
    _build(tmp_path / "full", False, caches)
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
    text = (REPO / "mkdocs.yml").read_text("utf-8")
    text = text.replace("docs_dir: site_src", f"docs_dir: {REPO / 'site_src'}")
    text = text.replace("custom_dir: templates/overrides", f"custom_dir: {custom}")
    text = text.replace("      spec_root: catalog\n", f"      spec_root: {REPO / 'catalog'}\n      cache: false\n")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(text, "utf-8")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    config = load_config(config_file=str(config_file), site_dir=str(tmp_path / "site"))
    config.plugins["pto-docs"].config.parallel = False
    build(config, dirty=False)
    page = (tmp_path / "site" / "instructions/tile/elementwise-tile-tile/arithmetic/TMUL/index.html").read_text("utf-8")
    assert 'class="md-nav md-nav--primary"' in page and "md-nav__link--active" in page
