"""minify_chrome: the sidebar rule's fast pattern removes exactly the line breaks the plain rule names, and the
line-by-line collapse of blank runs gives what its pattern gives."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pto_docs.site.speedups.minify import _NAV_BREAKS, collapse_blanks, minify_chrome

# the rule as first written: a line break between two named tags
PLAIN = re.compile(r'(?<=<li class="md-nav__item">)\n(?=<a )|(?<=</span>)\n(?=</a>\n?</li>)|(?<=</a>)\n(?=</li>)'
                   r'|(?<=class="md-nav__link">)\n(?=<span class="md-ellipsis">)')
PIECES = ['<li class="md-nav__item">', "<a ", 'href="x">', "</span>", "</a>", "</li>", 'class="md-nav__link">',
          '<span class="md-ellipsis">', "\n", "\n", "\n", " ", "text", "<ul>", "</ul>", "<li>"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_the_fast_pattern_equals_the_plain_rule(pieces):
    text = "".join(pieces)
    assert _NAV_BREAKS.sub("", text) == PLAIN.sub("", text)


def test_a_navigation_entry_loses_its_inner_breaks_only():
    page = ('<nav class="md-nav md-nav--primary">\n<li class="md-nav__item">\n<a href="../x/" class="md-nav__link">\n'
            '<span class="md-ellipsis">\nX\n</span>\n</a>\n</li>\n</nav><article>\n  keep\n</article>')
    out = minify_chrome(page)
    assert '<li class="md-nav__item"><a href="../x/" class="md-nav__link"><span class="md-ellipsis">\nX\n</span></a></li>' in out
    assert out.endswith("<article>\n  keep\n</article>")


# the blank-run rule as a pattern (how minify_chrome first applied it)
_BLANKS = re.compile(r"[ \t]*\n\s*")
# every kind of character the rule tells apart: spaces and tabs, line breaks, other white space (a carriage return,
# a vertical tab, a no-break space, an ideographic space), and text
BLANK_PIECES = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\xa0", "\u3000", "x", "<li>", "  \n  ", "\n\n"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(BLANK_PIECES), max_size=30))
def test_the_line_by_line_collapse_equals_the_pattern(pieces):
    text = "".join(pieces)
    assert collapse_blanks(text) == _BLANKS.sub("\n", text)


def test_the_collapse_equals_the_pattern_on_every_built_page(built_site):
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        text = page.read_text("utf-8")
        indented = text.replace("\n<", "\n    <").replace(">\n", "> \t\n\n")  # the theme's indentation back
        assert collapse_blanks(indented) == _BLANKS.sub("\n", indented), page
