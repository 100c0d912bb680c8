"""The identifier index of a tree (analysis/asl_index.py), made once per loaded catalog: a serving reload after a
save of one unit reads the definitions of that unit only, and the index is the one a fresh process makes.
Fixture: a copy of catalog/."""

from __future__ import annotations

import shutil

from pto_docs.analysis import asl_index
from pto_docs.analysis.load import load_catalog
from tests.conftest import REPO


def test_a_reload_reads_the_definitions_of_the_saved_unit_only(tmp_path, monkeypatch):
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)
    read: list[str] = []
    real = asl_index.definitions
    monkeypatch.setattr(asl_index, "definitions", lambda text: read.append(text) or real(text))
    asl_index._DEFINITIONS.clear()
    first = asl_index.identifier_index(load_catalog(tree).catalog)
    units = len(read)
    assert units > 10
    unit = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    unit.write_text(unit.read_text("utf-8") + "\nfunc PtoSavedHelper() => integer\nbegin\n    return 1;\nend;\n",
                    "utf-8")
    read.clear()
    catalog = load_catalog(tree).catalog
    again = asl_index.identifier_index(catalog)
    assert len(read) == 1 and "PtoSavedHelper" in read[0]
    assert again.get("PtoSavedHelper").path == "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    assert {k: v for k, v in again.targets.items() if k != "PtoSavedHelper"} == dict(first.targets)
    asl_index._DEFINITIONS.clear()
    asl_index._LAST.clear()
    assert asl_index.identifier_index(catalog) == again  # as a fresh process makes it
