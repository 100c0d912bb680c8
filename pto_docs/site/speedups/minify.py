"""Collapse the whitespace of the theme's chrome (outside the page's ``<article>``): smaller pages, same rendering."""

from __future__ import annotations

import re

# a line break between list items (and their list's tags) renders as nothing: the navigation is mostly these
_LIST_BREAKS = re.compile(r"(</li>|<ul[^>]*>)\n(?=<li[ >]|</ul>)")
# The line breaks the sidebars can lose, each between the two tags named (a break at either end of a flex link
# renders as nothing). Written as a break followed by its context so the scan looks for line breaks only
# (tests/site/test_minify.py compares it with the plain reading of that rule).
_NAV_BREAKS = re.compile(r'\n(?:(?<=<li class="md-nav__item">\n)(?=<a )|(?<=</span>\n)(?=</a>\n?</li>)'
                         r'|(?<=</a>\n)(?=</li>)|(?<=class="md-nav__link">\n)(?=<span class="md-ellipsis">))')


def collapse_blanks(text: str) -> str:
    """Every run of white space that holds a line break becomes one line break (before its first line break, only
    spaces and tabs count as part of the run): the pattern ``[ \\t]*\\n\\s*`` replaced by a line break, done line
    by line in about half the pattern's time on a page's chrome (tests/site/test_minify.py compares the two)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    middle = [line for line in (line.lstrip().rstrip(" \t") for line in lines[1:-1]) if line]
    return "\n".join([lines[0].rstrip(" \t"), *middle, lines[-1].lstrip()])


def minify_chrome(html: str) -> str:
    """Collapse the theme's indentation and blank lines outside the page's ``<article>`` (no ``<pre>`` there);
    a line break stays a line break, so inline scripts keep their meaning."""
    start = html.find("<article")
    end = html.rfind("</article>")
    if start < 0 or end < start:
        return html
    def chrome(text: str) -> str:
        return _LIST_BREAKS.sub(r"\1", collapse_blanks(text))
    head = chrome(html[:start])
    nav = head.find('<nav class="md-nav md-nav--primary"')
    if nav >= 0:  # the sidebars: block list items holding flex links, where a break at either end renders as nothing
        head = head[:nav] + _NAV_BREAKS.sub("", head[nav:])
    return head + html[start:end] + chrome(html[end:])
