"""Every test can fail: an ast scan of each test function pytest collects under tests/ (``def test*`` in a
``test_*.py`` file, at module level or in a ``Test*`` class).

A test can fail when its body (nested functions included: a Hypothesis ``@given`` body is one) holds

- an ``assert`` that is not always true (a constant, a non-empty tuple, a value, not a call, compared with
  itself, an ``or`` with such a term),
- ``pytest.raises``, ``pytest.fail``, ``pytest.warns`` or ``raise AssertionError``, or
- a call of a helper named ``assert_*``, ``_assert*``, ``check*``, ``_check*`` or ``expect*`` (the prefix a word of
  its own: not ``checkout``) that is defined in tests/ and can fail itself (a helper may also get there through a
  function of its own file that can); a method, reached through an attribute, does not count.

An assertion inside a ``try`` whose handler catches AssertionError (or anything broader) and does not raise again
is swallowed and does not count; nor does a test whose body starts with an unconditional ``pytest.skip`` or that
carries ``@pytest.mark.skip``. What the scan cannot see (a subprocess whose result is ignored, a test whose action
never runs) is left to review; ``DELIBERATE`` lists the tests that pass the scan's reading of the rule only by an
explicit, reasoned exception."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
HELPER = re.compile(r"_?(assert|check|expect)(_|$)")  # assert_*, _assert*, check*, _check*, expect*, as words
PYTEST_CHECKS = {"raises", "fail", "warns"}
CATCHES_ASSERTIONS = {"AssertionError", "Exception", "BaseException"}

# "tests/<path>::<test>": why it cannot hold an assertion the scan sees, and what makes it fail all the same
DELIBERATE: dict[str, str] = {}


def _always_true(test: ast.expr) -> bool:
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if isinstance(test, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
        return bool(getattr(test, "elts", None) or getattr(test, "keys", None))
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.Is, ast.LtE,
                                                                                          ast.GtE)):
        same = ast.dump(test.left) == ast.dump(test.comparators[0])  # (f() == f() checks determinism: a call
        return same and not any(isinstance(n, ast.Call) for n in ast.walk(test.left))  # may answer differently)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return any(_always_true(value) for value in test.values)
    return False


def _swallowed(tree: ast.AST) -> set[int]:
    """ids of the assert nodes inside a try whose handler takes an AssertionError and does not raise again."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        for handler in node.handlers:
            names = {n.id for n in ast.walk(handler.type) if isinstance(n, ast.Name)} if handler.type else {"*"}
            if (names & CATCHES_ASSERTIONS or "*" in names) and not any(
                    isinstance(n, ast.Raise) for stmt in handler.body for n in ast.walk(stmt)):
                out |= {id(n) for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Assert)}
    return out


def _called_names(tree: ast.AST) -> set[str]:
    return {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def _has_a_check(tree: ast.AST) -> bool:
    """An assertion that is not always true (nor swallowed), pytest.raises/fail/warns, or raise AssertionError."""
    swallowed = _swallowed(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and not _always_true(node.test) and id(node) not in swallowed:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in PYTEST_CHECKS \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "pytest":
            return True
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name) and exc.id == "AssertionError":
                return True
    return False


class Suite:
    """The functions of every Python file under ``root``: module-level ones by (file, name) and by name."""

    def __init__(self, root: Path):
        self.root = root
        self.trees = {path: ast.parse(path.read_text("utf-8"), str(path)) for path in sorted(root.rglob("*.py"))}
        self.module_functions: dict[Path, dict[str, ast.FunctionDef]] = {}
        self.by_name: dict[str, list[tuple[Path, ast.FunctionDef]]] = {}
        for path, tree in self.trees.items():
            functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
            self.module_functions[path] = functions
            for name, node in functions.items():
                self.by_name.setdefault(name, []).append((path, node))

    def tests(self):
        """(path, node) of every test function pytest collects."""
        for path, tree in self.trees.items():
            if not path.name.startswith("test_"):
                continue
            for node in tree.body:
                members = node.body if isinstance(node, ast.ClassDef) and node.name.startswith("Test") else [node]
                for member in members:
                    if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)) and member.name.startswith("test"):
                        yield path, member

    def _resolve(self, name: str, path: Path, scope: ast.AST) -> list[tuple[Path, ast.AST]]:
        nested = [n for n in ast.walk(scope) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.name == name and n is not scope]
        if nested:
            return [(path, n) for n in nested]
        if name in self.module_functions[path]:
            return [(path, self.module_functions[path][name])]
        return self.by_name.get(name, [])

    def helper_can_fail(self, path: Path, node: ast.AST, seen: frozenset = frozenset()) -> bool:
        """A helper checks itself, or calls a prefixed helper or a function of its own file that does."""
        if _has_a_check(node):
            return True
        key = (path, id(node))
        if key in seen:
            return False
        for name in _called_names(node):
            for where, callee in self._resolve(name, path, node):
                if (HELPER.match(name) or where == path) \
                        and self.helper_can_fail(where, callee, seen | {key}):
                    return True
        return False

    def test_can_fail(self, path: Path, node: ast.AST) -> bool:
        if _has_a_check(node):
            return True
        return any(self.helper_can_fail(where, callee, frozenset({(path, id(node))}))
                   for name in _called_names(node) if HELPER.match(name)
                   for where, callee in self._resolve(name, path, node))


def _always_skipped(node: ast.FunctionDef) -> bool:
    for decorator in node.decorator_list:
        if ast.unparse(decorator) in ("pytest.mark.skip", "mark.skip") or (
                isinstance(decorator, ast.Call) and ast.unparse(decorator.func) in ("pytest.mark.skip", "mark.skip")):
            return True
        if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "pytest.mark.skipif" \
                and decorator.args and isinstance(decorator.args[0], ast.Constant) and decorator.args[0].value:
            return True
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    first = body[0] if body else None
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Call) \
        and ast.unparse(first.value.func) == "pytest.skip"


def findings(root: Path) -> dict[str, str]:
    """{"tests/<path>::<name>" or "tests/<path>:<line>": why} for every test that cannot fail, every helper named
    like a check that checks nothing, and every always-true assertion anywhere under ``root``."""
    suite = Suite(root)
    out = {}
    for path, node in suite.tests():
        where = f"{path.relative_to(root.parent).as_posix()}::{node.name}"
        if _always_skipped(node):
            out[where] = "always skipped"
        elif not suite.test_can_fail(path, node):
            out[where] = "no assertion, pytest.raises/fail/warns or failing check helper"
    for path, tree in suite.trees.items():
        shown = path.relative_to(root.parent).as_posix()
        methods = {id(m) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for m in c.body}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and HELPER.match(node.name) \
                    and id(node) not in methods and not suite.helper_can_fail(path, node):
                out[f"{shown}::{node.name}"] = "a helper named like a check that checks nothing"
            if isinstance(node, ast.Assert) and _always_true(node.test):
                out[f"{shown}:{node.lineno}"] = f"always true: assert {ast.unparse(node.test)}"
    return out


def test_every_test_can_fail():
    found = findings(TESTS)
    assert [f"{key}: {why}" for key, why in sorted(found.items()) if key not in DELIBERATE] == []
    assert sorted(set(DELIBERATE) - set(found)) == [], "DELIBERATE lists what the scan no longer flags"


SAMPLE = '''
import pytest
from helpers import check_remote, checkout


def _check_quiet(x):
    return x


def _check_loud(x):
    assert x


def _check_through_its_file(x):
    _inner(x)


def _inner(x):
    assert x == 1


def test_asserts():
    assert 1 + 1 == 2


def test_raises():
    with pytest.raises(ValueError):
        int("x")


def test_helper(): _check_loud(1)
def test_helper_through_its_file(): _check_through_its_file(1)
def test_helper_elsewhere(): check_remote(1)
def test_given_body():
    def check(x):
        _inner(x)
    check(1)


def test_nothing(): print("ran")
def test_quiet_helper(): _check_quiet(1)
def test_not_a_check(): checkout(1)
def test_constant(): assert "always"
def test_tuple(x=1): assert (x == 2, "message")
def test_self(x=1): assert x == x
def test_deterministic(): assert sorted([2, 1]) == sorted([2, 1])
def test_or_true(x=1): assert x == 2 or True


def test_swallowed():
    try:
        assert 1 == 2
    except AssertionError:
        pass


def test_skipped():
    """skipped whatever the machine"""
    pytest.skip("later")
    assert 1 == 2


@pytest.mark.skip(reason="later")
def test_marked_skip():
    assert 1 == 2


class TestGroup:
    def test_method_without_assert(self):
        print("ran")
'''


def test_the_scan_flags_each_kind_of_test_that_cannot_fail(tmp_path):
    root = tmp_path / "tests"
    root.mkdir()
    (root / "test_sample.py").write_text(SAMPLE, "utf-8")
    (root / "helpers.py").write_text("def check_remote(x):\n    assert x\n\n\ndef checkout(x):\n    return x\n", "utf-8")
    found = findings(root)
    flagged = {key.split("::")[1] for key in found if "::" in key}
    assert flagged == {"_check_quiet", "test_nothing", "test_quiet_helper", "test_not_a_check", "test_constant",
                       "test_tuple", "test_self", "test_or_true", "test_swallowed", "test_skipped",
                       "test_marked_skip", "test_method_without_assert"}, found
    assert sorted(found[key] for key in found if "::" not in key) == [
        "always true: assert 'always'", "always true: assert (x == 2, 'message')", "always true: assert x == 2 or True",
        "always true: assert x == x"]
