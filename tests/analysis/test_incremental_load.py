"""The incremental loader (load_memo.py): a reload with the last load's memo equals a fresh load, exactly.

Each test copies catalog/ to tmp_path, loads it with a memo, changes the tree (edit, add, remove, break and fix)
and compares the memo-answered load with a fresh one: the same Catalog and the same diagnostics. It also checks
the reload really is incremental: only the changed files are parsed again. No timings are asserted.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pto_docs.analysis import load as load_module
from pto_docs.analysis.load import load_catalog
from pto_docs.site import rendering as bs
from pto_docs.store.load_memo import LoadMemo
from tests.spec_factory import unit_text

REPO = Path(__file__).resolve().parents[2]
TMUL = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
ADR = "docs/status/decisions/0086-numeric-profile-applicability.md"
EVIDENCE = "spec/evidence/release-traceability-readiness.json"


class Reloader:
    """Loads one tree again and again with one memo, the way build_state does while serving."""

    def __init__(self, root: Path):
        self.root = root
        self.memo = LoadMemo()
        self.last = None

    def load(self):
        result = load_catalog(self.root, self.memo, previous=self.last.tree if self.last else None)
        self.memo.finish()
        self.last = result
        return result


def _assert_same_as_fresh(result, root: Path):
    fresh = load_catalog(root)
    assert result.catalog == fresh.catalog
    assert result.diagnostics == fresh.diagnostics
    assert sorted(result.tree.files) == sorted(fresh.tree.files)


def _count_parses(monkeypatch) -> list[str]:
    """The paths every per-file parse step is really run for (a memo hit runs none)."""
    parsed: list[str] = []
    for name in ("_unit_from_file", "_test_from_file", "_adr_from_file", "_json_from_file", "_translation_from_file",
                 "_example_from_file"):
        real = getattr(load_module, name)

        def counting(file, diags, _real=real):
            parsed.append(file.path)
            return _real(file, diags)
        monkeypatch.setattr(load_module, name, counting)
    return parsed


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text("utf-8") + text, "utf-8")


def test_editing_one_unit_record_reparses_only_that_file(tree, monkeypatch):
    loader = Reloader(tree)
    first = loader.load()
    unit = tree / TMUL
    text = unit.read_text("utf-8")
    old = first.catalog.units["PTO-TILE-TMUL"].summary
    assert old and f'"summary":"{old}"' in text
    unit.write_text(text.replace(f'"summary":"{old}"', '"summary":"Multiply two tiles, edited."', 1), "utf-8")
    parsed = _count_parses(monkeypatch)
    second = loader.load()
    assert parsed == [TMUL]
    assert second.catalog.units["PTO-TILE-TMUL"].summary == "Multiply two tiles, edited."
    _assert_same_as_fresh(second, tree)
    # unchanged files keep the very objects of the last load (their text is not decoded again)
    assert second.tree.files[ADR] is first.tree.files[ADR]
    assert second.tree.files[TMUL] is not first.tree.files[TMUL]


def test_a_comment_line_in_a_unit_changes_only_its_file_and_hash(tree):
    loader = Reloader(tree)
    first = loader.load()
    _append(tree / TMUL, "// an edit while serving\n")
    second = loader.load()
    _assert_same_as_fresh(second, tree)
    assert second.catalog.units["PTO-TILE-TMUL"].file.sha256 != first.catalog.units["PTO-TILE-TMUL"].file.sha256


def test_adding_a_unit_file(tree, monkeypatch):
    loader = Reloader(tree)
    loader.load()
    added = tree / "asl/tile/elementwise-tile-tile/arithmetic/TDEMO.asl"
    added.write_text(unit_text(), "utf-8")  # (its dependency and catalog index do not exist: diagnostics too)
    parsed = _count_parses(monkeypatch)
    second = loader.load()
    assert parsed == ["asl/tile/elementwise-tile-tile/arithmetic/TDEMO.asl"]
    assert "PTO-TILE-TDEMO" in second.catalog.units
    assert any(d.path.endswith("TDEMO.asl") for d in second.diagnostics)
    _assert_same_as_fresh(second, tree)


def test_a_duplicate_unit_id_across_files(tree):
    loader = Reloader(tree)
    loader.load()
    shutil.copy(tree / TMUL, tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL2.asl")
    second = loader.load()
    assert any(d.code == "DUPLICATE-ID" for d in second.diagnostics)
    _assert_same_as_fresh(second, tree)


def test_removing_files(tree, monkeypatch):
    loader = Reloader(tree)
    loader.load()
    (tree / ADR).unlink()
    (tree / "translations/zh-CN/ADR-0086.json").unlink()
    test_file = next(p for p in sorted((tree / "tests/asl").rglob("*.asl")))
    test_file.unlink()
    parsed = _count_parses(monkeypatch)
    second = loader.load()
    assert parsed == []  # nothing to parse: every remaining file is unchanged
    assert "ADR-0086" not in second.catalog.adrs
    _assert_same_as_fresh(second, tree)
    assert len(loader.memo) < 2 * len(second.tree.files) + 100  # the removed files' entries are gone


def test_a_json_error_and_its_fix(tree):
    loader = Reloader(tree)
    first = loader.load()
    unit = tree / TMUL
    good = unit.read_text("utf-8")
    unit.write_text(good.replace('"surface":"tile"', '"surface":"tile",,', 1), "utf-8")
    broken = loader.load()
    assert any(d.code == "JSON-SYNTAX" and d.path == TMUL for d in broken.errors)
    assert "PTO-TILE-TMUL" not in broken.catalog.units
    _assert_same_as_fresh(broken, tree)
    unit.write_text(good, "utf-8")
    fixed = loader.load()
    _assert_same_as_fresh(fixed, tree)
    assert fixed.catalog == first.catalog and fixed.diagnostics == first.diagnostics


def test_edits_to_evidence_translations_and_adrs(tree):
    loader = Reloader(tree)
    loader.load()
    evidence = tree / EVIDENCE
    evidence.write_text(evidence.read_text("utf-8").replace('"units"', '"path": "../outside", "units"', 1), "utf-8")
    translation = tree / "translations/zh-CN/ADR-0086.json"
    translation.write_text(translation.read_text("utf-8").replace("{", '{"extra": 1,', 1), "utf-8")
    _append(tree / ADR, "\nOne more paragraph.\n")
    second = loader.load()
    assert {"PATH-TRAVERSAL"} <= {d.code for d in second.diagnostics if d.path == EVIDENCE}
    assert any(d.path.endswith("ADR-0086.json") for d in second.errors)
    _assert_same_as_fresh(second, tree)


def test_build_state_reload_gives_the_fresh_diagnostics_and_recovers(tree):
    """build_state (the serving path): schema, cross-reference and executor consistency diagnostics after a
    break equal a fresh state's; after the fix the renderer is back and reuses the last good one's pages."""
    states = bs.TreeStates()  # what a serving process keeps (the plugin's site/memory.py)
    try:
        good_state = bs.build_state(tree, states=states)
        assert good_state.renderer is not None
        unit = tree / TMUL
        good = unit.read_text("utf-8")
        unit.write_text(good.replace('"surface":"tile"', '"surface":"tile",,', 1), "utf-8")
        broken = bs.build_state(tree, states=states)
        assert broken.renderer is None and broken.lender is good_state.renderer
        assert broken.diagnostics == bs.build_state(tree).diagnostics  # a fresh load, nothing kept
        states.clear()
        broken = bs.build_state(tree, states=states)
        unit.write_text(good + "// fixed\n", "utf-8")
        fixed = bs.build_state(tree, states=states)
        assert fixed.renderer is not None
        incremental = fixed.diagnostics
        assert incremental == bs.build_state(tree).diagnostics
    finally:
        states.clear()
