"""The blocks of Material's page that are the same on pages at sibling locations, rendered once per such set.

Material renders its whole ``base.html`` into every page. Some of its blocks read nothing of the page but its URL,
and that only through relative links to fixed files of the theme: the ``__config`` JSON (``base_url``, the
features, the labels of the language, the search worker's URL), the stylesheets with the icon definitions, the
scripts (``templates/overrides/main.html`` adds ours), the polyfills and the analytics integration. A relative
link to a file outside the page's own location is the same from every page whose location (the directory its
links resolve from) is a sibling of it, so such pages get the same text from each of those blocks.

``templates/overrides/main.html`` overrides those blocks with ``{{ pto_chrome(page, "config", super) }}``:
:class:`ChromeCache` (the Jinja global ``pto_chrome``) calls Material's block (``super``) for the first page of a
set of sibling locations and returns its text again for the others. A page without a URL (the 404 page), and
one located where a file of the site lies, always get Material's render. One cache lives for one language's
build (``on_env`` makes a new one), so its labels and configuration are those of the build.
``tests/site/test_chrome_cache.py`` compares whole sites built with and without it byte for byte.
"""

from __future__ import annotations

from markupsafe import Markup
from mkdocs.structure.pages import Page

# the blocks main.html passes through the cache (each reads the page only through relative theme links)
CACHED_BLOCKS = ("styles", "libs", "analytics", "config", "scripts")


class ChromeCache:
    def __init__(self, files=(), enabled: bool = True):
        self.enabled = enabled
        # every directory holding a file of the site that is not a page: a page located there could link to such
        # a file differently from its siblings (a link into the page's own directory), so it is never cached
        self.occupied: set[str] = set()
        for file in files:
            if not file.is_documentation_page():
                url = file.url
                while "/" in url:
                    url = url[:url.rfind("/")]
                    self.occupied.add(url + "/")
        self.blocks: dict[tuple, Markup] = {}
        self.hits = 0
        self.renders = 0

    def __call__(self, page, block: str, render) -> Markup:
        key = self._key(page, block)
        if key is None:
            self.renders += 1
            return Markup(render())
        text = self.blocks.get(key)
        if text is None:
            self.renders += 1
            text = self.blocks[key] = Markup(render())
        else:
            self.hits += 1
        return text

    def _key(self, page, block: str) -> tuple | None:
        """Pages whose relative links to the site's other files are equal share a key: their locations (the
        directory their links resolve from) are siblings, or both the root. None: render this page's own."""
        url = page.url if isinstance(page, Page) else None  # (no page: the 404 page, an undefined one)
        if not self.enabled or block not in CACHED_BLOCKS or not isinstance(url, str):
            return None
        location = url if url.endswith("/") or not url else url[:url.rfind("/") + 1]
        if not location:
            return (block, "")
        if location in self.occupied:
            return None
        parent = location[:location.rstrip("/").rfind("/") + 1]
        return (block, parent, "*")
