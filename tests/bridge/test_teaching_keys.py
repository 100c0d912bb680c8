"""The keys of the instructions' teaching results (bridge/teaching_keys.py) in a serving process: made once per
loaded catalog, so a reload after a save of code makes the new catalog's keys only (those of the catalog before
were made by the reload before). Fixtures: copies of the repository's catalog/ tree."""

from __future__ import annotations

import shutil

from pto_docs.analysis.load import load_catalog
from pto_docs.bridge import teaching_keys, teaching_run
from tests.conftest import REPO


def _counting_keys(monkeypatch) -> list:
    made: list = []
    real = teaching_keys._keys

    def counting(catalog, *args):
        made.append(catalog)
        return real(catalog, *args)
    monkeypatch.setattr(teaching_keys, "_keys", counting)
    return made


def test_a_catalogs_keys_are_made_once_and_are_those_a_fresh_process_makes(tmp_path, monkeypatch):
    made = _counting_keys(monkeypatch)
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)
    catalog = load_catalog(tree).catalog
    scenarios = teaching_run.compose_all(catalog)
    keys = teaching_run._instruction_keys(catalog, None, scenarios)
    assert teaching_run._instruction_keys(catalog, None, scenarios) is keys and made == [catalog]
    other = teaching_run._instruction_keys(catalog, "constant DECODED = 1;\n", scenarios)  # other decoders
    assert other != keys and len(made) == 2
    again = load_catalog(tree).catalog  # the same tree loaded again: another catalog object, its own keys
    assert teaching_run._instruction_keys(again, None, teaching_run.compose_all(again)) == keys and len(made) == 3
    teaching_keys._KEYS.clear()
    assert teaching_run._instruction_keys(catalog, None, scenarios) == keys  # as a new process makes them


def test_each_save_of_code_makes_the_keys_of_the_new_catalog_only(tmp_path, monkeypatch):
    """Three saves of an instruction's code while serving: the first compares with a catalog whose keys were
    never made (two made); each later one reuses the keys the save before made for its catalog (one made). The
    results stay those of a fresh run of the saved tree."""
    made = _counting_keys(monkeypatch)
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)
    teaching_run._TAUGHT.clear()
    teaching_run._LAST.clear()
    teaching_run.teach(load_catalog(tree).catalog, None, None)
    assert made == []  # (a first run takes no result from an earlier model)
    unit = tree / "asl/block/execution/BSTART.SFU.asl"  # (no other unit mentions its names)
    counts = []
    for n in range(3):
        unit.write_text(unit.read_text("utf-8").replace("\nbegin", f"\nbegin\n    let x_teach{n} = {n};", 1),
                        "utf-8")
        catalog = load_catalog(tree).catalog
        served = teaching_run.teach(catalog, None, None)[0]
        counts.append(len(made))
        assert made[-1] is catalog
    assert counts == [2, 3, 4]
    teaching_run._TAUGHT.clear()
    teaching_run._LAST.clear()
    fresh = teaching_run.teach(load_catalog(tree).catalog, None, None)[0]
    assert {k: v.result for k, v in served.items()} == {k: v.result for k, v in fresh.items()}


def test_teaching_takes_the_decoders_kept_while_the_records_are_the_same(tmp_path, monkeypatch):
    """api.teach links the model with the decoders checks.semantics keeps by the record lines and JSON catalogs
    (made again only when one changes: a serving reload after a save of code makes none), not with decoders made
    afresh on every call (0.06 s per reload on pto-spec 0.58.3)."""
    from pto_docs import api
    from pto_docs.bridge import avs
    from pto_docs.checks import semantics
    from pto_docs.isa import decoders
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)
    catalog = load_catalog(tree).catalog
    inputs = []
    monkeypatch.setattr(semantics, "_decoders", lambda cat: inputs.append(cat) or ("sha", None, "KEPT DECODERS"))
    monkeypatch.setattr(decoders, "generate_decoders", lambda cat: "MADE AFRESH")
    monkeypatch.setattr(avs, "needs_decoders", lambda cat: True)
    given = []
    monkeypatch.setattr(teaching_run, "teach", lambda cat, generated, cache, split=False: given.append(generated) or ({}, {}))
    api.teach(catalog)
    assert given == ["KEPT DECODERS"] and inputs == [catalog]
    monkeypatch.setattr(semantics, "_decoders", lambda cat: None)  # (the records give none)
    assert api.teach(catalog) == ({}, {}) and len(given) == 1


def test_what_a_serving_process_prepares_after_a_build_is_what_the_next_save_of_code_would_make(tmp_path,
                                                                                              monkeypatch):
    """After a first build whose examples all came from the sealed cache (an author serving a tree built before:
    no model linked, no unit parsed in this process), prepare_for_a_save (run in the background after each
    serving rebuild) makes the last catalog's keys and puts every model unit's parse in the process memo; the
    save of code after it makes the new catalog's keys only and parses the saved unit only."""
    from pto_docs.bridge import avs
    made = _counting_keys(monkeypatch)
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    shutil.copytree(REPO / "catalog", tree)
    teaching_run._TAUGHT.clear()
    teaching_run._LAST.clear()
    teaching_run.teach(load_catalog(tree).catalog, None, cache)  # a build before: the sealed cache holds all
    teaching_run._TAUGHT.clear()
    teaching_run._LAST.clear()
    teaching_keys._KEYS.clear()
    avs.PARSED_UNITS.clear()
    first = load_catalog(tree).catalog
    teaching_run.teach(first, None, cache)  # the serving process's first build
    assert len(avs.PARSED_UNITS) == 0 and made == []  # nothing linked: every result was sealed
    teaching_run.prepare_for_a_save()
    assert made == [first]
    units = avs.model_units(first)
    assert len(avs.PARSED_UNITS) >= len(units) > 0
    teaching_run.prepare_for_a_save()  # made once
    assert made == [first]
    unit = tree / "asl/block/execution/BSTART.SFU.asl"
    unit.write_text(unit.read_text("utf-8").replace("\nbegin", "\nbegin\n    let x_prepared = 1;", 1), "utf-8")
    before = set(avs.PARSED_UNITS)
    saved = load_catalog(tree).catalog
    served = teaching_run.teach(saved, None, cache)[0]
    assert made == [first, saved]  # the new catalog's keys only
    assert len(set(avs.PARSED_UNITS) - before) == 1  # the saved unit only was parsed
    teaching_run._TAUGHT.clear()
    teaching_run._LAST.clear()
    fresh = teaching_run.teach(load_catalog(tree).catalog, None, None)[0]
    assert {k: v.result for k, v in served.items()} == {k: v.result for k, v in fresh.items()}
