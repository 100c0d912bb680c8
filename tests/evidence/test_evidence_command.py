"""pto-docs evidence: the derived files of catalog/ are exactly what the loaded model gives, and the command
rewrites only trees that name it, only the files it owns, atomically."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from pto_docs.analysis.load import load_catalog
from pto_docs.cli import main
from pto_docs.evidence import OUTPUTS, derive_evidence
from tests.conftest import REPO

TMUL = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"


def run(*argv: str) -> tuple[int, str, str]:
    import contextlib
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_committed_catalog_evidence_is_what_the_model_derives():
    outputs, problems, status = derive_evidence(load_catalog(REPO / "catalog").catalog)
    assert problems == [] and status == "closed"
    assert sorted(outputs) == sorted(OUTPUTS)
    for path, data in outputs.items():
        assert (REPO / "catalog" / path).read_bytes() == data, path


def test_an_edited_unit_makes_its_evidence_stale_until_rewritten(tree):
    unit = tree / TMUL
    unit.write_text(unit.read_text("utf-8") + "// an edit\n", "utf-8")
    code, out, err = run("evidence", str(tree), "--check")
    assert code == 1
    stale = sorted(line.split(":")[0] for line in err.splitlines())
    assert stale == ["spec/evidence/release-traceability-readiness.json", "spec/release-manifest.json"]
    before = snapshot(tree)
    code, out, _ = run("evidence", str(tree))
    assert code == 0 and "2 rewritten" in out
    after = snapshot(tree)
    assert {p for p in after if after[p] != before.get(p)} == set(stale)  # nothing else was touched
    readiness = json.loads((tree / stale[0]).read_text("utf-8"))
    assert readiness["sources"][TMUL] == load_catalog(tree).catalog.files[TMUL].sha256
    assert run("evidence", str(tree), "--check")[0] == 0
    code, out, _ = run("trace", str(tree))
    assert "recorded source hashes match" in out and " 0 of " not in out


def test_a_tree_whose_evidence_another_generator_owns_is_neither_written_nor_checked(tree):
    spec = tree / "specification.toml"
    spec.write_text(spec.read_text("utf-8").replace('"pto-docs evidence"', '"scripts/their-own-generator"'), "utf-8")
    before = snapshot(tree)
    for argv in (("evidence", str(tree)), ("evidence", str(tree), "--check")):
        code, _out, err = run(*argv)
        assert code == 2 and "error[EVIDENCE-OWNER]" in err and "scripts/their-own-generator" in err
    assert snapshot(tree) == before


def test_a_tree_with_errors_gets_nothing_written(tree):
    unit = tree / TMUL
    lines = unit.read_text("utf-8").split("\n")
    lines[0] = lines[0].replace('"surface"', '"surface_typo"', 1)
    unit.write_text("\n".join(lines), "utf-8")
    before = snapshot(tree)
    code, _out, err = run("evidence", str(tree))
    assert code == 1 and f"{TMUL}:1:" in err and "nothing written" in err
    assert snapshot(tree) == before


def test_a_derived_file_that_is_a_symbolic_link_is_not_written_through(tree):
    decoy = tree / "spec/decoy.json"  # inside the tree (a link out of it is already a load error)
    decoy.write_text("{}\n", "utf-8")
    manifest = tree / "spec/release-manifest.json"
    manifest.unlink()
    manifest.symlink_to(decoy)
    code, _out, err = run("evidence", str(tree))
    assert code == 2 and "symbolic link" in err
    assert decoy.read_text("utf-8") == "{}\n" and manifest.is_symlink()


@pytest.mark.realtree
def test_the_real_tree_is_not_ours_to_rewrite(real_tree_root):
    code, _out, err = run("evidence", str(real_tree_root), "--check")
    assert code == 2 and "EVIDENCE-OWNER" in err
