"""Stale translations show the English with a visible notice; untranslated prose shows a fallback notice."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from pto_docs.analysis.sitedata import SiteData
from pto_docs.i18n import labels
from pto_docs.render.pages import SiteRenderer


def test_stale_and_missing_notices(loaded):
    cat = loaded.catalog
    unit = cat.find_instruction("TMUL", "tile")
    tr = cat.translations[("zh-CN", unit.id)]
    strings = dict(tr.strings)
    strings["/summary"] = replace(strings["/summary"], en_sha256="0" * 64)  # the English "changed"
    strings.pop("/contract/legality/0", None)  # and one string is untranslated
    translations = dict(cat.translations)
    translations[("zh-CN", unit.id)] = replace(tr, strings=MappingProxyType(strings))
    renderer = SiteRenderer(SiteData.build(replace(cat, translations=MappingProxyType(translations)), loaded.tree))
    text = renderer.unit_page(unit, "zh-CN").assembled()
    lab = labels("zh-CN")
    assert unit.summary in text and lab.t("notice.stale_short") in text and lab.t("notice.fallback_short") in text
    assert "pto-translation-banner" in text
    assert renderer.stale_report("zh-CN") == [f"{unit.id}/summary"]
    assert f"{unit.id}/contract/legality/0" in renderer.missing_report("zh-CN")


def test_label_files_have_the_same_keys():
    assert labels("en").keys() == labels("zh-CN").keys()
