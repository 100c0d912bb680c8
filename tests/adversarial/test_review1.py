"""Review of issue 30's fixes for findings 2 and 5 (review1): what a hostile tree still does. Every test here
FAILS on the code as merged (7d14b04) and reproduces one finding of the review report; each will pass once that
finding is fixed. A test names its finding (R1..R6) in its docstring."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

from .conftest import REPO, run_main, snapshot

GIT = ["git", "-c", "user.name=a", "-c", "user.email=a@b", "-c", "init.defaultBranch=main"]


def _outside(tree: Path) -> Path:
    outside = tree.parent / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("not pto-docs'\n", "utf-8")
    return outside


def test_R1_a_planted_staging_link_does_not_choose_where_the_site_is_written(tree):
    """R1 (high): the site is built into ``.site.pto-build-<pid>`` beside ``site/``, inside the spec root, and that
    name is followed when the tree carries it as a symbolic link: the site is written outside the root, and
    published as ``site -> ../outside`` (mkdocs build also empties the target first: a file there is deleted).
    Built in this process, so the pid is known; in CI a tree plants a link for each pid a job may get.
    (Passes on main since 8158f09, the merge of branch cache: output.fresh_dir.)"""
    outside = _outside(tree)
    staging = f".site.pto-build-{os.getpid()}"
    (tree / staging).symlink_to("../outside")
    (tree / f"{staging}-zh-CN").symlink_to("../outside")
    before = snapshot(outside)
    code, _out, err = run_main("build", str(tree), "--site-dir", str(tree / "site"), "-q", "--no-cache")
    assert code == 0, err  # built (a build that stopped early would leave outside/ alone too)
    assert (tree / "site" / "index.html").is_file()
    assert snapshot(outside) == before
    assert not (tree / "site").is_symlink()


def test_R2_a_directory_of_the_tree_named_like_a_killed_build_is_not_deleted(tree, tmp_path):
    """R2 (low): output.remove_stale deletes any directory beside the site named ``.site.pto-build-<dead pid>``,
    owned by the user: with ``site/`` inside the root, that is a directory of the tree pto-docs did not write."""
    planted = tree / ".site.pto-build-4194999"
    planted.mkdir()
    (planted / "notes.md").write_text("the tree's own file\n", "utf-8")
    code, _out, err = run_main("build", str(tree), "--site-dir", str(tree / "site"), "-q", "--no-cache")
    assert code == 0, err
    assert (planted / "notes.md").read_text("utf-8") == "the tree's own file\n"


def test_R2_a_link_of_the_tree_named_like_the_staging_directory_is_not_deleted(tree):
    """R2 (low): main's fix of R1 (8158f09, output.fresh_dir) unlinks a symbolic link of the tree found at the
    staging name instead of building elsewhere: an entry of the tree pto-docs did not write is deleted."""
    _outside(tree)
    staging = f".site.pto-build-{os.getpid()}"
    (tree / staging).symlink_to("../outside")
    code, _out, err = run_main("build", str(tree), "--site-dir", str(tree / "site"), "-q", "--no-cache")
    assert (tree / staging).is_symlink(), err


def _build_capped(tree: Path, site: Path, timeout: float) -> subprocess.CompletedProcess:
    limit = 3 << 30
    return subprocess.run([sys.executable, "-m", "pto_docs.cli", "build", str(tree), "--site-dir", str(site), "-q"],
                          capture_output=True, text=True, timeout=timeout, cwd=REPO,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))


def test_R3_a_link_to_dev_zero_anywhere_in_the_tree_is_not_read(tree, tmp_path):
    """R3 (high, a committed symbolic link is enough): `pto-docs build` (page cache on, the default) hashes every
    file under the root with open().read(), following file links (site/tree_cache.py _hash_dir): a link to
    /dev/zero outside the parsed areas fills memory (MemoryError traceback under a 3 GB cap; the machine's memory
    without one)."""
    (tree / "README.txt").symlink_to("/dev/zero")
    done = _build_capped(tree, tmp_path / "site", timeout=300)
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr[-2000:]
    assert done.returncode in (0, 1), done.stderr[-2000:]


def test_R3_a_fifo_in_the_tree_does_not_hang_the_build(tree, tmp_path):
    """R3 (medium): the same hash opens a FIFO (not in a parsed area) without O_NONBLOCK and blocks forever; the
    README says a FIFO in the tree gives a diagnostic."""
    os.mkfifo(tree / "notes.fifo")
    try:
        done = _build_capped(tree, tmp_path / "site", timeout=120)
    except subprocess.TimeoutExpired:
        raise AssertionError("pto-docs build hung on a FIFO in the tree") from None
    assert "Traceback" not in done.stderr, done.stderr[-2000:]


def _run_without_traceback(*argv: str) -> tuple[int, str]:
    """``pto-docs ARGV`` in a fresh process: asserts no traceback; (exit code, standard error)."""
    done = subprocess.run([sys.executable, "-m", "pto_docs.cli", *argv], capture_output=True, text=True,
                          timeout=900, cwd=REPO, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert "Traceback" not in done.stderr, done.stderr[-1500:]
    return done.returncode, done.stderr


def test_R4_a_non_utf8_file_name_anywhere_is_no_traceback_in_build(tree, tmp_path):
    """R4 (medium): a file name with a byte that is not UTF-8 (git stores it) anywhere under the root:
    UnicodeEncodeError traceback in `pto-docs build` (render/build_state.py fingerprint, now sources/digest.py stat_fingerprint)."""
    with open(os.fsencode(tree) + b"/notes-\xff.txt", "wb") as fh:
        fh.write(b"x")
    code, err = _run_without_traceback("build", str(tree), "--site-dir", str(tmp_path / "site"), "-q", "--no-cache")
    assert code == 0, err  # a file no page is made of does not stop the build
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "zh-CN" / "index.html").is_file()


def test_R4_a_non_utf8_example_or_test_file_name_is_a_diagnostic(tree, tmp_path):
    """R4: validate accepts a worked example or a test file whose name is not UTF-8 (0 errors), then `trace`
    (frozen.canonical_sha256, trace/links.py) and `avs` (--json writing) end in a UnicodeEncodeError traceback."""
    shutil.copy(tree / "examples/TMUL/u64-products.json", os.fsencode(tree) + b"/examples/TMUL/q\xff.json")
    tests = os.fsencode(tree / "tests/asl/tile/elementwise-tile-tile/arithmetic/TMUL")
    with open(tests + b"/tile-static-tmul-contract-001.asl", "rb") as fh:
        body = fh.read().replace(b"PTO-AVS-TILE-TMUL-STATIC-001", b"PTO-AVS-TILE-TMUL-STATIC-009")
    with open(tests + b"/q\xff.asl", "wb") as fh:
        fh.write(body)
    for argv in (("trace", str(tree), "--json", str(tmp_path / "t.json")),
                 ("avs", str(tree), "-q", "-k", "TMUL", "--json", str(tmp_path / "a.json"))):
        code, err = _run_without_traceback(*argv)
        assert code == 1, err  # each file named, as printable text, with the diagnostic that says why
        for path in ("examples/TMUL/q%FF.json", "tests/asl/tile/elementwise-tile-tile/arithmetic/TMUL/q%FF.asl"):
            assert any(line.startswith(path + ": error[") and "PATH-ENCODING" in line for line in err.splitlines()), err


def test_R5_git_status_never_runs_a_filter_of_a_submodule_the_tree_ships(tree, tmp_path):
    """R5 (high for a tree shipped with its git directory: a tarball, a CI artifact): config_is_safe checks the
    superproject's config only; `git status` recurses into a submodule whose own config defines a clean filter,
    and runs it, in `pto-docs validate`."""
    marker = tmp_path / "PWNED"
    subprocess.run([*GIT, "init", "-q"], cwd=tree, check=True)
    sub = tree / "sub"
    sub.mkdir()
    subprocess.run([*GIT, "init", "-q"], cwd=sub, check=True)
    (sub / "a.txt").write_text("hi\n", "utf-8")
    (sub / ".gitattributes").write_text("* filter=x\n", "utf-8")
    subprocess.run([*GIT, "add", "-A"], cwd=sub, check=True)
    subprocess.run([*GIT, "commit", "-qm", "s"], cwd=sub, check=True)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=sub, check=True, capture_output=True, text=True).stdout.strip()
    subprocess.run([*GIT, "add", "-A", "--", ".", ":!sub"], cwd=tree, check=True)
    subprocess.run([*GIT, "update-index", "--add", "--cacheinfo", f"160000,{sha},sub"], cwd=tree, check=True)
    subprocess.run([*GIT, "commit", "-qm", "t"], cwd=tree, check=True)
    (sub / ".git").rename(tree / "g2")
    (sub / ".git").write_text("gitdir: ../g2\n", "utf-8")
    subprocess.run(["git", "--git-dir", str(tree / "g2"), "config", "filter.x.clean",
                    f"sh -c 'touch {marker}; cat'"], check=True)
    (tree / ".git").rename(tree / "g")
    (tree / ".git").write_text("gitdir: g\n", "utf-8")
    os.utime(sub / "a.txt", (978307200, 978307200))  # stat differs from the index: git reads it through the filter
    code, _out, err = run_main("validate", str(tree))
    assert code == 0, err  # validated (a validate that stopped before the git identity would run no filter either)
    assert not marker.exists(), "git status ran a clean filter of the tree's submodule"
