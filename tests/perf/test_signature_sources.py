"""The page cache's build signature covers every module that post-processes a page's HTML."""

from __future__ import annotations

import shutil

import pytest

from pto_docs.site import cache


@pytest.mark.parametrize("module", cache.POST_PROCESSING)
def test_editing_a_post_processing_module_changes_the_signature(module, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(cache.SITE_DIR, site)
    before = cache._post_processing_sources(site)
    assert before == cache._post_processing_sources()
    edited = site / module
    edited.write_text(edited.read_text("utf-8") + "\n# an edit\n", "utf-8")
    assert cache._post_processing_sources(site) != before
