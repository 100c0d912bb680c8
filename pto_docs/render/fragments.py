"""Locale-independent HTML fragments, built once per unit and shared by both languages.

Everything here is escaped by its producer (Pygments escapes code; ``escape`` the rest), so templates may
insert the resulting Markup as is.
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from ..frozen import pretty_json


@lru_cache(maxsize=8)
def _lexer(name: str) -> Lexer:
    try:
        return get_lexer_by_name(name)
    except ClassNotFound:
        return get_lexer_by_name("text")


def highlighted(code: str, language: str = "asl", first_line: int | None = None) -> Markup:
    """Syntax-highlighted code; with ``first_line`` a line-number column starting there (source numbering)."""
    formatter = HtmlFormatter(
        cssclass="highlight",
        linenos="table" if first_line is not None else False,
        linenostart=first_line or 1,
        wrapcode=True,
    )
    return Markup(highlight(code, _lexer(language), formatter))


def plain_code(code: str, language: str = "") -> Markup:
    cls = f' class="language-{escape(language)}"' if language else ""
    return Markup(f'<div class="highlight"><pre><code{cls}>{escape(code)}</code></pre></div>')


def json_block(value: object) -> Markup:
    return plain_code(pretty_json(value).rstrip("\n"), "json")
