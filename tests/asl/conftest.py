"""Shared fixtures for the ASL interpreter tests: the ASLRef oracle, when present."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
from pathlib import Path

import pytest

DEFAULT_ASLREF = Path("/work/shared/tools/aslref/aslref")


def aslref_path() -> str | None:
    candidate = os.environ.get("ASLREF") or shutil.which("aslref")
    if candidate and Path(candidate).is_file():
        return candidate
    return str(DEFAULT_ASLREF) if DEFAULT_ASLREF.is_file() else None


def _unlimited_stack():
    resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


@pytest.fixture(scope="session")
def aslref():
    path = aslref_path()
    if path is None:
        pytest.skip("ASLRef binary not found (set ASLREF)")

    def run(program_file: Path) -> tuple[str, int]:
        done = subprocess.run([path, str(program_file)], capture_output=True, text=True, timeout=60,
                              preexec_fn=_unlimited_stack, check=False)
        return done.stdout, done.returncode

    return run
