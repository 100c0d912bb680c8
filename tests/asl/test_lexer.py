"""The line-by-line tokenizer (lexer.tokenize, each different line scanned once) gives the tokens, or the error,
of one scan of the whole text (lexer._scan): on generated texts of every token kind, repeated lines, comments
of both kinds, escaped line breaks, characters ASL does not have, and on every ASL file of the sample tree."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pto_docs.asl import lexer
from pto_docs.asl.lexer import AslSyntaxError

REPO = Path(__file__).resolve().parents[2]

PIECES = st.sampled_from([
    "x", "Word_1", "begin", "end", "func", "0x1F", "0x_ff", "12", "1_000", "3.25", "'0101'", "'01x1'", "' '",
    '"text"', '"esc \\" quote"', '"a\\\\"', "==>", "<=>", "+:", "::", "[[", "]]", "(", ")", ";", ".", "..", "=",
    " ", "  ", "\t", "\n", "\r\n", "\n\n", "// note", "// note /* not a block", "/* block */", "/* two\nlines */",
    "/* open", "\\\n", "@", "#", "\u00e9", "'01", '"open',
])


def outcome(fn, text):
    try:
        return fn(text, "t.asl")
    except AslSyntaxError as exc:
        return str(exc)


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=40), st.integers(0, 3))
def test_line_by_line_gives_the_tokens_or_the_error_of_one_scan(pieces, repeats):
    text = "".join(pieces)
    text = "\n".join([text] * (repeats + 1))  # repeated lines come from the line cache
    assert outcome(lexer.tokenize, text) == outcome(lexer._scan, text)


def test_every_asl_file_of_the_sample_tree_tokenizes_the_same_both_ways():
    files = sorted((REPO / "catalog").rglob("*.asl"))
    assert files
    for path in files:
        text = path.read_text("utf-8")
        assert lexer.tokenize(text) == lexer._scan(text), path


def test_an_error_on_a_repeated_line_names_its_own_line():
    text = "x = 1;\nx = @;\nx = 1;\nx = @;\n"
    try:
        lexer.tokenize(text, "t.asl")
    except AslSyntaxError as exc:
        assert (exc.line, exc.col) == (2, 5)
    else:
        raise AssertionError("no error")
