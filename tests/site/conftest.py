"""Shared fixtures: one bilingual build of the embedded catalog per test session."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# the catalog tree, the seed pages, its loaded tree and renderer: shared with tests/render (tests/render/conftest.py)
from tests.render.conftest import SEED_PAGES, SPEC_ROOT, loaded, renderer  # noqa: E402,F401

# the real tree's site: the session fixture ``real_site`` of tests/conftest.py (the maintainer's minimal mkdocs.yml)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("site"), SPEC_ROOT)


def _build(site: Path, spec_root: Path) -> Path:
    from pto_docs.cli import build as build_cmd

    args = type("Args", (), {"spec_root": str(spec_root), "site_dir": str(site), "config_file": str(REPO / "mkdocs.yml"),
                             "no_strict": False})()
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        rc = build_cmd.run(args, out, err)
    finally:
        os.chdir(cwd)
    assert rc == 0, err.getvalue()
    return site


# -- browser: the chromium fixture and the static server live in tests/conftest.py (shared by every directory)
from tests.conftest import serve_directory as _serve  # noqa: E402


@pytest.fixture(scope="session")
def catalog_url(built_site):
    httpd = _serve(built_site)
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="session")
def real_url(real_site):
    httpd = _serve(real_site)
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()



