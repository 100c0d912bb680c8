"""The plugin's configuration (``plugins: - pto-docs:``) and the checks and settings it applies to MkDocs'.

Every problem here is found while MkDocs loads its configuration or in ``on_config``, before any page is built,
and reads as one line (MkDocs prints it and exits non-zero; ``pto-docs build`` prints it and exits 2):
an unknown option, an ``!ENV`` without a value, a bad ``trace_policy`` severity (checked by the same code as
``pto-docs trace --policy``), a theme other than Material.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c

from ..api import check_mkdocs_config, config_path  # noqa: F401 - the plugin's checks, shared with api.build_site
from ..i18n import LOCALES
from ..render.resources import FIND_STYLESHEET, OVERRIDES_DIR, STYLESHEET

DOCS_CHOICES = ("ignore", "include")
DOCS_SECTION = "docs/"  # `docs: include`: where the pages of a docs_dir inside the spec root go


class SpecRoot(c.Type):
    """A directory path; an ``!ENV`` tag whose variables are all unset (and no default) reads as None."""

    def __init__(self, default: str):
        super().__init__(str, default=default)

    def validate(self, value):
        if value is None:  # (MkDocs would put the default in its place)
            raise base.ValidationError("is empty (an !ENV tag whose variables are unset, without a default?)")
        return super().validate(value)


class TracePolicy(c.Type):
    """finding code (fnmatch pattern) -> error | warning | ignore, checked as ``pto-docs trace --policy`` is."""

    def __init__(self):
        super().__init__(dict, default={})

    def run_validation(self, value):
        from ..trace.gate import PolicyError, parse_policy_items
        value = super().run_validation(value)
        try:
            parse_policy_items(value, "trace_policy")
        except PolicyError as exc:
            raise base.ValidationError(str(exc)) from None
        return value


class PtoDocsConfig(base.Config):
    spec_root = SpecRoot(default="catalog")
    languages = c.ListOfItems(c.Choice(LOCALES), default=["en", "zh-CN"])
    strict = c.Type(bool, default=False)  # treat validation warnings as errors (like `pto-docs validate --strict`)
    trace_policy = TracePolicy()  # finding code -> error | warning | ignore, also read by `pto-docs trace`
    docs = c.Choice(DOCS_CHOICES, default="ignore")  # pages of a docs_dir inside the spec root (see below)
    parallel = c.Type(bool, default=True)  # build the further languages in forked processes (POSIX)
    cache = c.Type(bool, default=True)  # reuse unchanged pages (content-addressed) in `pto-docs build`
    cache_dir = c.Optional(c.Type(str))  # default: the tree's folder in the user's cache (store/paths.py)
    avs_results = c.Optional(c.Type(str))  # `pto-docs avs --json` results to show on unit pages (relative to mkdocs.yml)
    avs_examples = c.Choice(("off", "run"), default="off")  # run: the build runs `pto-docs avs --examples` itself
    # with avs_examples: run, the generated decoder ASL the model needs; "generate": run the tree's own
    # scripts/generate-asl-decoders (the tree's code, in a child process with limits: bridge/decoder_generator.py)
    avs_decoders = c.Optional(c.Type(str))
    avs_profile = c.Choice(("ieee", "pto-v0"), default="ieee")  # numeric profile of avs_examples: run
    teaching_examples = c.Choice(("off", "run"), default="run")  # run: every instruction's own executed example
    templates_dir = c.Optional(c.Type(str))  # page templates (default: the templates/ shipped with pto-docs)
    nav_cache = c.Type(bool, default=True)  # draw the navigation once per group (speedups/nav_cache.py; same HTML)
    chrome_cache = c.Type(bool, default=True)  # theme blocks once per directory (speedups/chrome_cache.py; same HTML)
    markdown_shapes = c.Type(bool, default=True)  # convert page Markdown once per shape (speedups/markdown_shapes.py)
    fast_search = c.Type(bool, default=True)  # index pages with speedups/search_fast.py (same index as Material's)
    previous = c.Optional(c.Type(str))  # a release (tree, or git revision of the checkout) to tell changes since
    version = c.Optional(c.Type(str))  # this build is release VERSION of a versioned site (set by build-versions)

    def _validate(self):
        """MkDocs only warns about an unknown option; a misspelt pto-docs option is an error."""
        failed, warnings = super()._validate()
        unknown = [(key, message) for key, message in warnings if key not in self._schema_keys]
        failed += [(key, base.ValidationError(f"{message} (pto-docs options: {', '.join(sorted(self._schema_keys))})"))
                   for key, message in unknown]
        return failed, [w for w in warnings if w not in unknown]


# The Markdown extensions the generated pages are written for, added when the configuration lacks them.
MARKDOWN_EXTENSIONS = {"attr_list": {}, "toc": {"permalink": True}, "tables": {}, "admonition": {},
                       "pymdownx.highlight": {"use_pygments": True}, "pymdownx.superfences": {}}
# Material features the site needs whatever the configuration says: section index pages, and a navigation that
# does not grow every page
THEME_FEATURES = ("navigation.prune", "navigation.indexes")
# and those a reader expects, set when the configuration names no features of its own: back to top, the search
# terms highlighted on the page a result opens, a copy button on every code block
READER_FEATURES = ("navigation.top", "search.highlight", "content.code.copy", "navigation.path", "navigation.footer")
# Material's own default font (its mkdocs_theme.yml), fetched from Google Fonts: a configuration that still has it
# said nothing of fonts (MkDocs merges the theme's defaults into config.theme before any plugin sees it)
MATERIAL_DEFAULT_FONT = {"text": "Roboto", "code": "Roboto Mono"}


def adopt_site_settings(config) -> None:
    """Register what the pages need, without clashing with the user's own settings: our theme overrides go
    right after a user's ``custom_dir`` (so a user's template wins) and before Material's; our stylesheet is
    added to ``extra_css`` (the file itself is added by ``pages.PageEvents.docs_dir_files`` when docs_dir lacks it); the
    Markdown extensions and Material features the pages are written for are added where missing (a user's
    own settings for them stay). Where the user's configuration is silent, the site is offline (``theme.font:
    false``: no Google Fonts), headings carry permalinks (``toc.permalink``) and the reader features are on."""
    dirs = config.theme.dirs
    overrides = str(OVERRIDES_DIR)
    if overrides not in dirs:
        dirs.insert(1 if config.theme.custom_dir else 0, overrides)
    for css in (STYLESHEET, FIND_STYLESHEET):
        if css not in [str(c) for c in config.extra_css]:
            config.extra_css.append(css)
    names = [ext if isinstance(ext, str) else getattr(ext, "__name__", "") for ext in config.markdown_extensions]
    for name, options in MARKDOWN_EXTENSIONS.items():
        if name not in names:
            config.markdown_extensions.append(name)
            if options:
                config.mdx_configs[name] = dict(options)
    # MkDocs lists `toc` by default, without permalinks: give them unless the user chose
    config.mdx_configs.setdefault("toc", {}).setdefault("permalink", True)
    if config.theme.get("font") == MATERIAL_DEFAULT_FONT:
        config.theme["font"] = False
    features = config.theme.setdefault("features", [])
    wanted = THEME_FEATURES + (() if features else READER_FEATURES)
    features.extend(f for f in wanted if f not in features)


def docs_dir_in_spec_root(config, spec_root: Path) -> bool:
    docs = Path(config.docs_dir).resolve()
    return docs == spec_root.resolve() or spec_root.resolve() in docs.parents
