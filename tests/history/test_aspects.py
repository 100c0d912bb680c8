"""What counts as a change of an instruction's ASL semantics, and that hostile text cannot make it slow."""

from __future__ import annotations

import time

import pytest

from pto_docs.history.aspects import aspect_of, normalised_asl


def test_comments_and_whitespace_are_no_change_but_strings_and_tokens_are():
    base = 'func F() => bits(4)\nbegin\n    return x + "a  b"; // why\nend;\n'
    same = '/* note */ func F()=>bits( 4 )\n\nbegin\n  return   x+"a  b" ;\nend ;  // other\n'
    assert normalised_asl(base) == normalised_asl(same)
    assert normalised_asl(base) != normalised_asl(base.replace('"a  b"', '"a b"'))  # a literal as written
    assert normalised_asl(base) != normalised_asl(base.replace("return x", "return xy"))
    assert normalised_asl("a b") != normalised_asl("ab")  # a space between two words separates tokens


@pytest.mark.parametrize("aspect, top, key", [("encoding", "catalog_records", "encoding"),
                                              ("syntax", "catalog_records", "asm"),
                                              ("encoding", "contract", "field_contracts"),
                                              ("syntax", "contract", "block_composition"),
                                              ("contract", "contract", "legality"),
                                              ("record", "summary", None)])
def test_record_fields_have_their_aspect(aspect, top, key):
    assert aspect_of(top, key) == aspect


@pytest.mark.parametrize("text", ['"\\' * 20000, '"' + '\\"' * 20000 + "\\", "/*" * 100000, '"' * 100001],
                         ids=["quote-backslash", "escaped-quotes", "open-comments", "quotes"])
def test_hostile_asl_is_normalised_in_linear_time(text):
    started = time.process_time()
    normalised_asl(text)
    assert time.process_time() - started < 2.0  # (the backtracking patterns took over 20 s on the first)
