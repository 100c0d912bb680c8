"""The files pto-docs ships beside its code: page templates, the theme overrides, the stylesheet and the default
MkDocs configuration.

In a source checkout (editable install, ``PYTHONPATH``) ``templates/`` and ``site_src/`` sit at the repository
root beside ``pto_docs/``; a wheel carries them inside the package as ``pto_docs/templates`` and
``pto_docs/site_src`` (setup.py maps them). Both layouts are found the same way: the packaged copy first.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # pto_docs/


def _shipped(name: str) -> Path:
    packaged = PACKAGE_DIR / name
    return packaged if packaged.is_dir() else PACKAGE_DIR.parent / name


TEMPLATES_DIR = _shipped("templates")  # Jinja2 page templates (pages/, partials/) and the theme overrides
OVERRIDES_DIR = TEMPLATES_DIR / "overrides"  # Material template overrides the plugin adds to the theme itself
SITE_SRC_DIR = _shipped("site_src")  # the hand-written site sources (docs_dir of the default configuration)
STYLESHEET = "assets/pto-docs.css"  # our stylesheet: its path under SITE_SRC_DIR and in every built site
SEARCH_SCRIPT = "assets/pto-search.js"  # the exact-id lookup (templates/overrides/main.html loads it), likewise
LANGUAGE_SCRIPT = "assets/pto-language.js"  # the language switch keeps the #anchor (main.html loads it), likewise
FIND_SCRIPT = "assets/pto-find.js"  # the jump-to-mnemonic box and the A–Z filter (main.html loads it), likewise
FIND_STYLESHEET = "assets/pto-find.css"  # their layout and the classification pages', likewise
DEFAULT_CONFIG = PACKAGE_DIR / "site" / "default-mkdocs.yml"  # `pto-docs build` without an mkdocs.yml
