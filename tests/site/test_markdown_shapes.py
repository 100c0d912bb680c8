"""site/speedups/markdown_shapes.py: every page rendered from its shape equals MkDocs' own rendering of the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.structure.pages import Page

from pto_docs.site.speedups import markdown_shapes
from tests.mkdocs_config import build_catalog

REPO = Path(__file__).resolve().parents[2]


def snapshot(page: Page) -> tuple:
    def toc(links):
        return [(link.title, link.id, link.level, getattr(link, "active", False), toc(link.children)) for link in links]
    links = {file.src_uri: dict(anchors) for file, anchors in (page.links_to_anchors or {}).items()}
    return (page.content, toc(page.toc), page._title_from_render, page.title, sorted(page.present_anchor_ids or ()), links)


def test_every_page_from_a_shape_equals_its_own_conversion(tmp_path, monkeypatch):
    compared = []
    original = markdown_shapes.ShapeCache.render

    def checked(self, page, config, files):
        before = self.reused
        original(self, page, config, files)
        if self.reused > before:  # rendered from its shape: convert it for real and compare everything
            fast = snapshot(page)
            Page.render(page, config, files)
            assert snapshot(page) == fast, page.file.src_uri
            compared.append(page.file.src_uri)

    monkeypatch.setattr(markdown_shapes.ShapeCache, "render", checked)
    build_catalog(tmp_path / "site", markdown_shapes=True)
    assert len(compared) > 40  # both languages; most pages share a shape
    assert any(src.startswith("instructions/") for src in compared) and any(src.startswith("adrs/") for src in compared)


def test_a_site_with_shapes_is_byte_identical_to_one_without(tmp_path):
    build_catalog(tmp_path / "shapes", markdown_shapes=True)
    build_catalog(tmp_path / "plain", markdown_shapes=False)
    a = sorted(p.relative_to(tmp_path / "shapes") for p in (tmp_path / "shapes").rglob("*.html"))
    b = sorted(p.relative_to(tmp_path / "plain") for p in (tmp_path / "plain").rglob("*.html"))
    assert a == b and len(a) > 50
    assert [str(p) for p in a if (tmp_path / "shapes" / p).read_bytes() != (tmp_path / "plain" / p).read_bytes()] == []


@pytest.mark.parametrize("markdown, shaped", [
    ("# TMUL\n\n<!--pto-f:0-->\n\n## Encoding {: #encoding }\n\n<!--pto-f:1-->\n", True),
    ("# HL\\.LB\\.PCR\n\n## High\\-level assembly {: #assembly }\n", True),
    ("# ADR-0001: Define PTO as a scalar, bundle/command, and tile ISA\n", True),
    ("# 指令索引\n\n<!--pto-f:0-->\n", True),
    ("# A *strong* title\n", False),      # inline markup: converted page by page
    ("# snake_case\n", False),
    ("# Title {: #mine }\n", False),      # an explicit id
    ("# T\n\nSome paragraph text.\n", False),
    ("## No title\n", False),
    ("# T\n\n| a | b |\n|---|---|\n", False),
])
def test_which_pages_have_a_shape(markdown, shaped):
    cache = markdown_shapes.ShapeCache.__new__(markdown_shapes.ShapeCache)
    assert (cache._split(markdown) is not None) == shaped
