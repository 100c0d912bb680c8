"""Symbolic links in a spec tree (issue 30, finding 5): a link, to a directory or a file, whose target leaves the
spec root is PATH-OUTSIDE-ROOT under the link's own path and is not read; a link that loops is SYMLINK-LOOP and
nothing hangs; a directory link that stays inside the root keeps its behaviour (below an area it is not walked;
as an area it is read like the directory it names)."""

from __future__ import annotations

import shutil
from pathlib import Path

from .conftest import snapshot
from .test_loader import DIAG, has, validate

BAD_RECORD = '// PTO-UNIT: {"id": "PTO-OUTSIDE-READ", "surface": \n'  # a record that, if read, is an error


def _outside(tree: Path) -> Path:
    outside = tree.parent / "outside"
    outside.mkdir()
    return outside


def _codes_for(lines: list[str], path_prefix: str) -> set[str]:
    return {m["code"] for line in lines if (m := DIAG.match(line)) and m["path"].startswith(path_prefix)}


def test_a_nested_directory_link_out_of_the_root_is_reported_and_not_read(tree):
    outside = _outside(tree)
    (outside / "bad.asl").write_text(BAD_RECORD, "utf-8")
    (tree / "asl/tile/elsewhere").symlink_to("../../../outside")
    (tree / "asl/tile/inside").symlink_to("../block")  # stays inside: not walked below an area, not reported
    before = snapshot(outside)
    code, lines = validate(tree)
    assert code == 1 and has(lines, "PATH-OUTSIDE-ROOT", "asl/tile/elsewhere"), lines
    assert _codes_for(lines, "asl/tile/elsewhere/") == set() and _codes_for(lines, "asl/tile/inside") == set()
    assert "PTO-OUTSIDE-READ" not in "\n".join(lines)
    assert snapshot(outside) == before


def test_a_top_level_area_linked_out_of_the_root_is_reported_and_not_read(tree):
    outside = _outside(tree)
    shutil.copytree(tree / "examples", outside / "examples")
    (outside / "examples/TMUL/broken.json").write_text("{not json", "utf-8")
    shutil.rmtree(tree / "examples")
    (tree / "examples").symlink_to("../outside/examples")
    code, lines = validate(tree)
    assert code == 1 and has(lines, "PATH-OUTSIDE-ROOT", "examples"), lines
    assert _codes_for(lines, "examples/") == set(), lines  # nothing below the link was parsed


def test_a_parent_of_an_area_linked_out_of_the_root_is_reported_once(tree):
    outside = _outside(tree)
    shutil.copytree(tree / "tests", outside / "tests")
    (outside / "tests/asl/bad.asl").write_text(BAD_RECORD, "utf-8")
    shutil.rmtree(tree / "tests")
    (tree / "tests").symlink_to("../outside/tests")
    code, lines = validate(tree)
    assert code == 1 and has(lines, "PATH-OUTSIDE-ROOT", "tests"), lines
    assert "PTO-OUTSIDE-READ" not in "\n".join(lines) and _codes_for(lines, "tests/") == set()


def test_specification_toml_linked_out_of_the_root_is_not_read(tree):
    outside = _outside(tree)
    (outside / "specification.toml").write_text((tree / "specification.toml").read_text("utf-8"), "utf-8")
    (tree / "specification.toml").unlink()
    (tree / "specification.toml").symlink_to("../outside/specification.toml")
    code, lines = validate(tree)
    assert code == 1 and has(lines, "PATH-OUTSIDE-ROOT", "specification.toml"), lines


def test_directory_link_loops_are_reported_and_do_not_hang(tree):
    shutil.rmtree(tree / "examples")
    (tree / "examples").symlink_to("examples")  # an area that loops on itself
    (tree / "asl/tile/a").symlink_to("b")
    (tree / "asl/tile/b").symlink_to("a")
    (tree / "asl/tile/up").symlink_to("..")  # a cycle inside the root: never walked
    code, lines = validate(tree)
    assert code == 1, lines
    assert has(lines, "SYMLINK-LOOP", "examples") and has(lines, "SYMLINK-LOOP", "asl/tile/a"), lines
    assert _codes_for(lines, "asl/tile/up") == set()
