"""The no-change fast path (site/tree_cache.py): an unchanged tree is neither loaded nor validated nor
rendered; any changed byte of the tree, of pto-docs or of the templates disables it (no timings asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .test_site_cache import TMUL, build, page_pack_path, rebuilt


def _manifest(path):
    """A manifest as the build sealed it (store/seal.py, the run's own key: the builds share its user cache)."""
    from pto_docs.store import user_sealer
    return json.loads(user_sealer().load(path))

def _no_loading(monkeypatch) -> None:
    from pto_docs.site import build as site_build

    def refuse(*args, **kwargs):
        raise AssertionError("the spec tree was loaded although nothing changed")
    monkeypatch.setattr(site_build, "build_state", refuse)


def test_unchanged_tree_is_not_loaded_and_gives_the_same_site(tmp_path, tree, monkeypatch):
    build(tmp_path, tree)
    html = (tmp_path / "site" / TMUL[:-3] / "index.html").read_text("utf-8")
    manifest = _manifest(tmp_path / "cache" / "tree-zh-CN.json")
    assert manifest["pages"] and manifest["nav"]
    _no_loading(monkeypatch)
    page_pack_path(tmp_path)
    second = build(tmp_path, tree)
    assert rebuilt(second) == {"en": set(), "zh-CN": set()}
    assert (tmp_path / "site" / TMUL[:-3] / "index.html").read_text("utf-8") == html
    assert (tmp_path / "site" / "zh-CN" / TMUL[:-3] / "index.html").is_file()


@pytest.mark.parametrize("edit", ["unrelated tree file", "unit"])
def test_any_changed_file_loads_the_tree_again(tmp_path, tree, edit):
    from pto_docs.site.tree_cache import tree_digest
    build(tmp_path, tree)
    before = _manifest(tmp_path / "cache" / "tree-en.json")["digest"]
    if edit == "unit":
        path = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
        path.write_text(path.read_text("utf-8") + "// changed\n", "utf-8")
    else:
        (tree / "NOTES.txt").write_text("a file no page shows\n", "utf-8")
    assert tree_digest(tree, None, {}) != tree_digest(tree.parent / "nowhere", None, {})
    report = build(tmp_path, tree)
    after = _manifest(tmp_path / "cache" / "tree-en.json")["digest"]
    assert after != before
    expected = {TMUL, "reports/traceability.md"} if edit == "unit" else set()
    assert rebuilt(report) == {"en": expected, "zh-CN": expected}


def test_digest_covers_templates_and_configuration(tmp_path, tree):
    from pto_docs.render.env import TEMPLATES_DIR
    from pto_docs.site.tree_cache import tree_digest
    base = tree_digest(tree, None, {"strict": False})
    assert tree_digest(tree, None, {"strict": True}) != base
    templates = tmp_path / "templates"
    import shutil
    shutil.copytree(TEMPLATES_DIR, templates)
    assert tree_digest(tree, str(templates), {"strict": False}) == base  # same bytes, same digest
    page = templates / "pages" / "unit.md.j2"
    page.write_text(page.read_text("utf-8") + "\n", "utf-8")
    assert tree_digest(tree, str(templates), {"strict": False}) != base


def test_the_loader_parses_the_bytes_the_digest_read(tmp_path):
    """The tree digest keeps what it read; the loader parses exactly those bytes and reads no spec file again."""
    import builtins
    import io
    import shutil

    from pto_docs.analysis.load import load_catalog
    from pto_docs.site.tree_cache import tree_digest
    root = tmp_path / "tree"
    shutil.copytree(Path(__file__).resolve().parents[2] / "catalog", root)
    keep: dict = {}
    tree_digest(root, None, {}, keep=keep)
    assert keep and all(path.startswith(str(root.resolve())) for path in keep)
    opened = []
    real_open = builtins.open

    def spy(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    builtins.open = spy
    try:
        preread = load_catalog(root, preread=dict(keep))
    finally:
        builtins.open = real_open
    fresh = load_catalog(root)
    assert not [p for p in opened if p.startswith(str(root.resolve()))]
    assert preread.catalog.units.keys() == fresh.catalog.units.keys()
    assert [d.format() for d in preread.diagnostics] == [d.format() for d in fresh.diagnostics]
    assert {k: v.sha256 for k, v in preread.tree.files.items()} == {k: v.sha256 for k, v in fresh.tree.files.items()}
    unparsed = ["pto-docs.review-lock.json", "spec/specification-index.md"]
    unparsed = [p for p in unparsed if (root / p).is_file() and p not in fresh.tree.files]
    assert unparsed
    builtins.open = io.open = spy  # (pathlib reads through io.open)
    try:
        hashes = {p: preread.tree.sha256(p) for p in unparsed}  # files the loader did not parse
    finally:
        builtins.open = io.open = real_open
    assert not [p for p in opened if p.startswith(str(root.resolve()))]
    assert hashes == {p: fresh.tree.sha256(p) for p in unparsed} and all(hashes.values())
