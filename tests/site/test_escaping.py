"""Record text is never HTML: a summary with <script> renders as text (own fixture tree in tmp_path)."""

from __future__ import annotations

import json

import markdown

from pto_docs.analysis.load import load_catalog
from pto_docs.analysis.sitedata import SiteData
from pto_docs.render.pages import SiteRenderer

EVIL = "Adds <script>alert(1)</script> **tiles** [x](javascript:alert(2)) & more_of_it"


def _tree(tmp_path):
    record = {
        "assembly": ["TEVIL <bundle operands>"], "block": ["BSTART.VEC TEVIL, DataType", "B.DIM LB0=ValidCol", "BSTOP"],
        "catalog_indices": [], "catalog_records": [], "classification": ["elementwise-tile-tile", "arithmetic"],
        "contract": {"block_composition": ["BSTART.VEC TEVIL, DataType"], "legality": ["<img src=x onerror=alert(3)>"],
                     "operands": [{"field": "destination0", "role": "<b>dest</b>"}], "examples": ["<i>x</i>"]},
        "depends_on": [], "engine": "VEC", "id": "PTO-TILE-TEVIL", "mnemonic": "TEVIL", "summary": EVIL, "surface": "tile",
    }
    unit = tmp_path / "asl/tile/elementwise-tile-tile/arithmetic/TEVIL.asl"
    unit.parent.mkdir(parents=True)
    unit.write_text("// PTO-INSTRUCTION: " + json.dumps(record) + "\n"
                    "// NDF-BEGIN: PTO-TEVIL-CONTRACT-001\n// ndf: kind=contract level=L1 layer=tile status=accepted\n"
                    "// TEVIL MUST <script>x()</script> escape.\n// NDF-END: PTO-TEVIL-CONTRACT-001\n"
                    "// DOC-BEGIN: decode\nfunc A() begin end; // </pre><script>y()</script>\n// DOC-END: decode\n"
                    "// DOC-BEGIN: operation\nfunc B() begin end;\n// DOC-END: operation\n")
    (tmp_path / "specification.toml").write_text('[release]\narchitecture_version = "9.9.9"\n')
    return tmp_path


def test_script_in_summary_is_text(tmp_path):
    result = load_catalog(_tree(tmp_path))
    renderer = SiteRenderer(SiteData.build(result.catalog, result.tree))
    unit = result.catalog.units["PTO-TILE-TEVIL"]
    for locale in ("en", "zh-CN"):
        parts = renderer.unit_page(unit, locale)
        html = parts.fill_heavy(parts.fill_search(markdown.markdown(parts.markdown, extensions=["attr_list", "toc", "tables"])))
        assert "<!--pto-" not in html
        assert "<script>" not in html and "<img" not in html and "<b>dest" not in html and "<i>x" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "javascript:" not in html.replace("[x](javascript:alert(2))", "")
        assert 'href="javascript' not in html
        assert "**tiles**" in html  # Markdown in record text stays literal


def test_adr_body_html_is_text():
    from pto_docs.render.markdown_safe import safe_markdown
    out = markdown.markdown(str(safe_markdown("# ADR 0001: T\n\n## Context\n\n<script>z()</script> `<b>code</b>`\n\n[a](javascript:x)\n")),
                            extensions=["attr_list"])
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert "<code>&lt;b&gt;code&lt;/b&gt;</code>" in out
    assert "javascript:" not in out and "<h3" in out
