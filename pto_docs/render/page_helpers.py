"""The three helpers every page template calls most (tens of thousands of times a build): a record's prose in
the page's language, a SHA-256 cell, a Markdown heading. They were Jinja macros; as Python they print the same
bytes at a fraction of a macro call's cost. Everything from the tree is escaped, as autoescape did."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup, escape

from .env import md_text


class PageHelpers:
    """``prose``, ``sha`` and ``heading`` for one page render: ``label`` is the language's label lookup (``L``
    in the templates), ``translate`` the page's prose translator (``tr``)."""

    __slots__ = ("label", "translate")

    def __init__(self, label: Callable[[str], Any], translate: Callable[[Any], Any]):
        self.label = label
        self.translate = translate

    def prose(self, p: Any) -> Markup:
        """A record's English text (env.Prose) as the page's language shows it, with a notice when the
        translation is stale or missing; None: the label for none."""
        L = self.label
        if p is None:
            return escape(L("common.none"))
        loc = self.translate(p)
        lang = f' lang="{escape(loc.lang)}"' if loc.lang else ""
        html = f'<span class="pto-prose"{lang}>{escape(loc.text)}</span>'
        if loc.state == "stale":
            html += (f' <span class="pto-notice pto-notice--stale" title="{escape(L("notice.stale"))}">'
                     f'{escape(L("notice.stale_short"))}</span>')
        elif loc.state == "missing":
            html += (f' <span class="pto-notice pto-notice--fallback" title="{escape(L("notice.fallback"))}">'
                     f'{escape(L("notice.fallback_short"))}</span>')
        return Markup(html)

    def sha(self, value: Any) -> Markup:
        """A hash in code type, or the label for an absent one."""
        if value:
            return Markup(f'<code class="pto-sha">{escape(value)}</code>')
        return Markup(f'<span class="pto-absent">{escape(self.label("instruction.absent"))}</span>')

    def value(self, group: str, value: object) -> str:
        """A spec enumeration's value (an ADR's status, a field's signedness, a surface) in the page's language:
        the label ``reader.value.GROUP.VALUE`` when there is one, else the value as written."""
        key = f"reader.value.{group}.{value}"
        try:
            return self.label(key)
        except KeyError:
            return str(value)

    def heading(self, level: int, key: str, anchor: str) -> Markup:
        """A Markdown heading of ``level`` with the label ``key`` and the attribute-list anchor ``anchor``."""
        return Markup(f"{escape('#' * level)} {md_text(self.label(key))} {{: #{escape(anchor)} }}")
