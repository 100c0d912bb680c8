"""Every href/src of a built site resolves (file, and element id for a fragment); no link to a raw .md file."""

from __future__ import annotations

from linkcheck import LinkChecker

from pto_docs.model.catalog import Catalog
from pto_docs.render.adr_links import rewrite


def test_catalog_site_links_resolve(built_site):
    problems = LinkChecker(built_site).check()
    assert not problems, "\n".join(problems[:50])


def test_real_tree_site_links_resolve(real_site):
    problems = LinkChecker(real_site).check()
    assert not problems, "\n".join(problems[:50])


def test_adr_body_links_become_site_pages_and_dead_ones_text(loaded):
    cat: Catalog = loaded.catalog
    adr = cat.adrs[sorted(cat.adrs)[1]]
    other = cat.adrs[sorted(cat.adrs)[2]]
    unit = cat.find_instruction("TMUL", "tile")
    name = other.path.rsplit("/", 1)[-1]
    up = "../" * adr.path.count("/")
    body = (f"See [the other]({name}#context), [TMUL]({up}{unit.path}), [gone](9999-nothing.md) and "
            "[upstream](https://example.org/x.md).\nNext line [also gone](../nowhere/)")
    text, problems = rewrite(body, adr, cat, "adrs/X.md", body_line=10)
    assert f"[the other](../{other.id}/#context)" in text
    assert "[TMUL](../../instructions/tile/elementwise-tile-tile/arithmetic/TMUL/)" in text
    assert "[upstream](https://example.org/x.md)" in text
    assert " gone and " in text and "also gone" in text and ".md)" not in text.replace("example.org/x.md)", "")
    assert [(p.path, p.line, p.target) for p in problems] == [(adr.path, 10, "9999-nothing.md"),
                                                            (adr.path, 11, "../nowhere/")]
