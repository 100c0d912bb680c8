"""The house move (issue 31) changed no byte of what users get: the catalog site on both build paths, the real
tree's site on both build paths and the traceability reports of both trees hash as they did on the code before
the move (the manifests in ``pre-move/``, made by ``python3 -m tests.goldens.outputs`` at commit c7b9d10)."""

from __future__ import annotations

from pathlib import Path

from tests.goldens import outputs

GOLDEN = Path(__file__).resolve().parent / "pre-move"


def _differences(expected: str, actual: str) -> list[str]:
    def table(text: str) -> dict[str, str]:
        return {line.split("  ", 1)[1]: line.split("  ", 1)[0] for line in text.splitlines() if line}
    want, got = table(expected), table(actual)
    return sorted([f"missing {p}" for p in want.keys() - got.keys()] + [f"new {p}" for p in got.keys() - want.keys()]
                  + [f"changed {p}" for p in want.keys() & got.keys() if want[p] != got[p]])


def _check(name: str, actual: str) -> None:
    assert _differences((GOLDEN / name).read_text("utf-8"), actual) == []


def test_the_comparison_sees_a_changed_missing_or_new_file():
    before = "aa  a.html\nbb  b.html\n"
    assert _differences(before, "aa  a.html\ncc  b.html\n") == ["changed b.html"]
    assert _differences(before, "aa  a.html\n") == ["missing b.html"]
    assert _differences(before, before + "dd  c.html\n") == ["new c.html"]


def test_catalog_outputs_are_byte_identical_to_before_the_move(tmp_path):
    _check("catalog-site-cli.sha256", outputs.manifest(outputs.catalog_site_cli(tmp_path)))
    _check("catalog-site-mkdocs.sha256", outputs.manifest(outputs.catalog_site_mkdocs(tmp_path)))
    _check("catalog-reports.sha256", outputs.file_manifest(outputs.reports(outputs.REPO / "catalog", tmp_path,
                                                                            "catalog")))


def test_real_tree_outputs_are_byte_identical_to_before_the_move(real_tree_root, tmp_path):
    root = outputs.real_copy(real_tree_root, tmp_path)
    _check("real-reports.sha256", outputs.file_manifest(outputs.reports(root, tmp_path, "real")))
    _check("real-site-cli.sha256", outputs.manifest(outputs.real_site_cli(root, tmp_path)))
    _check("real-site-mkdocs.sha256", outputs.manifest(outputs.real_site_mkdocs(root)))


def test_the_real_tree_manifests_cover_both_languages_of_every_instruction_page():
    names = [line.split("  ", 1)[1] for line in (GOLDEN / "real-site-mkdocs.sha256").read_text("utf-8").splitlines()]
    english = {n for n in names if n.startswith("instructions/") and n.endswith("/index.html")}
    assert len(english) > 600
    assert {"zh-CN/" + n for n in english} <= set(names)
