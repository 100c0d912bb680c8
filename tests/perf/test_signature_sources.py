"""The page cache's build signature covers every module that post-processes a page's HTML."""

from __future__ import annotations

import shutil

import pytest

from pto_docs.site import cache


@pytest.mark.parametrize("module", cache.post_processing_modules(), ids=lambda m: m.__name__)
def test_editing_a_post_processing_module_changes_the_signature(module, tmp_path, monkeypatch):
    before = cache._post_processing_sources()
    edited = tmp_path / "edited.py"
    shutil.copy(module.__file__, edited)
    edited.write_text(edited.read_text("utf-8") + "\n# an edit\n", "utf-8")
    monkeypatch.setattr(module, "__file__", str(edited))
    assert cache._post_processing_sources() != before
