"""Tokenizer for ASL v1 as PTO-ISA/pto-spec uses it.

One master regular expression scans the text (line by line when no token can span a line, each different
line once: :func:`tokenize`); a token is a tuple ``(kind, value, offset)``.
``kind`` is the keyword or operator text itself, or one of ``ID INT REAL BITS MASK STR EOF``.
Line and column are computed from the offset only when a diagnostic needs them.
"""

from __future__ import annotations

import bisect
import functools
import re

from .keywords import RESERVED
from .limits import MAX_LITERAL_DIGITS, int_from_text

KEYWORDS = RESERVED  # one list, shared with the Pygments lexer (keywords.py)

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r\n]+|//[^\n]*|/\*.*?\*/)
  | (?P<hex>0x[0-9A-Fa-f][0-9A-Fa-f_]*)
  | (?P<real>[0-9][0-9_]*\.[0-9][0-9_]*)
  | (?P<int>[0-9][0-9_]*)
  | (?P<bits>'[01 ]*')
  | (?P<mask>'(?:[01x ]|\([01 ]+\))*')
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<reserved>__[A-Za-z0-9_]*)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\+:|\*:|::|\+\+|\.\.|==>|<=>|<=|>=|==|!=|&&|\|\||=>|-->|<->|<<|>>|\[\[|\]\]|[-+*/^!=<>(){}\[\],.:;])
    """,
    re.VERBOSE | re.DOTALL,
)


class AslSyntaxError(Exception):
    """A lexical or grammatical error, rendered ``path:line:col: error[ASL-SYNTAX]: message``."""

    def __init__(self, path: str, line: int, col: int, message: str):
        super().__init__(f"{path}:{line}:{col}: error[ASL-SYNTAX]: {message}")
        self.path, self.line, self.col, self.message = path, line, col, message


class LineMap:
    """Offset to (line, column), both 1-based."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def locate(self, offset: int) -> tuple[int, int]:
        index = bisect.bisect_right(self.starts, offset) - 1
        return index + 1, offset - self.starts[index] + 1


def tokenize(text: str, path: str = "<string>") -> list[tuple[str, object, int]]:
    """The tokens of ``text``, then ``EOF``. Generated ASL (the decoders' validation functions: 36 MB, 590,000
    lines, 96,000 of them different) repeats its lines, so a text whose tokens cannot span a line is read line by
    line, each different line scanned once (:func:`_line_tokens`); the tokens are the same either way. A string
    with a raw line break (ASLRef reads one) leaves its first line without a closing quote: that line fails, and
    the whole text is scanned at once."""
    if "/*" in text or "\\\n" in text:  # a block comment or an escaped line break may span lines
        return _scan(text, path)
    tokens: list[tuple[str, object, int]] = []
    extend = tokens.extend
    base = 0
    try:
        for line in text.split("\n"):
            if line:
                cached = _line_tokens(line) if len(line) <= LINE_CACHE_WIDTH else _scan(line)[:-1]
                if cached:
                    extend([(kind, value, base + offset) for kind, value, offset in cached])
            base += len(line) + 1
    except AslSyntaxError:
        return _scan(text, path)  # a string over lines, or an error worded with its position in the whole text
    tokens.append(("EOF", None, len(text)))
    return tokens


LINE_CACHE_WIDTH = 256  # longer lines are scanned each time: the cache holds at most 8,192 short lines


@functools.lru_cache(maxsize=8192)
def _line_tokens(line: str) -> tuple[tuple[str, object, int], ...]:
    """The tokens of one line, offsets from its start (no EOF)."""
    return tuple(_scan(line)[:-1])


_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"'}


def _string(token: str, text: str, path: str, pos: int) -> str:
    """The value of a string literal: ASLRef's escapes ``\\n \\t \\\\ \\"``; any other is a syntax error at it."""
    body = token[1:-1]
    if "\\" not in body:
        return body
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            nxt = body[i + 1] if i + 1 < len(body) else ""
            if nxt not in _ESCAPES:
                line, col = LineMap(text).locate(pos + 1 + i)
                sequence = "\\" + nxt
                raise AslSyntaxError(path, line, col, f"unknown escape sequence {sequence} in a string literal")
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


_PARENTHESISED = re.compile(r"\(([01]*)\)")


def _mask(token: str) -> str:
    """A mask's pattern, ``x`` for each don't-care bit: ASLRef's ``'1(01)x'``, bits in parentheses, is ``'1xxx'``."""
    body = token[1:-1].replace(" ", "")
    if "(" in body:
        body = _PARENTHESISED.sub(lambda m: "x" * len(m.group(1)), body)
    return body


def _scan(text: str, path: str = "<string>") -> list[tuple[str, object, int]]:
    """The tokens of ``text`` by one pass of the master expression, then ``EOF``."""
    tab = text.find("\t")
    if tab >= 0:  # ASL v1 has no tab character anywhere, comments and strings included (ASLRef: lexical error)
        line, col = LineMap(text).locate(tab)
        raise AslSyntaxError(path, line, col, "a tab character (ASL allows none, not even in a comment or string)")
    if not text.isascii():  # ASL source is ASCII, comments and strings included (ASLRef: lexical error)
        offset = next(i for i, c in enumerate(text) if ord(c) > 127)
        line, col = LineMap(text).locate(offset)
        raise AslSyntaxError(path, line, col, f"a non-ASCII character U+{ord(text[offset]):04X} (ASL allows none, "
                             "not even in a comment or string)")
    tokens: list[tuple[str, object, int]] = []
    append = tokens.append
    pos = 0
    end = len(text)
    match = _TOKEN.match
    keywords = KEYWORDS
    while pos < end:
        m = match(text, pos)
        if m is None:
            line, col = LineMap(text).locate(pos)
            raise AslSyntaxError(path, line, col, f"unexpected character {text[pos]!r}")
        kind = m.lastgroup
        value = m.group()
        if kind == "ws":
            pass
        elif kind == "id":
            append((value, value, pos) if value in keywords else ("ID", value, pos))
        elif kind == "op":
            append((value, value, pos))
        elif kind == "int" or kind == "hex":
            digits = value.replace("_", "") if kind == "int" else value[2:].replace("_", "")
            if len(digits) > MAX_LITERAL_DIGITS:
                line, col = LineMap(text).locate(pos)
                raise AslSyntaxError(path, line, col, f"an integer literal of {len(digits):,} digits is longer "
                                     f"than the limit of {MAX_LITERAL_DIGITS:,}")
            append(("INT", int_from_text(digits) if kind == "int" else int(digits, 16), pos))
        elif kind == "real":
            append(("REAL", value.replace("_", ""), pos))
        elif kind == "bits":
            append(("BITS", value[1:-1].replace(" ", ""), pos))
        elif kind == "mask":
            append(("MASK", _mask(value), pos))
        elif kind == "reserved":  # as ASLRef: a lexical error
            line, col = LineMap(text).locate(pos)
            raise AslSyntaxError(path, line, col, f"{value!r}: identifiers beginning '__' are reserved")
        else:
            append(("STR", _string(value, text, path, pos), pos))
        pos = m.end()
    append(("EOF", None, end))
    return tokens
