"""asl/runner.py run_in_big_stack: a call made from a thread it started runs in that thread (a loop of many runs,
such as the teaching run, maps one 512 MB stack rather than one per run); the process's recursion limit is set
back once the outer call returns."""

from __future__ import annotations

import sys
import threading

import pytest

from pto_docs.asl.runner import run_in_big_stack


def test_a_nested_call_runs_in_the_big_stack_thread_it_is_called_from():
    main = threading.get_ident()
    limit = sys.getrecursionlimit()

    def outer():
        here = threading.get_ident()
        inner = [run_in_big_stack(threading.get_ident) for _ in range(3)]
        return here, inner, sys.getrecursionlimit()
    here, inner, inside = run_in_big_stack(outer)
    assert here != main and inner == [here] * 3
    assert inside > limit and sys.getrecursionlimit() == limit
    assert run_in_big_stack(threading.get_ident) != main


def test_an_error_of_a_nested_call_reaches_the_caller():
    def outer():
        return run_in_big_stack(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        run_in_big_stack(outer)
