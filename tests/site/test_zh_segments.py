"""site/speedups/zh_segments.py: jieba's segmentation of pto-docs' own Chinese, made once and shipped, is exactly
jieba's; it covers the zh-CN labels; a run it does not hold, or a project's own dictionary, goes to jieba; and a
bilingual build of the sample tree never loads jieba's dictionary."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from pto_docs.site.speedups import search_fast, zh_segments

jieba = pytest.importorskip("jieba")
REGENERATE = "python -m pto_docs.site.speedups.zh_segments SITE... (sites built from catalog/ and a pto-spec checkout)"


def test_every_entry_is_what_the_installed_jieba_cuts():
    doc = json.loads(zh_segments.TABLE.read_text("utf-8"))
    assert [doc["jieba"], doc["dictionary_sha256"]] == list(zh_segments._jieba_identity()), (
        f"the table was made by another jieba: {REGENERATE}")
    segments = doc["segments"]
    assert len(segments) >= 300
    wrong = {run: words for run, words in segments.items() if zh_segments.cut(run) != words}
    assert not wrong, f"{len(wrong)} entries differ from jieba: {REGENERATE}"
    assert len(zh_segments._table()) == len(segments)  # and all of them are in use here


def test_the_table_holds_every_run_of_the_zh_labels():
    missing = zh_segments.label_runs() - set(zh_segments._table())
    assert not missing, f"zh-CN labels changed: {sorted(missing)[:10]} ...; {REGENERATE}"


def test_a_run_outside_the_table_is_cut_by_jieba():
    run = "量子纠缠态的远程传输实验记录"
    assert zh_segments.known(run) is None
    search_fast._segment_run.cache_clear()
    assert search_fast._segment_run(run) == "\u200b" + "\u200b".join(jieba.cut(run.encode("utf-8"))) + "\u200b"


def test_a_project_dictionary_or_another_jieba_bypasses_the_table(monkeypatch):
    run = next(iter(zh_segments._table()))
    assert zh_segments.known(run) is not None
    monkeypatch.setattr(search_fast, "_OWN_DICTIONARY", [True])
    monkeypatch.setattr(zh_segments, "known", lambda run: pytest.fail("the table must not be read"))
    search_fast._segment_run.cache_clear()
    assert search_fast._segment_run(run).strip("\u200b").split("\u200b") == zh_segments.cut(run)
    monkeypatch.undo()
    zh_segments._table.cache_clear()
    monkeypatch.setattr(zh_segments, "_jieba_identity", lambda: ("0.0.0", "0" * 64))
    try:
        assert zh_segments.known(run) is None
    finally:
        zh_segments._table.cache_clear()
        search_fast._segment_run.cache_clear()


def test_search_plugin_dictionary_options_switch_the_table_off():
    material = pytest.importorskip("material.plugins.search.plugin")
    plugin = material.SearchPlugin()
    plugin.load_config({"jieba_dict_user": "words.txt"})
    plugin.search_index = material.SearchIndex(lang=["zh"], separator="", pipeline=[], fields={})
    try:
        assert search_fast.install(plugin)
        assert search_fast._OWN_DICTIONARY == [True]
        plugin.load_config({})
        assert search_fast.install(plugin)
        assert search_fast._OWN_DICTIONARY == [False]
    finally:
        search_fast._OWN_DICTIONARY[0] = False


def test_a_bilingual_build_of_the_sample_tree_never_loads_the_dictionary(tmp_path):
    """Every process that builds a language reports whether jieba loaded its dictionary."""
    script = tmp_path / "probe.py"
    script.write_text(
        "import sys, mkdocs.commands.build as mb\n"
        "orig = mb.build\n"
        "def build(config, **k):\n"
        "    try:\n"
        "        return orig(config, **k)\n"
        "    finally:\n"
        "        import jieba\n"
        "        sys.stderr.write(f\"LANG {config.theme['language']} {jieba.dt.initialized}\\n\")\n"
        "mb.build = build\n"
        "from pto_docs.cli import main\n"
        "raise SystemExit(main(sys.argv[1:]))\n", "utf-8")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, str(script), "build", os.path.join(repo, "catalog"), "--site-dir",
                           str(tmp_path / "site"), "--no-cache", "-q"], cwd=repo, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": repo}, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    reports = sorted(line.split()[1:] for line in done.stderr.splitlines() if line.startswith("LANG "))
    assert reports == [["en", "False"], ["zh-CN", "False"]], done.stderr[-3000:]
    assert (tmp_path / "site" / "zh-CN" / "search" / "search_index.json").stat().st_size > 10_000
