"""Two releases of the catalog for the release-history tests: OLD (release 0.58.4, TMUL's summary worded otherwise
and one more instruction, TOLDADD, a copy of TADD) and NEW (the catalog, whose ADR-0059 and CHANGELOG.md name
TOLDADD). Made by the tests from catalog/."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARITH = "asl/tile/elementwise-tile-tile/arithmetic"
ADR = "docs/status/decisions/0059-mnemonic-field-encoding-closure.md"
CHANGELOG_LINE = "- TOLDADD is gone: use TADD <b>instead</b>"


def make_releases(base: Path, removed: bool = True) -> tuple[Path, Path]:
    """(OLD, NEW); without ``removed`` OLD lacks TOLDADD (an OLD with it does not validate: its catalog entry)."""
    old, new = base / "old", base / "new"
    shutil.copytree(REPO / "catalog", old)
    shutil.copytree(REPO / "catalog", new)
    spec = old / "specification.toml"
    spec.write_text(spec.read_text("utf-8").replace('architecture_version = "0.58.5"', 'architecture_version = "0.58.4"'),
                    "utf-8")
    if removed:
        tadd = (old / ARITH / "TADD.asl").read_text("utf-8")
        tadd = tadd.replace("TADD", "TOLDADD").replace('"summary":"Adds the', '"summary":"Adds <img src=x onerror=alert(1)> the')
        assert "<img" in tadd
        (old / ARITH / "TOLDADD.asl").write_text(tadd, "utf-8")
    tmul = old / ARITH / "TMUL.asl"
    text = tmul.read_text("utf-8")
    assert '"summary":"Multiplies the matching' in text
    tmul.write_text(text.replace('"summary":"Multiplies the matching', '"summary":"Multiplied the matching'), "utf-8")
    with open(new / ADR, "a", encoding="utf-8") as f:
        f.write("\nTOLDADD is replaced by TADD.\n")
    (new / "CHANGELOG.md").write_text(f"# Changelog\n\n## Release 0.58.5\n\n{CHANGELOG_LINE}\n", "utf-8")
    return old, new


def cli(*argv: str) -> tuple[int, str]:
    """``pto-docs ARGV`` run in the repository (its mkdocs.yml), as the console script runs it: (exit code, stderr)."""
    from pto_docs.cli import main
    err = io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = main(list(argv))
    finally:
        os.chdir(cwd)
    return rc, err.getvalue()
