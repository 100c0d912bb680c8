"""pto-docs diff of git revisions: a repository made by the test with dulwich from catalog/ (two commits and a
tag), read from .git without running git; and a hostile repository's tricks refused."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.history.gitrepo import LINK, annotated_tag, commit, files_of, new_repo
from tests.history.records import edit_record
from tests.history.test_diff import REPO, SWI, TADD, run_diff

OUTSIDE_RECORD = ('// PTO-INSTRUCTION: {"id":"PTO-SCALAR-LEAK","surface":"scalar","mnemonic":"LEAKED",'
                  '"summary":"read from outside the tree"}\n')


@pytest.fixture
def checkout(tmp_path) -> tuple[Path, list[bytes]]:
    """A checkout whose v1 (annotated tag) is catalog/ and whose HEAD (main) drops TADD and changes SWI."""
    work = tmp_path / "edit"
    shutil.copytree(REPO / "catalog", work)
    first = files_of(work)
    (work / TADD).unlink()
    edit_record(work / SWI, lambda r: r.__setitem__("summary", "A changed summary."))
    root = tmp_path / "checkout"
    repo, shas = new_repo(root, [first, files_of(work)])
    annotated_tag(repo, "v1", shas[0])
    return root, shas


def test_tag_against_head(checkout, tmp_path, capsys, monkeypatch):
    root, shas = checkout
    monkeypatch.chdir(root / ".git")  # anywhere inside the checkout
    code, out, err = run_diff(capsys, "v1", "HEAD", "--json", tmp_path / "d.json")
    assert code == 0, err
    doc = json.loads((tmp_path / "d.json").read_text("utf-8"))
    assert [e["mnemonic"] for e in doc["instructions"]["removed"]] == ["TADD"]
    [swi] = doc["instructions"]["changed"]
    assert (swi["mnemonic"], swi["changes"][0]["field"], swi["changes"][0]["new"]) == (
        "SWI", "/summary", "A changed summary.")
    assert (doc["old"]["commit"], doc["new"]["commit"]) == (shas[0].decode(), shas[1].decode())
    assert (doc["old"]["label"], doc["new"]["label"]) == ("v1", "HEAD")


def test_branch_and_short_sha(checkout, capsys, monkeypatch):
    root, shas = checkout
    monkeypatch.chdir(root)
    code, out, err = run_diff(capsys, shas[0].decode()[:10], "main")
    assert code == 0, err
    assert "1 removed" in out and "TADD" in out


def test_a_revision_that_does_not_exist(checkout, capsys, monkeypatch):
    root, _ = checkout
    monkeypatch.chdir(root)
    for rev in ("v9", "0123456789abcdef", "HEAD~1"):
        code, out, err = run_diff(capsys, rev, "HEAD")
        assert code == 2 and err.count("\n") == 1 and "error[GIT-REVISION]" in err, err
        assert out == ""


def test_a_symbolic_link_out_of_the_tree_is_not_followed(checkout, tmp_path, capsys, monkeypatch):
    root, shas = checkout
    secret = tmp_path / "secret.asl"
    secret.write_text(OUTSIDE_RECORD, "utf-8")
    from dulwich.repo import Repo
    repo = Repo(str(root))
    files = files_of(tmp_path / "edit")
    files["asl/scalar/agu/LEAK.asl"] = (LINK, str(secret).encode())  # absolute
    files["asl/scalar/agu/LEAK2.asl"] = (LINK, b"../../../../secret.asl")  # climbing out
    files["asl/scalar/d.asl"] = (LINK, b"..")  # stays inside: made
    files["asl/scalar/LEAK3.asl"] = (LINK, b"d.asl/../../secret.asl")  # leaves through the link above
    repo.refs[b"refs/heads/evil"] = commit(repo, files, "evil\n", [shas[1]])
    monkeypatch.chdir(root)
    code, out, err = run_diff(capsys, "HEAD", "evil", "--json", tmp_path / "d.json")
    assert code == 0, err
    for name in ("LEAK.asl", "LEAK2.asl", "LEAK3.asl"):
        assert f"{name}: error[PATH-OUTSIDE-ROOT]" in err
    doc = json.loads((tmp_path / "d.json").read_text("utf-8"))
    assert doc["instructions"]["added"] == [] and "LEAKED" not in (tmp_path / "d.json").read_text("utf-8")
    from pto_docs.sources.gitrev import read_revision
    dest = tmp_path / "materialised"
    dest.mkdir()
    read = read_revision(root, "evil", dest)  # no link that leaves is even made
    assert sorted(d.path.rsplit("/", 1)[-1] for d in read.diagnostics) == ["LEAK.asl", "LEAK2.asl", "LEAK3.asl"]
    assert [p.name for p in dest.rglob("*") if p.is_symlink()] == ["d.asl"]


def test_unsafe_names_in_a_tree_are_not_written(checkout, tmp_path, capsys, monkeypatch):
    root, shas = checkout
    from dulwich.objects import Blob, Tree
    from dulwich.repo import Repo
    repo = Repo(str(root))
    blob = Blob.from_string(OUTSIDE_RECORD.encode())
    repo.object_store.add_object(blob)
    inner = Tree()
    inner.add(b"x.asl", 0o100644, blob.id)
    repo.object_store.add_object(inner)
    base = repo[repo[shas[1]].tree]
    asl = repo[base[b"asl"][1]]
    for name in (b"..", b".git", b"a\\b.asl"):
        asl.add(name, 0o040000 if name != b"a\\b.asl" else 0o100644, inner.id if name != b"a\\b.asl" else blob.id)
    repo.object_store.add_object(asl)
    base.add(b"asl", 0o040000, asl.id)
    repo.object_store.add_object(base)
    from tests.history.gitrepo import branch_of_tree
    branch_of_tree(repo, base.id, shas[1], "names")
    monkeypatch.chdir(root)
    code, out, err = run_diff(capsys, "HEAD", "names")
    assert code == 0, err
    assert err.count("error[PATH-UNSAFE]") == 3 and "LEAKED" not in out
    assert not (tmp_path / "x.asl").exists()


def test_a_git_file_pointing_elsewhere_is_refused(checkout, tmp_path, capsys, monkeypatch):
    root, _ = checkout
    borrower = tmp_path / "borrower"
    borrower.mkdir()
    (borrower / ".git").write_text(f"gitdir: {root / '.git'}\n", "utf-8")
    monkeypatch.chdir(borrower)
    code, out, err = run_diff(capsys, "v1", "HEAD")
    assert code == 2 and "error[GIT-REFUSED]" in err and out == ""


def test_an_object_store_borrowing_from_elsewhere_is_refused(checkout, tmp_path, capsys, monkeypatch):
    root, _ = checkout
    (root / ".git/objects/info").mkdir(parents=True, exist_ok=True)
    (root / ".git/objects/info/alternates").write_text(str(tmp_path / "elsewhere") + "\n", "utf-8")
    monkeypatch.chdir(root)
    code, _out, err = run_diff(capsys, "v1", "HEAD")
    assert code == 2 and "alternates" in err


def test_nothing_is_run(checkout, capsys, monkeypatch):
    """A repository configuring a filter and a hook: neither runs (no git command is started at all)."""
    root, _ = checkout
    marker = root.parent / "ran"
    (root / ".git/config").write_text(f'[filter "x"]\n\tsmudge = touch {marker}\n[core]\n\tfsmonitor = touch {marker}\n',
                                      "utf-8")
    (root / ".git/info").mkdir(exist_ok=True)
    (root / ".git/info/attributes").write_text("* filter=x\n", "utf-8")
    hooks = root / ".git/hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "post-checkout").write_text(f"#!/bin/sh\ntouch {marker}\n", "utf-8")
    os.chmod(hooks / "post-checkout", 0o755)
    import subprocess
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a) or pytest.fail("a process started"))
    monkeypatch.chdir(root)
    assert run_diff(capsys, "v1", "HEAD")[0] == 0
    assert not marker.exists() and started == []


@pytest.mark.parametrize("broken", ["missing blob", "blob as a tree"])
def test_a_broken_object_is_one_line_and_exit_2(checkout, capsys, monkeypatch, broken):
    root, shas = checkout
    from dulwich.objects import Blob
    from dulwich.repo import Repo
    repo = Repo(str(root))
    blob = Blob.from_string(b"not a tree")
    repo.object_store.add_object(blob)
    base = repo[repo[shas[1]].tree]
    if broken == "missing blob":
        base.add(b"specification.toml", 0o100644, b"1" * 40)
    else:
        base.add(b"asl", 0o040000, blob.id)
    repo.object_store.add_object(base)
    from tests.history.gitrepo import branch_of_tree
    branch_of_tree(repo, base.id, shas[1], "broken")
    monkeypatch.chdir(root)
    code, out, err = run_diff(capsys, "HEAD", "broken")
    assert code == 2 and out == "" and err.count("\n") == 1 and "error[GIT-OBJECT]" in err, err
