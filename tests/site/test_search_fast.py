"""site/speedups/search_fast.py gives exactly Material's search entries: on generated HTML, on every page of the
sample tree, and as byte-identical search indexes of a whole bilingual build with and without it."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pto_docs.site.speedups import search_fast
from tests.mkdocs_config import config_copy

material = pytest.importorskip("material.plugins.search.plugin")
REPO = Path(__file__).resolve().parents[2]


def material_sections(html: str) -> list:
    parser = material.Parser()
    parser.feed(html)
    parser.close()
    return parser.data


def shape(sections: list) -> list:
    return [(s.el.tag, s.el.attrs, s.id, s.depth, s.title, s.text, s.is_excluded()) for s in sections]


def fast_only(html: str) -> list:
    parser = search_fast.SectionParser()
    parser.feed(html)  # raises instead of falling back
    return parser.data


# -- generated HTML -----------------------------------------------------------------------------
TAGS = ["p", "div", "span", "code", "pre", "li", "ul", "ol", "sub", "sup", "a", "table", "td", "tr", "h1",
        "h2", "h3", "h6", "details", "summary", "object", "hx", "br", "img", "hr", "input"]
TEXT = st.sampled_from(["text", " ", "\n", "  \n ", "a&amp;b", "&lt;tag&gt;", "x\ny", "中文标题", "&#39;q&#39;",
                        "&nbsp;", "tab\there", "1 &lt; 2", "&amp", ""])
ATTRS = st.lists(st.sampled_from([' id="sec"', ' id="s-2"', ' class="headerlink"', ' class="linenodiv"',
                                  " data-search-exclude", ' data-search-exclude=""', ' class="x y"',
                                  " title='it&apos;s'", ' href="#a&amp;b"', ' ID="Up"', ' data-x="a>b"']),
                 max_size=3)


def _element(children):
    return st.builds(lambda tag, attrs, kids, close, upper: (
        f"<{tag.upper() if upper else tag}{''.join(attrs)}>{''.join(kids)}" + (f"</{tag}>" if close else "")),
        st.sampled_from(TAGS), ATTRS, st.lists(children, max_size=4), st.booleans(), st.booleans())


HTML = st.recursive(TEXT, _element, max_leaves=25)
STRAY = st.sampled_from(["", "<!-- note -->", "<!--pto-h:3-->", "<br/>", "<p/>", "</p>", "</div>", "<!DOCTYPE html>",
                         "<script>if (a < b) {}</script>", "<style>p > a {}</style>", "a < b", "<a href=x>",
                         "<!-- a -- b -->", "<?pi?>", "<", "&", "</ p>", "<p\n  class=\"m\"\n>", "<svg:g>"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(HTML, STRAY), min_size=1, max_size=6))
def test_sections_equal_materials_on_generated_html(pieces):
    html = "".join(pieces)
    try:
        expected = shape(material_sections(html))
    except Exception as exc:  # noqa: BLE001 - Material fails on some inputs: ours must fail alike
        with pytest.raises(type(exc)):
            search_fast.sections(html)
        return
    assert shape(search_fast.sections(html)) == expected


@pytest.mark.parametrize("html", [
    "<h1 id=\"t\">Title<a class=\"headerlink\" href=\"#t\">¶</a></h1><p>one</p><h2 id=\"b\">B</h2><pre><code>x\n  y</code></pre>",
    "<div data-search-exclude>hidden<div>inner</div>shown again (as in Material)</div><p>after</p>",
    "<p>before</p><h2 id=\"x\">X</h2><div class=\"linenodiv\"><pre>1\n2</pre></div><p>code</p>",
    "text first<h3 id=\"late\">Late</h3><ul><li> </li><li>item</li></ul>",
    "<pre>x <code> </code>\n<span> </span>y</pre><p> </p> <p>x</p>",
    "<object>a</object><p>b</p><object>c</object><p>d</p>",
    "<h2 id=\"n\">N<code>c</code> <span>s</span></h2><section><h3 id=\"in\">In</h3><p>i</p></section><p>out</p>",
])
def test_the_fast_path_reads_the_subset_itself(html):
    assert shape(fast_only(html)) == shape(material_sections(html))


@pytest.mark.parametrize("html", ["<script>1 < 2</script>", "<!DOCTYPE html><p>x</p>", "a < b", "<a href=x>y</a>",
                                  "<!-- a -- b -->"])
def test_outside_the_subset_material_reads_the_page(html):
    with pytest.raises(search_fast.Unsupported):
        fast_only(html)
    assert shape(search_fast.sections(html)) == shape(material_sections(html))


# -- Chinese segmentation -----------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "English only", "操作数和角色", "混合 mixed 文本，标点。再来一次操作数",
                                  "\u200b边界\u200b", "数据类型 FP32 与 FP16 的转换"])
def test_segmentation_equals_materials(text):
    pytest.importorskip("jieba")
    index = material.SearchIndex(lang=["zh"], separator="", pipeline=[], fields={})
    assert search_fast.segment_chinese(text) == index._segment_chinese(text)
    assert search_fast.segment_chinese(text) == index._segment_chinese(text)  # memoised: the same again


# -- the sample tree ----------------------------------------------------------------------------
def _build(tmp_path: Path, fast: bool) -> Path:
    from pto_docs.cli import build as build_cmd
    config = config_copy(tmp_path, name=f"mkdocs-{fast}.yml", fast_search=fast)
    site = tmp_path / f"site-{fast}"
    args = type("Args", (), {"spec_root": None, "site_dir": str(site), "config_file": str(config),
                             "no_strict": False, "no_cache": True, "quiet": True})()
    err = io.StringIO()
    assert build_cmd.run(args, io.StringIO(), err) == 0, err.getvalue()
    return site


def test_a_whole_build_gives_byte_identical_search_indexes(tmp_path, monkeypatch):
    fallbacks = []
    original = material.Parser.feed
    monkeypatch.setattr(material.Parser, "feed", lambda self, data: (fallbacks.append(1), original(self, data))[1])
    contexts = []  # (those of the primary language: the other is built in a forked process)
    own_context = search_fast.page_context
    monkeypatch.setattr(search_fast, "page_context", lambda *a, **k: (contexts.append(1), own_context(*a, **k))[1])
    fast = _build(tmp_path, True)
    assert fallbacks == [], "every generated page should be read by the fast path"
    assert len(contexts) > 30, "Material's on_page_context should have been replaced by search_fast.page_context"
    slow = _build(tmp_path, False)
    assert fallbacks, "the slow build must have used Material's parser"
    pages = sorted(p.relative_to(fast) for p in fast.rglob("*.html"))
    assert pages == sorted(p.relative_to(slow) for p in slow.rglob("*.html"))
    assert [str(p) for p in pages if (fast / p).read_bytes() != (slow / p).read_bytes()] == []
    for lang in ("", "zh-CN"):
        a = (fast / lang / "search" / "search_index.json").read_bytes()
        b = (slow / lang / "search" / "search_index.json").read_bytes()
        assert len(a) > 10_000
        assert a == b, lang or "en"
    assert os.path.getsize(fast / "zh-CN" / "search" / "search_index.json") > 0


class _Index:
    def __init__(self):
        self.pages = []

    def add_entry_from_context(self, page):
        self.pages.append(page.content)


class _Plugin:
    def __init__(self, enabled=True):
        self.config = type("Config", (), {"enabled": enabled})()
        self.search_index = _Index()


@pytest.mark.parametrize("content", [
    "<p>plain</p>", '<p data-search-exclude>kept</p>', '<p data-search-exclude="">kept: empty value</p>',
    '<h2 data-search-exclude="x" id="a">one</h2>', '<div\ndata-search-boost="2" data-search-exclude="1">two</div>',
    'text data-search-foo="bar" in text', '<p data-search-exclude>a</p><p data-search-x="y">b</p>', ""])
@pytest.mark.parametrize("enabled", [True, False])
def test_page_context_is_materials(content, enabled):
    from types import SimpleNamespace
    ours, theirs = _Plugin(enabled), _Plugin(enabled)
    page_ours, page_theirs = SimpleNamespace(content=content), SimpleNamespace(content=content)
    assert search_fast.page_context(ours, {}, page=page_ours, config=None, nav=None) is None
    assert material.SearchPlugin.on_page_context(theirs, {}, page=page_theirs, config=None, nav=None) is None
    assert page_ours.content == page_theirs.content and ours.search_index.pages == theirs.search_index.pages


def test_the_page_context_patch_follows_materials_source():
    """The restatement is installed only over the on_page_context it restates (the source digest); the Material
    this project installs has that one, so the patch is in effect here."""
    assert search_fast._material_page_context_known()


# -- what the search plugin is given --------------------------------------------------------------
def test_nested_heavy_fragments_are_filled_in_place():
    from pto_docs.render.pages import PageParts
    parts = PageParts("a <!--pto-f:0--> z", search=["<p>[<!--pto-h:2-->]</p>"],
                      heavy=["<code>sha</code>", "<pre>src</pre>", "<div><!--pto-h:0--> <!--pto-h:1--></div>"])
    assert parts.assembled() == "a <p>[<div><code>sha</code> <pre>src</pre></div>]</p> z"
    assert parts.fill_search(parts.markdown) == "a <p>[<!--pto-h:2-->]</p> z"  # what search parses: no heavy part


EXCLUDED_BLOCKS = ('class="pto-evidence-item"', 'class="pto-table pto-symbols"', 'class="pto-table pto-bitfield"',
                   'class="pto-section pto-metadata"', '<table class="pto-table" data-search-exclude>')


@pytest.mark.parametrize("locale", ["en", "zh-CN"])
def test_excluded_evidence_and_tables_reach_the_page_but_not_the_search_parser(renderer, locale):
    """The blocks search excludes anyway (each test's evidence entry, the ADR, operand, symbol and bit-field tables,
    the metadata) are heavy fragments: in the page, never parsed by the search plugin, same index."""
    unit = next(u for u in renderer.units if u.mnemonic == "TMUL")
    parts = renderer.unit_page(unit, locale)
    searched = parts.fill_search(parts.markdown)
    page = parts.assembled()
    for marker in ('class="pto-evidence-item"', 'class="pto-table pto-symbols"', 'class="pto-table pto-bitfield"',
                   'class="pto-section pto-metadata"', "<th>ASL source</th>" if locale == "en" else 'class="pto-table"'):
        assert marker in page, marker
    for marker in ('class="pto-evidence-item"', 'class="pto-table pto-symbols"', 'class="pto-table pto-bitfield"',
                   'class="pto-section pto-metadata"'):
        assert marker not in searched, marker
    # each such block, put back in place for the search parser, adds nothing to what it indexes
    moved = 0
    for m in re.finditer(r"<!--pto-h:(\d+)-->", searched):
        block = parts.fill_heavy(m.group(0))
        if not any(marker in block[:200] for marker in EXCLUDED_BLOCKS):
            continue
        moved += 1
        inline = searched[:m.start()] + block + searched[m.end():]
        assert shape(search_fast.sections(inline)) == shape(search_fast.sections(searched)), block[:120]
    assert moved >= 4
