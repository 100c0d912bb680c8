"""The README's pictures of executed examples (section "What a page shows"): every image it references exists, is
a small PNG made by tools/screenshots.py, and the script's choice of pages still finds the example section on a
fresh build of the sample catalog (in the HTML, and in a browser with the script's own selector)."""

from __future__ import annotations

import importlib.util
import re

import pytest

from tests.conftest import REPO

README = REPO / "README.md"


def _script():
    spec = importlib.util.spec_from_file_location("screenshots", REPO / "tools" / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## What a page shows")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else len(text)]


def _images() -> list[str]:
    return re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", _section())


def test_every_image_the_readme_shows_exists_and_is_a_small_png_the_script_names():
    shots = _script()
    names = {name for name, _candidates in (*shots.KINDS.values(), *shots.CHECKOUT_KINDS.values())}
    images = _images()
    assert len(images) >= 3, images
    for ref in images:
        path = REPO / ref
        assert path.is_file(), ref
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 150 * 1024, (ref, len(data))
        assert path.name in names, f"{ref} is not one of the pictures tools/screenshots.py makes"


def test_the_script_finds_the_example_section_of_every_pictured_page(built_site):
    shots = _script()
    chosen = shots.pick_pages(built_site)
    pictured = {REPO.joinpath(ref).name for ref in _images()}
    for kind, (name, _candidates) in shots.KINDS.items():
        if name in pictured:
            assert chosen[kind] is not None, f"no page of the catalog build shows a {kind} example any more"
            assert shots.has_example(chosen[kind][1])
        else:  # a kind the README does not picture: the catalog has no such example (the README says so)
            assert chosen[kind] is None, f"the catalog now has a {kind} example: picture it in the README"


@pytest.mark.realtree
def test_the_checkout_pictures_are_of_pages_with_an_example_on_the_real_tree(real_site):
    """The pictures made with ``--checkout``: each is in the README and its page still shows an executed example of
    the kind the picture claims (a scalar op, a scalar floating-point op, a fault naming its condition)."""
    shots = _script()
    pictured = {REPO.joinpath(ref).name for ref in _images()}
    chosen = shots.pick_pages(real_site, shots.CHECKOUT_KINDS)
    for kind, (name, _candidates) in shots.CHECKOUT_KINDS.items():
        assert name in pictured, f"the README does not show {name}"
        assert chosen[kind] is not None, f"no page of the real tree shows a {kind} example any more"
    section = {kind: _example_section(found[1].read_text("utf-8"), shots.MARKER) for kind, found in chosen.items()}
    assert "Fault_Assert" in section["fault"] and "Fault_Assert" not in section["scalar"]
    assert "FP32" in section["scalar-floating-point"] and "FP32" not in section["scalar"]


def _example_section(html: str, marker: str) -> str:
    start = html.index(marker)
    return html[start:html.index("</section>", start)]


@pytest.mark.browser
def test_the_script_selector_finds_a_visible_section_in_a_browser(built_site, chromium):
    from tests.conftest import serve_directory
    shots = _script()
    httpd = serve_directory(built_site)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    page = chromium.new_page()
    try:
        for kind, found in shots.pick_pages(built_site).items():
            if found is None:
                continue
            page.goto(base + found[1].relative_to(built_site).parent.as_posix() + "/")
            section = page.locator(shots.SELECTOR)
            assert section.count() == 1 and section.first.is_visible(), kind
            assert section.first.bounding_box()["height"] > 100, kind
    finally:
        page.close()
        httpd.shutdown()
