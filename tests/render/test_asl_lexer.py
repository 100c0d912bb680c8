"""The ASL Pygments lexer: token classes on written fixtures, no error tokens on any upstream unit."""

from __future__ import annotations

import pytest
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, String

from pto_docs.render.asl_lexer import AslLexer
from tests.isa._build import spec_checkout

FIXTURE = """\
// PTO-INSTRUCTION: {"id":"PTO-TILE-TDEMO","surface":"tile"}
// PTO-REVIEW: {"outcome":"FORMAL-COMPLETE"}
// NDF-BEGIN: PTO-TDEMO-CONTRACT-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// TDEMO MUST do the demo.
// NDF-END: PTO-TDEMO-CONTRACT-001
// PTO-REQ-DEMO-001: a legacy tag
// DOC-BEGIN: decode
type DemoKind of enumeration {Demo_A, Demo_B};
type DemoRec of record { valid: boolean, bits8: bits(8) };
constant DEMO_LIMIT : integer = 0x1F_FF;
var _DemoState : array [[4]] of integer {0..255};
/* a block
   comment */
readonly func DemoRead(index: integer {0..3}) => bits(8)
begin
    let raw : bits(8) = '1010 0101';
    var x : real = 1.5;
    var ok : boolean = TRUE;
    if index == 0 && raw[7] == '1' then
        return raw[7:0] AND NOT '0000 1111';
    elsif index IN {1, 2} || index >= 3 then
        return Zeros{8} OR ZeroExtend(raw[3+:4], 8);
    else
        assert FALSE;
    end;
    for i = 0 to 3 looplimit 4 do
        x = x * 2.0;
    end;
    for j = 3 downto 0 do pass; end;
    while x > 0.0 looplimit 10 do x = x - 1.0; end;
    repeat x = x + 1.0; until x >= 4.0;
    case index of
        when 0 => print("zero\\n");
        otherwise => throw DemoError{};
    end;
    try DemoOther(); catch when DemoError => return UNKNOWN : bits(8); end;
    return (index DIV 2) as bits(8) XOR ((index MOD 2) as bits(8)) ++ raw[0+:1];
end;
pure noreturn func DemoFail()
begin
    throw DemoError{};
end;
// DOC-END: decode
"""


def tokens(text: str):
    return list(AslLexer().get_tokens(text))


def test_registered_under_asl():
    assert isinstance(get_lexer_by_name("asl"), AslLexer)
    assert isinstance(get_lexer_for_filename("demo.asl"), AslLexer)
    assert AslLexer.name == "ASL" and AslLexer.aliases == ["asl"] and AslLexer.filenames == ["*.asl"]


def test_fixture_token_classes(tmp_path):
    path = tmp_path / "demo.asl"
    path.write_text(FIXTURE, encoding="utf-8")
    toks = tokens(path.read_text(encoding="utf-8"))
    assert "".join(v for _t, v in toks) == FIXTURE
    assert not [v for t, v in toks if t in Error]
    kinds: dict[str, set] = {}
    for t, v in toks:
        kinds.setdefault(v, set()).add(t)
    special = [v for t, v in toks if t is Comment.Special]
    assert len(special) == 8  # PTO-INSTRUCTION, PTO-REVIEW, NDF-BEGIN, ndf:, NDF-END, PTO-REQ-…, DOC-BEGIN, DOC-END
    assert any(t is Comment.Single and v.startswith("// TDEMO MUST") for t, v in toks)
    assert Comment.Multiline in kinds["/*"]
    for word in ("begin", "end", "return", "if", "then", "elsif", "else", "for", "to", "downto", "while", "do",
                 "repeat", "until", "case", "of", "when", "otherwise", "assert", "throw", "try", "catch",
                 "looplimit", "as", "pass"):
        assert any(t in Keyword for t in kinds[word]), word
    for word in ("func", "let", "var", "constant", "type"):
        assert Keyword.Declaration in kinds[word], word
    for word in ("readonly", "pure", "noreturn"):
        assert any(t in Keyword for t in kinds[word]), word
    for word in ("bits", "integer", "boolean", "real", "array", "record", "enumeration"):
        assert Keyword.Type in kinds[word], word
    for word in ("TRUE", "FALSE", "UNKNOWN"):
        assert Keyword.Constant in kinds[word], word
    for word in ("AND", "OR", "XOR", "NOT", "IN", "DIV", "MOD"):
        assert Operator.Word in kinds[word], word
    assert Number.Bin in kinds["'1010 0101'"] and Number.Bin in kinds["'1'"]
    assert Number.Hex in kinds["0x1F_FF"]
    assert Number.Float in kinds["1.5"] and Number.Integer in kinds["255"]
    assert Name.Function in kinds["DemoRead"] and Name.Function in kinds["ZeroExtend"] and Name.Function in kinds["DemoOther"]
    assert Name.Class in kinds["DemoKind"]
    assert Name in kinds["raw"]
    assert String.Escape in kinds["\\n"]
    for op in ("=>", "==", "&&", "||", ">=", "+:", "++", ".."):
        assert any(t in Operator for t in kinds[op]), op


def test_highlight_produces_classes():
    html = highlight(FIXTURE, AslLexer(), HtmlFormatter())
    assert 'class="k"' in html and 'class="cs"' in html and 'class="nf"' in html
    assert 'class="err"' not in html


def test_odd_input_never_yields_error_tokens():
    odd = 'x = "unterminated\nlet y = \u00e9t\u00e9; ` $ # \\ \x01'
    toks = tokens(odd)
    assert "".join(v for _t, v in toks) == odd + "\n"  # Pygments only appends the final newline
    errors = [v for t, v in toks if t in Error]
    # characters outside ASL's alphabet may be errors, but letters (including non-ASCII ones) never are
    assert all(not v.strip("`$#\\\x01") for v in errors)


@pytest.mark.realtree
def test_every_upstream_unit_lexes_without_error_tokens():
    root = spec_checkout()
    if root is None:
        pytest.skip("no PTO-ISA/pto-spec checkout (set PTO_SPEC_CHECKOUT)")
    lexer = AslLexer()
    files = sorted((root / "asl").rglob("*.asl"))
    assert len(files) >= 800
    bad = {}
    for path in files:
        errors = [v for t, v in lexer.get_tokens(path.read_text(encoding="utf-8")) if t in Error]
        if errors:
            bad[str(path.relative_to(root))] = errors[:5]
    assert bad == {}


def test_every_word_the_interpreter_reserves_is_highlighted_as_a_keyword():
    """One keyword list: each word the interpreter's lexer reserves lexes, alone, as one keyword-ish token."""
    from pto_docs.asl.lexer import KEYWORDS

    lexer = AslLexer()
    plain = []
    for word in sorted(KEYWORDS):
        tokens = [(kind, text) for kind, text in lexer.get_tokens(word) if text.strip()]
        if len(tokens) != 1 or not (tokens[0][0] in Keyword or tokens[0][0] in Operator.Word):
            plain.append((word, tokens))
    assert plain == []
