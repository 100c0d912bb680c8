"""site/model_helper.py prepare(renderer, helper=True): a forked process makes the costly parts of part of the instruction models;
every page is the same as when this process makes them all, and a failing helper costs nothing but time."""

from __future__ import annotations

import os

import pytest

from pto_docs.render import pages as pages_module
from pto_docs.site import model_helper
from tests.site.conftest import SPEC_ROOT

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the helper is a forked process")


def _renderer():
    from pto_docs.analysis.load import load_catalog
    from pto_docs.analysis.sitedata import SiteData
    from pto_docs.analysis.state import worked_examples
    from pto_docs.render.pages import SiteRenderer
    loaded = load_catalog(SPEC_ROOT)
    return SiteRenderer(SiteData.build(loaded.catalog, loaded.tree, worked_examples(loaded.catalog)))


def _all_pages(renderer) -> dict:
    pages = {(u.id, locale): renderer.unit_page(u, locale).assembled()
             for u in renderer.units for locale in ("en", "zh-CN")}
    pages.update({(a, locale): renderer.adr_page(a, locale).assembled()
                  for a in renderer.catalog.adrs for locale in ("en", "zh-CN")})
    return pages


def test_pages_are_the_same_with_the_helper(monkeypatch):
    plain = _renderer()
    plain.prepare()
    expected = _all_pages(plain)
    monkeypatch.setattr(model_helper, "HELPER_MIN", 1)  # the sample tree has only a few instructions
    from pto_docs.render import instruction
    made_here = []
    original = instruction.costly_parts

    def counted(data, unit, *rest):
        made_here.append(unit.id)  # (the helper is a fork: what it makes is not counted here)
        return original(data, unit, *rest)
    monkeypatch.setattr(instruction, "costly_parts", counted)
    monkeypatch.setattr(pages_module, "costly_parts", counted)
    helped = _renderer()
    model_helper.prepare(helped, helper=True)
    bodies = dict(helped._adr_bodies)  # the English ADR bodies' HTML, made by the helper (no ADR page rendered yet)
    assert len(bodies) == len(helped.catalog.adrs) >= 2
    instructions = [u.id for u in helped.units if u.is_instruction]
    given = instructions[len(instructions) - int(len(instructions) * model_helper.HELPER_SHARE):]
    assert len(instructions) >= 5 and given
    assert sorted(made_here) == sorted(set(instructions) - set(given))  # the helper made the rest
    assert helped.stats["models"] == len(helped.units)
    assert not helped._costly  # every part handed over was used
    assert _all_pages(helped) == expected
    assert {t: str(h) for t, h in bodies.items()} == {t: str(h) for t, h in plain._adr_bodies.items() if t in bodies}


def test_a_failing_helper_leaves_the_pages_to_this_process(monkeypatch):
    plain = _renderer()
    expected = _all_pages(plain)
    monkeypatch.setattr(model_helper, "HELPER_MIN", 1)
    monkeypatch.setattr(model_helper, "_helper_task", lambda unit_ids: 1 / 0)
    helped = _renderer()
    model_helper.prepare(helped, helper=True)
    assert _all_pages(helped) == expected
