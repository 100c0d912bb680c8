"""site/output.py: what a killed build left behind is removed by the next build: only our names, only when the
process that made them is gone (as their marker, sealed with the user's key, says); everything else beside the
site stays, a directory of the same name shape included. (The language builds run in a process
pool and hand their pages back as the task's result: no hand-over directories any more.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from pto_docs.site import output


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _leftover(site, dead: int, locale: str | None = None) -> str:
    """A staging directory as a build of process ``dead`` left it (made and marked by output, then that pid)."""
    path = output.staging_dir(str(site))
    if locale:
        path = output.language_staging_dir(path, locale)
    output.mark(path, dead)
    return path


def test_remove_stale_takes_only_our_leftovers_of_dead_processes(tmp_path):
    site = tmp_path / "site"
    dead, alive = _dead_pid(), os.getppid()
    leftovers = [_leftover(site, dead), _leftover(site, dead, "zh-CN")]
    kept = [_leftover(site, alive), _leftover(tmp_path / "other", dead)]
    planted = [tmp_path / f".site.pto-build-{dead}", tmp_path / "site", tmp_path / "notes"]
    for path in planted:
        path.mkdir()
    forged = tmp_path / ".site.pto-build-forged"  # a marker copied from a real leftover: it names another path
    shutil.copytree(leftovers[0], forged)
    for path in [*leftovers, *kept, *planted, forged]:
        Path(path, "index.html").write_text("x", "utf-8")
    removed = output.remove_stale(str(site))
    assert sorted(removed) == sorted(leftovers)
    assert all(not os.path.exists(p) for p in leftovers)
    assert all(Path(p, "index.html").is_file() for p in [*kept, *planted, forged])


def test_staging_directories_are_new_and_published_without_our_marker(tmp_path):
    site = tmp_path / "site"
    first, second = output.staging_dir(str(site)), output.staging_dir(str(site))
    assert first != second and os.listdir(first) == [output.STAGING_MARKER]
    Path(first, "index.html").write_text("x", "utf-8")
    output.publish(first, str(site))
    assert os.listdir(site) == ["index.html"]


def test_a_build_removes_the_staging_directory_of_a_killed_build(tmp_path):
    from tests.mkdocs_config import REPO
    dead = _dead_pid()
    stale = Path(_leftover(tmp_path / "site", dead))
    (stale / "instructions").mkdir(parents=True)
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([sys.executable, "-m", "pto_docs.cli", "build", str(REPO / "catalog"), "--site-dir",
                             str(tmp_path / "site"), "--no-cache", "-q"], cwd=REPO, env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert not stale.exists() and (tmp_path / "site" / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
