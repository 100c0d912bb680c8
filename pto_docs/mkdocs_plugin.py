"""The ``pto-docs`` MkDocs plugin: a thin shell over pto_docs.load and pto_docs.render.

Events: on_config loads (or reuses) the catalog, fails the build with the validate diagnostics, sets the language
(Material ``theme.language``, search language, localized nav); on_files adds the generated pages as virtual
files; on_page_context gives the language switch its target; on_post_build builds every further language into
``<site_dir>/<locale>/`` in this process, reusing the parsed catalog and page models; on_serve watches the spec
root and templates/.
"""

from __future__ import annotations

import copy
import logging
import os
from pathlib import Path

from mkdocs.config import base, load_config
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File

from .diagnostics import SpecRootError
from .i18n import LOCALES, MATERIAL_LANGUAGE, SEARCH_LANGUAGE, labels
from .render import routes
from .render.build_state import BuildState, build_state
from .render.env import TEMPLATES_DIR
from .render.indexes import navigation

log = logging.getLogger("mkdocs.plugins.pto-docs")


class PtoDocsConfig(base.Config):
    spec_root = c.Type(str, default="catalog")
    languages = c.ListOfItems(c.Choice(LOCALES), default=["en", "zh-CN"])
    strict = c.Type(bool, default=False)  # treat validation warnings as errors (like `pto-docs validate --strict`)
    trace_policy = c.Type(dict, default={})  # finding code -> error | warning | ignore, read by `pto-docs trace`


def locale_dir(locale: str, primary: str) -> str:
    return "" if locale == primary else f"{locale}/"


class PtoDocsPlugin(BasePlugin[PtoDocsConfig]):
    supports_multiple_instances = False

    def __init__(self) -> None:
        self.locale: str | None = None  # set on the secondary (per-language) builds
        self.state: BuildState | None = None

    # -- configuration ---------------------------------------------------------------------------
    @property
    def primary(self) -> str:
        return self.config.languages[0]

    def spec_root(self, config) -> Path:
        root = Path(os.path.expanduser(self.config.spec_root))
        if not root.is_absolute():
            root = Path(config.config_file_path or ".").resolve().parent / root
        return root

    def on_config(self, config):
        locale = self.locale or self.primary
        if locale not in self.config.languages:
            raise PluginError(f"pto-docs: language {locale!r} is not in plugins.pto-docs.languages")
        if not config.use_directory_urls:
            raise PluginError("pto-docs: the generated site needs use_directory_urls: true")
        root = self.spec_root(config)
        try:
            self.state = build_state(root)
        except (SpecRootError, OSError) as exc:
            raise PluginError(f"{root}: error[IO-ROOT]: {exc}") from exc
        self._report(self.state, root)
        config.theme["language"] = MATERIAL_LANGUAGE[locale]
        for name, plugin in config.plugins.items():
            if name.endswith("search") and hasattr(plugin, "config"):
                plugin.config.lang = list(SEARCH_LANGUAGE[locale])
        config["nav"] = navigation(self.state.renderer, locale)
        back = "../" * locale_dir(locale, self.primary).count("/")
        config.extra["alternate"] = [
            {"name": labels(loc).t("language_name"), "lang": loc,
             "link": (back + locale_dir(loc, self.primary)) if loc != locale else "./"}
            for loc in self.config.languages]
        config["site_name"] = labels(locale).t("site_name")
        return config

    def _report(self, state: BuildState, root: Path) -> None:
        diags = state.diagnostics
        errors = [d for d in diags if d.is_error or self.config.strict]
        if self.locale is None:  # report once, on the primary build
            for d in diags:
                (log.error if d in errors else log.info)(d.format())
        if errors or state.renderer is None:
            raise PluginError(f"pto-docs: {len(errors)} validation error(s) in {root}; see the diagnostics above")

    # -- pages -----------------------------------------------------------------------------------
    def on_files(self, files, config):
        renderer = self.state.renderer
        locale = self.locale or self.primary
        for src_uri, text in renderer.pages(locale):
            existing = files.get_file_from_path(src_uri)
            if existing is not None:
                files.remove(existing)
            files.append(File.generated(config, src_uri, content=text))
        for path, data in renderer.files():
            files.append(File.generated(config, path, content=data))
        stale = renderer.stale_report(locale)
        missing = renderer.missing_report(locale)
        if stale:
            log.info(f"pto-docs: {len(stale)} {locale} translation(s) out of date (English shown): " + ", ".join(stale))
        if missing and locale != "en":
            log.info(f"pto-docs: {len(missing)} {locale} string(s) untranslated (English shown)")
        return files

    def on_page_context(self, context, page, config, nav):
        locale = self.locale or self.primary
        up = "../" * routes.depth(page.url)
        here_prefix = locale_dir(locale, self.primary)
        back = "../" * here_prefix.count("/")
        context["pto_locale"] = locale
        context["pto_alternates"] = [
            {"name": labels(loc).t("language_name"), "lang": loc, "current": loc == locale,
             "href": (up + back + locale_dir(loc, self.primary) + page.url) or "./"}
            for loc in self.config.languages]
        return context

    # -- further languages -----------------------------------------------------------------------
    @event_priority(-100)  # after every other plugin (search writes its index first; it is shared by the builds)
    def on_post_build(self, config):
        if self.locale is not None:
            return
        from mkdocs.commands.build import build
        for locale in self.config.languages[1:]:
            overrides = {"site_dir": os.path.join(config.site_dir, locale_dir(locale, self.primary))}
            second = load_config(config_file=config.config_file_path, strict=config.strict, **overrides)
            second.plugins["pto-docs"].locale = locale
            second.plugins["pto-docs"].config = copy.copy(self.config)
            log.info(f"pto-docs: building the {locale} site into {second.site_dir}")
            build(second, dirty=False)

    def on_serve(self, server, config, builder):
        server.watch(str(self.spec_root(config)))
        server.watch(str(TEMPLATES_DIR))
        return server
