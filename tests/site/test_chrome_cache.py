"""site/speedups/chrome_cache.py: a site built with the theme-block cache is byte-identical to one built without it,
and only pages whose relative links to the site's files are equal share a block."""

from __future__ import annotations

from mkdocs.structure.pages import Page

from pto_docs.site.speedups.chrome_cache import CACHED_BLOCKS, ChromeCache
from tests.mkdocs_config import build_catalog, instances_of


def test_cached_theme_blocks_give_the_same_site_byte_for_byte(tmp_path, monkeypatch):
    caches = instances_of(monkeypatch, ChromeCache)
    build_catalog(tmp_path / "cached", chrome_cache=True)
    cached = list(caches)
    caches.clear()
    build_catalog(tmp_path / "full", chrome_cache=False)
    assert len(cached) == 2  # en and zh-CN
    for cache in cached:
        assert cache.hits > 100 and {key[0] for key in cache.blocks} == set(CACHED_BLOCKS)
        assert len({key[1:] for key in cache.blocks}) > 5  # the root, and many directories of siblings
    assert all(c.hits == 0 and not c.blocks for c in caches)
    a = sorted(p.relative_to(tmp_path / "cached") for p in (tmp_path / "cached").rglob("*.html"))
    b = sorted(p.relative_to(tmp_path / "full") for p in (tmp_path / "full").rglob("*.html"))
    assert a == b and len(a) > 50
    different = [str(p) for p in a if (tmp_path / "cached" / p).read_bytes() != (tmp_path / "full" / p).read_bytes()]
    assert different == []


class _File:
    def __init__(self, url: str, page: bool = False):
        self.url = url
        self.page = page

    def is_documentation_page(self) -> bool:
        return self.page


class _Page(Page):
    def __init__(self, url: str):  # only its URL is read
        self._url = url

    @property
    def url(self) -> str:
        return self._url


def _page(url: str) -> Page:
    return _Page(url)


def test_only_pages_at_sibling_locations_share_a_block():
    cache = ChromeCache([_File("assets/stylesheets/main.css"), _File("guide/tools/helper.js"),
                         _File("guide/intro/", page=True)])
    key = cache._key
    # directory URLs: siblings share, the parent and the root do not
    assert key(_page("instructions/tile/tadd/"), "config") == key(_page("instructions/tile/tsub/"), "config")
    assert key(_page("instructions/tile/"), "config") != key(_page("instructions/tile/tadd/"), "config")
    assert key(_page(""), "config") != key(_page("instructions/"), "config")
    assert key(_page("instructions/"), "config") == key(_page("units/"), "config")
    # file URLs: pages of one directory share with each other and with the directory URLs beside it
    assert key(_page("a/b.html"), "styles") == key(_page("a/c.html"), "styles") == key(_page("x/"), "styles")
    assert key(_page("index.html"), "styles") == key(_page(""), "styles")
    # each block apart
    assert key(_page("x/"), "styles") != key(_page("x/"), "config")
    # a page located where a file of the site lies links to it differently from its siblings: its own render
    assert key(_page("guide/tools/"), "config") is None and key(_page("assets/"), "scripts") is None
    assert key(_page("guide/intro/"), "config") is not None  # a page's own URL is not a file it links to
    # no page (the 404 page), a block not known to read nothing else, or the cache turned off: Material's render
    assert key(None, "config") is None and key(_page("x/"), "header") is None
    assert ChromeCache(enabled=False)._key(_page("x/"), "config") is None


def test_the_first_page_of_a_location_renders_and_its_siblings_reuse_the_text():
    cache = ChromeCache()
    calls = []

    def render(text):
        return lambda: calls.append(text) or text

    first = cache(_page("d/a/"), "config", render("<script>a</script>"))
    again = cache(_page("d/b/"), "config", render("<script>b</script>"))
    other = cache(_page("e/"), "config", render("<script>e</script>"))
    uncached = cache(None, "config", render("<script>404</script>"))
    assert (str(first), str(again), str(other), str(uncached)) == ("<script>a</script>",) * 2 + (
        "<script>e</script>", "<script>404</script>")
    assert calls == ["<script>a</script>", "<script>e</script>", "<script>404</script>"]
    assert (cache.hits, cache.renders) == (1, 3)
