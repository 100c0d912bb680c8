"""Data loss: no output path over, into or around the spec tree, over a special file, or over a stranger's
directory; an unwritable target or a full disk is one message and exit 2 (issue 11, "Data loss")."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from pto_docs.store.output_guard import SITE_MARKER, OutputRefused, check_output_file, check_site_dir

from .conftest import run_main, snapshot


def _refused(code: int, err: str, what: str = "OUTPUT-REFUSED") -> None:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and f"error[{what}]" in lines[0], err


@pytest.mark.parametrize("site", ["{T}", "{T}/spec", "{T}/spec/new", "{T}/specification.toml", "{tmp}", "/",
                                  "{T}/asl", "{T}/docs", "{T}/examples", "{T}/.git", "{T}/site/nested"])
def test_build_refuses_a_site_dir_that_overlaps_the_spec_tree(tree, tmp_path, site):
    before = snapshot(tmp_path)
    code, _out, err = run_main("build", str(tree), "--site-dir", site.format(T=tree, tmp=tmp_path), "-q")
    _refused(code, err)
    assert snapshot(tmp_path) == before


def test_a_site_dir_right_below_the_root_is_mkdocs_usual_layout(tree, tmp_path):
    """`site/` beside mkdocs.yml at a checkout's root: allowed when new or a previous site, never a stranger's."""
    before = snapshot(tree)
    code, _out, err = run_main("build", str(tree), "--site-dir", str(tree / "site"), "-q",
                               "--cache-dir", str(tmp_path / "cache"))
    assert code == 0, err
    after = snapshot(tree)
    assert {p for p in after if p != "site" and not p.startswith("site/")} == set(before)
    assert all(after[p] == before[p] for p in before)
    assert (tree / "site" / "index.html").is_file() and (tree / "site" / "zh-CN" / "index.html").is_file()
    notes = tree / "notes"
    notes.mkdir()
    (notes / "mine.txt").write_text("mine\n")
    code, _out, err = run_main("build", str(tree), "--site-dir", str(notes), "-q")
    _refused(code, err)
    assert (notes / "mine.txt").read_text() == "mine\n"


@pytest.mark.parametrize("cache", ["{T}", "{T}/spec/cache", "{tmp}/notes.txt"])
def test_build_refuses_a_cache_dir_over_the_tree_or_a_file(tree, tmp_path, cache):
    (tmp_path / "notes.txt").write_text("mine\n")
    before = snapshot(tmp_path)
    code, _out, err = run_main("build", str(tree), "--site-dir", str(tmp_path / "site"), "--cache-dir",
                               cache.format(T=tree, tmp=tmp_path), "-q")
    _refused(code, err)
    assert snapshot(tmp_path) == before


def test_build_refuses_to_replace_a_file(tree, tmp_path):
    (tmp_path / "notes.txt").write_text("mine\n")
    before = snapshot(tmp_path)
    code, _out, err = run_main("build", str(tree), "--site-dir", str(tmp_path / "notes.txt"), "-q")
    _refused(code, err)
    assert snapshot(tmp_path) == before


def test_build_refuses_a_stranger_directory_unless_forced(tree, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work\n")
    before = snapshot(tmp_path)
    code, _out, err = run_main("build", str(tree), "--site-dir", str(mine), "-q")
    _refused(code, err)
    assert "--force" in err
    assert snapshot(tmp_path) == before
    assert check_site_dir(mine, tree, force=True) == mine.resolve()


@pytest.mark.parametrize("sign", [SITE_MARKER, "sitemap.xml", "404.html"])
def test_a_previous_site_may_be_rebuilt(tree, tmp_path, sign):
    site = tmp_path / "site"
    site.mkdir()
    (site / sign).write_text("x")
    (site / "index.html").write_text("old page")
    assert check_site_dir(site, tree) == site.resolve()
    assert sorted(p.name for p in site.iterdir()) == sorted([sign, "index.html"])


@pytest.mark.parametrize("site", ["/proc/pto-docs-x", "{tmp}/file/site"])
def test_an_impossible_site_dir_is_one_message(tree, tmp_path, site):
    (tmp_path / "file").write_text("x")
    before = snapshot(tmp_path)
    code, _out, err = run_main("build", str(tree), "--site-dir", site.format(tmp=tmp_path), "-q")
    _refused(code, err, "IO-WRITE")
    assert snapshot(tmp_path) == before


def test_a_read_only_site_parent_is_one_message(tree, tmp_path):
    """Mode bits for a user; for root (CI, who writes into any mode), the immutable attribute, which binds root."""
    ro = tmp_path / "ro"
    ro.mkdir()
    if os.geteuid() == 0:
        made = subprocess.run(["chattr", "+i", str(ro)], capture_output=True, text=True) if shutil.which("chattr") else None
        if made is None or made.returncode != 0:
            pytest.skip("root writes into read-only directories, and chattr +i is not available here")
        undo = ["chattr", "-i", str(ro)]
    else:
        ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
        undo = None
    try:
        code, _out, err = run_main("build", str(tree), "--site-dir", str(ro / "site"), "-q")
    finally:
        if undo:
            subprocess.run(undo, check=True)
        else:
            ro.chmod(0o755)
    _refused(code, err, "IO-WRITE")
    assert list(ro.iterdir()) == []


def test_a_read_only_file_system_is_one_message(tree, tmp_path, monkeypatch):
    def read_only(*_a, **_k):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))
    monkeypatch.setattr(os, "makedirs", read_only)  # what a read-only mount answers (root ignores mode bits)
    code, _out, err = run_main("build", str(tree), "--site-dir", str(tmp_path / "site"), "-q")
    _refused(code, err, "IO-WRITE")
    assert "Read-only file system" in err


def test_a_full_disk_while_building_is_one_message(tree, tmp_path, monkeypatch):
    import mkdocs.commands.build as mkbuild

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "site" / "index.html"))
    monkeypatch.setattr(mkbuild, "build", full)
    code, _out, err = run_main("build", str(tree), "--site-dir", str(tmp_path / "site"), "-q")
    _refused(code, err, "IO-WRITE")
    assert "No space left" in err


@pytest.mark.parametrize("flag,target", [
    ("--json", "{T}/specification.toml"), ("--markdown", "{T}/docs/report.md"), ("--json", "{T}"),
    ("--json", "{tmp}"), ("--json", "{fifo}"), ("--markdown", "{fifo}"), ("--json", "{link}"),
])
def test_trace_refuses_outputs_over_the_tree_and_special_files(tree, tmp_path, flag, target):
    (tmp_path / "link.json").symlink_to(tree / "spec" / "release-manifest.json")
    os.mkfifo(tmp_path / "fifo")  # a special file of our own: a regression must not replace a device of the machine
    before = snapshot(tmp_path, skip=("fifo",))
    code, _out, err = run_main("trace", str(tree), flag, target.format(T=tree, tmp=tmp_path, link=tmp_path / "link.json",
                                                                       fifo=tmp_path / "fifo"))
    _refused(code, err)
    assert snapshot(tmp_path, skip=("fifo",)) == before
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)


def test_devices_are_refused_before_anything_is_written():
    for device in ("/dev/full", "/dev/null"):
        with pytest.raises(OutputRefused, match="special file"):
            check_output_file(device, None)


@pytest.mark.parametrize("target", ["{tmp}/no-dir/r.json", "{tmp}/file/r.json"])
def test_trace_output_in_a_missing_directory_is_one_message(tree, tmp_path, target):
    (tmp_path / "file").write_text("x")
    before = snapshot(tmp_path)
    code, _out, err = run_main("trace", str(tree), "--json", target.format(tmp=tmp_path))
    _refused(code, err, "IO-WRITE")
    assert snapshot(tmp_path) == before


def test_a_full_disk_while_writing_the_report_keeps_the_old_report(tree, tmp_path, monkeypatch):
    out = tmp_path / "report.json"
    out.write_bytes(b"old report\n")
    real_fsync = os.fsync

    def full(fd):
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_fsync(fd)
    monkeypatch.setattr(os, "fsync", full)
    before = snapshot(tmp_path)
    code, _out, err = run_main("trace", str(tree), "--json", str(out))
    _refused(code, err, "IO-WRITE")
    assert snapshot(tmp_path) == before  # the old report, and no temporary file left behind


@pytest.mark.parametrize("kind", ["symlink", "fifo", "directory"])
def test_stamp_never_replaces_a_lock_that_is_not_a_regular_file(tree, tmp_path, kind):
    lock = tree / "pto-docs.review-lock.json"
    lock.unlink()
    if kind == "symlink":
        (tmp_path / "elsewhere.json").write_text("{}\n")
        lock.symlink_to(tmp_path / "elsewhere.json")
    elif kind == "fifo":
        os.mkfifo(lock)
    else:
        lock.mkdir()
    before = snapshot(tmp_path)
    code, _out, err = run_main("trace", str(tree), "--stamp")
    _refused(code, err)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("content", ["[" * 100_000 + "]" * 100_000, '{"schema": 1, "schema": 2}', "{\"x\": NaN}"])
def test_a_hostile_review_lock_is_a_finding(tree, content):
    (tree / "pto-docs.review-lock.json").write_text(content, "utf-8")
    before = snapshot(tree)
    code, _out, err = run_main("trace", str(tree), "--check")
    assert code == 1 and "error[lock-invalid]" in err
    assert snapshot(tree) == before


def test_the_guard_names_its_reason():
    with pytest.raises(OutputRefused) as info:
        check_site_dir(Path("/"), Path("/usr"), create=False)
    assert "contains the spec root" in info.value.format()


def test_plain_mkdocs_build_never_replaces_a_strangers_directory(tree, tmp_path):
    """The plugin checks the site directory too: `mkdocs build` publishes by replacing it."""
    import subprocess
    import sys
    assert run_main("init", str(tree))[0] == 0
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    (stranger / "thesis.tex").write_text("years of work\n")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(tree / "mkdocs.yml"),
                           "-d", str(stranger)], capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "error[OUTPUT-REFUSED]" in done.stderr and "Traceback" not in done.stderr
    assert sorted(p.name for p in stranger.iterdir()) == ["thesis.tex"]
