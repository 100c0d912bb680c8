"""The page cache's build signature covers every module that post-processes a page's HTML."""

from __future__ import annotations

import shutil

import pytest

from pto_docs import mkdocs_plugin
from pto_docs.render import cache, markdown_shapes, nav_cache, search_fast


@pytest.mark.parametrize("module", [mkdocs_plugin, nav_cache, markdown_shapes, search_fast])
def test_editing_a_post_processing_module_changes_the_signature(module, tmp_path, monkeypatch):
    before = cache._post_processing_sources(mkdocs_plugin)
    edited = tmp_path / "edited.py"
    shutil.copy(module.__file__, edited)
    edited.write_text(edited.read_text("utf-8") + "\n# an edit\n", "utf-8")
    monkeypatch.setattr(module, "__file__", str(edited))
    assert cache._post_processing_sources(mkdocs_plugin) != before
