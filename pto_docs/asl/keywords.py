"""The reserved words of ASL v1 as pto-docs reads it: one list, grouped by what a highlighter colours them as.

The interpreter's lexer (:mod:`.lexer`) reserves exactly :data:`RESERVED` (the union of the groups); the
Pygments lexer (``pto_docs.asl_lexer``) colours each group, plus the words of :data:`HIGHLIGHT_ONLY`: words of
other ASL dialects that a reader still expects coloured, which this interpreter reads as plain identifiers
(``TRUE`` and ``FALSE`` among them: the parser reads them as identifiers; ``procedure``, ``UNKNOWN`` and
``RDIV``, which ASLRef at the commit pto-spec pins reads as identifiers too). ``EOR`` stays reserved, an
operator (ASLRef reads it as an identifier; the repository's sample catalog writes it as an operator).
"""

from __future__ import annotations

CONTROL = (
    "begin", "end", "return", "if", "then", "elsif", "else", "for", "to", "downto", "while", "do", "repeat",
    "until", "case", "of", "when", "otherwise", "where", "assert", "throw", "try", "catch", "looplimit",
    "recurselimit", "as", "pass", "unreachable", "print", "println", "pragma", "impdef", "implementation",
)
DECLARATIONS = ("func", "accessor", "let", "var", "constant", "type", "config", "getter", "setter")
MODIFIERS = ("readonly", "pure", "noreturn")
TYPES = ("bits", "bit", "integer", "boolean", "real", "string", "array", "record", "enumeration", "exception",
         "collection")
CONSTANTS = ("ARBITRARY",)
WORD_OPERATORS = ("AND", "OR", "XOR", "EOR", "NOT", "IN", "DIV", "DIVRM", "MOD")

GROUPS = {"control": CONTROL, "declarations": DECLARATIONS, "modifiers": MODIFIERS, "types": TYPES,
          "constants": CONSTANTS, "word_operators": WORD_OPERATORS}
RESERVED = frozenset(word for words in GROUPS.values() for word in words)

HIGHLIGHT_ONLY = {
    "control": ("with", "subtypes"),
    "declarations": ("procedure",),
    "modifiers": ("private", "public"),
    "types": (),
    "constants": ("TRUE", "FALSE", "SAMPLE", "UNKNOWN"),
    "word_operators": ("RDIV", "REM", "SHL", "SHR", "div", "mod", "divrm", "rem"),
}


def highlighted(group: str) -> tuple[str, ...]:
    """The words the highlighter colours as ``group``: the reserved ones, then the dialect ones."""
    return GROUPS[group] + HIGHLIGHT_ONLY[group]
