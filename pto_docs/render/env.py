"""The Jinja2 environment of page templates: autoescape on, StrictUndefined, Markdown-safe text filter."""

from __future__ import annotations

import re
from functools import lru_cache

import jinja2
from markupsafe import Markup, escape

from ..model.prose import Prose
from .resources import TEMPLATES_DIR

__all__ = ["Prose", "environment", "html_id", "md_text"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|>~])")


def md_text(value: object) -> Markup:
    """Text for a Markdown context (headings, link text): HTML-escaped, then Markdown specials backslashed."""
    return Markup(_MD_SPECIAL.sub(r"\\\1", str(escape(str(value)))))


def html_id(value: object) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(value)).strip("-") or "x"


@lru_cache(maxsize=4)
def environment(templates_dir: str | None = None) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir or str(TEMPLATES_DIR)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=True,
    )
    env.filters["md"] = md_text
    env.filters["html_id"] = html_id
    return env
