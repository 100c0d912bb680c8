"""ASL identifiers as links to their definitions: the name tokens of highlighted code blocks link to the unit page
of the definition at its line, and a unit's listing carries an anchor on every line that declares a global name.

Both work on HTML the code escaped before (Pygments' tokens, :func:`~.fragments.plain_asl`): a name token is
``[A-Za-z_]\\w*`` and nothing else, so what is spliced in is made of escaped text and our own markup only."""

from __future__ import annotations

import re
from bisect import bisect_right

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


# in escaped ASL text: an entity, a comment, a string (left as they are), or a name
_LISTING_TOKEN = re.compile(r'&\w+;|//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"|([A-Za-z_]\w*)', re.DOTALL)


def linked_listing(code: str, index: IdentifierIndex, catalog: Catalog, src: str, unit_id: str) -> tuple[Markup, frozenset[str]]:
    """A whole ASL file (unit ``unit_id``, shown on the page built from ``src``) as escaped text where each name
    the model defines (outside comments and strings) links to its definition, and each line of the file that
    declares a global name is a target: ``<span class="pto-asl-def" id="asl-L12">…\n</span>`` (the theme shows
    an element with an id in code as a block: its line break goes inside it, or an empty line would follow).
    Also every name the listing shows (linked or not: what the page depends on)."""
    escaped = text_escape(code)
    newlines = [m.start() for m in re.finditer("\n", escaped)]
    names: set[str] = set()
    hrefs: dict[str, str | None] = {}
    get, add = index.targets.get, names.add

    def link(m: re.Match) -> str:
        name = m.group(1)
        if name is None:
            return m.group(0)
        add(name)
        target = get(name)
        if target is None:
            return name
        if target.unit_id == unit_id:
            if bisect_right(newlines, m.start()) + 1 == target.line:
                return name  # the declaration itself
            return f'<a class="pto-asl-ref" href="#{anchor(target.line)}">{name}</a>'
        href = hrefs.get(name, "")
        if href == "":
            unit = catalog.units.get(target.unit_id)
            href = hrefs[name] = routes.relative(src, routes.unit_src(unit), anchor(target.line)) if unit else None
        return f'<a class="pto-asl-ref" href="{href}">{name}</a>' if href else name

    body = _LISTING_TOKEN.sub(link, escaped)
    wanted = index.lines.get(unit_id, frozenset())
    if wanted:
        lines = body.split("\n")
        last = len(lines)
        body = "".join(
            f'<span class="pto-asl-def" id="{anchor(number)}">{text}{"" if number == last else chr(10)}</span>'
            if number in wanted else (text if number == last else text + "\n")
            for number, text in enumerate(lines, 1))
    return Markup('<div class="highlight"><pre><code class="language-asl">' + body + "</code></pre></div>"), frozenset(names)
