"""Issue 33: no English generated text on a zh-CN page (generated_english.py says what counts), on every zh-CN
page of the catalog's site and (PTO_SPEC_CHECKOUT) of the real tree's."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from generated_english import generated_english


def _scan(site: Path) -> Counter:
    found: Counter = Counter()
    for page in sorted((site / "zh-CN").rglob("*.html")):
        for phrase in generated_english(page.read_text("utf-8")):
            found[(phrase, str(page.relative_to(site)))] += 1
    return found


def test_the_check_sees_labels_enumerations_and_tooltips_but_not_english_by_design():
    html = ('<header class="md-header">accepted</header><article><p>状态：accepted</p><table><tr><td>encoding-defined'
            '</td></tr></table><svg><title>DataType 31:27: variable</title><text>DataType</text></svg>'
            '<p lang="en">An accepted proposal is not-required here.</p><code>accepted</code>'
            '<h2>Complete bundle assembly</h2></article>')
    assert sorted(generated_english(html)) == ["Complete bundle assembly", "accepted", "encoding-defined", "variable"]


def test_catalog_zh_pages_have_no_generated_english(built_site):
    found = _scan(built_site)
    assert not found, found.most_common(20)


def test_real_tree_zh_pages_have_no_generated_english(real_site):
    found = _scan(real_site)
    assert not found, found.most_common(20)


def test_a_findings_reason_marked_english_is_generated_english_but_its_spec_text_and_code_are_not():
    def notice(reason: str) -> str:
        return ('<article><div class="admonition warning pto-finding"><p>规范原文： <q lang="en">BSTART.TLOAD U8; '
                'B.DIM LB0, 64 loads a tile from memory</q> (<code>/contract/examples/0</code>)</p><p>汇编器报告：'
                f'{reason}</p></div><p lang="en">Spec prose awaiting its translation.</p></article>')
    english = notice('<span lang="en">B.DIM LB0, 64: B.DIM: expects 3 operands (B.DIM RegSrc, uimm, -&gt;LB0), '
                     "got 2 and is not a Local tile operand</span>")
    assert "Local tile operand" in generated_english(english)
    chinese = notice('<code>B.DIM LB0, 64</code>：<span class="pto-message"><code>B.DIM</code>：需要 <code>3</code> '
                     '个操作数（<code>B.DIM RegSrc, uimm, -&gt;LB0</code>），实际为 <code>2</code> 个</span>')
    assert generated_english(chinese) == []
