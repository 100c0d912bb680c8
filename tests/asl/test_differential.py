"""Differential tests: every program in programs.py runs on ASLRef and on pto_docs.asl; stdout and exit
status must agree."""

from __future__ import annotations

import io

import pytest

from pto_docs.asl.runner import run_sources

from .programs import PROGRAMS as BASE_PROGRAMS
from .programs_v1 import PROGRAMS_V1
from .random_programs import ExprGen

PROGRAMS = {**BASE_PROGRAMS, **PROGRAMS_V1}


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
