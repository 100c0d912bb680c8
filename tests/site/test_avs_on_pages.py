"""Unit pages show the AVS status of their tests when the plugin is given `pto-docs avs` results."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pto_docs.analysis.load import load_catalog
from tests.conftest import REPO
from tests.mkdocs_config import build_catalog

TMUL_PAGE = "instructions/tile/elementwise-tile-tile/arithmetic/TMUL/index.html"


def results(tmp_path, status_of) -> str:
    catalog = load_catalog(REPO / "catalog").catalog
    tests = [{"id": tid, "path": t.path, "kind": t.kind, "status": status_of(tid),
              "message": "" if status_of(tid) == "pass" else f"{t.path}:4:5: assertion failed: x == 1",
              "seconds": 0.0, "sha256": t.file.sha256} for tid, t in sorted(catalog.tests.items())]
    summary = {"total": len(tests), "pass": sum(t["status"] == "pass" for t in tests),
               "fail": sum(t["status"] == "fail" for t in tests), "error": 0}
    path = tmp_path / "avs.json"
    path.write_text(json.dumps({"schema": "pto-docs.avs.v1", "profile": "pto-v0", "tests": tests,
                                "summary": summary}), "utf-8")
    return str(path)


def test_each_test_of_a_unit_page_shows_its_status_in_both_languages(tmp_path):
    failing = "PTO-AVS-TILE-TMUL-ALIAS-001"
    site = tmp_path / "site"
    build_catalog(site, avs_results=results(tmp_path, lambda tid: "fail" if tid == failing else "pass"))
    en = (site / TMUL_PAGE).read_text("utf-8")
    zh = (site / "zh-CN" / TMUL_PAGE).read_text("utf-8")
    assert re.search(rf'id="{failing}".*?pto-avs--fail[^>]*>fail<', en, re.S)
    assert "assertion failed: x == 1" in en
    assert re.search(r'pto-avs--pass[^>]*>pass<', en)
    assert re.search(rf'id="{failing}".*?pto-avs--fail[^>]*>未通过<', zh, re.S)
    assert "在 pto-docs ASL 解释器上运行" in zh


def test_points_that_need_decoders_and_kinds_the_run_filtered_out_are_absent_from_pages(tmp_path):
    """A bare run (pto-docs' own decoders, --kind ...) leaves points not run: needs-decoders, and every point of
    another kind. Pages show neither (no tool message, no "not run"); the points that ran keep their status."""
    catalog = load_catalog(REPO / "catalog").catalog
    waiting = "PTO-AVS-TILE-TMUL-ALIAS-001"  # state-transition
    ran = [tid for tid, t in sorted(catalog.tests.items()) if t.kind in ("state-transition", "boundary")]
    path = Path(results(tmp_path, lambda tid: "pass"))
    doc = json.loads(path.read_text("utf-8"))
    doc["selection"] = {"kinds": ["boundary", "state-transition"], "pattern": None}
    doc["tests"] = [t for t in doc["tests"] if t["id"] in ran]
    for t in doc["tests"]:
        if t["id"] == waiting:
            t["status"], t["message"] = "needs-decoders", "AslCompileError: unknown validation entry point " \
                                                          "ValidateX: needs ... give --decoders FILE"
    doc["summary"] = {"total": len(ran), "pass": len(ran) - 1, "fail": 0, "error": 0, "needs-decoders": 1}
    path.write_text(json.dumps(doc), "utf-8")
    site = tmp_path / "site"
    build_catalog(site, avs_results=str(path))
    pages = [p for p in site.glob("**/*.html")]
    for page in pages:
        text = page.read_text("utf-8")
        assert "pto-avs--needs-decoders" not in text and "pto-avs--missing" not in text, page
        assert "--decoders FILE" not in text and "未运行" not in text and ">not run<" not in text, page
    en = (site / TMUL_PAGE).read_text("utf-8")
    assert f'id="{waiting}"' in en and not re.search(rf'id="{waiting}".{{0,300}}pto-avs--', en, re.S)
    assert re.search(r'id="PTO-AVS-TILE-TMUL-TYPES-001".{0,300}pto-avs--pass', en, re.S)  # a boundary point ran
    assert not re.search(r'id="PTO-AVS-TILE-TMUL-STATIC-001".{0,300}pto-avs--', en, re.S)  # filtered out


def test_without_results_no_status_is_shown(tmp_path):
    site = tmp_path / "site"
    build_catalog(site, avs_examples="off")
    assert "pto-avs" not in (site / TMUL_PAGE).read_text("utf-8")


def test_with_avs_examples_run_the_build_runs_the_points_once_and_every_instruction_page_shows_examples(tmp_path,
                                                                                                       monkeypatch):
    """`avs_examples: run`: the build runs the catalog's AVS points with --examples itself (no results file), caches
    the run by its inputs' sha256, and gives every instruction page of both languages its worked examples."""
    catalog = load_catalog(REPO / "catalog").catalog
    site, cache = tmp_path / "site", tmp_path / "cache"
    build_catalog(site, avs_examples="run", cache_dir=str(cache))
    for unit in catalog.instructions:
        (page,) = [p for p in site.glob(f"instructions/**/{unit.mnemonic}/index.html") if "zh-CN" not in p.parts]
        en = page.read_text("utf-8")
        zh = (site / "zh-CN" / page.relative_to(site)).read_text("utf-8")
        assert 'id="avs-examples"' in en and "Worked examples from the conformance tests" in en, unit.mnemonic
        assert "来自一致性测试（AVS 测试点）的计算示例" in zh, unit.mnemonic
    # a second build with the same inputs reads the cached run: running the points again would fail here
    import pto_docs.bridge.avs as avs_module

    def no_rerun(*args, **kwargs):
        raise AssertionError("the AVS points ran again for unchanged inputs")
    monkeypatch.setattr(avs_module, "run_avs_on_catalog", no_rerun)
    again = tmp_path / "again"
    build_catalog(again, avs_examples="run", cache_dir=str(cache))
    page = next(again.glob("instructions/**/SWI/index.html"))
    assert 'id="avs-examples"' in page.read_text("utf-8")


def test_the_examples_run_is_cached_by_its_inputs_and_a_damaged_entry_is_run_again(tmp_path, monkeypatch):
    import pto_docs.bridge.avs as avs_module
    catalog = load_catalog(REPO / "catalog").catalog
    cache = tmp_path / "avs-examples"
    first = avs_module.run_tree_avs(catalog, None, cache_dir=cache, profile="ieee", examples=True)
    (entry,) = cache.glob("avs-examples-*.json")
    calls = []
    real = avs_module.run_avs_on_catalog
    monkeypatch.setattr(avs_module, "run_avs_on_catalog", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert avs_module.run_tree_avs(catalog, None, cache_dir=cache, profile="ieee", examples=True) == first and calls == []
    assert avs_module.run_tree_avs(catalog, None, cache_dir=cache, profile="pto-v0", examples=True)["profile"] == "pto-v0" and calls == [1]
    entry.write_text("{not json", "utf-8")

    def timeless(doc):  # a new run differs only in the seconds each point took
        return [{k: v for k, v in t.items() if k != "seconds"} for t in doc["tests"]]
    assert timeless(avs_module.run_tree_avs(catalog, None, cache_dir=cache, profile="ieee", examples=True)) == timeless(first) and calls == [1, 1]
    from pto_docs.store import user_sealer
    assert timeless(json.loads(user_sealer().load(entry))) == timeless(first)  # rewritten, sealed


def test_a_cached_examples_run_made_by_other_interpreter_code_is_not_read(tmp_path, monkeypatch):
    """The version number stays the same from one commit to the next; the cache key holds the code's own digest
    (a results file an older interpreter made showed that interpreter's examples after an upgrade)."""
    import pto_docs.bridge.avs as avs_module
    catalog = load_catalog(REPO / "catalog").catalog
    cache = tmp_path / "avs-examples"
    monkeypatch.setattr(avs_module, "examples_code_digest", lambda: "older interpreter")
    avs_module.run_tree_avs(catalog, None, cache_dir=cache, profile="ieee", examples=True)
    calls = []
    real = avs_module.run_avs_on_catalog
    monkeypatch.setattr(avs_module, "run_avs_on_catalog", lambda *a, **k: calls.append(1) or real(*a, **k))
    monkeypatch.setattr(avs_module, "examples_code_digest", lambda: "this interpreter")
    avs_module.run_tree_avs(catalog, None, cache_dir=cache, profile="ieee", examples=True)
    assert calls == [1] and len(list(cache.glob("avs-examples-*.json"))) == 2
    avs_module.run_tree_avs(catalog, None, cache_dir=cache, profile="ieee", examples=True)
    assert calls == [1]


def test_the_examples_code_digest_covers_the_interpreter_and_the_pruning():
    import pto_docs.bridge.avs as avs_module
    avs_module.examples_code_digest.cache_clear()
    read = []
    real_read = Path.read_bytes
    try:
        Path.read_bytes = lambda self: read.append(self.name) or real_read(self)  # type: ignore[method-assign]
        avs_module.examples_code_digest()
    finally:
        Path.read_bytes = real_read  # type: ignore[method-assign]
    assert {"harness.py", "probe.py", "program.py", "avs.py", "avs_examples.py", "avs_status.py"} <= set(read)


def test_an_example_that_ran_a_pto_v0_placeholder_says_so_in_both_languages(tmp_path):
    """A step of the results that names profile_fallbacks (an ieee hook pto-docs cannot compute: asl/probe.py)
    gives its example a one-line note on the page; the other examples have none."""
    import pto_docs.bridge.avs as avs_module
    catalog = load_catalog(REPO / "catalog").catalog
    doc = avs_module.run_tree_avs(catalog, None, profile="ieee", examples=True)
    marked = None
    for result in doc["tests"]:
        for step in result.get("steps") or ():
            if marked is None and "changed" in step and result["id"].startswith("PTO-AVS-TILE-TMUL"):
                step["profile_fallbacks"] = ["TileProfileMatrixAccumulate"]
                marked = result["id"]
    assert marked is not None
    path = tmp_path / "avs.json"
    path.write_text(json.dumps(doc), "utf-8")
    site = tmp_path / "site"
    build_catalog(site, avs_results=str(path))
    en = (site / TMUL_PAGE).read_text("utf-8")
    zh = (site / "zh-CN" / TMUL_PAGE).read_text("utf-8")
    note = re.search(r'<p class="pto-caption pto-profile-fallback">([^<]*)</p>', en)
    assert note and "TileProfileMatrixAccumulate" in note.group(1) and "pto-v0" in note.group(1)
    zh_note = re.search(r'<p class="pto-caption pto-profile-fallback">([^<]*)</p>', zh)
    assert zh_note and "TileProfileMatrixAccumulate" in zh_note.group(1) and "占位实现" in zh_note.group(1)
    assert marked in en[en.index("pto-avs-examples"):note.end()]  # the note belongs to the marked test's example
    others = [p for p in site.glob("instructions/**/index.html") if p.parent.name != "TMUL"]
    assert others and not any("pto-profile-fallback" in p.read_text("utf-8") for p in others)
