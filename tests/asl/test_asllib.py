"""ASLRef's own test programs (herdtools7 asllib/tests, the tarball in ../shared/tools/aslref) on our interpreter.

Every program ASLRef runs must end the same way here (same stdout, same exit status or a dynamic error), every
program it rejects for grammar or lexical reasons must be rejected here (ASL-SYNTAX), and no program may end in
a Python traceback; the programs that do not agree yet are listed, each with a reason, in
``asllib_differences.txt``, and each listed one must still disagree (fixing one shrinks the list)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from . import asllib_suite as suite
from .conftest import aslref_path

DIFFERENCES = Path(__file__).with_name("asllib_differences.txt")


@pytest.fixture(scope="session")
def asllib(tmp_path_factory):
    tarball = suite.tarball_path()
    if tarball is None:
        pytest.skip(f"ASLRef's test programs not found ({suite.TARBALL}; set PTO_DOCS_ASLLIB_TESTS)")
    root = suite.unpack(tarball, tmp_path_factory.mktemp("asllib"))
    names = suite.programs(root)
    aslref = aslref_path()
    if aslref is None and os.environ.get("PTO_DOCS_ASLREF"):
        pytest.fail(f"PTO_DOCS_ASLREF={os.environ['PTO_DOCS_ASLREF']} is not an ASLRef binary")
    expected = suite.expectations(root, names, aslref)
    ours = suite.run_ours_all(root, names)
    return root, names, expected, ours, aslref


def test_the_tarball_holds_the_programs(asllib):
    _root, names, expected, _ours, _aslref = asllib
    assert len(names) > 1000
    assert sum(suite.compared(e) for e in expected.values()) > 500


def test_every_unlisted_program_agrees_and_none_ends_in_a_traceback(asllib):
    _root, names, expected, ours, _aslref = asllib
    known = suite.load_differences(DIFFERENCES)
    found = suite.disagreements(names, expected, ours)
    new = {n: r for n, r in found.items() if n not in known}
    assert not new, "programs that disagree with ASLRef and are not listed:\n" + "\n".join(
        f"{n}  {r}" for n, r in sorted(new.items()))


def test_every_listed_program_still_disagrees(asllib):
    _root, names, expected, ours, _aslref = asllib
    known = suite.load_differences(DIFFERENCES)
    found = suite.disagreements(names, expected, ours)
    unknown = sorted(set(known) - set(names))
    assert not unknown, f"listed programs that are not in the tarball: {unknown}"
    # without ASLRef, only programs with a recorded plain run (or a traceback) can be judged
    judged = [n for n in known if n in expected or ours[n].kind in ("traceback", "timeout")]
    fixed = sorted(n for n in judged if n not in found)
    assert not fixed, f"these now agree: remove them from {DIFFERENCES.name}: {fixed}"


def test_recorded_outcomes_are_aslrefs(asllib):
    """run.t's recorded outputs, as this suite reads them, are what ASLRef gives (the fallback is sound)."""
    root, _names, expected, _ours, aslref = asllib
    if aslref is None:
        pytest.skip("ASLRef binary not found (set PTO_DOCS_ASLREF)")
    recorded = suite.recorded(root)
    assert len(recorded) > 700
    wrong = {n: (r.key(), expected[n].key()) for n, r in recorded.items()
             if not (r.agrees(expected[n]) and r.kind == expected[n].kind)}
    assert not wrong
