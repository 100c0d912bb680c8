"""What users get changes only where a reviewed change says so.

``pre-move/`` holds the sha256 manifests of the catalog site (both build paths), the real tree's site (both build
paths) and the traceability reports of both trees, made by ``python3 -m tests.goldens.outputs`` on the code before
the house move of issue 31 (commit c7b9d10): the move changed no byte of them. ``current/`` holds what the code
must make now; every difference between the two is covered by a line of ``reviewed-changes.txt`` saying why,
and each of those lines covers a difference. A change of behaviour therefore updates ``current/`` and, after
review, ``reviewed-changes.txt``; a regeneration that changes anything else fails here."""

from __future__ import annotations

import fnmatch
from pathlib import Path

from tests.goldens import outputs

HERE = Path(__file__).resolve().parent
PRE_MOVE, CURRENT = HERE / "pre-move", HERE / "current"


def _table(text: str) -> dict[str, str]:
    return {line.split("  ", 1)[1]: line.split("  ", 1)[0] for line in text.splitlines() if line}


def _differences(expected: str, actual: str) -> list[str]:
    want, got = _table(expected), _table(actual)
    return sorted([f"missing {p}" for p in want.keys() - got.keys()] + [f"new {p}" for p in got.keys() - want.keys()]
                  + [f"changed {p}" for p in want.keys() & got.keys() if want[p] != got[p]])


def _reviewed() -> list[tuple[str, str]]:
    rules = []
    for line in (HERE / "reviewed-changes.txt").read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            manifest, path = line.split()[:2]
            rules.append((manifest, path))
    return rules


def _check(name: str, actual: str) -> None:
    assert _differences((CURRENT / name).read_text("utf-8"), actual) == []


def test_the_comparison_sees_a_changed_missing_or_new_file():
    before = "aa  a.html\nbb  b.html\n"
    assert _differences(before, "aa  a.html\ncc  b.html\n") == ["changed b.html"]
    assert _differences(before, "aa  a.html\n") == ["missing b.html"]
    assert _differences(before, before + "dd  c.html\n") == ["new c.html"]


def test_every_difference_from_before_the_move_is_a_reviewed_change():
    rules, used, unreviewed = _reviewed(), set(), []
    for manifest in sorted(p.name for p in PRE_MOVE.glob("*.sha256")):
        for difference in _differences((PRE_MOVE / manifest).read_text("utf-8"),
                                       (CURRENT / manifest).read_text("utf-8")):
            path = difference.split(" ", 1)[1]
            hits = [r for r in rules if fnmatch.fnmatchcase(manifest, r[0]) and fnmatch.fnmatchcase(path, r[1])]
            used.update(hits)
            if not hits:
                unreviewed.append(f"{manifest}: {difference}")
    assert unreviewed == []
    assert [r for r in rules if r not in used] == []  # a reviewed change that no longer happens goes too
    assert sorted(p.name for p in CURRENT.glob("*.sha256")) == sorted(p.name for p in PRE_MOVE.glob("*.sha256"))


def test_catalog_outputs_are_the_reviewed_ones(tmp_path):
    _check("catalog-site-cli.sha256", outputs.manifest(outputs.catalog_site_cli(tmp_path)))
    _check("catalog-site-mkdocs.sha256", outputs.manifest(outputs.catalog_site_mkdocs(tmp_path)))
    _check("catalog-reports.sha256", outputs.file_manifest(outputs.reports(outputs.REPO / "catalog", tmp_path,
                                                                            "catalog")))


def test_real_tree_outputs_are_the_reviewed_ones(real_tree_root, tmp_path):
    root = outputs.real_copy(real_tree_root, tmp_path)
    _check("real-reports.sha256", outputs.file_manifest(outputs.reports(root, tmp_path, "real")))
    _check("real-site-cli.sha256", outputs.manifest(outputs.real_site_cli(root, tmp_path)))
    _check("real-site-mkdocs.sha256", outputs.manifest(outputs.real_site_mkdocs(root)))


def test_the_real_tree_manifests_cover_both_languages_of_every_instruction_page():
    names = list(_table((CURRENT / "real-site-mkdocs.sha256").read_text("utf-8")))
    english = {n for n in names if n.startswith("instructions/") and n.endswith("/index.html")}
    assert len(english) > 600
    assert {"zh-CN/" + n for n in english} <= set(names)
