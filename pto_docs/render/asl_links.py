"""ASL identifiers as links to their definitions: the name tokens of highlighted code blocks link to the unit page
of the definition at its line, and a unit's listing carries an anchor on every line that declares a global name.

Both work on HTML the code escaped before (Pygments' tokens, :func:`~.fragments.plain_asl`): a name token is
``[A-Za-z_]\\w*`` and nothing else, so what is spliced in is made of escaped text and our own markup only."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable

from markupsafe import Markup

from ..analysis.asl_index import IdentifierIndex
from ..model.catalog import Catalog
from . import routes
from .fragments import text_escape

# a name token of the ASL lexer (render/asl_lexer.py): Name, Name.Function, Name.Class
_NAME_TOKEN = re.compile(r'<span class="(n|nf|nc)">([A-Za-z_]\w*)</span>')
_CODE_START = '<td class="code">'


def anchor(line: int) -> str:
    return f"asl-L{line}"


def name_tokens(html: str) -> tuple[str, ...]:
    """Every distinct name a highlighted block shows, sorted."""
    return tuple(sorted({m.group(2) for m in _NAME_TOKEN.finditer(html)}))


def link_names(html: str, index: IdentifierIndex, catalog: Catalog, src: str, unit_id: str,
               first_line: int | None = None) -> Markup:
    """``html`` (a highlighted ASL block of the page built from ``src``, the unit ``unit_id``'s lines from
    ``first_line`` on) with each name the model defines made a link to its definition; the declaration itself
    (the name at its own defining line) stays plain."""
    code_at = html.find(_CODE_START) if first_line is not None else -1
    newlines = [m.start() for m in re.finditer("\n", html)] if code_at >= 0 else []
    base = bisect_right(newlines, code_at)

    def link(m: re.Match) -> str:
        target = index.get(m.group(2))
        if target is None:
            return m.group(0)
        if target.unit_id == unit_id:
            if code_at >= 0 and m.start() > code_at and first_line + bisect_right(newlines, m.start()) - base == target.line:
                return m.group(0)
            href = "#" + anchor(target.line)
        else:
            unit = catalog.units.get(target.unit_id)
            if unit is None:
                return m.group(0)
            href = routes.relative(src, routes.unit_src(unit), anchor(target.line))
        title = text_escape(f"{target.path}:{target.line}").replace('"', "&quot;")
        return f'<a class="pto-asl-ref" href="{href}" title="{title}">{m.group(0)}</a>'

    return Markup(_NAME_TOKEN.sub(link, html))


def anchored_listing(code: str, lines: Iterable[int]) -> Markup:
    """A whole ASL file as escaped text (as :func:`~.fragments.plain_asl`) where each of ``lines`` (1-based) is a
    target: ``<span class="pto-asl-def" id="asl-L12">…\n</span>`` (the theme shows an element with an id in
    code as a block: its line break goes inside it, or the line would be followed by an empty one)."""
    wanted = set(lines)
    if not wanted:
        return Markup(f'<div class="highlight"><pre><code class="language-asl">{text_escape(code)}</code></pre></div>')
    out = []
    last = code.count("\n") + 1
    for number, text in enumerate(code.split("\n"), 1):
        escaped = text_escape(text)
        end = "" if number == last else "\n"
        out.append(f'<span class="pto-asl-def" id="{anchor(number)}">{escaped}{end}</span>' if number in wanted
                   else escaped + end)
    return Markup('<div class="highlight"><pre><code class="language-asl">' + "".join(out) + "</code></pre></div>")
