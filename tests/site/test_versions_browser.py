"""A versioned site of three releases in chromium: Material's version selector switches between them, in both
languages, from the versions.json of each language's prefix (site/versions.py)."""

from __future__ import annotations

import pytest
from versions_helpers import build_versions, release_copy, selector, switch_to

from tests.conftest import serve_directory

pytestmark = pytest.mark.browser
VERSIONS = ["3.0.0", "2.1.0", "2.0.0"]


@pytest.fixture(scope="module")
def versioned_url(tmp_path_factory):
    base = tmp_path_factory.mktemp("versioned")
    trees = [release_copy(base, v) for v in VERSIONS]
    rc, err = build_versions(*map(str, trees), "--site-dir", str(base / "out"))
    assert rc == 0, err
    httpd = serve_directory(base / "out")
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.mark.parametrize("prefix", ["", "zh-CN/"])
def test_the_selector_switches_releases(page, versioned_url, prefix):
    page.goto(versioned_url + prefix)  # index.html -> latest/ -> the latest release
    page.wait_for_url(versioned_url + prefix + "3.0.0/")
    assert selector(page) == ("3.0.0", VERSIONS)
    for target in ("2.0.0", "2.1.0"):
        assert switch_to(page, target, versioned_url + prefix + target + "/") == (target, VERSIONS)
        lang = page.get_attribute("html", "lang")
        assert lang == ("zh-CN" if prefix else "en"), lang


def test_the_language_switch_stays_in_the_release(page, versioned_url):
    page.goto(versioned_url + "2.0.0/units/")
    page.hover(".md-header__option .md-select")
    page.click(".pto-language-link[hreflang='zh-CN']")
    page.wait_for_url(versioned_url + "zh-CN/2.0.0/units/")
    assert selector(page)[0] == "2.0.0"
