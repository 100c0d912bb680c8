"""Incremental serve rebuilds: memoised schema checks and page models/pages reused across catalogs.

No timings are asserted: the schema-check cache must give exactly the uncached diagnostics, and a rebuild after
editing one unit must render only that unit's page model and pages, with every page equal to a fresh build.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pto_docs.analysis.load import load_catalog
from pto_docs.site import rendering as bs
from pto_docs.store import validation_cache

REPO = Path(__file__).resolve().parents[2]
TADD = "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"
STATES = bs.TreeStates()  # what a serving process keeps (the plugin's site/memory.py owns one)


@pytest.fixture(autouse=True)
def fresh_caches():
    validation_cache.clear()
    STATES.clear()
    yield
    validation_cache.enabled = True
    validation_cache.clear()
    STATES.clear()


def _break(root: Path) -> None:
    """Schema errors in a unit record, an NDF clause's attributes, an ADR front matter and a translation."""
    unit = root / TADD
    text = unit.read_text("utf-8")
    head, sep, rest = text.partition("// PTO-INSTRUCTION: {")
    assert sep
    unit.write_text(head + sep + '"bogus": 1, "classification": 7, ' + rest, "utf-8")
    adr = next(p for p in sorted((root / "docs/status/decisions").glob("0*.md")) if not p.name.startswith("0000"))
    adr.write_text(adr.read_text("utf-8").replace("{", '{"unknown_front": [1, 2],', 1), "utf-8")
    tr = next(iter(sorted((root / "translations").rglob("*.json"))))
    tr.write_text(tr.read_text("utf-8").replace("{", '{"extra": null,', 1), "utf-8")


def _schema(diags):
    return [d for d in diags if d.code.startswith("SCHEMA")]


def test_cached_schema_checks_give_the_uncached_diagnostics(tree):
    _break(tree)
    validation_cache.enabled = False
    uncached = load_catalog(tree).diagnostics
    assert len({d.path for d in _schema(uncached)}) >= 2  # the test tree really has schema errors in several files
    validation_cache.enabled = True
    validation_cache.clear()
    first = load_catalog(tree).diagnostics  # fills the cache
    assert validation_cache.stats["misses"] > 0
    hits = validation_cache.stats["hits"]
    second = load_catalog(tree).diagnostics  # answered from it
    assert validation_cache.stats["hits"] > hits
    assert list(first) == list(uncached)
    assert list(second) == list(uncached)  # same codes, messages, pointers, lines and columns


def test_schema_cache_key_is_a_pure_function_of_bundle_kind_and_text():
    k = validation_cache.record_key
    assert k("ADR", '{"a": 1}', None) == k("ADR", '{"a": 1}', {"whatever": 0})
    assert k("ADR", '{"a": 1}', None) != k("ADR", '{"a": 2}', None)
    assert k("ADR", '{"a": 1}', None) != k("PTO-TEST", '{"a": 1}', None)
    assert k("NDF", None, {"level": 1}) != k("NDF", None, {"level": "1"})  # typed: no collision across types
    assert k("NDF", None, {"level": True}) != k("NDF", None, {"level": 1})


def test_persistent_schema_cache_round_trips(tree, tmp_path):
    _break(tree)
    expected = load_catalog(tree).diagnostics
    validation_cache.save_persistent(tmp_path / "cache")
    validation_cache.clear()
    validation_cache.load_persistent(tmp_path / "cache")
    again = load_catalog(tree).diagnostics
    assert validation_cache.stats["misses"] == 0
    assert list(again) == list(expected)


def _site(state) -> dict[tuple[str, str], str]:
    r = state.renderer
    r.prepare()
    return {(loc, src): parts.dump() for loc in ("en", "zh-CN") for src, parts in r.pages(loc)}


def _fresh(root: Path) -> dict[tuple[str, str], str]:
    STATES.clear()
    return _site(bs.build_state(root, states=STATES))


def test_after_a_unit_edit_only_its_model_and_pages_are_rendered(tree):
    first = bs.build_state(tree, states=STATES)
    before = _site(first)
    unit = tree / TADD
    unit.write_text(unit.read_text("utf-8") + "// an edit while serving\n", "utf-8")
    second = bs.build_state(tree, states=STATES)
    assert second.renderer is not first.renderer
    after = _site(second)
    stats = second.renderer.stats
    assert stats["models"] == 1  # TADD's page model only
    assert stats["pages"] == 2  # TADD's page, in each language (index pages are always rendered, not counted)
    assert stats["reused_pages"] == len(before) - 2 - 2 * sum(1 for k in before if k[0] == "en" and not _counted(second, k[1]))
    changed = {k for k in after if after[k] != before.get(k)}
    assert {src for _loc, src in changed} >= {"instructions/tile/elementwise-tile-tile/arithmetic/TADD.md"}
    assert after == _fresh(tree)  # reused pages are exactly what a full build gives


def _counted(state, src: str) -> bool:
    from pto_docs.render import routes
    r = state.renderer
    return src in {routes.unit_src(u) for u in r.units} | {routes.adr_src(a) for a in r.catalog.adrs}


def test_edits_outside_the_units_invalidate_reused_pages(tree):
    _site(bs.build_state(tree, states=STATES))
    adr = next(p for p in sorted((tree / "docs/status/decisions").glob("0*.md")) if not p.name.startswith("0000"))
    adr.write_text(adr.read_text("utf-8") + "\nA new closing paragraph.\n", "utf-8")
    second = bs.build_state(tree, states=STATES)
    after = _site(second)
    assert second.renderer.stats["reused_models"] == 0  # every unit page may show an ADR: all re-rendered
    assert after == _fresh(tree)


def test_a_template_change_invalidates_reused_pages(tree, tmp_path):
    from pto_docs.render.env import TEMPLATES_DIR
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES_DIR, templates)
    state = bs.build_state(tree, str(templates), states=STATES)
    _site(state)
    partial = templates / "partials" / "sources.html.j2"
    partial.write_text(partial.read_text("utf-8") + "<!-- template edit -->\n", "utf-8")
    again = _site(state)  # same tree: same renderer, but no page may come from before the edit
    # (every instruction page shows its sources: the classification pages, .../all.md, do not)
    assert all("template edit" in text for (loc, src), text in again.items() if src.startswith("instructions/")
               and not src.endswith(("index.md", "/all.md")))
