"""Reference content of the pages: a carrier lists the operations it carries, each a link; the data-type page
and the field-value tables show the tree's own codes and meanings, linked to each other."""

from __future__ import annotations

import json
import re

import pytest

from pto_docs.analysis.data_types import data_types
from pto_docs.analysis.load import load_catalog
from pto_docs.analysis.sitedata import SiteData
from pto_docs.render import routes
from pto_docs.render.carried_ops import carried_operations
from pto_docs.render.pages import SiteRenderer

TEPL = "asl/block/execution/BSTART.TEPL.asl"
TMUL = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"


def _expected(cat, carrier: str, engine: str | None = None) -> list[tuple[int, int, str]]:
    """(mode, function, name) of every tile record naming ``carrier``, read straight from the records."""
    out = []
    for unit in cat.instructions:
        for r in unit.catalog_records:
            if r.get("command_mnemonic") == carrier and (engine is None or unit.engine == engine):
                out.append((r.get("mode"), r.get("function"), r["name"]))
    return sorted(out)


def _page(renderer, path: str, locale: str = "en") -> str:
    return renderer.unit_page(renderer.catalog.unit_for_path(path), locale).assembled()


def _edit_record(root, rel, change):
    path = root / rel
    lines = path.read_text("utf-8").split("\n")
    tag, _, body = lines[0].partition(": ")
    record = json.loads(body)
    change(record)
    lines[0] = f"{tag}: {json.dumps(record, separators=(',', ':'))}"
    path.write_text("\n".join(lines), "utf-8")


def _renderer(root):
    loaded = load_catalog(root)
    return SiteRenderer(SiteData.build(loaded.catalog, loaded.tree))


def test_tepl_lists_and_links_every_operation_it_carries(renderer, loaded):
    cat = loaded.catalog
    tepl = cat.unit_for_path(TEPL)
    view = carried_operations(cat, tepl)
    expected = _expected(cat, "BSTART.TEPL")
    assert len(expected) >= 4
    assert sorted((o.mode, o.function, o.name) for o in view.operations) == expected
    page = _page(renderer, TEPL)
    src = routes.unit_src(tepl)
    for _mode, _function, name in expected:
        target = routes.relative(src, routes.unit_src(cat.find_instruction(name, "tile")))
        assert f'<a href="{target}"><code>{name}</code></a>' in page
    assert "{: #carried-operations }" in page


def test_an_alias_lists_the_operations_of_its_engine(renderer, loaded):
    cat = loaded.catalog
    for alias, engine in (("BSTART.VEC", "VEC"), ("BSTART.SFU", "SFU")):
        unit = cat.find_instruction(alias, "block")
        view = carried_operations(cat, unit)
        assert [(o.mode, o.function, o.name) for o in view.operations] == _expected(cat, "BSTART.TEPL", engine)
        assert view.engine == engine and view.carrier == "BSTART.TEPL"
    # an operation or a carrier that carries nothing lists nothing
    assert carried_operations(cat, cat.units["PTO-TILE-TMUL"]) is None
    assert carried_operations(cat, cat.find_instruction("L.BSTOP", "block")) is None


def test_the_list_follows_the_records_and_escapes_them(tree):
    def change(record):
        record["catalog_records"][0].update(mode=3, function=30, selector="0x07E")
        record["catalog_records"][0]["name"] = "TMUL<b>x</b>"
    _edit_record(tree, TMUL, change)
    renderer = _renderer(tree)
    view = carried_operations(renderer.catalog, renderer.catalog.unit_for_path(TEPL))
    assert (view.operations[-1].mode, view.operations[-1].function) == (3, 30) and view.operations[-1].name == "TMUL<b>x</b>"
    page = _page(renderer, TEPL)
    assert "<code>0x07E</code> (3:30)" in page
    assert "TMUL&lt;b&gt;x&lt;/b&gt;" in page and "TMUL<b>" not in page


def test_data_type_page_and_field_values_link_each_other(renderer, loaded):
    cat = loaded.catalog
    pages = dict(renderer.pages("en"))
    page = pages[routes.DATA_TYPES].assembled()
    for t in data_types(cat):
        assert re.search(rf'<tr id="code-{t.code}"><td>{t.code}</td><td><code>{t.code:05b}</code></td><td><code>{t.name}</code></td>', page)
    tmul = cat.units["PTO-TILE-TMUL"]
    html = renderer.unit_page(tmul, "en").assembled()
    href = routes.relative(routes.unit_src(tmul), routes.DATA_TYPES, "code-25")
    assert f'<a href="{href}"><code>U32</code></a>' in html  # the carrier's DataType field, its values linked
    assert "Reserved values: 15, 21–23, 29–31." in html
    # the assembler symbol links to its values
    assert '<a href="#field-values-DataType"><code>DataType</code></a>' in html and 'id="field-values-DataType"' in html
    zh = dict(renderer.pages("zh-CN"))[routes.DATA_TYPES].assembled()
    assert "数据类型" in zh and 'id="code-25"' in zh


def test_no_domain_no_page_and_no_table(tree):
    _edit_record(tree, "asl/arch/data-types/tile-data-types.asl", lambda r: r.pop("field_domains"))
    renderer = _renderer(tree)
    assert routes.DATA_TYPES not in dict(renderer.pages("en"))
    assert 'id="field-values"' not in renderer.unit_page(renderer.catalog.units["PTO-TILE-TMUL"], "en").assembled()


@pytest.mark.realtree
def test_real_tree_tepl_and_tmul(real_load):
    cat = real_load.catalog
    tepl = cat.find_instruction("BSTART.TEPL", "block")
    view = carried_operations(cat, tepl)
    expected = _expected(cat, "BSTART.TEPL")
    assert len(expected) == 87 and sorted((o.mode, o.function, o.name) for o in view.operations) == expected
    src = routes.unit_src(tepl)
    assert {o.href for o in view.operations} == {
        routes.relative(src, routes.unit_src(u)) for u in cat.instructions
        if any(r.get("command_mnemonic") == "BSTART.TEPL" for r in u.catalog_records)}
    # ExecuteTileBinary in TMUL's operation links to the line that declares it
    from pto_docs.render.instruction import costly_parts
    tmul = cat.find_instruction("TMUL", "tile")
    html = "".join(str(r.html) for r in costly_parts(SiteData.trace_rows(cat, real_load.tree), tmul).regions)
    href = re.search(r'<a class="pto-asl-ref" href="([^"]*)"[^>]*><span class="nf">ExecuteTileBinary</span></a>', html).group(1)
    page, line = href.split("#asl-L")
    owner = next(u for u in cat.units.values() if routes.relative(routes.unit_src(tmul), routes.unit_src(u)) == page)
    assert re.match(r"(\w+\s+)*func\s+ExecuteTileBinary\b", owner.file.text.split("\n")[int(line) - 1])
