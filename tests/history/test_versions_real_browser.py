"""The versioned site of three real pto-spec releases (0.58.1, 0.58.2, 0.58.3 under PTO_SPEC_RELEASES), built
once per session with ``build-versions --changes``, in chromium: Material's version selector switches between
the three, and the address of an instruction 0.58.2 removed (B.EQ) still leads to a page in 0.58.2's site."""

from __future__ import annotations

import pytest

from tests.conftest import serve_directory
from tests.site.versions_helpers import selector, switch_to

pytestmark = pytest.mark.browser
VERSIONS = ["0.58.3", "0.58.2", "0.58.1"]
B_EQ = "instructions/scalar/bru/B.EQ/"


@pytest.fixture(scope="session")
def real_versioned_url(releases, tmp_path_factory):
    from tests.site.versions_helpers import build_versions
    base = tmp_path_factory.mktemp("real-versioned")
    trees = [str(releases[v]) for v in VERSIONS]
    rc, err = build_versions(*trees, "--changes", "--site-dir", str(base / "out"), "--cache-dir", str(base / "cache"))
    assert rc == 0, err
    httpd = serve_directory(base / "out")
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


def test_the_selector_switches_between_three_real_releases(page, real_versioned_url):
    url = real_versioned_url
    page.goto(url)  # index.html -> latest/ -> 0.58.3
    page.wait_for_url(url + "0.58.3/")
    assert selector(page) == ("0.58.3", VERSIONS)
    for target in ("0.58.1", "0.58.2", "0.58.3"):
        assert switch_to(page, target, url + target + "/") == (target, VERSIONS)
    # B.EQ: an instruction of 0.58.1; 0.58.2 removed it and keeps a page at its address naming ADR-0067
    page.goto(url + "0.58.1/" + B_EQ)
    assert selector(page)[0] == "0.58.1" and "pto-removed" not in page.content()
    response = page.goto(url + "0.58.2/" + B_EQ)
    assert response.status == 200 and selector(page)[0] == "0.58.2"
    removed = page.inner_text(".pto-removed")
    assert "0.58.2" in removed and "0.58.1" in removed
    assert "ADR-0067" in page.inner_text("article")
