"""The page cache reuses exactly the pages whose inputs did not change (small trees; no timings asserted).

Each test copies catalog/ (and, for templates, templates/) to tmp_path, builds it with `pto-docs build` (in this
process; the second language in a forked child), edits one input and builds again; the cache records which
pages each language rebuilt in last-build.json.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

from tests.mkdocs_config import config_copy

REPO = Path(__file__).resolve().parents[2]
TMUL = "instructions/tile/elementwise-tile-tile/arithmetic/TMUL.md"
TSQRT = "instructions/tile/elementwise-tile-tile/transcendental/TSQRT.md"


def _config(tmp_path: Path, templates: Path | None) -> Path:
    return config_copy(tmp_path, **({"templates_dir": templates} if templates is not None else {}))


def build(tmp_path: Path, root: Path, templates: Path | None = None) -> dict[str, dict]:
    from pto_docs.cli import build as build_cmd
    args = type("Args", (), {"spec_root": str(root), "site_dir": str(tmp_path / "site"),
                             "config_file": str(_config(tmp_path, templates)), "no_strict": False,
                             "cache_dir": str(tmp_path / "cache"), "no_cache": False, "quiet": True})()
    err = io.StringIO()
    assert build_cmd.run(args, io.StringIO(), err) == 0, err.getvalue()
    assert "pto-docs: " in err.getvalue().strip().splitlines()[-1]  # the closing summary line
    report = json.loads((tmp_path / "cache" / "last-build.json").read_text("utf-8"))
    return {r["locale"]: r for r in report}


def _forget_loaded_trees() -> None:
    """The loaded trees the plugin objects of this process keep (MkDocs keeps a plugin with on_startup for the
    whole process, and its SiteMemory with it), as a new process would start: without any."""
    from mkdocs.config.defaults import MkDocsConfig
    plugins = [p for p in MkDocsConfig.plugins.plugin_cache.values() if hasattr(p, "memory")]
    assert plugins, "the pto-docs plugin object is not kept by MkDocs any more: this test no longer needs this"
    for plugin in plugins:
        plugin.memory.states.clear()


def page_pack_path(tmp_path: Path) -> None:
    """Make the next build with nothing changed take the page-pack path (every page written from the pack) instead
    of finding the published site up to date and doing nothing (site/uptodate.py, tests/perf/test_uptodate.py)."""
    (tmp_path / "cache" / "site-stamp.json").unlink()


def rebuilt(report: dict[str, dict]) -> dict[str, set[str]]:
    return {locale: set(r["built"]) for locale, r in report.items()}


def test_nothing_changed_reuses_every_page_and_the_same_site(tmp_path, tree):
    first = build(tmp_path, tree)
    assert all(r["reused"] == [] for r in first.values())
    html = (tmp_path / "site" / TMUL[:-3] / "index.html").read_text("utf-8")
    index = json.loads((tmp_path / "site/zh-CN/search/search_index.json").read_text("utf-8"))
    page_pack_path(tmp_path)
    second = build(tmp_path, tree)
    assert rebuilt(second) == {"en": set(), "zh-CN": set()}
    assert (tmp_path / "site" / TMUL[:-3] / "index.html").read_text("utf-8") == html
    again = json.loads((tmp_path / "site/zh-CN/search/search_index.json").read_text("utf-8"))
    key = lambda d: (d["location"], d["title"], d["text"])  # noqa: E731
    assert sorted(map(key, again["docs"])) == sorted(map(key, index["docs"]))  # search stays complete


def test_unit_edit_rebuilds_its_dependants_only(tmp_path, tree):
    build(tmp_path, tree)
    unit = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    unit.write_text(unit.read_text("utf-8") + "// an added comment line\n", "utf-8")
    report = build(tmp_path, tree)
    for locale, pages in rebuilt(report).items():
        # the unit's page (its source and hash) and the traceability report (it recomputes every hash)
        assert pages == {TMUL, "reports/traceability.md"}, (locale, pages)
    site = (tmp_path / "site" / TMUL[:-3] / "index.html").read_text("utf-8")
    assert "an added comment line" in site


def test_template_edit_rebuilds_the_pages_that_use_it(tmp_path, tree):
    templates = tmp_path / "templates"
    shutil.copytree(REPO / "templates", templates)
    first = build(tmp_path, tree, templates)
    partial = templates / "partials/examples.html.j2"
    partial.write_text(partial.read_text("utf-8").replace("pto-examples", "pto-examples pto-edited"), "utf-8")
    os.utime(partial, (partial.stat().st_atime + 5, partial.stat().st_mtime + 5))
    report = build(tmp_path, tree, templates)
    from pto_docs.site.rendering import build_state
    renderer = build_state(tree, str(templates)).renderer
    expected = {src for src, parts in renderer.pages("en") if "pto-edited" in parts.assembled()}
    assert expected and TMUL in expected and TSQRT in expected
    for locale, pages in rebuilt(report).items():
        assert pages == expected, (locale, pages ^ expected)
    assert len(expected) < len(first["en"]["built"])


def test_translation_edit_rebuilds_that_language_only(tmp_path, tree):
    build(tmp_path, tree)
    path = tree / "translations/zh-CN/PTO-TILE-TMUL.json"
    data = json.loads(path.read_text("utf-8"))
    for entry in data["strings"]:
        if entry["pointer"] == "/contract/ordering/0":
            entry["text"] = entry["text"] + "（已修订）"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", "utf-8")
    report = rebuilt(build(tmp_path, tree))
    assert report["en"] == {"reports/traceability.md"}  # the report (both languages) hashes every translation file
    assert TSQRT not in report["zh-CN"]
    assert report["zh-CN"] == {TMUL, "reports/traceability.md"}
    assert "（已修订）" in (tmp_path / "site/zh-CN" / TMUL[:-3] / "index.html").read_text("utf-8")


def test_schema_edit_that_changes_nothing_rebuilds_nothing(tmp_path, tree, monkeypatch):
    """A schema change reaches a page only through the catalog; the same pages mean the same keys."""
    from pto_docs.schemas import registry as schema_registry
    build(tmp_path, tree)
    original = schema_registry.load_schema.__wrapped__

    def described(name):
        schema = original(name)
        return {**schema, "description": (schema.get("description") or "") + " (edited)"}

    for fn in (schema_registry.load_schema, schema_registry.registry):
        fn.cache_clear()
    monkeypatch.setattr(schema_registry, "load_schema", described)
    _forget_loaded_trees()  # a new process would load the tree again
    page_pack_path(tmp_path)
    try:
        report = rebuilt(build(tmp_path, tree))
    finally:
        monkeypatch.undo()
        schema_registry.registry.cache_clear()
        _forget_loaded_trees()
    assert report == {"en": set(), "zh-CN": set()}


def test_failed_build_leaves_the_previous_site(tmp_path, tree):
    build(tmp_path, tree)
    before = (tmp_path / "site" / TMUL[:-3] / "index.html").read_text("utf-8")
    unit = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    unit.write_text("// PTO-INSTRUCTION: {not json\n", "utf-8")
    from pto_docs.cli import build as build_cmd
    args = type("Args", (), {"spec_root": str(tree), "site_dir": str(tmp_path / "site"),
                             "config_file": str(_config(tmp_path, None)), "no_strict": False,
                             "cache_dir": str(tmp_path / "cache"), "no_cache": False, "quiet": True})()
    assert build_cmd.run(args, io.StringIO(), io.StringIO()) == 1
    assert (tmp_path / "site" / TMUL[:-3] / "index.html").read_text("utf-8") == before
    assert not [p for p in tmp_path.iterdir() if ".pto-build-" in p.name]  # no staging directory left
