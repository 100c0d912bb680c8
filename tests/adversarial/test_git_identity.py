"""No command the spec tree's git configuration names ever runs (issue 11, "Git config runs commands")."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pto_docs.sources.gitread import config_is_safe, head_and_tag
from pto_docs.sources.release import git_identity

from .conftest import run_cli, run_main

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git to make a checkout")


def _git(root: Path, *args: str) -> str:
    env = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin",
           "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}
    return subprocess.run(["git", "-C", str(root), *args], env=env, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def checkout(tree):
    _git(tree, "init", "-q")
    _git(tree, "add", "-A")
    _git(tree, "commit", "-qm", "spec")
    _git(tree, "tag", "-a", "-m", "release", "v0.58.5")
    return tree


def test_identity_is_read_without_git(checkout):
    commit = _git(checkout, "rev-parse", "HEAD").strip()
    assert git_identity(checkout.resolve()) == (commit, False, "v0.58.5")
    _git(checkout, "pack-refs", "--all")
    assert head_and_tag(checkout.resolve()) == (commit, "v0.58.5")
    (checkout / "specification.toml").write_text("# edited\n", "utf-8")
    assert git_identity(checkout.resolve())[1] is True


@pytest.mark.parametrize("what", ["HEAD", "packed-refs", "commondir"])
def test_a_fifo_in_dot_git_is_not_read(checkout, what):
    target = checkout / ".git" / what
    if target.exists():
        target.unlink()
    os.mkfifo(target)
    code, _out, err = run_cli("validate", str(checkout), timeout=300)  # a separate process: a regression cannot block
    assert code in (0, 1)
    assert head_and_tag(checkout.resolve())[0] is None or what != "HEAD"
    from pto_docs.sources.gitread import worktree_dirty
    assert worktree_dirty(checkout.resolve()) is None  # git, which would block on the FIFO, is not asked


def test_head_cannot_point_outside_the_repository(checkout, tmp_path):
    (tmp_path / "elsewhere").write_text("0" * 40 + "\n")
    (checkout / ".git" / "HEAD").write_text(f"ref: {tmp_path / 'elsewhere'}\n")
    assert head_and_tag(checkout.resolve()) == (None, None)


HOSTILE = {
    "fsmonitor": "[core]\n\tfsmonitor = touch {m}\n",
    "pager": "[core]\n\tpager = touch {m}\n[pager]\n\tstatus = touch {m}\n",
    "filter": "[filter \"x\"]\n\tclean = touch {m}\n\tprocess = touch {m}\n",
    "include": "[include]\n\tpath = {inc}\n",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_git_config_runs_nothing(checkout, tmp_path, kind):
    marker = tmp_path / "pwned"
    (tmp_path / "inc.cfg").write_text(f"[core]\n\tfsmonitor = touch {marker}\n", "utf-8")
    with open(checkout / ".git" / "config", "a", encoding="utf-8") as fh:
        fh.write(HOSTILE[kind].format(m=marker, inc=tmp_path / "inc.cfg"))
    (checkout / ".gitattributes").write_text("* filter=x\n", "utf-8")
    (checkout / "specification.toml").write_text((checkout / "specification.toml").read_text("utf-8") + "# x\n")
    assert not config_is_safe(checkout / ".git")
    for argv in (["validate", str(checkout)], ["trace", str(checkout)]):
        code, _out, err = run_main(*argv)
        assert "Traceback" not in err
    commit, dirty, tag = git_identity(checkout.resolve())
    assert not marker.exists()
    assert commit and tag == "v0.58.5" and dirty is None
