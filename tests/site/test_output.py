"""site/output.py: what a killed build left behind is removed by the next build: only our names, only when the
process that made them is gone; everything else beside the site stays. (The language builds run in a process
pool and hand their pages back as the task's result: no hand-over directories any more.)"""

from __future__ import annotations

import os
import subprocess
import sys

from pto_docs.site import output


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_remove_stale_takes_only_our_leftovers_of_dead_processes(tmp_path):
    site = tmp_path / "site"
    dead, alive = _dead_pid(), os.getppid()
    leftovers = [tmp_path / f".site.pto-build-{dead}", tmp_path / f".site.pto-build-{dead}-zh-CN",
                 tmp_path / f".site.pto-build-{dead}.old"]
    kept = [tmp_path / f".site.pto-build-{alive}", tmp_path / f".other.pto-build-{dead}",
            tmp_path / f".site.pto-build-{dead}x", tmp_path / "site", tmp_path / "notes"]
    for path in leftovers + kept:
        path.mkdir()
        (path / "index.html").write_text("x", "utf-8")
    removed = output.remove_stale(str(site))
    assert sorted(removed) == sorted(str(p) for p in leftovers)
    assert all(not p.exists() for p in leftovers)
    assert all((p / "index.html").is_file() for p in kept)


def test_a_build_removes_the_staging_directory_of_a_killed_build(tmp_path):
    from tests.mkdocs_config import REPO
    dead = _dead_pid()
    stale = tmp_path / f".site.pto-build-{dead}"
    (stale / "instructions").mkdir(parents=True)
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([sys.executable, "-m", "pto_docs.cli", "build", str(REPO / "catalog"), "--site-dir",
                             str(tmp_path / "site"), "--no-cache", "-q"], cwd=REPO, env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert not stale.exists() and (tmp_path / "site" / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
