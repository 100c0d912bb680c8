"""Every process memo has an owner (store/memo.py): named, listed, bounded where asked, forgettable; and no module
of pto_docs keeps a bare module-level dict or set as a cache."""

from __future__ import annotations

import ast
from pathlib import Path

from pto_docs.store.memo import Memo, forget_all, memos

PACKAGE = Path(__file__).resolve().parents[2] / "pto_docs"


def test_a_memo_is_listed_bounded_and_forgotten():
    memo = Memo("tests.store", "squares", limit=2)
    for n in range(4):
        memo[n] = n * n
    assert dict(memo) == {2: 4, 3: 9}  # the oldest entries went first
    assert memo in memos() and memo.owner == "tests.store"
    forget_all()
    assert len(memo) == 0


def _bare_caches(path: Path, base: Path = PACKAGE.parent) -> list[str]:
    found = []
    for node in ast.parse(path.read_text("utf-8")).body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        value = getattr(node, "value", None)
        empty = (isinstance(value, ast.Dict) and not value.keys) or (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("dict", "set")
            and not value.args and not value.keywords)
        if isinstance(target, ast.Name) and target.id.startswith("_") and empty:  # (public names are tables)
            found.append(f"{path.relative_to(base)}:{node.lineno} {target.id}")
    return found


def test_no_module_keeps_a_bare_dict_or_set_as_a_cache():
    assert [hit for path in sorted(PACKAGE.rglob("*.py")) for hit in _bare_caches(path)] == []


def test_the_scan_sees_a_bare_cache(tmp_path):
    (tmp_path / "x.py").write_text("_CACHE: dict[str, int] = {}\n_SEEN = set()\nCONSTANT = {'a': 1}\nTABLE: dict = {}\n"
                                   "_MEMO = Memo('m', 'what')\ndef f():\n    local = {}\n")
    assert _bare_caches(tmp_path / "x.py", tmp_path) == ["x.py:1 _CACHE", "x.py:2 _SEEN"]


def test_of_keeps_a_value_for_that_very_object_and_makes_it_again_for_another():
    from pto_docs.store.memo import Memo

    class Owner:
        pass

    memo, made = Memo(__name__, "test: an owner -> a count", limit=2), []

    def make(tag):
        made.append(tag)
        return len(made)

    first = Owner()
    assert memo.of(first, lambda: make("a")) == 1 and memo.of(first, lambda: make("b")) == 1
    assert memo.of(first, lambda: make("c"), "other") == 2  # (other key parts: another entry)
    memo[(id(first),)] = (Owner(), 99)  # an entry left by another object that had the same id
    assert memo.of(first, lambda: make("d")) == 3 and made == ["a", "c", "d"]
