"""On a PTO-ISA/pto-spec 0.58.3 checkout the loader reports upstream's own counts and no errors."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.realtree


def test_counts_and_zero_errors(real_load):
    cat = real_load.catalog
    assert real_load.errors == []
    assert len(cat.units) == 840
    assert sum(u.is_instruction for u in cat.units.values()) == 634
    assert sum(len(u.ndf) for u in cat.units.values()) == 369
    assert len(cat.requirements) == 1003
    assert sum(r.executable for r in cat.requirements.values()) == 636
    assert len(cat.tests) == 3352
    assert len(cat.adrs) == 91


def test_clause_digest_matches_upstream_page(real_load):
    # the TMUL seed page prints this clause sha256
    clause = next(c for c in real_load.catalog.units["PTO-TILE-TMUL"].ndf)
    assert clause.clause_sha256.startswith("1da7464e52c204ff")


def test_review_records_found_wherever_they_sit(real_load):
    cat = real_load.catalog
    assert sum(u.review is not None for u in cat.units.values()) == 634
    assert cat.units["PTO-BLOCK-FENTRY"].review is not None  # its PTO-REVIEW is at the end of the file
