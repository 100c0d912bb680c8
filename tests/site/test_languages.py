"""site/languages.py: the further languages build in pool workers forked from the primary build; a language
that fails fails the whole build, cleanly (one message, no site published, no staging left behind)."""

from __future__ import annotations

import io
from types import SimpleNamespace

from tests.mkdocs_config import REPO, config_copy


def _args(tmp_path, **more):
    return SimpleNamespace(spec_root=str(REPO / "catalog"), site_dir=str(tmp_path / "site"),
                           config_file=str(config_copy(tmp_path)), no_strict=False, cache_dir=None, no_cache=True,
                           quiet=True, **more)


def test_a_failing_language_fails_the_build_and_leaves_nothing(tmp_path, monkeypatch, caplog):
    from pto_docs.cli import build as build_cmd
    from pto_docs.site import build as site_build
    original = site_build.SiteBuild.post_page

    def failing(self, output_html, page):
        if self.locale == "zh-CN":  # (runs in the forked worker, which inherits this patch)
            raise RuntimeError("a zh-CN page failed")
        return original(self, output_html, page)
    monkeypatch.setattr(site_build.SiteBuild, "post_page", failing)
    err = io.StringIO()
    assert build_cmd.run(_args(tmp_path), io.StringIO(), err) == 1
    logged = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert any("the zh-CN build failed" in m and "a zh-CN page failed" in m for m in logged), logged
    assert not any(".pto-build-" in p.name for p in tmp_path.iterdir())  # no staging directories left
    assert not (tmp_path / "site" / "index.html").exists()  # nothing published (the guard may have made the dir)


def test_both_languages_come_back_from_the_pool(tmp_path):
    from pto_docs.cli import build as build_cmd
    err = io.StringIO()
    assert build_cmd.run(_args(tmp_path), io.StringIO(), err) == 0, err.getvalue()
    assert "in 2 languages (en, zh-CN)" in err.getvalue()
    assert (tmp_path / "site/zh-CN/index.html").is_file() and (tmp_path / "site/index.html").is_file()
