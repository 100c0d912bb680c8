"""Shared fixtures for the ASL interpreter tests: the ASLRef oracle, when present."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# The workplace keeps ASLRef in shared/ beside the repository (CI: .ci/run exports PTO_DOCS_ASLREF).
DEFAULT_ASLREF = REPO.parent / "shared" / "tools" / "aslref" / "aslref"


def aslref_path() -> str | None:
    candidate = os.environ.get("PTO_DOCS_ASLREF") or os.environ.get("ASLREF") or shutil.which("aslref")
    if candidate and Path(candidate).is_file():
        return candidate
    return str(DEFAULT_ASLREF) if DEFAULT_ASLREF.is_file() else None


def _unlimited_stack():
    resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


@pytest.fixture(scope="session")
def aslref():
    path = aslref_path()
    if path is None:
        if os.environ.get("PTO_DOCS_ASLREF"):
            pytest.fail(f"PTO_DOCS_ASLREF={os.environ['PTO_DOCS_ASLREF']} is not an ASLRef binary")
        pytest.skip("ASLRef binary not found (set PTO_DOCS_ASLREF)")

    def run(program_file: Path) -> tuple[str, int]:
        done = subprocess.run([path, str(program_file)], capture_output=True, text=True, timeout=60,
                              preexec_fn=_unlimited_stack, check=False)
        return done.stdout, done.returncode

    return run
