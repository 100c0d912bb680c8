"""Finding an instruction (issue 33): long names for every mnemonic, the A–Z index, classification pages, the
navigation's index titles and heads, and the search hooks (the id lookup and its quick matches)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from pto_docs.i18n import LOCALES
from pto_docs.i18n import long_names as ln
from pto_docs.render import routes
from pto_docs.render.classes import class_pages, class_src


def _mnemonics(root: Path) -> set[str]:
    out = set()
    for path in root.glob("asl/**/*.asl"):
        with path.open(encoding="utf-8") as fh:
            line = fh.readline()
        if line.startswith("// PTO-INSTRUCTION:"):
            out.add(json.loads(line.split(":", 1)[1])["mnemonic"])
    return out


def _trees() -> list[Path]:
    from tests.render.conftest import SPEC_ROOT
    trees = [SPEC_ROOT]
    real = os.environ.get("PTO_SPEC_CHECKOUT")
    if real and Path(real, "asl").is_dir():
        trees.append(Path(real))
    return trees


@pytest.mark.parametrize("root", _trees(), ids=lambda p: p.name)
def test_every_mnemonic_of_the_tree_has_a_long_name_in_every_language(root):
    mnemonics = _mnemonics(root)
    assert mnemonics
    assert ln.missing(mnemonics) == []
    for m in mnemonics:
        for loc in LOCALES:
            name = ln.long_name(m, loc)
            assert name.strip() and name == name.strip() and "\n" not in name, (m, loc)
        assert re.search(r"[\u4e00-\u9fff]", ln.long_name(m, "zh-CN")), f"{m}: the zh-CN long name is not Chinese"
    english = [ln.long_name(m, "en") for m in mnemonics]
    assert len(set(english)) == len(english), "two instructions share an English long name"


def test_long_names_and_search_terms_of_the_three_searches():
    assert ln.titled("LW", "en") == "LW — Load Word"
    assert ln.long_name("LW", "zh-CN") == "加载字"
    assert "broadcast" in ln.long_name("TCOLEXPAND", "en").lower().split()
    assert "expand" in ln.search_terms("TCOLEXPAND", "en")
    assert "转置" in ln.long_name("TTRANS", "zh-CN") and "转置" in ln.search_terms("TTRANS", "en")
    assert ln.titled("NOT-A-MNEMONIC", "en") == "NOT-A-MNEMONIC" and ln.search_terms("NOT-A-MNEMONIC", "en") == []


def test_a_mnemonic_without_a_long_name_is_a_warning_naming_its_file():
    units = [SimpleNamespace(path="asl/tile/x/TDEMO.asl", mnemonic="TDEMO", is_instruction=True),
             SimpleNamespace(path="asl/tile/x/TADD.asl", mnemonic="TADD", is_instruction=True),
             SimpleNamespace(path="asl/tile/model/m.asl", mnemonic=None, is_instruction=False)]
    (d,) = ln.missing_diagnostics(units)
    assert not d.is_error
    assert d.format().startswith("asl/tile/x/TDEMO.asl:1:1: warning[LONG-NAME]: instruction TDEMO has no long name")


def _unit(uid, surface, classification, stem, instruction=True):
    return SimpleNamespace(id=uid, surface=surface, classification=tuple(classification), mnemonic=stem if instruction else None,
                           is_instruction=instruction, path=f"asl/{surface}/{'/'.join(classification)}/{stem}.asl")


def test_classification_pages_cover_every_prefix_and_skip_a_url_taken_by_another_page():
    a = _unit("A", "scalar", ["agu"], "LW")
    b = _unit("B", "tile", ["reduce", "col"], "TX")
    clash = _unit("C", "scalar", ["alu"], "all")  # instructions/scalar/alu/all.md: scalar/alu's class page
    d = _unit("D", "scalar", ["alu"], "ADD")
    e, f = _unit("E", "block", ["a b"], "X1"), _unit("F", "block", ["a_b"], "X2")  # the same URL segment
    cat = SimpleNamespace(instructions=[a, b, clash, d, e, f], units={u.id: u for u in (a, b, clash, d, e, f)}, adrs={})
    pages = class_pages(cat)
    assert set(pages) == {("scalar", ()), ("scalar", ("agu",)), ("tile", ()), ("tile", ("reduce",)),
                          ("tile", ("reduce", "col")), ("block", ())}
    assert pages[("tile", ("reduce",))].src == "instructions/tile/reduce/all.md"
    assert [u.mnemonic for u in pages[("scalar", ())].units] == ["ADD", "LW", "all"]
    assert class_src("scalar", ("alu",)) == "instructions/scalar/alu/all.md"
    assert routes.url_of(routes.unit_src(clash)) == routes.url_of(class_src("scalar", ("alu",)))


def test_instruction_page_title_names_it_and_its_classification_links_to_its_pages(renderer):
    pages = dict(renderer.pages("zh-CN"))
    src = "instructions/tile/reduce-and-expand/column-expansion/TCOLEXPAND.md"
    text = pages[src].assembled()
    assert text.startswith("# TCOLEXPAND — " + ln.long_name("TCOLEXPAND", "zh-CN") + "\n")
    for cls in ("instructions/tile/reduce-and-expand/all.md", "instructions/tile/reduce-and-expand/column-expansion/all.md"):
        assert cls in pages, cls
        assert f'<a href="{routes.relative(src, cls)}"><code>' in text
    assert "pto-search-terms" in text and "expand" in text
    en = dict(renderer.pages("en"))
    assert en[src].assembled().startswith("# TCOLEXPAND — Tile Column Broadcast\n")


def test_a_to_z_index_lists_every_instruction_once_by_letter_outside_the_search_index(renderer):
    parts = dict(renderer.pages("en"))[routes.INSTRUCTION_INDEX]
    heavy = "".join(parts.heavy)
    mnemonics = sorted(u.mnemonic for u in renderer.catalog.instructions)
    rows = re.findall(r'<li class="pto-az__row" data-surface="(\w+)" data-class="([^"]+)"><a class="pto-az__id" href="[^"]+">'
                      r'<code>([^<]+)</code></a><span class="pto-az__text"><span class="pto-az__name">([^<]*)</span>', heavy)
    assert sorted(r[2] for r in rows) == mnemonics
    for surface, klass, mnemonic, name in rows:
        assert name == ln.long_name(mnemonic, "en") and klass.split("/")[0] == surface
    letters = re.findall(r'<section class="pto-az__group" id="letter-(\w+)">', heavy)
    assert letters == sorted({m[0].lower() for m in mnemonics})
    assert not any("pto-az__row" in f for f in parts.search)  # the rows would outrank the instruction pages
    assert "# Instructions A–Z\n" in parts.markdown


def test_navigation_names_each_index_and_opens_each_class_section_with_its_page(renderer):
    from pto_docs.render.navigation import navigation
    nav = navigation(renderer, "en")
    titles = []

    def walk(entries):
        for entry in entries:
            for title, value in entry.items():
                titles.append(title)
                if isinstance(value, list):
                    walk(value)
    walk(nav)
    assert "Index" not in titles
    instructions = next(v for e in nav for t, v in e.items() if t == "Instructions")
    assert instructions[0] == {"Instructions A–Z": routes.INSTRUCTION_INDEX}
    scalar = next(v for e in instructions for t, v in e.items() if t == "Scalar")
    assert list(scalar[0].values()) == ["instructions/scalar/all.md"]
    agu = next(v for e in scalar for t, v in e.items() if t == "agu")
    assert agu[0] == {"All of agu": "instructions/scalar/agu/all.md"}


def test_id_lookup_finds_an_instruction_by_its_long_name_and_quick_matches_show_it(renderer):
    from pto_docs.render.id_index import id_index_json, normalise
    data = json.loads(id_index_json(renderer.catalog))
    swi = routes.url_of(routes.unit_src(next(u for u in renderer.catalog.instructions if u.mnemonic == "SWI")))
    hits = [e for e in data["entries"] if e[0] == normalise("Store Word Immediate")]
    assert hits == [[normalise("Store Word Immediate"), swi, 0, "SWI — Store Word Immediate"]]
    zh = {row[1]: row for row in data["quick"]["zh-CN"]}
    assert zh["TCOLEXPAND — " + ln.long_name("TCOLEXPAND", "zh-CN")][2].endswith(" ".join(ln.search_terms("TCOLEXPAND", "zh-CN")))


def test_every_classification_page_is_in_the_navigation_even_a_class_with_one_sub_class(renderer):
    """The catalog's tile reduce-and-expand holds one sub-class (column-expansion): its own page was left out of the
    nav when the single sub-group was shown in its place (MkDocs: "pages exist in the docs directory, but are not
    included in the nav")."""
    from pto_docs.render.navigation import navigation
    srcs = set()

    def walk(entries):
        for entry in entries:
            for value in entry.values():
                walk(value) if isinstance(value, list) else srcs.add(value)
    pages = class_pages(renderer.catalog)
    assert ("tile", ("reduce-and-expand",)) in pages  # the case this test is about
    for locale in LOCALES:
        srcs.clear()
        walk(navigation(renderer, locale))
        assert {p.src for p in pages.values()} - srcs == set()
