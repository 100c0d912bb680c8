"""The primary navigation of every page: Material's own ``partials/nav.html``, rendered once per sibling group.

Material renders its navigation template into every page; on ~940 pages per language that was, after search,
the largest cost of a build. Yet two pages in the same navigation group and the same URL directory get the
same navigation except for their own entry: every link is relative to a page URL of the same depth and
parent, every section along the branch is open (``navigation.prune`` closes all others), and only the
page's own entry is drawn active (with its table of contents). So for each such group the template is
rendered once for a stand-in page of the same directory (nothing of the group active), together with each
member's inactive entry (Material's ``nav-item.html`` macro); a page's navigation is that text with its
inactive entry replaced by its active one, drawn by the same macro. Pages outside any group (top level,
section index pages, pages not in the navigation, the 404 page) and any case where the entry is not found
exactly once get Material's full render.

``templates/overrides/partials/nav.html`` calls :class:`NavCache` (the Jinja global ``pto_nav``) in place of
Material's file, which is rendered from the theme's other template directories. The test compares whole
sites built with and without the cache byte for byte (tests/site/test_nav_cache.py).
"""

from __future__ import annotations

import os
import posixpath

import jinja2
from markupsafe import Markup
from mkdocs.structure.files import File
from mkdocs.structure.pages import Page

OVERRIDES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                             "templates", "overrides")
STAND_IN = "__pto_nav__"


class NavCache:
    def __init__(self, env: jinja2.Environment, config, enabled: bool = True, override_dir: str = OVERRIDES_DIR):
        own = os.path.realpath(override_dir)
        # the theme without this override: leave out its directory, and any other one whose nav.html calls
        # pto_nav (a copy of templates/overrides in a project's own custom_dir), or the render would recurse
        dirs = [d for d in config.theme.dirs if os.path.realpath(d) != own and not _calls_pto_nav(d)]
        self.env = env.overlay(loader=jinja2.FileSystemLoader(dirs))  # the theme without this override
        self.config = config
        self.enabled = enabled
        self.groups: dict[tuple, tuple[str, dict]] = {}
        self.positions: dict[int, tuple[str, int]] = {}
        self.positions_of = None
        self.hits = 0
        self.full = 0

    @jinja2.pass_context
    def __call__(self, context) -> Markup:
        values = context.get_all()
        page, nav = values.get("page"), values.get("nav")
        if self.enabled and _groupable(page):
            html = self._cached(values, page, nav)
            if html is not None:
                self.hits += 1
                return Markup(html)
        self.full += 1
        return Markup(self.env.get_template("partials/nav.html").render(values))

    # -- one group ---------------------------------------------------------------------------------
    def _cached(self, values: dict, page: Page, nav) -> str | None:
        self._locate(nav)
        directory = posixpath.dirname(page.url.rstrip("/"))
        key = (id(page.parent), directory)
        if key not in self.groups:
            self.groups[key] = self._render_group(values, page, directory)
        base, inactive = self.groups[key]
        target = inactive.get(id(page))
        if target is None:
            return None
        at = base.find(target)
        if at < 0 or base.find(target, at + 1) >= 0:
            return None
        path, level = self.positions[id(page)]
        module = self.env.get_template("partials/nav-item.html").make_module(values)
        active = str(module.render(page, path, level, page.parent))
        return base[:at] + active + base[at + len(target):]

    def _render_group(self, values: dict, page: Page, directory: str) -> tuple[str, dict]:
        """The navigation with the group open and none of its pages active, and each member's entry."""
        stand_in = Page(None, File.generated(self.config, f"{directory}/{STAND_IN}.md" if directory else f"{STAND_IN}.md",
                                             content=""), self.config)
        stand_in.parent = page.parent
        page.active = False
        stand_in.active = True  # opens the same sections again, the stand-in being their member
        try:
            scope = {**values, "page": stand_in}
            base = self.env.get_template("partials/nav.html").render(scope)
            module = self.env.get_template("partials/nav-item.html").make_module(scope)
            inactive = {}
            for member in page.parent.children:
                if _groupable(member) and id(member) in self.positions:
                    path, level = self.positions[id(member)]
                    inactive[id(member)] = str(module.render(member, path, level, page.parent))
        finally:
            stand_in.active = False
            page.active = True
        return base, inactive

    def _locate(self, nav) -> None:
        """Each page's checkbox path and level as Material's nav.html numbers them (``__nav_2_3``)."""
        if self.positions_of is nav:
            return
        self.positions_of = nav
        self.positions = {}

        def walk(items, path: str, level: int) -> None:
            for index, item in enumerate(items, start=1):
                here = f"{path}_{index}"
                if item.is_section:
                    walk(item.children, here, level + 1)
                elif item.is_page:
                    self.positions[id(item)] = (here, level)

        walk(nav.items, "__nav", 1)


def _calls_pto_nav(directory: str) -> bool:
    try:
        with open(os.path.join(directory, "partials", "nav.html"), encoding="utf-8") as fh:
            return "pto_nav(" in fh.read()
    except (OSError, UnicodeDecodeError):
        return False


def _groupable(page) -> bool:
    return (isinstance(page, Page) and page.parent is not None and not page.is_index
            and isinstance(page.url, str) and page.url.endswith("/"))
