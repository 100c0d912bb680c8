"""minify_chrome's sidebar rule: the fast pattern removes exactly the line breaks the plain rule names."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pto_docs.site.speedups.minify import _NAV_BREAKS, minify_chrome

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
