"""Differential tests: every program in programs.py runs on ASLRef and on pto_docs.asl; stdout and exit
status must agree."""

from __future__ import annotations

import io
import subprocess

import pytest

from pto_docs.asl.lexer import AslSyntaxError
from pto_docs.asl.parser import parse
from pto_docs.asl.runner import run_sources

from .conftest import aslref_path
from .programs import PROGRAMS as BASE_PROGRAMS
from .programs_syntax import PROGRAMS_SYNTAX, REJECTED_SYNTAX
from .programs_v1 import PROGRAMS_V1
from .random_programs import ExprGen

PROGRAMS = {**BASE_PROGRAMS, **PROGRAMS_V1, **PROGRAMS_SYNTAX}


def run_ours(name: str, text: str) -> tuple[str, int]:
    out = io.StringIO()
    status, _message = run_sources([(f"{name}.asl", text)], out)
    return out.getvalue(), status


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_output_and_status_as_aslref(name, aslref, tmp_path):
    program = tmp_path / f"{name}.asl"
    program.write_text(PROGRAMS[name], encoding="utf-8")
    expected_out, expected_status = aslref(program)
    out, status = run_ours(name, PROGRAMS[name])
    assert (out, status) == (expected_out, expected_status)


@pytest.mark.parametrize("name", sorted(REJECTED_SYNTAX))
def test_rejected_for_grammar_or_lexical_reasons_as_aslref(name, tmp_path):
    """ASLRef rejects the program before it runs (a grammar or lexical error); here it is an ASL-SYNTAX error
    that says why."""
    text, reason = REJECTED_SYNTAX[name]
    path = aslref_path()
    if path is None:
        pytest.skip("ASLRef binary not found (set PTO_DOCS_ASLREF)")
    program = tmp_path / f"{name}.asl"
    program.write_text(text, encoding="utf-8")
    done = subprocess.run([path, str(program)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and ("Grammar error" in done.stderr or "Lexical error" in done.stderr), done.stderr
    with pytest.raises(AslSyntaxError) as caught:
        parse(text, f"{name}.asl")
    assert "error[ASL-SYNTAX]" in str(caught.value) and reason in str(caught.value)


def test_failing_programs_really_fail():
    """The suite covers failure paths: these programs end in an assertion or dynamic error."""
    for name in ("assert_fails", "unreachable", "slice_out_of_range", "div_inexact_is_error",
                 "array_index_out_of_range", "integer_constraint_checks", "shift_of_a_bitvector_is_error"):
        _out, status = run_ours(name, PROGRAMS[name])
        assert status != 0, name


@pytest.mark.parametrize("seed", range(6))
def test_random_expressions_agree_with_aslref(seed, aslref, tmp_path):
    text = ExprGen(seed).program(120)
    program = tmp_path / f"random{seed}.asl"
    program.write_text(text, encoding="utf-8")
    expected_out, expected_status = aslref(program)
    assert expected_status == 0, "the generator must produce programs ASLRef accepts and runs"
    out, status = run_ours(f"random{seed}", text)
    assert (status, out.splitlines()) == (expected_status, expected_out.splitlines())
