"""Writers and symbolic links (issue 30, finding 5): no command writes through a symbolic link planted in the spec
tree, nor outside the root when it writes into the tree, nor derives files from a tree whose records have errors;
a refusal is one line naming the path and why, exit 1 (tree errors, listed) or 2 (refused), no traceback, and
nothing outside the command's outputs changed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import run_cli, run_main, snapshot


def _outside(tree: Path) -> Path:
    outside = tree.parent / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("not pto-docs'\n", "utf-8")
    return outside


def _refused(code: int, err: str, link: str) -> None:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "error[OUTPUT-REFUSED]" in lines[0] and link in lines[0], err
    assert "symbolic link" in lines[0] and "Traceback" not in err


def test_evidence_never_writes_through_a_link_out_of_the_root(tree):
    outside = _outside(tree)
    shutil.copytree(tree / "spec/evidence", outside / "evidence")
    (outside / "evidence/adr-index.json").write_text("{}\n", "utf-8")  # stale: evidence would rewrite it
    shutil.rmtree(tree / "spec/evidence")
    (tree / "spec/evidence").symlink_to("../../outside/evidence")
    before, before_tree = snapshot(outside), snapshot(tree)
    code, _out, err = run_main("evidence", str(tree))
    assert code == 1 and "spec/evidence: error[PATH-OUTSIDE-ROOT]" in err and "nothing written" in err, err
    assert snapshot(outside) == before and snapshot(tree) == before_tree


def test_evidence_never_writes_through_a_link_inside_the_root(tree):
    """A link that stays inside the root is not an error of the tree, but pto-docs does not write through it: the
    file it would replace is one pto-docs did not write there."""
    (tree / "docs/elsewhere").mkdir()
    for path in (tree / "spec/evidence").iterdir():
        shutil.copy(path, tree / "docs/elsewhere" / path.name)
    (tree / "docs/elsewhere/adr-index.json").write_text("{}\n", "utf-8")
    shutil.rmtree(tree / "spec/evidence")
    (tree / "spec/evidence").symlink_to("../docs/elsewhere")
    before = snapshot(tree)
    code, _out, err = run_main("evidence", str(tree))
    _refused(code, err, "spec/evidence")
    assert snapshot(tree) == before


def test_i18n_extract_refuses_a_tree_with_errors_and_an_id_that_climbs_out(tree):
    (tree / "asl/arch/overview/escaped.asl").write_text(
        '// PTO-UNIT: {"id":"../../../escaped","surface":"arch","classification":["overview","escaped"],'
        '"depends_on":[]}\nconstant PTO_ESCAPED = 1;\n', "utf-8")
    parent = tree.parent
    before, before_tree = snapshot(parent, skip=(tree.name,)), snapshot(tree)
    code, _out, err = run_main("i18n", "extract", "../../../escaped", "--spec-root", str(tree))
    assert code == 1 and "escaped.asl:1:15: error[SCHEMA-PATTERN]" in err and "pto-docs i18n extract:" in err and "Traceback" not in err, err
    assert "error(s) in the units and ADRs; nothing written" in err.splitlines()[-1]
    assert snapshot(parent, skip=(tree.name,)) == before and snapshot(tree) == before_tree


def test_i18n_extract_never_writes_through_a_linked_locale_directory(tree):
    outside = _outside(tree)
    shutil.move(tree / "translations/zh-CN", outside / "zh-CN")
    (tree / "translations/zh-CN").symlink_to("../../outside/zh-CN")
    (outside / "zh-CN/ADR-0024.json").unlink()  # a skeleton extract would write
    before = snapshot(outside)
    code, _out, err = run_main("i18n", "extract", "ADR-0024", "--spec-root", str(tree))
    assert code == 1 and "translations/zh-CN: error[PATH-OUTSIDE-ROOT]" in err, err
    assert snapshot(outside) == before
    # a link that stays inside the root is refused by the writer itself
    shutil.move(outside / "zh-CN", tree / "docs/zh-CN")
    (tree / "translations/zh-CN").unlink()
    (tree / "translations/zh-CN").symlink_to("../docs/zh-CN")
    before_tree = snapshot(tree)
    code, _out, err = run_main("i18n", "extract", "ADR-0024", "--spec-root", str(tree))
    _refused(code, err, "translations/zh-CN")
    assert snapshot(tree) == before_tree


@pytest.mark.parametrize("command", [("trace", "--json"), ("trace", "--markdown"), ("avs", "--json")])
def test_report_outputs_never_go_through_a_link_planted_in_the_tree(tree, command):
    """A report may be written anywhere outside the tree, but not by a path that runs through the tree and a link
    a tree's author planted there (``reports -> ../../outside``)."""
    outside = _outside(tree)
    (outside / "r.out").write_text("the user's file\n", "utf-8")
    (tree / "reports").symlink_to("../outside")
    before, before_tree = snapshot(outside), snapshot(tree)
    code, _out, err = run_main(command[0], str(tree), command[1], str(tree / "reports/r.out"))
    _refused(code, err, "reports")
    assert snapshot(outside) == before and snapshot(tree) == before_tree


def _planted_site(tree: Path) -> tuple[Path, dict]:
    outside = _outside(tree)
    (outside / "404.html").write_text("a previous site, the user's own\n", "utf-8")  # looks like a site
    (tree / "site").symlink_to("../outside")
    return outside, snapshot(outside)


def test_build_never_publishes_through_a_site_link_planted_in_the_tree(tree):
    outside, before = _planted_site(tree)
    before_tree = snapshot(tree)
    code, _out, err = run_cli("build", str(tree), "--site-dir", str(tree / "site"), "-q", "--no-cache")
    _refused(code, err, "site")
    assert snapshot(outside) == before and snapshot(tree) == before_tree


def test_mkdocs_build_never_publishes_through_a_site_link_planted_in_the_tree(tree):
    outside, before = _planted_site(tree)
    assert run_main("init", str(tree))[0] == 0
    before_tree = snapshot(tree)
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(tree / "mkdocs.yml")],
                          capture_output=True, text=True, timeout=600, cwd=tree)
    assert done.returncode != 0 and "error[OUTPUT-REFUSED]" in done.stderr and "Traceback" not in done.stderr, \
        done.stderr
    assert "symbolic link site" in done.stderr
    assert snapshot(outside) == before and snapshot(tree) == before_tree
