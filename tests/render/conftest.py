"""Shared fixtures of the renderer's tests (and the site's): the catalog tree, loaded once, and its renderer."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# PTO_DOCS_TEST_SPEC_ROOT lets a developer point the site tests at another tree (default: catalog/).
SPEC_ROOT = Path(os.environ.get("PTO_DOCS_TEST_SPEC_ROOT", REPO / "catalog"))
SEED_PAGES = {
    "TMUL": "instructions/tile/elementwise-tile-tile/arithmetic/TMUL/",
    "TSQRT": "instructions/tile/elementwise-tile-tile/transcendental/TSQRT/",
    "TCOLEXPAND": "instructions/tile/reduce-and-expand/column-expansion/TCOLEXPAND/",
}


@pytest.fixture(scope="session")
def loaded():
    from pto_docs.analysis.load import load_catalog
    return load_catalog(SPEC_ROOT)


@pytest.fixture(scope="session")
def renderer(loaded):
    from pto_docs.analysis.sitedata import SiteData
    from pto_docs.analysis.state import worked_examples
    from pto_docs.render.pages import SiteRenderer
    return SiteRenderer(SiteData.build(loaded.catalog, loaded.tree, worked_examples(loaded.catalog)))
