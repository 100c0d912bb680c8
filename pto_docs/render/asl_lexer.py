"""A Pygments lexer for ARM ASL 1 as written in pto-spec (registered as the ``asl`` lexer by pyproject.toml).

pto-spec metadata comments (``// PTO-INSTRUCTION:``, ``// PTO-UNIT:``, ``// PTO-REVIEW:``, ``// PTO-STATE:``,
``// PTO-TEST:``, ``// PTO-REQ-…:``, ``// NDF-BEGIN:`` / ``// NDF-END:`` / ``// ndf:``, ``// DOC-BEGIN:`` /
``// DOC-END:``) lex as ``Comment.Special`` so a stylesheet can mute or highlight them.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

from pto_docs.asl.keywords import highlighted

__all__ = ["AslLexer"]

KEYWORDS = highlighted("control")
DECLARATIONS = highlighted("declarations")
MODIFIERS = highlighted("modifiers")
TYPES = highlighted("types")
CONSTANTS = highlighted("constants")
WORD_OPERATORS = highlighted("word_operators")

_MARKER = r"//[ \t]*(?:PTO-[A-Za-z0-9_.-]*:|NDF-(?:BEGIN|END):?|ndf:|DOC-(?:BEGIN|END):?)[^\n]*"
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


class AslLexer(RegexLexer):
    """ARM Architecture Specification Language (ASL 1), as used by the PTO ISA specification."""

    name = "ASL"
    aliases = ["asl"]
    filenames = ["*.asl"]
    mimetypes = ["text/x-asl"]
    url = "https://github.com/PTO-ISA/pto-spec"

    tokens = {
        "root": [
            (r"\n", Whitespace),
            (r"[ \t\r\f\v]+", Whitespace),
            (_MARKER, Comment.Special),
            (r"//[^\n]*", Comment.Single),
            (r"/\*", Comment.Multiline, "block-comment"),
            (r'"', String.Double, "string"),
            (r"'[01xXzZ \t]*'", Number.Bin),
            (r"0[xX][0-9A-Fa-f_]+", Number.Hex),
            (r"0[bB][01_]+", Number.Bin),
            (r"[0-9][0-9_]*\.[0-9][0-9_]*(?:[eE][+-]?[0-9]+)?", Number.Float),
            (r"[0-9][0-9_]*", Number.Integer),
            (r"(func)(\s+)(" + _IDENT + ")", bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"(type)(\s+)(" + _IDENT + ")", bygroups(Keyword.Declaration, Whitespace, Name.Class)),
            (words(DECLARATIONS, suffix=r"\b"), Keyword.Declaration),
            (words(MODIFIERS, suffix=r"\b"), Keyword.Reserved),
            (words(TYPES, suffix=r"\b"), Keyword.Type),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(WORD_OPERATORS, suffix=r"\b"), Operator.Word),
            (words(KEYWORDS, suffix=r"\b"), Keyword),
            (_IDENT + r"(?=\s*\()", Name.Function),
            (_IDENT, Name),
            (r"-->|<->|=>|==|!=|<=|>=|&&|\|\||<<|>>|\+\+|\+:|\*:|-:|::|\.\.", Operator),
            (r"[-+*/^<>=!&|%~?@]", Operator),
            (r"[()\[\]{},;:.]", Punctuation),
            # Anything else (e.g. a non-ASCII character outside a comment) stays plain text, never an error token.
            (r"[^\x00-\x7f]+", Text),
        ],
        "block-comment": [
            (r"[^*]+", Comment.Multiline),
            (r"\*/", Comment.Multiline, "#pop"),
            (r"\*", Comment.Multiline),
        ],
        "string": [
            (r'\\.', String.Escape),
            (r'[^"\\\n]+', String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", String.Double),
        ],
    }
