"""Review of issue 30's finding 1 and its review round (review2): what a hostile tree still does to the caches,
the tree digest and the git reader. Every test here FAILS on the code as merged (132b897) and reproduces one
finding of the review report (Q1..); each will pass once that finding is fixed."""

from __future__ import annotations

import struct
import subprocess
import sys

from .conftest import REPO, run_cli, run_main

GIT = ["git", "-c", "user.name=a", "-c", "user.email=a@b", "-c", "init.defaultBranch=main"]


def test_Q1_a_unit_in_a_pycache_or_dot_git_directory_of_an_area_changes_the_tree_digest(tree, tmp_path, monkeypatch):
    """Q1 (medium): tree_cache._hash_tree leaves out every directory named ``.git*`` or ``__pycache__``, but the
    loader parses the areas' files in them (``asl/__pycache__/x.asl``, ``asl/.github/x.asl``). A tree that
    changes only such a file has the digest of the last build at that path: ``pto-docs build`` replays the
    manifest (no diagnostics, exit 0, the old site) while ``validate`` and a --no-cache build report the errors.
    A PR checkout replacing another at the same path in CI gets the previous tree's site and verdict."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user"))
    from pto_docs.store import seal
    seal.forget_user_sealers()
    site = tmp_path / "site"
    code, _out, err = run_main("build", str(tree), "--site-dir", str(site), "-q")
    assert code == 0, err
    for hidden in ("__pycache__", ".github"):
        (tree / "asl" / hidden).mkdir()
        (tree / "asl" / hidden / "evil.asl").write_text("func Broken( this is not ASL\n", "utf-8")
    _code, out_validate, err_validate = run_main("validate", str(tree))
    assert "asl/__pycache__/evil.asl" in out_validate + err_validate  # the loader reads it
    # (in a separate process: a build's diagnostics go through logging, whose handler run_main does not capture)
    code, out, err = run_cli("build", str(tree), "--site-dir", str(site), "-q")
    assert "asl/__pycache__/evil.asl" in out + err and code != 0, "build replayed the previous tree's clean build"


def _hostile_index(gitdir, varint_bytes: int) -> None:
    """An index v4 whose one entry's path-prefix varint runs ``varint_bytes`` bytes (each 0xFF)."""
    entry = struct.pack(">10I", *([0] * 10)) + b"\0" * 20 + struct.pack(">H", 0) + b"\xff" * varint_bytes + b"\0a\0"
    (gitdir / "index").write_bytes(b"DIRC" + struct.pack(">II", 4, 1) + entry)


def test_Q2_a_long_prefix_varint_in_an_index_v4_does_not_hang_the_dirty_flag(tree, tmp_path):
    """Q2 (medium for a tree shipped with its git directory: a tarball, an artifact): gitindex._entries decodes
    git's offset varint with no bound, ``strip = (strip << 7) | ...`` on an ever larger integer: quadratic in its
    length (80 KB: 1.3 s; 2 MB: > 60 s; the index may be 256 MB). Every git identity (build, tree digest) hangs."""
    subprocess.run([*GIT, "init", "-q"], cwd=tree, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=tree, check=True)
    subprocess.run([*GIT, "commit", "-qm", "t"], cwd=tree, check=True)
    _hostile_index(tree / ".git", 2_000_000)
    probe = ("import sys; from pathlib import Path; from pto_docs.sources.gitread import worktree_dirty; "
             "print(worktree_dirty(Path(sys.argv[1])))")
    try:
        done = subprocess.run([sys.executable, "-c", probe, str(tree)], cwd=REPO, capture_output=True, text=True,
                              timeout=20)
    except subprocess.TimeoutExpired:
        raise AssertionError("the dirty flag of a tree with a hostile .git/index ran over 20 s") from None
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


def test_Q3_an_index_naming_one_large_file_many_times_does_not_hash_it_each_time(tmp_path):
    """Q3 (medium for a tree shipped with its git directory): gitindex.index_differs hashes every entry whose stat
    data differ from the index, and accepts the same path any number of times (git's index is sorted, each
    path once per stage). A 32 MB tracked file named 2,000 times with its right blob id and stale stat data
    costs 2,000 full hashes (36 ms each here: 72 s; the 256 MB index cap allows millions of entries, and the file
    may be 64 MB): the dirty flag, so every build, hangs."""
    root = tmp_path / "T"
    root.mkdir()
    subprocess.run([*GIT, "init", "-q"], cwd=root, check=True)
    (root / "big.bin").write_bytes(bytes(range(256)) * (32 << 12))
    subprocess.run([*GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", "t"], cwd=root, check=True)
    oid = bytes.fromhex(subprocess.run(["git", "rev-parse", "HEAD:big.bin"], cwd=root, capture_output=True,
                                       text=True, check=True).stdout.strip())
    entry = struct.pack(">10I", 0, 0, 0, 0, 0, 0, 0o100644, 0, 0, 32 << 20) + oid + struct.pack(">H", 7) + b"big.bin"
    entry += b"\0" * (8 - len(entry) % 8)
    (root / ".git" / "index").write_bytes(b"DIRC" + struct.pack(">II", 2, 2000) + entry * 2000)
    probe = ("import sys; from pathlib import Path; from pto_docs.sources.gitindex import index_differs; "
             "print(index_differs(Path(sys.argv[1]), Path(sys.argv[1]) / '.git'))")
    try:
        done = subprocess.run([sys.executable, "-c", probe, str(root)], cwd=REPO, capture_output=True, text=True,
                              timeout=20)
    except subprocess.TimeoutExpired:
        raise AssertionError("the dirty flag hashed the same file once per duplicate index entry (> 20 s)") from None
    # an index naming one path many times is out of git's order: damaged, so the flag is unknown (None)
    assert (done.returncode, done.stdout, done.stderr) == (0, "None\n", "")


def test_Q4_a_fifo_in_the_object_database_does_not_stall_the_dirty_flag(tree):
    """Q4 (low, a tree shipped with its git directory): gitread.only_plain_files does not look into ``objects``
    (``dirnames`` drops it), but git reads ``objects/info/alternates`` before any object: a FIFO there blocks
    ``git diff-index`` until the 20 s timeout, in every git identity (a build: 24 s instead of 3 s)."""
    import os
    import time
    from pathlib import Path
    subprocess.run([*GIT, "init", "-q"], cwd=tree, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=tree, check=True)
    subprocess.run([*GIT, "commit", "-qm", "t"], cwd=tree, check=True)
    os.mkfifo(tree / ".git" / "objects" / "info" / "alternates")
    from pto_docs.sources.gitread import worktree_dirty
    started = time.monotonic()
    worktree_dirty(Path(tree).resolve())
    assert time.monotonic() - started < 10, "git blocked on a FIFO in the tree's object database"


def test_Q5_a_syntax_error_after_a_units_declarations_is_a_diagnostic_not_a_traceback(tree):
    """Q5 (medium: issue 30 finding 4 still open for this shape): a line that is not ASL after a unit's
    declarations passes ``pto-docs validate`` (0 errors, exit 0) and then ``pto-docs avs`` and ``pto-docs build``
    (the catalog's avs_examples run) die with a Python traceback: AslSyntaxError from asl/model.py's parse,
    caught nowhere on the avs.run_tree_avs / run_avs path."""
    unit = tree / "asl" / "arch" / "overview" / "architecture.asl"
    unit.write_text(unit.read_text("utf-8") + "garbage not asl (\n", "utf-8")
    code, out, err = run_cli("avs", str(tree))  # (asserts: no traceback)
    assert code in (1, 2) and "ASL-SYNTAX" in out + err


def test_Q6_a_nul_in_a_ref_name_is_no_traceback(tree):
    """Q6 (low-medium: a tree shipped with its git directory): gitread._resolve opens ``common / name`` for every
    tag name of ``packed-refs`` (and for HEAD's ``ref:`` target); a NUL in the name makes os.open raise
    ValueError, which _read_bytes (OSError only) does not catch: ``pto-docs validate`` and ``build`` end in a
    traceback."""
    subprocess.run([*GIT, "init", "-q"], cwd=tree, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=tree, check=True)
    subprocess.run([*GIT, "commit", "-qm", "t"], cwd=tree, check=True)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, capture_output=True, text=True, check=True).stdout
    (tree / ".git" / "packed-refs").write_bytes(sha.strip().encode() + b" refs/tags/v1\0x\n")
    code, _out, _err = run_cli("validate", str(tree))  # (asserts: no traceback)
    assert code == 0


def test_Q7_a_tag_name_that_is_not_utf8_is_no_traceback(tree, tmp_path):
    """Q7 (low-medium: git allows any byte >= 0x80 in a ref name; a clone fetches the tags): gitread.head_and_tag
    takes a loose tag's file name as os.walk gives it (undecodable bytes as surrogates) into the release
    identity; the page footer cannot be written: ``pto-docs build`` ends in a UnicodeEncodeError traceback."""
    import os

    subprocess.run([*GIT, "init", "-q"], cwd=tree, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=tree, check=True)
    subprocess.run([*GIT, "commit", "-qm", "t"], cwd=tree, check=True)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, capture_output=True, text=True, check=True).stdout
    with open(os.path.join(os.fsencode(tree / ".git" / "refs" / "tags"), b"v\xff"), "w") as fh:
        fh.write(sha)
    code, _out, err = run_cli("build", str(tree), "--site-dir", str(tmp_path / "site"), "-q", "--no-cache")
    assert code == 0, err  # (run_cli asserts: no traceback) the site is built, both languages, footer and all
    for index in (tmp_path / "site/index.html", tmp_path / "site/zh-CN/index.html"):
        assert "</footer>" in index.read_text("utf-8")


def test_Q8_a_git_directory_cannot_name_the_roots_parent_as_its_common_directory(tmp_path):
    """Q8 (low): gitread.git_dir accepts a common directory outside the root when it is ``target.parent.parent``
    (meant for a linked work tree's ``<common>/worktrees/<name>``), also when the target is the root's own
    ``.git`` directory: ``.git/commondir`` = ``../..`` makes the root's parent the common directory, and its
    refs, tags, packed-refs and config (and git's objects) are read from outside the root: a tag there is
    reported as the tree's release."""
    from pathlib import Path

    from pto_docs.sources.gitread import head_and_tag
    root = tmp_path / "T"
    root.mkdir()
    (root / "f.txt").write_text("x\n", "utf-8")
    subprocess.run([*GIT, "init", "-q"], cwd=root, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", "t"], cwd=root, check=True)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True).stdout
    (tmp_path / "refs" / "tags").mkdir(parents=True)
    (tmp_path / "refs" / "heads").mkdir()
    (tmp_path / "refs" / "tags" / "outside").write_text(sha, "utf-8")
    (tmp_path / "refs" / "heads" / "main").write_text(sha, "utf-8")
    (root / ".git" / "commondir").write_text("../..\n", "utf-8")
    assert head_and_tag(Path(root).resolve())[1] != "outside"


def test_Q9_git_is_not_looked_up_in_the_tree(tree, tmp_path, monkeypatch):
    """Q9 (low, environment-dependent): gitread.worktree_dirty runs ``git`` by name with ``cwd=root``; with an
    empty (or ``.``) PATH entry ahead of git's directory, the tree's own executable ``git`` runs (a checkout keeps
    the executable bit). Resolving git's absolute path before (shutil.which, cwd elsewhere) closes this."""
    import os
    from pathlib import Path

    from pto_docs.sources.gitread import worktree_dirty
    marker = tmp_path / "PWNED"
    subprocess.run([*GIT, "init", "-q"], cwd=tree, check=True)
    (tree / "git").write_text(f"#!/bin/sh\ntouch {marker}\nexit 0\n", "utf-8")
    os.chmod(tree / "git", 0o755)
    subprocess.run([*GIT, "add", "-A"], cwd=tree, check=True)
    subprocess.run([*GIT, "commit", "-qm", "t"], cwd=tree, check=True)
    monkeypatch.setenv("PATH", ":" + os.environ["PATH"])
    worktree_dirty(Path(tree).resolve())
    assert not marker.exists(), "the tree's own 'git' ran"


def test_packed_tags_are_resolved_from_packed_refs_not_by_opening_a_file_each(tree, monkeypatch):
    """review2 (low): head_and_tag resolved every name of ``packed-refs`` through _resolve, three failed opens per
    tag (a 64 MB packed-refs of 1.1M tags: 33 s per git identity). A packed-only tag needs no file: the reads
    must not grow with the number of packed tags; the tag at HEAD is still found (a loose one overrides)."""
    from pathlib import Path

    from pto_docs.sources import gitread
    subprocess.run([*GIT, "init", "-q"], cwd=tree, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=tree, check=True)
    subprocess.run([*GIT, "commit", "-qm", "t"], cwd=tree, check=True)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, capture_output=True, text=True,
                         check=True).stdout.strip()
    other = "1" * 40
    lines = [f"{other} refs/tags/t{i:05d}" for i in range(5000)] + [f"{sha} refs/tags/zz-at-head"]
    header = "# pack-refs with: peeled fully-peeled sorted \n"  # (git's: a tag with no ^ line is not annotated)
    (tree / ".git" / "packed-refs").write_text(header + "\n".join(lines) + "\n", "utf-8")
    reads = []
    real = gitread._read_bytes
    monkeypatch.setattr(gitread, "_read_bytes", lambda path, *a: reads.append(path) or real(path, *a))
    assert gitread.head_and_tag(Path(tree).resolve()) == (sha, "zz-at-head")
    assert len(reads) < 100, f"{len(reads)} reads for 5,001 packed tags"
    (tree / ".git" / "refs" / "tags" / "zz-at-head").write_text(other + "\n", "utf-8")  # (a loose ref wins)
    assert gitread.head_and_tag(Path(tree).resolve()) == (sha, None)


def test_Q1_a_link_inside_the_root_is_hashed_by_what_the_loader_reads_through_it(tree, tmp_path, monkeypatch):
    """Q1: a link that stays inside the root is followed by the loader but was hashed by its target text only:
    a unit kept in the (left-out) ``.git`` directory behind a link changes, the digest does not, and the build
    replays the clean one."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user"))
    from pto_docs.store import seal
    seal.forget_user_sealers()
    unit = tree / "asl" / "arch" / "overview" / "architecture.asl"
    (tree / ".git").mkdir()
    (tree / ".git" / "unit.asl").write_bytes(unit.read_bytes())
    unit.unlink()
    unit.symlink_to("../../../.git/unit.asl")
    site = tmp_path / "site"
    code, _out, err = run_main("build", str(tree), "--site-dir", str(site), "-q")
    assert code == 0, err
    with open(tree / ".git" / "unit.asl", "a", encoding="utf-8") as fh:
        fh.write("garbage not asl (\n")
    code, out, err = run_cli("build", str(tree), "--site-dir", str(site), "-q")
    assert "architecture.asl" in out + err and code != 0, "build replayed the previous tree's clean build"


def test_Q3_the_bytes_hashed_for_the_dirty_flag_are_capped(tmp_path, monkeypatch):
    """Q3: whatever the index lists, the dirty flag hashes at most MAX_HASHED bytes of work-tree files; beyond that
    it is unknown (None), not a long hash. (The cap is lowered here: files with stale stat data are re-hashed.)"""
    from pathlib import Path

    from pto_docs.sources import gitindex
    root = tmp_path / "T"
    root.mkdir()
    for name in ("a.bin", "b.bin"):
        (root / name).write_bytes(b"x" * 4096)
    subprocess.run([*GIT, "init", "-q"], cwd=root, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", "t"], cwd=root, check=True)
    assert gitindex.index_differs(Path(root), Path(root) / ".git") is False
    for name in ("a.bin", "b.bin"):
        (root / name).write_bytes(b"x" * 4096)  # (same bytes, new stat data: hashed to be compared)
    monkeypatch.setattr(gitindex, "MAX_HASHED", 6000, raising=False)
    assert gitindex.index_differs(Path(root), Path(root) / ".git") is None
    monkeypatch.setattr(gitindex, "MAX_HASHED", 9000, raising=False)
    assert gitindex.index_differs(Path(root), Path(root) / ".git") is False
