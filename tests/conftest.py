from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


# CI (.ci/run) unpacks the acceptance corpus and sets PTO_DOCS_REQUIRE_REAL_TREE=1: there a missing or unusable
# checkout fails the real-tree tests instead of skipping them.
REAL_TREE_REQUIRED = os.environ.get("PTO_DOCS_REQUIRE_REAL_TREE") == "1"


def real_tree() -> Path | None:
    """A PTO-ISA/pto-spec checkout named by PTO_SPEC_CHECKOUT (tests that need it skip without it)."""
    value = os.environ.get("PTO_SPEC_CHECKOUT")
    path = Path(value) if value else None
    if path and (path / "asl").is_dir():
        return path
    if REAL_TREE_REQUIRED:
        raise RuntimeError(f"PTO_DOCS_REQUIRE_REAL_TREE=1 but PTO_SPEC_CHECKOUT={value!r} is not a pto-spec checkout")
    return None


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


@pytest.fixture(scope="session")
def real_decoders() -> Path:
    """The generated decoder ASL of the real tree (PTO_DOCS_AVS_DECODERS; .ci/run makes it with the corpus's
    own generator). pto-docs never runs that generator itself."""
    value = os.environ.get("PTO_DOCS_AVS_DECODERS")
    if value and Path(value).is_file():
        return Path(value)
    if os.environ.get("PTO_DOCS_REQUIRE_REAL_TREE") == "1":
        pytest.fail("PTO_DOCS_REQUIRE_REAL_TREE=1 but PTO_DOCS_AVS_DECODERS names no generated decoder file")
    pytest.skip("set PTO_DOCS_AVS_DECODERS to the real tree's generated decoder ASL")
