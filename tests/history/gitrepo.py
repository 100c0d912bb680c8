"""Build a git repository with dulwich (no git command): commits of given files, branches and tags."""

from __future__ import annotations

import os
import time
from pathlib import Path

from dulwich.objects import Blob, Commit, Tag, Tree
from dulwich.repo import Repo

FILE, LINK = 0o100644, 0o120000


def files_of(root: Path) -> dict[str, tuple[int, bytes]]:
    """path -> (mode, bytes) of every file under ``root``."""
    out = {}
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            full = Path(dirpath) / name
            out[full.relative_to(root).as_posix()] = (FILE, full.read_bytes())
    return out


def _tree(repo: Repo, files: dict[str, tuple[int, bytes]]) -> bytes:
    here: dict[bytes, tuple[int, bytes]] = {}
    below: dict[str, dict] = {}
    for path, (mode, data) in files.items():
        head, sep, rest = path.partition("/")
        if sep:
            below.setdefault(head, {})[rest] = (mode, data)
        else:
            blob = Blob.from_string(data)
            repo.object_store.add_object(blob)
            here[head.encode()] = (mode, blob.id)
    for name, sub in below.items():
        here[name.encode()] = (0o040000, _tree(repo, sub))
    tree = Tree()
    for name, (mode, sha) in here.items():
        tree.add(name, mode, sha)
    repo.object_store.add_object(tree)
    return tree.id


def commit(repo: Repo, files: dict[str, tuple[int, bytes]], message: str, parents=()) -> bytes:
    c = Commit()
    c.tree = _tree(repo, files)
    c.parents = list(parents)
    c.author = c.committer = b"Test <test@example.com>"
    c.author_time = c.commit_time = int(time.time())
    c.author_timezone = c.commit_timezone = 0
    c.encoding = b"UTF-8"
    c.message = message.encode()
    repo.object_store.add_object(c)
    return c.id


def annotated_tag(repo: Repo, name: str, target: bytes) -> None:
    tag = Tag()
    tag.tagger = b"Test <test@example.com>"
    tag.message = b"release\n"
    tag.name = name.encode()
    tag.object = (Commit, target)
    tag.tag_time = int(time.time())
    tag.tag_timezone = 0
    repo.object_store.add_object(tag)
    repo.refs[f"refs/tags/{name}".encode()] = tag.id


def new_repo(path: Path, history: list[dict[str, tuple[int, bytes]]]) -> tuple[Repo, list[bytes]]:
    """A repository at ``path`` whose main branch holds one commit per entry of ``history``; HEAD at the last."""
    path.mkdir(parents=True, exist_ok=True)
    repo = Repo.init(str(path))
    shas: list[bytes] = []
    for i, files in enumerate(history):
        shas.append(commit(repo, files, f"commit {i}\n", shas[-1:]))
    repo.refs[b"refs/heads/main"] = shas[-1]
    repo.refs.set_symbolic_ref(b"HEAD", b"refs/heads/main")
    return repo, shas


def branch_of_tree(repo: Repo, tree: bytes, parent: bytes, branch: str) -> bytes:
    """A commit of a tree object made by hand (names or objects no checkout could hold), on ``branch``."""
    c = Commit()
    c.tree, c.parents = tree, [parent]
    c.author = c.committer = b"T <t@example.com>"
    c.author_time = c.commit_time = c.author_timezone = c.commit_timezone = 0
    c.message = f"{branch}\n".encode()
    repo.object_store.add_object(c)
    repo.refs[f"refs/heads/{branch}".encode()] = c.id
    return c.id
