"""Locale-independent HTML fragments, built once per unit and shared by both languages.

Everything here is escaped by its producer (Pygments escapes code; ``escape`` the rest), so templates may
insert the resulting Markup as is.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import zlib
from functools import lru_cache

from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from ..model.frozen import thaw

_WHITESPACE_SPAN = re.compile(r'<span class="w">([ \t\n]*)</span>')
# Pygments escapes quotes for attribute safety; its code is element text, where a quote needs no entity.
_QUOTE_ENTITIES = (("&quot;", '"'), ("&#39;", "'"))
JSON_WIDTH = 88  # a JSON array or object that fits in this many columns is printed on one line
_LINENO_SPAN = re.compile(r'<span class="normal">(\d+)</span>')


@lru_cache(maxsize=8)
def _lexer(name: str) -> Lexer:
    try:
        return get_lexer_by_name(name)
    except ClassNotFound:
        return get_lexer_by_name("text")


class HighlightCache:
    """Highlighted HTML keyed by the sha256 of everything that determines it (code, language, first line,
    Pygments version, the source of our ASL lexer): a stale entry cannot be found. One zlib'd JSON file, sealed
    with the user's key (store/seal.py; ``sealer``, by default the user's): a file that does not verify is an
    empty cache, and without a trusted key nothing is read or written."""

    def __init__(self, path: str | None, sealer=None):
        from ..store import user_sealer
        self.sealer = sealer if sealer is not None else (user_sealer() if path else None)
        self.path = path if self.sealer is not None else None
        self.old: dict[str, str] = {}
        self.new: dict[str, str] = {}
        payload = self.sealer.load(path) if self.path else None
        if payload is not None:
            try:
                old = json.loads(zlib.decompress(payload))
                self.old = old if isinstance(old, dict) else {}
            except Exception:  # an unreadable cache is an empty one
                self.old = {}

    def save(self) -> None:
        if not self.path:
            return
        self.sealer.save(self.path, zlib.compress(json.dumps(self.new, separators=(",", ":")).encode("utf-8"), 1))


_CACHE: HighlightCache | None = None


def use_highlight_cache(cache: HighlightCache | None) -> None:
    global _CACHE
    _CACHE = cache


def highlighted_since(keys: frozenset[str] | None) -> dict[str, str]:
    """The cache entries this process used beyond ``keys`` (those of :func:`highlight_keys` earlier): what a
    forked helper hands back so the cache its parent saves is complete."""
    if _CACHE is None or keys is None:
        return {}
    return {k: v for k, v in _CACHE.new.items() if k not in keys}


def highlight_keys() -> frozenset[str] | None:
    return frozenset(_CACHE.new) if _CACHE is not None else None


def adopt_highlighted(entries: dict[str, str]) -> None:
    """Entries a helper process used (:func:`highlighted_since`), kept by this process's cache."""
    if _CACHE is not None:
        _CACHE.new.update(entries)


@lru_cache(maxsize=1)
def _salt() -> str:
    import pygments

    from ..asl import keywords
    from . import asl_lexer
    digest = hashlib.sha256()
    for module in (asl_lexer, keywords):  # the lexer colours the keyword lists of asl/keywords.py
        with open(module.__file__, "rb") as fh:
            digest.update(fh.read())
    lexer = digest.hexdigest()
    return f"{pygments.__version__}\0{lexer}\0{_WHITESPACE_SPAN.pattern}\0{_LINENO_SPAN.pattern}\0{_QUOTE_ENTITIES}"


def highlighted(code: str, language: str = "asl", first_line: int | None = None) -> Markup:
    """Syntax-highlighted code; with ``first_line`` a line-number column starting there (source numbering)."""
    if _CACHE is None:
        return _highlighted(code, language, first_line)
    key = hashlib.sha256(f"{_salt()}\0{language}\0{first_line}\0{code}".encode()).hexdigest()
    html = _CACHE.old.get(key)
    if html is None:
        html = str(_highlighted(code, language, first_line))
    _CACHE.new[key] = html
    return Markup(html)


@lru_cache(maxsize=2)
def _formatter(numbered: bool) -> HtmlFormatter:
    # made once: HtmlFormatter builds its whole style sheet in __init__ (a third of a highlight call)
    return HtmlFormatter(cssclass="highlight", linenos="table" if numbered else False, wrapcode=True)


def _highlighted(code: str, language: str, first_line: int | None) -> Markup:
    formatter = _formatter(first_line is not None)
    if first_line is not None and first_line != 1:
        formatter = copy.copy(formatter)  # only the first line number differs (HtmlFormatter keeps it as is)
        formatter.linenostart = first_line
    html = highlight(code, _lexer(language), formatter)
    # Whitespace tokens need no span (the theme gives them no style): drop ~25% of the markup.
    # Line numbers need no span either (the theme styles the column, not the spans).
    html = _LINENO_SPAN.sub(r"\1", _WHITESPACE_SPAN.sub(r"\1", html))
    for entity, char in _QUOTE_ENTITIES:  # only text content carries these (class names never do)
        html = html.replace(entity, char)
    return Markup(html)


def text_escape(text: str) -> str:
    """Escape for element text (``<pre>`` content): ``&``, ``<`` and ``>``; quotes need no entity there."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def plain_code(code: str, language: str = "") -> Markup:
    cls = f' class="language-{escape(language)}"' if language else ""
    return Markup(f'<div class="highlight"><pre><code{cls}>{text_escape(code)}</code></pre></div>')


def json_block(value: object) -> Markup:
    return plain_code(readable_json(value), "json")


def readable_json(value: object, width: int = JSON_WIDTH, sort_keys: bool = True) -> str:
    """Indented JSON (sorted keys, like ``pretty_json``) where every array or object that fits in ``width``
    columns stays on one line: the same document, a third of the lines and bytes of a fully indented one."""
    out: list[str] = []
    _json_into(out, thaw(value), 0, width, sort_keys)
    return "".join(out)


_ENCODERS = {sort: json.JSONEncoder(sort_keys=sort, ensure_ascii=False, default=str) for sort in (False, True)}


def _json_into(out: list[str], value: object, indent: int, width: int, sort_keys: bool) -> None:
    encode = _ENCODERS[sort_keys].encode  # json.dumps with these options would build an encoder per call
    if isinstance(value, dict | list) and value:
        # n members take at least 3n columns on one line ("[1, 2]"): larger ones cannot fit, skip the attempt
        flat = encode(value) if indent + 3 * len(value) <= width else None
        if flat is not None and indent + len(flat) <= width:
            out.append(flat)
            return
        pad = " " * (indent + 2)
        if isinstance(value, dict):
            out.append("{")
            for i, key in enumerate(sorted(value) if sort_keys else value):
                out.append(("," if i else "") + "\n" + pad + encode(key) + ": ")
                _json_into(out, value[key], indent + 2, width, sort_keys)
            out.append("\n" + " " * indent + "}")
        else:
            out.append("[")
            for i, item in enumerate(value):
                out.append(("," if i else "") + "\n" + pad)
                _json_into(out, item, indent + 2, width, sort_keys)
            out.append("\n" + " " * indent + "]")
        return
    out.append(encode(value))


def plain_asl(code: str) -> Markup:
    """A whole ASL file as escaped text (the collapsible "complete unit" block): no per-token markup."""
    return plain_code(code, "asl")
