"""Parser and lexer: shapes of the tree, precedence rules, and the ASL-SYNTAX diagnostic format."""

from __future__ import annotations

import pytest

from pto_docs.asl.lexer import AslSyntaxError, tokenize
from pto_docs.asl.parser import parse
from pto_docs.asl.syntax import EnumType, MaskPattern


def only_return_expr(text: str):
    decls = parse(f"func F() => integer\nbegin\n    return {text};\nend;\n")
    return decls[0].body[0].value


def test_tokens_carry_kinds_values_and_offsets():
    kinds = [(k, v) for k, v, _ in tokenize("x = 0x1F + '10 01' // c\n")]
    assert kinds == [("ID", "x"), ("=", "="), ("INT", 31), ("+", "+"), ("BITS", "1001"), ("EOF", None)]


def test_multiplication_binds_tighter_than_addition():
    e = only_return_expr("1 + 2 * 3")
    assert e.tag == "bin" and e.op == "+" and e.right.op == "*"


def test_mixing_operators_of_one_level_needs_parentheses():
    with pytest.raises(AslSyntaxError, match="parentheses"):
        only_return_expr("1 - 2 + 3")
    assert only_return_expr("(1 - 2) + 3").op == "+"
    assert only_return_expr("1 + 2 + 3").left.op == "+"


def test_comparisons_do_not_chain():
    with pytest.raises(AslSyntaxError):
        only_return_expr("1 < 2 < 3")


def test_bitmask_only_in_patterns():
    e = only_return_expr("x == '1x0'")
    assert e.tag == "in" and e.patterns[0] == MaskPattern(0b100, 0b101, 3)
    with pytest.raises(AslSyntaxError):
        only_return_expr("'1x0'")


def test_syntax_error_format_has_path_line_column():
    with pytest.raises(AslSyntaxError) as info:
        parse("func F() => integer\nbegin\n    return 1 +;\nend;\n", "spec/a.asl")
    assert str(info.value).startswith("spec/a.asl:3:15: error[ASL-SYNTAX]: ")


def test_lexical_error_format():
    with pytest.raises(AslSyntaxError) as info:
        parse("constant X = 1;\nconstant Y = 2 $ 3;\n", "b.asl")
    assert str(info.value).startswith("b.asl:2:16: error[ASL-SYNTAX]: unexpected character")


def test_declarations_kinds():
    decls = parse(
        "type E of enumeration { A, B };\n"
        "type R of record { x: integer, y: bits(4) };\n"
        "var G : R;\nconstant K = 3;\n"
        "impdef func H(a: integer) => integer\nbegin\n    return a;\nend;\n"
    )
    assert [d.tag for d in decls] == ["type", "type", "global", "global", "func"]
    assert decls[0].ty == EnumType(["A", "B"])
    assert decls[4].override == "impdef"
