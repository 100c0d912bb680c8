"""ASL identifiers in code blocks link to their definitions (unit page and line), and the unit listings carry
the line anchors the links point at; a page whose links would change is made again."""

from __future__ import annotations

import re

from pto_docs.analysis.load import load_catalog
from pto_docs.analysis.sitedata import SiteData
from pto_docs.asl.names import definitions
from pto_docs.render import routes
from pto_docs.render.pages import SiteRenderer

TMUL = "PTO-TILE-TMUL"
DISPATCH = "asl/tile/model/dispatch/top-level.asl"
LINK = re.compile(r'<a class="pto-asl-ref" href="([^"]*)"[^>]*><span class="nf?c?">(\w+)</span></a>')


def _declaring_line(text: str, pattern: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if re.match(pattern, line))


def _links(model) -> dict[str, str]:
    return {name: href for r in model.regions for href, name in LINK.findall(str(r.html))}


def _renderer(root, previous=None):
    loaded = load_catalog(root)
    return SiteRenderer(SiteData.build(loaded.catalog, loaded.tree), previous=previous)


def test_tmul_operation_links_execute_tile_binary_to_its_line(renderer, loaded):
    cat = loaded.catalog
    model = renderer.model(cat.units[TMUL])
    href = _links(model)["ExecuteTileBinary"]
    owner = cat.unit_for_path(DISPATCH)
    line = _declaring_line(owner.file.text, r"(\w+\s+)*func\s+ExecuteTileBinary\b")
    assert href == routes.relative(model.src, routes.unit_src(owner), f"asl-L{line}")
    # the target page's listing has that anchor, on the declaring line
    listing = str(renderer.model(owner)["full_asl"])
    anchored = re.search(rf'<span class="pto-asl-def" id="asl-L{line}">([^\n]*)\n</span>', listing)
    assert anchored and "ExecuteTileBinary" in anchored.group(1)


def test_names_of_the_unit_itself_link_on_its_own_page_and_its_declaration_stays_plain(renderer, loaded):
    model = renderer.model(loaded.catalog.units[TMUL])
    text = loaded.catalog.units[TMUL].file.text
    line = _declaring_line(text, r"(\w+\s+)*func\s+InstructionContractOperandsLegal_TMUL\b")
    html = "".join(str(r.html) for r in model.regions)
    # the call in InstructionContractExecute_TMUL links to the declaration on this page ...
    assert _links(model)["InstructionContractOperandsLegal_TMUL"] == f"#asl-L{line}"
    assert html.count(f'href="#asl-L{line}"') == 1
    # ... and the declaration itself (also shown in the region) stays plain
    assert html.count('<span class="nf">InstructionContractOperandsLegal_TMUL</span>') == 2
    assert f'<span class="pto-asl-def" id="asl-L{line}">' in str(model.full_asl)


def test_moving_a_definition_moves_the_link_and_the_page_is_made_again(tree):
    first = _renderer(tree)
    old = _links(first.model(first.catalog.units[TMUL]))["ExecuteTileBinary"]
    first.unit_page(first.catalog.units[TMUL], "en")
    path = tree / DISPATCH
    lines = path.read_text("utf-8").split("\n")
    lines[1:1] = ["// moved down by three lines", "", ""]
    path.write_text("\n".join(lines), "utf-8")
    second = _renderer(tree, previous=first)
    unit = second.catalog.units[TMUL]
    new = _links(second.model(unit))["ExecuteTileBinary"]
    old_line, new_line = (int(h.rsplit("asl-L", 1)[1]) for h in (old, new))
    assert new_line == old_line + 3
    assert second.stats["reused_models"] == 0
    page = second.unit_page(unit, "en").assembled()
    assert f"asl-L{new_line}" in page and second.stats["reused_pages"] == 0


def test_an_unchanged_tree_reuses_the_page(tree):
    first = _renderer(tree)
    first.unit_page(first.catalog.units[TMUL], "en")
    second = _renderer(tree, previous=first)
    second.unit_page(second.catalog.units[TMUL], "en")
    assert second.stats["reused_pages"] == 1


def test_definitions_are_global_declarations_only():
    text = "\n".join([
        "// PTO-UNIT: {}",
        "type Colour of enumeration {",
        "    Colour_Red, // not a name: Colour_Blue",
        "    Colour_Green",
        "};",
        "// func Commented(x: integer) => integer",
        "/* type Hidden of integer; */",
        "var Counter, Other: integer;",
        "pure func Step(x: integer) => integer",
        "begin",
        "    let local = x + 1;",
        "    return local;",
        "end;",
        "readonly func Step(x: integer, y: integer) => integer",
        "begin return x; end;",
    ])
    got = [(d.name, d.line, d.kind) for d in definitions(text)]
    assert got == [("Colour", 2, "type"), ("Colour_Red", 3, "label"), ("Colour_Green", 4, "label"),
                   ("Counter", 8, "global"), ("Other", 8, "global"), ("Step", 9, "function"), ("Step", 14, "function")]


def test_hostile_names_and_paths_stay_text(tree):
    # a unit path is data: its title attribute is escaped; a name that is not an identifier is never a token
    first = _renderer(tree)
    model = first.model(first.catalog.units[TMUL])
    for r in model.regions:
        for title in re.findall(r'class="pto-asl-ref" href="[^"]*" title="([^"]*)"', str(r.html)):
            assert "<" not in title and re.fullmatch(r"[\w./-]+:\d+", title)


def test_listings_link_names_outside_comments_and_strings(tree):
    path = tree / "asl/tile/model/execution/expansion.asl"
    text = path.read_text("utf-8").rstrip("\n")
    path.write_text(text + "\n".join([
        "",
        "// ExecuteTileBinary in a comment stays text",
        "/* ExecuteTileBinary in a block",
        "   comment too */",
        "func ListingDemo(a: integer, b: integer) => boolean",
        "begin",
        '    let s = "ExecuteTileBinary";',
        "    ExecuteTileBinary(TileBinary_MUL, 0, 1, 2);",
        "    return a < b && ListingDemo(b, a);",
        "end;",
        ""]), "utf-8")
    renderer = _renderer(tree)
    unit = renderer.catalog.unit_for_path("asl/tile/model/execution/expansion.asl")
    listing = str(renderer.model(unit)["full_asl"])
    lines = listing.split("\n")
    comment = next(line for line in lines if "in a comment stays text" in line)
    assert "pto-asl-ref" not in comment
    assert not any("pto-asl-ref" in line for line in lines if "in a block" in line or "&quot;" in line or '"Exec' in line)
    call = next(line for line in lines if "ExecuteTileBinary</a>(" in line and ", 0, 1, 2)" in line)
    owner = renderer.catalog.unit_for_path(DISPATCH)
    line = _declaring_line(owner.file.text, r"(\w+\s+)*func\s+ExecuteTileBinary\b")
    assert f'href="{routes.relative(routes.unit_src(unit), routes.unit_src(owner), f"asl-L{line}")}">ExecuteTileBinary</a>' in call
    # the recursive call links to this page's own declaring line, the declaration itself stays text; "<" stays
    # an entity, never a name ("lt")
    own = _declaring_line(path.read_text("utf-8"), r"func ListingDemo")
    assert f'<a class="pto-asl-ref" href="#asl-L{own}">ListingDemo</a>(b, a)' in listing
    assert f'<span class="pto-asl-def" id="asl-L{own}">func ListingDemo(' in listing
    assert "a &lt; b" in listing
    # an edit of the unit that declares ExecuteTileBinary remakes this page too (the listing depends on it)
    first = renderer
    first.unit_page(unit, "en")
    lines2 = (tree / DISPATCH).read_text("utf-8").split("\n")
    lines2[1:1] = [""]
    (tree / DISPATCH).write_text("\n".join(lines2), "utf-8")
    second = _renderer(tree, previous=first)
    page = second.unit_page(second.catalog.unit_for_path("asl/tile/model/execution/expansion.asl"), "en").assembled()
    assert f"#asl-L{line + 1}" in page and second.stats["reused_pages"] == 0


def test_definitions_read_a_hostile_text_once():
    import time
    text = "type T of enumeration{" * 20000 + "x" * 1000
    start = time.process_time()
    found = definitions(text)
    assert time.process_time() - start < 2.0  # (a quadratic scan takes minutes)
    assert [d.kind for d in found] == ["type"] and not any(d.kind == "label" for d in found)
