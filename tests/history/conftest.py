"""Fixtures of the release-history tests: earlier pto-spec releases (PTO_SPEC_RELEASES) and catalog copies
declared as a given release."""

from __future__ import annotations

import os
import re
import shutil
import tarfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent


def declare_version(root: Path, version: str) -> None:
    """Make the tree at ``root`` declare ``architecture_version = version``."""
    spec = root / "specification.toml"
    text = spec.read_text("utf-8")
    spec.write_text(re.sub(r'(?m)^architecture_version = ".*"$', f'architecture_version = "{version}"', text), "utf-8")


class Releases:
    """The earlier pto-spec releases under $PTO_SPEC_RELEASES (a directory holding pto-spec-<version>.tar.gz
    archives or unpacked pto-spec-<version>/ trees), each archive unpacked once, when first asked for."""

    def __init__(self, where: Path, scratch) -> None:
        self.where, self.scratch, self.trees = where, scratch, {}

    def __getitem__(self, version: str) -> Path:
        if version not in self.trees:
            tree, archive = self.where / f"pto-spec-{version}", self.where / f"pto-spec-{version}.tar.gz"
            if not tree.is_dir() and archive.is_file():
                dest = self.scratch.mktemp(f"release-{version}")
                with tarfile.open(archive) as packed:
                    packed.extractall(dest, filter="data")
                tree = dest / f"pto-spec-{version}"
            if not tree.is_dir():
                pytest.skip(f"pto-spec {version} is not under PTO_SPEC_RELEASES")
            self.trees[version] = tree
        return self.trees[version]


@pytest.fixture(scope="session")
def releases(tmp_path_factory) -> Releases:
    where = os.environ.get("PTO_SPEC_RELEASES")
    if not where or not Path(where).is_dir():
        pytest.skip("set PTO_SPEC_RELEASES to a directory of pto-spec-0.58.x release archives or trees")
    return Releases(Path(where), tmp_path_factory)


@pytest.fixture
def catalog_copy(tmp_path) -> Path:
    root = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", root)
    return root
