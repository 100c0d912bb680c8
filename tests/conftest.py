from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def real_tree() -> Path | None:
    """A PTO-ISA/pto-spec checkout named by PTO_SPEC_CHECKOUT (tests that need it skip without it)."""
    value = os.environ.get("PTO_SPEC_CHECKOUT")
    path = Path(value) if value else None
    return path if path and (path / "asl").is_dir() else None


@pytest.fixture
def tree(tmp_path) -> Path:
    """A private copy of catalog/ to edit (a test module may define its own ``tree`` instead)."""
    root = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", root)
    return root


@pytest.fixture(scope="session")
def real_tree_root() -> Path:
    root = real_tree()
    if root is None:
        pytest.skip("set PTO_SPEC_CHECKOUT to a PTO-ISA/pto-spec checkout to run real-tree tests")
    return root


@pytest.fixture(scope="session")
def real_load(real_tree_root):
    from pto_docs.load import load_catalog
    return load_catalog(real_tree_root)


@pytest.fixture(scope="session")
def catalog_load():
    from pto_docs.load import load_catalog
    return load_catalog(REPO / "catalog")
