"""The real tree (PTO_SPEC_CHECKOUT) through a maintainer's minimal mkdocs.yml: every instruction page in both
languages, with our stylesheet and SVG diagrams, and none of upstream's own docs/ pages."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.realtree


def test_real_tree_minimal_config_builds_both_languages(real_site, real_load):
    instructions = [u for u in real_load.catalog.units.values() if u.is_instruction]
    for lang in ("", "zh-CN/"):
        base = real_site / lang
        pages = list((base / "instructions").rglob("index.html"))
        assert len(pages) >= len(instructions)
        assert (base / "assets/pto-docs.css").is_file()
        assert "assets/pto-docs.css" in (base / "index.html").read_text("utf-8")
        with_svg = sum("<svg" in p.read_text("utf-8") for p in pages)
        assert with_svg >= len(instructions) * 9 // 10


def test_real_tree_docs_dir_stays_out_of_the_site(real_site):
    assert not (real_site / "docs").exists() and not (real_site / "mkdocs").exists()
    assert not (real_site / "status").exists() and not (real_site / "tile").exists()
    assert (real_site / "adrs").is_dir()
