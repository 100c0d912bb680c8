"""The release identity's dirty flag is read without git looking at the work tree (review1 R5), and a ``.git`` that
leads to another repository gives no identity (review1 R6)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pto_docs.sources.release import git_identity, release_identity

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git to make a checkout")


def _git(root: Path, *args: str) -> str:
    env = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin",
           "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}
    return subprocess.run(["git", "-C", str(root), *args], env=env, check=True, capture_output=True, text=True).stdout


def _checkout(path: Path, index_version: int = 2) -> Path:
    _git(path, "init", "-q")
    _git(path, "config", "index.version", str(index_version))
    _git(path, "add", "-A")
    _git(path, "commit", "-qm", "spec")
    _git(path, "tag", "-a", "-m", "release", "v0.58.5")
    return path.resolve()


def _status_dirty(root: Path) -> bool:
    return bool(_git(root, "status", "--porcelain", "--untracked-files=no").strip())


def _same_size_edit(path: Path) -> None:
    """Change one byte, keeping the size, with an old mtime: only hashing the content tells it from a touch."""
    data = bytearray(path.read_bytes())
    data[0] = ord("#") if data[0] != ord("#") else ord("%")
    path.write_bytes(bytes(data))
    os.utime(path, (978307200, 978307200))


CHANGES = {
    "clean": lambda root: None,
    "touched, same bytes": lambda root: os.utime(root / "specification.toml", (978307200, 978307200)),
    "same size, other bytes": lambda root: _same_size_edit(root / "specification.toml"),
    "appended": lambda root: (root / "specification.toml").open("a").write("# x\n"),
    "deleted": lambda root: (root / "specification.toml").unlink(),
    "made executable": lambda root: (root / "specification.toml").chmod(0o755),
    "replaced by a link": lambda root: ((root / "specification.toml").unlink(),
                                        (root / "specification.toml").symlink_to("mkdocs.yml")),
    "staged": lambda root: ((root / "specification.toml").open("a").write("# y\n"),
                            _git(root, "add", "specification.toml")),
    "parent replaced by a link": lambda root: (shutil.move(root / "spec", root / "spec2"),
                                               (root / "spec").symlink_to("spec2")),
}


@pytest.mark.parametrize("index_version", [2, 4])
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_dirty_flag_agrees_with_git_status(tree, change, index_version):
    root = _checkout(tree, index_version)
    CHANGES[change](root)
    expected = _status_dirty(root)
    assert expected == (change != "clean" and change != "touched, same bytes")
    assert git_identity(root)[1] is expected


def test_a_checkout_at_its_tag_is_verified_and_a_changed_one_is_not(tree):
    root = _checkout(tree)
    spec = {"release": {"architecture_version": "0.58.5"}}
    assert release_identity(spec, root).status == "verified"
    _same_size_edit(root / "specification.toml")
    assert release_identity(spec, root).status == "release-candidate"


@pytest.fixture
def other(tmp_path):
    """Another repository, clean and at the tag the tree's version asks for."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "f").write_text("x\n", "utf-8")
    return _checkout(other)


def test_a_dot_git_link_to_another_repository_gives_no_identity(tree, other):
    (tree / ".git").symlink_to(other / ".git")
    assert git_identity(tree.resolve()) == (None, None, None)
    assert release_identity({"release": {"architecture_version": "0.58.5"}}, tree.resolve()).status != "verified"


def test_a_gitdir_file_to_another_repository_gives_no_identity(tree, other):
    (tree / ".git").write_text(f"gitdir: {other / '.git'}\n", "utf-8")
    assert git_identity(tree.resolve()) == (None, None, None)


def test_a_git_dir_inside_the_tree_whose_commondir_leaves_it_gives_no_identity(tree, other):
    (tree / "g").mkdir()
    (tree / "g" / "HEAD").write_text((other / ".git" / "HEAD").read_text("utf-8"), "utf-8")
    (tree / "g" / "commondir").write_text(f"{other / '.git'}\n", "utf-8")
    (tree / ".git").write_text("gitdir: g\n", "utf-8")
    assert git_identity(tree.resolve()) == (None, None, None)


def test_a_linked_worktree_of_another_repository_is_read_only_when_it_links_back(tree, other, tmp_path):
    wt = tmp_path / "wt"
    _git(other, "worktree", "add", "-q", "--detach", str(wt), "v0.58.5")
    commit = _git(other, "rev-parse", "HEAD").strip()
    assert git_identity(wt.resolve()) == (commit, False, "v0.58.5")  # a real worktree: its own identity
    # the tree names that worktree's git directory: git's back link names wt/.git, not the tree
    (tree / ".git").write_text((wt / ".git").read_text("utf-8"), "utf-8")
    assert git_identity(tree.resolve()) == (None, None, None)
