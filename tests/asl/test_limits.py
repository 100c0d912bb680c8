"""The interpreter's limits (issue 30): calls count against the step budget, values beyond the size bounds are
dynamic errors when they are built (also when the compiler folds a constant), and no ASL text makes the lexer,
the parser or the runtime raise anything but a positioned ASL error. Programs that would hang run in a
subprocess (``python -m pto_docs.asl.runner``, as a user runs one) under a timeout, so a regression fails."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pto_docs.asl.lexer import AslSyntaxError
from pto_docs.asl.limits import MAX_BITS, int_text
from pto_docs.asl.parser import MAX_NESTING, parse
from pto_docs.asl.runner import run_sources
from tests.conftest import REPO

H = """func H(n: integer) => integer
begin
    if n == 0 then return 1; end;
    return H(n - 1) + H(n - 1);
end;
"""


def run_file(tmp_path, text: str, timeout: float = 120) -> tuple[int, str, str]:
    path = tmp_path / "prog.asl"
    path.write_text(text, "utf-8")
    done = subprocess.run([sys.executable, "-m", "pto_docs.asl.runner", str(path)], cwd=REPO, capture_output=True,
                          text=True, timeout=timeout)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


def run_text(text: str) -> tuple[int, str, str]:
    out = io.StringIO()
    status, message = run_sources([("p.asl", text)], out)
    return status, out.getvalue(), message


def main_of(body: str) -> str:
    return f"func main() => integer\nbegin\n{body}\n    return 0;\nend;\n"


def test_an_exponential_recursion_without_a_loop_ends_on_the_step_budget(tmp_path):
    code, out, err = run_file(tmp_path, H + main_of("    println(H(10));\n    println(H(60));"))
    assert code == 1 and out == "1024\n"
    assert err.startswith("ASL error: ") and "prog.asl:1:1: in H: step budget exhausted" in err, err


def test_a_for_loop_is_charged_per_iteration_not_its_whole_range_up_front():
    # the range is far beyond the budget; the loop leaves after four iterations
    status, out, message = run_text(main_of("    for i = 0 to 2^62 do\n        if i == 3 then println(i); return 0; end;"
                                            "\n    end;"))
    assert (status, out, message) == (0, "3\n", "")


def test_a_huge_value_in_a_branch_never_taken_is_not_built_at_compile_time(tmp_path):
    code, out, err = run_file(tmp_path, main_of("    if FALSE then let y = Replicate('1', 2^40); println(y); end;\n"
                                                "    println(\"done\");"), timeout=60)
    assert (code, out, err) == (0, "done\n", "")


@pytest.mark.parametrize("expression, what", [
    ("Ones{2^34}", "a bitvector of 17179869184 bits is beyond the limit"),
    ("Zeros{2^40}", "a bitvector of 1099511627776 bits is beyond the limit"),
    ("Replicate('1', 2^40)", "a bitvector of 1099511627776 bits is beyond the limit"),
    ("ZeroExtend('1', 2^30)", "a bitvector of 1073741824 bits is beyond the limit"),
    ("2 ^ (2 ^ 40)", "the result of ^ would have about 1099511627776 bits"),
    ("1 << (2 ^ 40)", "the result of << would have about 1099511627777 bits"),
])
def test_a_value_beyond_the_bounds_is_a_dynamic_error_when_built(tmp_path, expression, what):
    code, out, err = run_file(tmp_path, main_of(f"    let n = 1;\n    println(\"start\");\n    let x = {expression};"),
                              timeout=60)
    assert code == 1 and out == "start\n" and what in err, err


def test_a_number_squared_in_a_loop_stops_at_the_integer_bound(tmp_path):
    code, out, err = run_file(tmp_path, main_of("    var x : integer = 3;\n    for i = 1 to 64 do x = x * x; end;"),
                              timeout=120)
    assert code == 1 and "the result of * would have about" in err and f"{MAX_BITS:,} bits" in err, err


def test_a_string_doubled_in_a_loop_stops_at_the_bound(tmp_path):
    code, out, err = run_file(tmp_path, main_of('    var s : string = "ab";\n    for i = 1 to 40 do s = s ++ s; end;'),
                              timeout=60)
    assert code == 1 and "a string of 33,554,432 characters is beyond the limit of 16,777,216" in err, err


def test_a_replicate_as_wide_as_the_bound_is_built_in_linear_time(tmp_path):
    # a loop of shifts took time quadratic in the width: hours for 2^24 bits
    code, out, err = run_file(tmp_path, main_of("    let r = Replicate('01', 2^23);\n    println(BitCount(r));\n"
                                                "    println(r[3:0]);"), timeout=60)
    assert (code, out, err) == (0, "8388608\n0x5\n", "")


def test_a_global_initialiser_over_a_bound_names_the_global():
    status, _, message = run_text("constant PROBE_BIG = Ones{2^34};\n" + main_of(""))
    assert status == 1 and "in the initialiser of global PROBE_BIG: a bitvector of 17179869184 bits" in message


def test_integers_of_more_than_4300_digits_print_and_parse():
    literal = "7" * 5000
    status, out, message = run_text(main_of(f"    println({literal} + 1);\n    println(-(2^20000));"))
    assert message == "" and status == 0
    first, second = out.splitlines()
    assert first == "7" * 4999 + "8"
    assert second.startswith("-39802768403379665923543072061912024537047727804924259387134") and len(second) == 6022
    assert int_text(-(10**9000)) == "-1" + "0" * 9000


def test_a_string_literal_with_an_unknown_escape_is_a_positioned_syntax_error():
    with pytest.raises(AslSyntaxError) as caught:
        parse('let s : string = "ok";\nlet t : string = "a\\x";\n', "u.asl")
    assert str(caught.value) == "u.asl:2:20: error[ASL-SYNTAX]: unknown escape sequence \\x in a string literal"
    status, out, _ = run_text(main_of('    println("tab\\there \\"q\\" \\\\ end");'))
    assert (status, out) == (0, 'tab\there "q" \\ end\n')


def test_nesting_past_the_limit_is_a_positioned_syntax_error():
    deep = "(" * 3000 + "1" + ")" * 3000
    with pytest.raises(AslSyntaxError) as caught:
        parse(f"constant X : integer = {deep};\n", "u.asl")
    assert caught.value.line == 1 and f"nested more than {MAX_NESTING} deep" in str(caught.value)
    ifs = "".join("    " * i + "if TRUE then\n" for i in range(200)) + "".join("end;\n" for _ in range(200))
    with pytest.raises(AslSyntaxError, match="statements nested more than"):
        parse(main_of(ifs), "u.asl")
    with pytest.raises(AslSyntaxError, match="nested more than"):
        parse("constant X : integer = " + "-" * 5000 + "1;\n", "u.asl")
    assert run_text(main_of(f"    println({'(' * 30}1{')' * 30});"))[:2] == (0, "1\n")  # within the limit: runs


def test_an_interpreter_failure_is_a_located_asl_error_not_a_traceback():
    status, _, message = run_text("func F(s: string) => integer\nbegin\n    let x : integer = 1 + s;\n    return x;\nend;\n"
                                  + main_of("    let y = F(\"a\");"))
    assert status == 1
    assert message == "ASL error: p.asl:1:1: in F: type error: operator + cannot combine an integer and a string", message


def test_a_subprogram_python_cannot_compile_is_a_located_compile_error():
    chain = " + ".join(["n"] * 400)  # the generated Python nests a parenthesis per operator: over Python's 200
    status, _, message = run_text(f"func F(n: integer) => integer\nbegin\n    return {chain};\nend;\n"
                                  + main_of("    let y = F(1);"))
    assert status == 1
    assert message.startswith("ASL error: p.asl:1:1: in F: the subprogram cannot be compiled"), message


HOSTILE = st.one_of(
    st.builds(lambda n: f"Ones{{{n}}}", st.integers(0, 2**70)),
    st.builds(lambda n: f"Zeros{{{n}}}", st.integers(0, 2**70)),
    st.builds(lambda n: f"Replicate('10', {n})", st.integers(0, 2**70)),
    st.builds(lambda a, b: f"({a}) ^ ({b})", st.integers(-2**40, 2**40), st.integers(0, 2**70)),
    st.builds(lambda a, b: f"({a}) << ({b})", st.integers(-2**40, 2**40), st.integers(0, 2**70)),
    st.builds(lambda n: f"(Ones{{64}} :: Zeros{{{n}}})", st.integers(0, 2**40)),
    st.builds(lambda d, n: "(" * d + str(n) + ")" * d, st.integers(0, 80), st.integers(-10**30, 10**30)),
    st.builds(lambda w, n: f"LSL(Ones{{{w}}}, {n})", st.integers(1, 128), st.integers(0, 2**70)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HOSTILE)
def test_hostile_sizes_run_or_end_with_an_asl_error(expression):
    # each example is cheap: a value is either small enough to build or refused before it is built
    status, _, message = run_text(main_of(f"    let x = {expression};\n    println(x);"))
    assert status in (0, 1)
    if status:
        assert (message.startswith("ASL error: ") and "internal error" not in message
                or message.startswith("p.asl:3:") and "error[ASL-SYNTAX]: expression nested more than" in message), \
            message


def test_int_text_is_pythons_decimal_text_at_every_size_it_splits_at():
    """int_text against Python's own conversion (its digit limit lifted here): sizes around the split points, all
    ones, powers of two and negatives."""
    import random
    import sys

    from pto_docs.asl.limits import int_text
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        rng = random.Random(30)
        for bits in [*range(12_990, 13_010), 4095, 4096, 4097, 8193, 20_000, 65_537, 200_003]:
            for v in (rng.getrandbits(bits) | (1 << (bits - 1)), (1 << bits) - 1, 1 << bits, -rng.getrandbits(bits)):
                assert int_text(v) == str(v), bits
    finally:
        sys.set_int_max_str_digits(old)
