"""The page events of one language build (site/build.py's SiteBuild): the generated pages as MkDocs files,
reused pages from the page cache, the fragments filled in after Markdown and after the search plugin, the
language switch, and the search index in page order.

on_files adds the generated pages as virtual files (tiny Markdown, see render/pages.py) and reuses unchanged
pages from the content-addressed cache (cache.py); on_page_content inserts the searchable HTML fragments after
Markdown; on_page_context gives the language switch its target; on_post_page inserts the heavy fragments after
the search plugin has indexed the page.
"""

from __future__ import annotations

import copy
import functools
import logging
import os
from pathlib import Path

from mkdocs.structure.files import File

from ..i18n import labels
from ..render import routes
from ..render.navigation import navigation
from ..render.resources import (
    FIND_SCRIPT,
    FIND_STYLESHEET,
    LANGUAGE_SCRIPT,
    SEARCH_SCRIPT,
    SITE_SRC_DIR,
    STYLESHEET,
)
from ..runtime.progress import current as current_progress
from . import output, serve
from .config import DOCS_SECTION, docs_dir_in_spec_root
from .serve import WrittenPages
from .speedups.minify import minify_chrome

log = logging.getLogger("mkdocs.plugins.pto-docs")


def _not_modified() -> bool:
    return False


class PageEvents:
    """The page events of :class:`~pto_docs.site.build.SiteBuild` (its state is that class's)."""

    # -- pages ---------------------------------------------------------------------------------------
    def docs_dir_files(self, files, config) -> None:
        """The pages of a docs_dir inside the spec root (upstream's docs/, the sources of its own portal):
        ``docs: ignore`` leaves them out; ``docs: include`` keeps them under docs/ (never on a generated route).
        Our stylesheet and search script are added when docs_dir does not hold them (a maintainer's own
        mkdocs.yml)."""
        if docs_dir_in_spec_root(config, self.spec_root(config)):
            docs_dir = os.path.abspath(config.docs_dir)
            for file in [f for f in files if f.abs_src_path and Path(f.abs_src_path).is_relative_to(docs_dir)]:
                files.remove(file)
                if self.options.docs == "include":
                    files.append(File.generated(config, DOCS_SECTION + file.src_uri, abs_src_path=file.abs_src_path))
        existing = files.get_file_from_path(STYLESHEET)
        if self.command == "serve":  # written on every rebuild: it carries the diagnostics banner, or not
            source = existing.abs_src_path if existing is not None else str(SITE_SRC_DIR / STYLESHEET)
            if existing is not None:
                files.remove(existing)
            css = Path(source).read_text("utf-8") + (serve.banner_css(self.problems) if self.problems is not None else "")
            files.append(File.generated(config, STYLESHEET, content=css))
        elif existing is None:
            files.append(File.generated(config, STYLESHEET, abs_src_path=str(SITE_SRC_DIR / STYLESHEET)))
        for asset in (SEARCH_SCRIPT, LANGUAGE_SCRIPT, FIND_SCRIPT, FIND_STYLESHEET):
            if files.get_file_from_path(asset) is None:
                files.append(File.generated(config, asset, abs_src_path=str(SITE_SRC_DIR / asset)))

    def files(self, files, config):
        from .cache import PageCache, build_signature
        if self.up_to_date is not None:  # MkDocs' `build --dirty` with nothing changed: no file to build or copy
            from mkdocs.structure.files import Files
            return Files([])
        if self.search is not None and self.options.fast_search:  # after the search plugin's on_config
            from .speedups import search_fast
            search_fast.install(self.search, config.plugins)
        if self.options.markdown_shapes:
            from .speedups.markdown_shapes import ShapeCache
            self.shapes = ShapeCache(config)
        self.docs_dir_files(files, config)
        renderer = self.state.renderer if self.state is not None else None
        locale = self.here
        cache_dir = self.cache_dir(config)
        self.cache = PageCache(cache_dir, locale, self.memory.packs) if cache_dir else None
        in_place = self.in_place and self.cache is not None
        self.written = WrittenPages(config.site_dir, self.memory.written) if in_place else None
        signature = build_signature(config, locale) if self.cache else ""
        self.parts, self.keys, self.reused, self.built = {}, {}, {}, []
        if self.manifest is not None:
            if self._reuse_everything(files, config, signature):
                return files
            self.manifest = None  # the theme or configuration changed, or a page left the pack: build it all
            self.load(config, self.spec_root(config))
            config["nav"] = navigation(self.state.renderer, locale)
            renderer = self.state.renderer
            signature = build_signature(config, locale)
        self.signature = signature
        record = self.record = {"pages": [], "files": [], "notes": [], "signature": signature,
                                "nav": config.nav, "diagnostics": [d.format() for d in self.state.diagnostics],
                                "footer": config.extra.get("pto_footer")}
        for src_uri, parts in renderer.pages(locale):
            existing = files.get_file_from_path(src_uri)
            if existing is not None:
                files.remove(existing)
            file = File.generated(config, src_uri, content=parts.markdown)
            if self.cache is not None:
                key = self.memory.keys.key(signature, src_uri, parts)
                hit = self.cache.entries(key)
                self.keys[src_uri] = key
                record["pages"].append([src_uri, parts.markdown, key])
                if hit is not None:
                    self.reused[src_uri] = (key, hit)
                    file.is_modified = _not_modified  # MkDocs' dirty mode skips the page; on_env writes it
            if src_uri not in self.reused:
                self.parts[src_uri] = parts
            files.append(file)
        for path, data in renderer.files():
            files.append(File.generated(config, path, content=data))
            record["files"].append([path, data.decode("utf-8")])
        self.total = len(self.parts) + len(self.reused)
        self.tick()
        stale = renderer.stale_report(locale)
        missing = renderer.missing_report(locale)
        if stale:
            record["notes"].append(f"pto-docs: {len(stale)} {locale} translation(s) out of date (English shown): " + ", ".join(stale))
        if missing and locale != "en":
            record["notes"].append(f"pto-docs: {len(missing)} {locale} string(s) untranslated (English shown)")
        for note in record["notes"]:
            log.info(note)
        return files

    def _reuse_everything(self, files, config, signature: str) -> bool:
        """Nothing changed since the last build: every page comes from the page pack, nothing is rendered."""
        manifest = self.manifest
        self.signature = signature
        if self.cache is None or manifest.get("signature") != signature:
            return False
        if any(key not in self.cache.old for _src, _md, key in manifest["pages"]):
            return False
        for src_uri, markdown, key in manifest["pages"]:
            existing = files.get_file_from_path(src_uri)
            if existing is not None:
                files.remove(existing)
            file = File.generated(config, src_uri, content=markdown)
            file.is_modified = _not_modified
            self.keys[src_uri] = key
            self.reused[src_uri] = (key, self.cache.entries(key))
            files.append(file)
        for path, text in manifest["files"]:
            files.append(File.generated(config, path, content=text.encode("utf-8")))
        for note in manifest.get("notes", ()):
            log.info(note)
        self.total = len(self.reused)
        self.tick()
        return True

    def env(self, env, config, files):
        from mkdocs import utils

        from .speedups.chrome_cache import ChromeCache
        from .speedups.nav_cache import NavCache
        env.globals["pto_nav"] = NavCache(env, config, enabled=self.options.nav_cache)
        env.globals["pto_chrome"] = ChromeCache(files, enabled=self.options.chrome_cache)
        entries = self.search.search_index.entries if self.search is not None and hasattr(self.search, "search_index") else None
        if self.written is not None and "404.html" in config.theme.static_templates:
            self._keep_404(config)
        for src_uri, (key, page_entries) in self.reused.items():
            dest = files.get_file_from_path(src_uri).abs_dest_path
            if self.written is None or not self.written.holds(dest, key):
                utils.write_file(self.cache.page_bytes(key), dest)
                if self.written is not None:
                    self.written.wrote(dest, key)
            if entries is not None:
                entries.extend([dict(entry) for entry in page_entries])  # (the search plugin only reads them)
            self.page_entries[src_uri] = page_entries
        self.mark = len(entries) if entries is not None else 0
        self.doc_files = files
        return env

    def page_markdown(self, markdown, page):
        if self.shapes is not None and page.file.src_uri in self.parts:
            page.render = functools.partial(self.shapes.render, page)  # MkDocs calls page.render next
        return markdown

    def _keep_404(self, config) -> None:
        """Serving: the theme's 404 page shows only the navigation and the site configuration, all of which the
        build signature covers (cache.py), so while that is unchanged the 404.html already in the site
        is kept instead of drawn again (the whole navigation, on every rebuild)."""
        dest = os.path.join(config.site_dir, "404.html")
        key = "404.html\0" + self.signature
        if self.written.holds(dest, key):
            config.theme.static_templates.discard("404.html")
        else:
            self.written.wrote(dest, key)  # MkDocs draws it right after this event

    def page_content(self, html, page):
        parts = self.parts.get(page.file.src_uri)
        return parts.fill_search(html) if parts is not None else html

    def page_context(self, context, page):
        locale = self.here
        up = "../" * routes.depth(page.url)
        version = self.options.version
        back = "../" * output.site_path(locale, self.primary, version).count("/")
        context["pto_locale"] = locale
        context["pto_alternates"] = [
            {"name": labels(loc).t("language_name"), "lang": loc, "current": loc == locale,
             "href": (up + back + output.site_path(loc, self.primary, version) + page.url) or "./"}
            for loc in self.options.languages]
        return context

    def template_context(self, context, template_name: str, config):
        """The 404 page is served at any address, so its links cannot be relative to it. With a ``site_url``
        MkDocs writes them from its path, exactly. Without one they are written relative to the language's root
        (``base_url`` "."), and the page finds that root in the address it was served at (templates/overrides/
        404.html: the part before the first segment that is a top-level name of the site), so the page works
        under any sub-path. ``pto_site_root`` is the root of the whole site (every language) as the page links it."""
        if template_name != "404.html":
            return context
        version = self.options.version  # a release of a versioned site: its language root is <lang>/<version>/
        back = "../" * output.site_path(self.here, self.primary, version).count("/")
        if config.site_url:
            context["pto_site_root"] = context["base_url"].rstrip("/") + "/" + back
            return context
        context["base_url"] = "."
        context["pto_site_root"] = "./" + back
        names = {f.dest_uri.split("/")[0] for f in (self.doc_files or ())}
        if not version:  # (versioned, the language root is found by the page names after its prefixes)
            names.update(output.locale_dir(loc, self.primary).rstrip("/") for loc in self.options.languages)
        context["pto_root_names"] = sorted(n for n in names if n)
        context["pto_locale_dir"] = "" if version else output.locale_dir(self.here, self.primary)
        return context

    def post_page(self, output_html, page):
        src_uri = page.file.src_uri
        entries = []  # the search entries of this page (the search plugin added them in on_page_context)
        if self.search is not None and hasattr(self.search, "search_index"):
            all_entries = self.search.search_index.entries
            entries = all_entries[self.mark:]
            self.mark = len(all_entries)
        self.page_entries[src_uri] = entries
        parts = self.parts.get(src_uri)
        if parts is None:
            return output_html
        output_html = minify_chrome(parts.fill_heavy(output_html))
        if self.cache is not None and src_uri in self.keys:
            self.cache.put(self.keys[src_uri], output_html, copy.deepcopy(entries))
        if self.written is not None:  # MkDocs writes the page right after this event
            self.written.wrote(page.file.abs_dest_path, self.keys.get(src_uri))
        self.built.append(src_uri)
        self.tick()
        return output_html

    def tick(self) -> None:
        done = len(self.built) + len(self.reused)
        if self.report_fd is not None:
            if done == self.total or done % 25 == 0:
                from .languages import report
                report(self.report_fd, {"done": done, "total": self.total})
            return
        current_progress().count(self.here, done, self.total)
        if self.languages is not None:
            self.languages.poll()

    def order_search_index(self) -> None:
        """Before the search plugin writes its index: the entries in page order, as a clean build adds them
        (reused pages' entries were added first, in on_env), so every build path gives the same index bytes."""
        if not self.reused or self.search is None or not hasattr(self.search, "search_index") or self.doc_files is None:
            return
        self.search.search_index.entries = [entry for file in self.doc_files.documentation_pages()
                                             for entry in self.page_entries.get(file.src_uri, ())]
