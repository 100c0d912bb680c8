"""Programs ASLRef rejects when it type-checks them end here in an ASL error that says what is wrong (issue 34),
never in an internal error of the interpreter: where the text gives the types cheaply the compiler says so
(static_kinds.py), anything else Python raises on values the ASL should not have combined is translated by
Program.call (errors.runtime_type_error). Hypothesis writes random, also ill-typed, programs: none may end in an
internal error or a Python exception."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pto_docs.asl.errors import AslCompileError, AslError, AslInternalError, AslThrow
from pto_docs.asl.lexer import AslSyntaxError
from pto_docs.asl.parser import parse
from pto_docs.asl.program import Program
from pto_docs.asl.runner import run_in_big_stack, run_main, run_sources


def main_of(body: str, decls: str = "") -> str:
    return f"{decls}\nfunc main() => integer\nbegin\n{body}\n    return 0;\nend;\n"


CASES = [
    ("    return 5 + \"hello\";", "", "operator + cannot combine an integer and a string"),
    ("    var p : Packet;\n    var x = p.undeclared_bitfield;", "type Packet of bits(8) { [0] flag, [7:1] data };",
     "a value of type Packet has no bitfield undeclared_bitfield"),
    ("    var a: array[[5]] of integer;\n    var x = a.f;", "", "an array has no field f"),
    ("    let r = R{i=3, b=TRUE};\n    var x = r.undeclared_field;", "type R of record {i: integer, b: boolean};",
     "a value of type R has no field undeclared_field"),
    ("    let x = 5.0[2:0];", "", "a slice of a real: only a bitvector or an integer has slices"),
    ("    var x: integer;\n    x.RED = 42;", "type R of record { RED: integer };", "an integer has no field RED"),
    ("    case 3 of\n        when '101' => println(\"no\");\n    end;", "",
     "the bitvector pattern '101' cannot match an integer"),
    ("    var x: integer = 32;\n    x[0] = '1';", "", "a slice of an integer is written: only a bitvector's slices"),
    ("    let b = 3;\n    if b IN {'1x'} then println(\"no\"); end;", "",
     "the bitvector pattern '1x' cannot match an integer"),
]


@pytest.mark.parametrize(("body", "decls", "expected"), CASES)
def test_an_ill_typed_use_the_text_shows_is_a_precise_located_error(body, decls, expected):
    status, message = run_sources([("p.asl", main_of(body, decls))], io.StringIO())
    assert status == 1
    assert message.startswith("ASL error: p.asl:"), message
    assert expected in message, message
    assert "internal error" not in message


RUNTIME_CASES = [
    # the types are not in the text here: Python's exception is translated where the run ends
    ("func F(x: integer, y: string) => integer\nbegin\n    return x + y;\nend;", "    let v = F(1, \"a\");",
     "type error: operator + cannot combine an integer and a string"),
    ("func F(x: integer) => integer\nbegin\n    return x.RED;\nend;", "    let v = F(1);",
     "an integer has no field RED"),
    ("type R of record { a: integer };\ntype S of record { b: integer };\nfunc F() => S\nbegin\n"
     "    return S{b = 1};\nend;", "    let v = F().a;", "type error: the record has no field a"),
    ("func G() => integer\nbegin\n    return 3;\nend;", "    let v = G();\n    let w = v[0] :: '1';\n"
     "    let u = v :: '1';", "type error: an integer where a bitvector is expected"),
    # (Hypothesis found it: DIV on an enumeration label reached Python's str % int)
    ("type Colour of enumeration { RED, GREEN };\nfunc F(c: Colour) => integer\nbegin\n    return -(c DIV 7);\nend;",
     "    let v = F(RED);", "type error: DIV or MOD on a string or an enumeration label"),
]


@pytest.mark.parametrize(("decls", "body", "expected"), RUNTIME_CASES)
def test_an_ill_typed_value_met_at_run_time_is_a_typed_asl_error(decls, body, expected):
    status, message = run_sources([("p.asl", main_of(body, decls))], io.StringIO())
    assert status == 1
    assert expected in message, message
    assert "internal error" not in message and message.startswith("ASL error: p.asl:"), message


# -- random programs, also ill-typed --------------------------------------------------------------------------
TYPES = ["integer", "boolean", "real", "string", "bits(4)", "bits(8)", "R", "Flags", "array[[3]] of integer",
         "(integer, bits(4))", "Colour"]
DECLS = """type R of record { a: integer, b: bits(4) };
type Flags of bits(8) { [7:4] hi, [0] z };
type Colour of enumeration { RED, GREEN };
type E of exception { code: integer };
var G: R;
var GA: array[[3]] of integer;
"""
NAMES = ["x", "y", "z"]
atoms = st.sampled_from(["0", "7", "-3", "2.5", "TRUE", "\"s\"", "'1010'", "'10'", "RED", "x", "y", "z", "G",
                         "GA", "G.a", "G.b", "R{a = 1, b = '0001'}", "(1, '0011')", "Zeros{4}", "ARBITRARY: R"])
UNARY = ["-", "NOT ", "!"]
BINARY = ["+", "-", "*", "DIV", "MOD", "AND", "OR", "XOR", "::", "==", "!=", "<", ">=", "&&", "||", "++", "<<",
          "^", "/"]
POSTFIX = [".a", ".b", ".hi", ".z", ".item0", ".item1", ".nothere", "[0]", "[3:0]", "[[1]]", "[[5]]", ".[a, b]",
           " as integer {0..9}", " as bits(4)"]


def expressions(depth: int = 3):
    if depth == 0:
        return atoms
    sub = expressions(depth - 1)
    return st.one_of(
        atoms,
        st.builds(lambda op, a: f"({op}{a})", st.sampled_from(UNARY), sub),
        st.builds(lambda a, op, b: f"({a} {op} {b})", sub, st.sampled_from(BINARY), sub),
        st.builds(lambda a, p: f"({a}){p}" if not p.startswith(" ") else f"({a}{p})", sub, st.sampled_from(POSTFIX)),
        st.builds(lambda c, a, b: f"(if {c} then {a} else {b})", sub, sub, sub),
        st.builds(lambda f, a: f"{f}({a})", st.sampled_from(["UInt", "SInt", "Len", "IsZero", "Abs", "ILog2"]), sub),
    )


TARGETS = st.sampled_from(["x", "y", "z", "G", "G.a", "G.b", "GA[[1]]", "x.a", "x[0]", "y[3:0]", "z.hi", "x.[a, b]",
                           "GA[[7]]", "G.nothere", "(x, y)"])


def statements():
    expr = expressions()
    simple = st.one_of(
        st.builds(lambda t, e: f"{t} = {e};", TARGETS, expr),
        st.builds(lambda e: f"println({e});", expr),
        st.builds(lambda e: f"assert {e};", expr),
        st.builds(lambda e: f"throw E{{code = {e}}};", expr),
        st.builds(lambda e: f"G = {e};", expr),
    )
    return st.one_of(
        simple,
        st.builds(lambda c, s: f"if {c} then {s} end;", expr, simple),
        st.builds(lambda e, s: f"for i = 0 to {e} do {s} end;", expr, simple),
        st.builds(lambda e, s: f"case {e} of when '1x' => {s} when 3 => {s} otherwise => pass; end;", expr, simple),
        st.builds(lambda s: f"try {s} catch when e: E => println(e.code); end;", simple),
    )


PROGRAMS = st.builds(
    lambda tys, inits, body, ret: (
        DECLS + "func F(x: " + tys[0] + ", y: " + tys[1] + ") => integer\nbegin\n"
        + "".join(f"    var {'z'}: {tys[2]} = {inits};\n" for _ in [0])
        + "".join(f"    {s}\n" for s in body) + f"    return {ret};\nend;\n\n"
        + "func main() => integer\nbegin\n    return F(ARBITRARY: " + tys[0] + ", ARBITRARY: " + tys[1] + ");\nend;\n"),
    st.lists(st.sampled_from(TYPES), min_size=3, max_size=3),
    expressions(2),
    st.lists(statements(), min_size=1, max_size=4),
    expressions(2),
)


def run_program(text: str) -> str:
    """How the program ends: 'syntax', 'compile', 'dynamic', 'throw', 'exit' (an internal error or any other
    Python exception fails the test)."""
    try:
        decls = parse(text, "p.asl")
    except AslSyntaxError:
        return "syntax"
    out = io.StringIO()
    try:
        program = Program(decls, out)
        program.step_budget = 20_000

        def go():
            program.renew_budget()
            program.initialize()
            return run_main(program)

        run_in_big_stack(go)
    except AslInternalError as exc:
        raise AssertionError(f"internal error: {exc}\n{text}") from None
    except AslCompileError:
        return "compile"
    except AslError:
        return "dynamic"
    except AslThrow:
        return "throw"
    return "exit"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(PROGRAMS)
def test_random_programs_end_in_an_asl_outcome_never_a_python_exception(text):
    assert run_program(text) in ("syntax", "compile", "dynamic", "throw", "exit")
