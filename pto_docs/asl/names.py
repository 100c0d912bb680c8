"""Which ASL units a computation can depend on, found by name without parsing.

ASL has no imports: every unit sees every global name of the model. So a run that starts from some names can
only read the units that declare one of those names, the units that declare a name *those* units mention, and
so on. ``closure`` computes that set from two cheap facts per unit:

- ``declared``: the global names the unit declares (subprograms, accessors, types, enumeration members,
  globals), read by regular expressions that are checked against the parser on the real tree
  (tests/test_asl_names.py);
- ``mentioned``: every identifier-shaped word of the unit, comments and strings included.

Both sets err on the side of more: a word a comment mentions, or a name another unit declares again (an
overload, or a duplicate that breaks linking), pulls its units in. A unit outside the closure cannot change
the computation, so a verdict keyed by the closure's sources stays valid while it is edited (a serving
reload after a save elsewhere does not rerun the model).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

QUALIFIERS = r"(?:(?:pure|readonly|noreturn|impdef|implementation|override|private)\s+)*"
# `func F(`, `getter G`, `setter S`, `accessor A`, `type T`, `var/let/constant/config X[, Y]`
DECLARATION = re.compile(
    rf"^[ \t]*{QUALIFIERS}(?:func|getter|setter|accessor|type)\s+([A-Za-z_]\w*)"
    rf"|^[ \t]*(?:var|let|constant|config)\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)", re.MULTILINE)
# an enumeration's members are global names too (`type T of enumeration { A, B };`, and `enumeration` in
# other positions such as an anonymous field type)
ENUMERATION = re.compile(r"\benumeration\s*\{([^}]*)\}")
WORD = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class Names:
    declared: frozenset[str]
    mentioned: frozenset[str]


def names(text: str) -> Names:
    """The global names ``text`` declares and every word it mentions."""
    declared: set[str] = set()
    for match in DECLARATION.finditer(text):
        if match.group(1):
            declared.add(match.group(1))
        else:
            declared.update(WORD.findall(match.group(2)))
    for match in ENUMERATION.finditer(text):
        declared.update(WORD.findall(match.group(1)))
    return Names(frozenset(declared), frozenset(WORD.findall(text)))


def closure(units: Mapping[str, Names], roots: Iterable[str],
            root_prefixes: Iterable[str] = ()) -> tuple[frozenset[str], frozenset[str]]:
    """(the keys of ``units`` that declare a name reachable from the ``roots`` names, every name reached). A
    declared name that starts with one of ``root_prefixes`` is a root too, for names a caller composes, such
    as ``"TileDataType_" + t``. A unit outside the first set that comes to declare a name of the second joins
    the closure."""
    declaring: dict[str, list[str]] = {}
    for key, facts in units.items():
        for name in facts.declared:
            declaring.setdefault(name, []).append(key)
    prefixes = tuple(root_prefixes)
    wanted = set(roots)
    if prefixes:
        wanted.update(name for name in declaring if name.startswith(prefixes))
    seen: set[str] = set()
    found: set[str] = set()
    extend(units, declaring, found, seen, wanted)
    return frozenset(found), frozenset(seen)


def extend(units: Mapping[str, Names], declaring: Mapping[str, list[str]], found: set[str], seen: set[str],
           todo: Iterable[str]) -> None:
    """Add to ``found`` every key of ``units`` declaring a name reachable from the names ``todo`` (``declaring``:
    name -> the keys declaring it; ``seen``: the names already followed; both sets grow)."""
    stack = list(todo)
    seen.update(stack)
    while stack:
        for key in declaring.get(stack.pop(), ()):
            if key not in found:
                found.add(key)
                new = units[key].mentioned - seen
                seen |= new
                stack.extend(new)


# -- where each global name is declared (the documentation's identifier links) -----------------------------------
# A global declaration starts a line at column 0 (pto-spec writes every top-level declaration there; an indented
# `let`/`var` is a local), and an enumeration's members are declared where they are written.
TOP_DECLARATION = re.compile(
    rf"^{QUALIFIERS}(func|getter|setter|accessor)\s+([A-Za-z_]\w*)"
    rf"|^{QUALIFIERS}(type)\s+([A-Za-z_]\w*)"
    rf"|^(var|let|constant|config)\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)", re.MULTILINE)
# (a literal first: the scan is fast; no brace inside, so a text of many unclosed ones is still read once)
ENUMERATION_AT = re.compile(r"enumeration\s*\{([^{}]*)\}")
_BLOCK_COMMENT = re.compile(r"/\*.*?(?:\*/|\Z)", re.DOTALL)
_NEWLINE = re.compile(r"\n")
KINDS = {"func": "function", "getter": "function", "setter": "function", "accessor": "function", "type": "type",
         "var": "global", "let": "global", "constant": "global", "config": "global"}


@dataclass(frozen=True)
class Definition:
    name: str
    line: int  # 1-based line of the text where the name is declared
    kind: str  # "function", "type", "global" or "label" (an enumeration member)


def definitions(text: str) -> tuple[Definition, ...]:
    """Every global name ``text`` declares, with its line, in text order; a declaration inside a comment declares
    nothing, an overloaded name appears once per declaration."""
    starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]
    blocks = [m.span() for m in _BLOCK_COMMENT.finditer(text)] if "/*" in text else []

    def line_of(offset: int) -> int:
        return bisect_right(starts, offset)

    def commented(offset: int) -> bool:
        line_start = starts[line_of(offset) - 1]
        return "//" in text[line_start:offset] or any(a <= offset < b for a, b in blocks)

    found: list[tuple[int, Definition]] = []
    for match in TOP_DECLARATION.finditer(text):
        keyword = match.group(1) or match.group(3) or match.group(5)
        group = 2 if match.group(1) else 4 if match.group(3) else 6
        if blocks and commented(match.start()):
            continue
        for word in WORD.finditer(match.group(group)):
            offset = match.start(group) + word.start()
            found.append((offset, Definition(word.group(0), line_of(offset), KINDS[keyword])))
    for match in ENUMERATION_AT.finditer(text):
        if commented(match.start()) or (match.start() and (text[match.start() - 1].isalnum() or text[match.start() - 1] == "_")):
            continue
        body = _strip_line_comments(match.group(1))
        for word in WORD.finditer(body):
            offset = match.start(1) + word.start()
            found.append((offset, Definition(word.group(0), line_of(offset), "label")))
    return tuple(d for _offset, d in sorted(found, key=lambda item: item[0]))


def _strip_line_comments(body: str) -> str:
    """``body`` with each ``//`` comment blanked (same length, so offsets stay)."""
    if "//" not in body:
        return body
    return re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), body)
