"""The Jinja2 environment of page templates: autoescape on, StrictUndefined, Markdown-safe text filter."""

from __future__ import annotations

import re
from functools import lru_cache

import jinja2
from markupsafe import Markup, escape

from ..i18n.messages import CHECK_PREFIX, localise
from ..model.prose import Prose
from .resources import TEMPLATES_DIR

__all__ = ["Prose", "check_message", "compile_templates", "environment", "fill", "html_id", "md_text"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|>~])")


def md_text(value: object) -> Markup:
    """Text for a Markdown context (headings, link text): HTML-escaped, then Markdown specials backslashed."""
    return Markup(_MD_SPECIAL.sub(r"\\\1", str(escape(str(value)))))


_PLACEHOLDER = re.compile(r"@@[A-Z]+@@")


def fill(text: object, parts: dict) -> Markup:
    """``text`` (a label, escaped) with each ``@@NAME@@`` placeholder replaced by its HTML in ``parts``, in one
    pass: a placeholder spelled inside a value put in is text, not replaced again (a unit path named ``x@@A@@``)."""
    escaped = str(escape(text))
    return Markup(_PLACEHOLDER.sub(lambda m: str(escape(parts[m.group(0)])) if m.group(0) in parts else m.group(0),
                                   escaped))


def html_id(value: object) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(value)).strip("-") or "x"


def _code(value: str) -> str:
    return f"<code>{escape(value)}</code>"


def check_message(text: object, locale: str) -> Markup:
    """A model check's reason (the assembler's, the reference executor's bundle parser's) in ``locale``: through
    its ``check_*`` template of i18n/report.yaml, its parameters as code; a reason no template makes stays English
    (``lang="en"``), as does every reason on an English page."""
    text = str(text)
    if locale != "en":
        ours = localise(text, locale, _code, CHECK_PREFIX)
        if ours is not None:
            return Markup(f'<span class="pto-message">{ours}</span>')
    return Markup(f'<span lang="en">{escape(text)}</span>')


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
    env.filters["check_message"] = check_message
    env.filters["fill"] = fill
    return env


def compile_templates(env: jinja2.Environment) -> jinja2.Environment:
    """``env`` with every page template compiled now (kept in its cache): the languages forked next share them
    instead of each compiling its own (a twentieth of a language's build on the real tree)."""
    for name in env.list_templates(extensions=("j2",)):
        try:
            env.get_template(name)
        except (jinja2.TemplateError, OSError, UnicodeDecodeError):
            pass  # reported as before, by the render that uses it (or by none: an unused file stays unused)
    return env
