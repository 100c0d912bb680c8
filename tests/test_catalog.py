"""The embedded catalog/ loads cleanly, is fully translated, and its prose, examples and model agree."""

from __future__ import annotations

from pto_docs.bridge.examples import worked_examples
from pto_docs.checks.consistency import consistency_diagnostics
from pto_docs.checks.examples import prose_data_types
from pto_docs.executor import accepted_data_types, check_bundle
from pto_docs.model.frozen import sha256_text
from pto_docs.model.translate_keys import resolve_pointer, translatable_pointers

SEED_UNITS = {"PTO-TILE-TMUL", "PTO-TILE-TSQRT", "PTO-TILE-TCOLEXPAND", "PTO-TILE-TADD", "PTO-BLOCK-BSTART-TEPL"}


def test_catalog_loads_without_diagnostics(catalog_load):
    assert [d.format() for d in catalog_load.diagnostics] == []
    assert [d.format() for d in consistency_diagnostics(catalog_load.catalog)] == []


def test_catalog_holds_the_seed_units_and_release(catalog_load):
    cat = catalog_load.catalog
    assert SEED_UNITS <= set(cat.units)
    assert cat.release.version == "0.58.5" and cat.release.status == "release-candidate"
    for uid in SEED_UNITS:
        unit = cat.units[uid]
        assert unit.review is not None and unit.ndf, uid
        assert cat.tests_by_unit.get(uid), f"{uid} has no test"
        assert {r.name for r in unit.regions} >= {"decode", "operation"}


def test_every_requirement_has_a_test(catalog_load):
    cat = catalog_load.catalog
    assert [r for r in cat.requirements if not cat.tests_by_requirement.get(r)] == []


def test_every_unit_is_fully_and_freshly_translated(catalog_load):
    cat = catalog_load.catalog
    for unit in cat.units.values():
        wanted = set(translatable_pointers(unit.record, unit.is_instruction))
        tr = cat.translations.get(("zh-CN", unit.id))
        assert tr is not None, f"{unit.id} has no zh-CN translation file"
        assert wanted <= set(tr.strings), f"{unit.id} misses {sorted(wanted - set(tr.strings))}"
        for pointer, ts in tr.strings.items():
            assert sha256_text(resolve_pointer(unit.record, pointer)) == ts.en_sha256, f"{unit.id}{pointer} is stale"


def test_tmul_prose_example_and_model_agree(catalog_load):
    unit = catalog_load.catalog.units["PTO-TILE-TMUL"]
    listed = [prose_data_types(s) for s in unit.contract["legality"] if prose_data_types(s)]
    assert listed == [set(accepted_data_types("TMUL"))]
    assert len(listed[0]) == 16
    for example in unit.contract["examples"]:
        assert check_bundle(example, data_type_symbolic_ok=False) == []


def test_every_modelled_instruction_has_a_worked_example(catalog_load):
    examples = worked_examples(catalog_load.catalog)
    assert [e.key for e in examples if e.problem] == []
    for uid in SEED_UNITS - {"PTO-BLOCK-BSTART-TEPL"}:
        mine = [e for e in examples if e.unit_id == uid]
        assert any(e.origin == "default" for e in mine) and any(e.origin == "catalog" for e in mine), uid
        assert all(e.caption.get("en") and e.caption.get("zh-CN") for e in mine)
