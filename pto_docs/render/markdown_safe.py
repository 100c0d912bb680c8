"""Author Markdown (ADR bodies) made safe to embed in a generated page: no raw HTML survives.

Outside fenced code and code spans, '&' and '<' become entities, so Markdown structure (headings, lists, tables,
emphasis, links) still renders but any HTML tag in the source shows as text. Headings are demoted below the
page's own section heading and the document's H1 (repeated in the page title) is dropped.
"""

from __future__ import annotations

import re

from markupsafe import Markup

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
HEADING = re.compile(r"^(#{1,6})(\s)")
UNSAFE_LINK = re.compile(r"\]\(\s*(?:javascript|data|vbscript):", re.I)


def _escape_prose(line: str) -> str:
    out, last = [], 0
    for m in CODE_SPAN.finditer(line):
        out.append(line[last:m.start()].replace("&", "&amp;").replace("<", "&lt;"))
        out.append(m.group(0))
        last = m.end()
    out.append(line[last:].replace("&", "&amp;").replace("<", "&lt;"))
    return UNSAFE_LINK.sub("](#", "".join(out))


def safe_markdown(text: str, demote: int = 1, drop_h1: bool = True) -> Markup:
    lines: list[str] = []
    fenced = False
    dropped = False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            lines.append(line)
            continue
        if fenced:
            lines.append(line)
            continue
        m = HEADING.match(line)
        if m:
            if drop_h1 and not dropped and len(m.group(1)) == 1:
                dropped = True
                continue
            line = "#" * min(6, len(m.group(1)) + demote) + line[len(m.group(1)):]
        lines.append(_escape_prose(line))
    if fenced:
        lines.append("```")
    return Markup("\n".join(lines).strip("\n") + "\n")


def adr_html(safe: str) -> Markup:
    """HTML of an ADR body already made safe by :func:`safe_markdown` (no attr_list: no author attributes).

    Python-Markdown never processes Markdown inside a raw ``<div>``, so the body is converted here, once per
    page, and the page inserts the HTML as a fragment.
    """
    import markdown
    html = markdown.markdown(str(safe), extensions=["tables", "fenced_code", "sane_lists"], output_format="html")
    return Markup(sanitize_html(html))


# What Python-Markdown makes of author Markdown (tables, fenced code, lists), and nothing else.
ALLOWED_TAGS = frozenset({
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em", "h1", "h2", "h3", "h4", "h5",
    "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "pre", "s", "span", "strong", "sub", "sup", "table", "tbody",
    "td", "tfoot", "th", "thead", "tr", "ul",
})
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "img": {"src", "alt", "title"}, "code": {"class"},
                      "th": {"align", "style"}, "td": {"align", "style"}, "ol": {"start"}}
URL_SCHEMES = frozenset({"http", "https", "mailto"})  # and relative URLs; never javascript:, vbscript:, data:


def sanitize_html(html: str) -> str:
    """HTML rendered from tree Markdown, reduced by nh3 (ammonia) to an allow-list: the tags and attributes above,
    no ``on*`` handler, no ``style`` but ``text-align``, URLs only http, https, mailto or relative. A browser's
    own URL parsing decides the scheme (leading control characters and entities cannot hide ``javascript:``)."""
    import nh3
    return nh3.clean(html, tags=set(ALLOWED_TAGS), attributes={k: set(v) for k, v in ALLOWED_ATTRIBUTES.items()},
                     url_schemes=set(URL_SCHEMES), link_rel=None, strip_comments=True,
                     filter_style_properties={"text-align"})
