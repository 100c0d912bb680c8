"""``python -m pto_docs.cli.assemble``: the assembler's developer entry point, on the repository's catalog."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPO


def run(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "pto_docs.cli.assemble", *args], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=300)


def test_it_assembles_text_and_says_which_text_does_not():
    from pto_docs.analysis.load import load_catalog
    from pto_docs.isa.assembler import Assembler
    text = "BSTART.VEC TMUL, FP16"
    expected = Assembler(load_catalog(REPO / "catalog").catalog).assemble(text)
    done = run("--spec-root", str(REPO / "catalog"), text, "NOSUCH a0")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{text}: {expected.hex} ({expected.length_bits} bits) ")
    assert lines[1].startswith("NOSUCH a0: error: ")


def test_an_unreadable_tree_is_a_usage_error(tmp_path):
    done = run("--spec-root", str(tmp_path / "missing"), "BSTART.VEC TMUL, FP16")
    assert done.returncode == 2
    assert done.stderr.startswith("error: ")
