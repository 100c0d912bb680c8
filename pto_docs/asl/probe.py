"""Watch the instructions a running ASL program executes: the architectural state before and after each.

A ``Probe`` wraps the program's instruction entry points (``ExecuteScalarInstruction``,
``ExecuteCommandInstruction``, ``ExecuteBundleTileOperation``, ``InstructionContractExecute_<M>`` and the
other ``Execute*`` subprograms a test may call directly). Each *outermost* call of one of them is a
``Step``: its arguments, its result (or the exception that ended it), the state that differs from the
baseline just before the call, and the state the call changed.

State is the program's global variables, compared leaf by leaf (a record field, an array element, a
scalar) against a baseline snapshot; only the storage paths the program wrote since its last reset are
visited, so a step costs what the test touched, not the size of memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .values import BV, copy_value, format_value

ENTRY_PREFIXES = ("Execute", "InstructionContractExecute_")
MAX_LEAVES = 512  # per snapshot: a step that touched more is recorded as truncated
WIDE_BITS = 128  # a wider bitvector is shown by its set bits


def short_text(value) -> str:
    """``format_value``, except that a bitvector wider than WIDE_BITS is shown as its set-bit ranges."""
    if type(value) is BV and value.width > WIDE_BITS:
        ranges, v, bit = [], value.val, 0
        while v and len(ranges) <= 8:
            low = (v & -v).bit_length() - 1
            v >>= low
            bit += low
            run = (~v & (v + 1)).bit_length() - 1
            ranges.append(f"{bit}" if run == 1 else f"{bit}..{bit + run - 1}")
            v >>= run
            bit += run
        if not ranges:
            return f"bits({value.width}) all 0"
        more = ", ..." if v else ""
        return f"bits({value.width}) set {', '.join(ranges[:8])}{more}"
    if type(value) is tuple:
        return "(" + ", ".join(short_text(x) for x in value) + ")"
    return format_value(value)


@dataclass(frozen=True)
class Leaf:
    path: tuple  # (global name, key, key, ...): record fields are str, array indices int
    value: object

    @property
    def name(self) -> str:
        out = [self.path[0]]
        for key in self.path[1:]:
            out.append(f"[{key}]" if type(key) is int else f".{key}")
        return "".join(out)

    def text(self) -> str:
        return short_text(self.value)


@dataclass
class Step:
    function: str
    arguments: list
    result: object = None
    exception: str = ""
    before: list[Leaf] = field(default_factory=list)  # state differing from the baseline before the call
    changed: list[tuple[Leaf, Leaf]] = field(default_factory=list)  # (before, after) for every changed leaf
    truncated: bool = False
    # the hooks of the ieee profile that could not compute this call in IEEE 754 and ran the ASL's pto-v0
    # function instead (ieee_hooks.py program.profile_fallbacks), sorted
    fallbacks: list[str] = field(default_factory=list)


def _at(value, keys):
    for key in keys:
        value = value[key]
    return value


_CHUNK = 64  # array elements compared at once (in C) before any is visited one by one


def _leaves(path, now, base, out, limit):
    """Append a Leaf for every scalar under ``now`` that differs from ``base``.

    Equal parts are skipped whole: ``==`` on lists and dicts compares in C, taking identical elements as equal
    (as the per-leaf test does, every value being equal to itself), so a 32,768-element tile payload with one
    changed element costs one pass in C and one 64-element chunk in Python."""
    if len(out) > limit:
        return
    t = type(now)
    if t is dict and type(base) is dict:
        if now == base:
            return
        for key, value in now.items():
            other = base.get(key)
            if value is not other:
                _leaves(path + (key,), value, other, out, limit)
    elif t is list and type(base) is list and len(base) == len(now):
        if now == base:
            return
        n = len(now)
        for start in range(0, n, _CHUNK):
            end = min(n, start + _CHUNK)
            if now[start:end] == base[start:end]:
                continue
            for i in range(start, end):
                value = now[i]
                other = base[i]
                if value is other:
                    continue
                if type(value) in (dict, list) or value != other:
                    _leaves(path + (i,), value, other, out, limit)
    elif now != base:
        out.append(Leaf(path, now))


class Probe:
    def __init__(self, program, entries=None, extra=()):
        self.program = program
        self.by_index = {j: name for name, j in program.global_index.items()}
        self.baseline = [copy_value(v) for v in program.G]
        self.steps: list[Step] = []
        self.depth = 0
        self.enabled = True
        self.limit = 32  # steps recorded per clear(); later calls run unwatched
        chosen = entries if entries is not None else [
            n for n in program.functions if n.startswith(ENTRY_PREFIXES)]
        chosen = list(dict.fromkeys([*chosen, *(n for n in extra if n in program.functions)]))
        for name in chosen:
            for fn in program.functions.get(name, ()):
                self._wrap(name, fn.pyname)

    def rebase(self) -> None:
        """Make the program's current state the baseline (e.g. after ResetProfileState)."""
        self.baseline = [copy_value(v) for v in self.program.G]

    def clear(self) -> None:
        self.steps = []
        self.depth = 0

    def _wrap(self, name, pyname):
        ns = self.program.ns
        fn = next(f for f in self.program.functions[name] if f.pyname == pyname)
        current = ns[pyname]
        inner = [current]
        if getattr(current, "__name__", "") == "stub":  # not compiled yet: compile on the first call
            def compile_then_run(*args):
                inner[0] = self.program.compile_python(fn)
                return inner[0](*args)
            inner[0] = compile_then_run
        probe = self

        def watched(*args):
            if probe.depth or not probe.enabled or len(probe.steps) >= probe.limit:
                probe.depth += 1
                try:
                    return inner[0](*args)
                finally:
                    probe.depth -= 1
            return probe._step(name, inner[0], args)

        ns[pyname] = watched

    def _step(self, name, run, args):
        step = Step(name, list(args))
        step.before, truncated = self.snapshot()
        dirty = self.program.dirty
        saved = set(dirty)
        dirty.clear()
        fallbacks = getattr(self.program, "profile_fallbacks", None)
        earlier = set(fallbacks) if fallbacks is not None else set()
        if fallbacks is not None:
            fallbacks.clear()
        self.depth = 1
        try:
            step.result = run(*args)
            return step.result
        except Exception as exc:  # recorded, then re-raised: the test decides what a throw means
            step.exception = f"{type(exc).__name__}: {exc}"
            raise
        finally:
            if fallbacks is not None:
                step.fallbacks = sorted(fallbacks)
                fallbacks |= earlier
            self.depth = 0
            written = set(dirty)
            dirty |= saved
            step.changed, more = self._changes(written, step.before)
            step.truncated = truncated or more
            self.steps.append(step)

    def _changes(self, written, before):
        """(before, after) leaves for every leaf under a ``written`` path whose value the call changed."""
        before_map = {leaf.path: leaf for leaf in before}
        after, more = self._diff(written, self.baseline)
        after_paths = set()
        changes = []
        for leaf in after:
            after_paths.add(leaf.path)
            prev = before_map.get(leaf.path) or self._base_leaf(leaf.path)
            if prev.value != leaf.value:
                changes.append((prev, leaf))
        index = self.program.global_index
        for path, prev in before_map.items():
            if path in after_paths:
                continue
            ipath = (index[path[0]], *path[1:])
            if any(ipath[:k] in written for k in range(1, len(ipath) + 1)):
                try:
                    now = _at(self.program.G[ipath[0]], ipath[1:])
                except (KeyError, IndexError, TypeError):
                    continue
                if now != prev.value:
                    changes.append((prev, Leaf(path, now)))
        changes.sort(key=lambda pair: _order(pair[1].path))
        return changes, more

    def changes_since(self, before: list[Leaf]) -> tuple[list[tuple[Leaf, Leaf]], bool]:
        """(before, after) leaves for every leaf that differs from ``before`` (a ``snapshot()`` taken earlier, e.g.
        before the first instruction of a bundle): the changes of everything run since, however many steps."""
        return self._changes(set(self.program.dirty), before)

    # -- snapshots -----------------------------------------------------------------------------
    def snapshot(self) -> tuple[list[Leaf], bool]:
        """Every leaf that differs from the baseline, visiting only paths written since the last reset."""
        return self._diff(set(self.program.dirty), self.baseline)

    def _base_leaf(self, path) -> Leaf:
        try:
            return Leaf(path, _at(self.baseline[self.program.global_index[path[0]]], path[1:]))
        except (KeyError, IndexError, TypeError):
            return Leaf(path, None)

    def _diff(self, paths, base) -> tuple[list[Leaf], bool]:
        """Every leaf under ``paths`` (global index, key, ...) that differs from ``base``, in path order; at most
        MAX_LEAVES of them, and whether there were more.

        The paths are walked as a tree, one global at a time, without the sorting and prefix tests of a walk
        path by path. A global with more written paths than a copy of it costs (``Program.copy_costs``, what a
        reset goes by) is first compared whole, in C, and passed over when equal: a test's reset rewrites some
        13,000 paths, most of them in a few globals, with the values they already had. When there are more than
        MAX_LEAVES leaves, which ones are kept depends on the order of the walk: the path-by-path walk below
        decides, as it always has."""
        G, out, whole = self.program.G, [], self.program.copy_costs
        by_global: dict[int, list[tuple]] = {}
        for path in paths:
            by_global.setdefault(path[0], []).append(path[1:])
        for j, keys in by_global.items():
            name = self.by_index.get(j)
            if name is None or j >= len(base):
                continue
            now, then = G[j], base[j]
            if now is then:
                continue
            # compared whole (in C) when that costs less than visiting its written paths, as a reset decides
            if j < len(whole) and len(keys) >= whole[j] and now == then:
                continue
            _walk_tree(_written_tree(keys), (name,), now, then, out)
            if len(out) > MAX_LEAVES:
                return self._diff_by_path(paths, base)
        out.sort(key=lambda leaf: _order(leaf.path))
        return out, False

    def _diff_by_path(self, paths, base) -> tuple[list[Leaf], bool]:
        G, out = self.program.G, []
        done: set[tuple] = set()
        for path in sorted(paths, key=len):
            if any(path[:k] in done for k in range(1, len(path))):
                continue
            done.add(path)
            j = path[0]
            name = self.by_index.get(j)
            if name is None or j >= len(base):
                continue
            try:
                now = _at(G[j], path[1:])
                then = _at(base[j], path[1:])
            except (KeyError, IndexError, TypeError):
                continue
            _leaves((name, *path[1:]), now, then, out, MAX_LEAVES)
        out.sort(key=lambda leaf: _order(leaf.path))
        return out[:MAX_LEAVES], len(out) > MAX_LEAVES


_WHOLE = object()  # the tree node of a written path: everything under it is compared


def _written_tree(keys: list[tuple]):
    """The key paths (below one global) as a tree of dicts, key -> subtree, with ``_WHOLE`` where a path was
    written (a path under a written one adds nothing); ``_WHOLE`` itself when the whole global was written."""
    tree: dict = {}
    for key_path in keys:
        if not key_path:
            return _WHOLE
        node = tree
        for key in key_path[:-1]:
            node = node.setdefault(key, {})
            if node is _WHOLE:
                break
        else:
            node[key_path[-1]] = _WHOLE
    return tree


def _walk_tree(tree: dict, path: tuple, now, then, out: list) -> None:
    """The leaves of ``now`` against ``then`` under the written paths of ``tree`` (``_written_tree``)."""
    if tree is _WHOLE:
        _leaves(path, now, then, out, MAX_LEAVES)
        return
    for key, sub in tree.items():
        try:
            a, b = now[key], then[key]
        except (KeyError, IndexError, TypeError):
            continue
        if a is b:
            continue
        _walk_tree(sub, path + (key,), a, b, out)
        if len(out) > MAX_LEAVES:
            return


def _order(path):
    return tuple((0, k, "") if type(k) is int else (1, 0, str(k)) for k in path)


def _runs(items):
    """Group (path, *values) items: consecutive elements of one array become one item named ``x[a..b]`` whose
    values are the elements' texts, space-separated (``–`` for an element without a value)."""
    out, run = [], []

    def flush():
        if len(run) == 1:
            out.append((_name(run[0][0]), *run[0][1:]))
        elif run:
            parent, first, last = run[0][0][:-1], run[0][0][-1], run[-1][0][-1]
            columns = zip(*(item[1:] for item in run))
            out.append((f"{_name(parent)}[{first}..{last}]",
                        *(" ".join("–" if v is None else v for v in column) for column in columns)))
        run.clear()

    for item in items:
        path = item[0]
        if run and type(path[-1]) is int and path[:-1] == run[-1][0][:-1] and type(run[-1][0][-1]) is int \
                and path[-1] == run[-1][0][-1] + 1:
            run.append(item)
            continue
        flush()
        run.append(item)
    flush()
    return out


def _name(path) -> str:
    return Leaf(path, None).name


def after_json(leaves: list[Leaf], changed: set) -> list[list]:
    """The state ``leaves`` (a snapshot) as ``[name, value, changed]`` items, ``changed`` true where the leaf's path
    is in ``changed``; runs of array elements grouped by ``_runs`` only among leaves of the same mark."""
    out, run, mark = [], [], None

    def flush():
        out.extend([*item, mark] for item in _runs(run))
        run.clear()

    for leaf in leaves:
        now = leaf.path in changed
        if now is not mark:
            flush()
            mark = now
        run.append((leaf.path, leaf.text()))
    flush()
    return out


def step_json(step: Step) -> dict:
    """A JSON view of one step (values as ASLRef prints them; runs of array elements grouped by ``_runs``)."""
    before = _runs([(leaf.path, leaf.text()) for leaf in step.before])
    changed = _runs([(a.path, None if b.value is None else b.text(), a.text()) for b, a in step.changed])
    return {
        "function": step.function,
        "arguments": [short_text(a) for a in step.arguments],
        "result": None if step.result is None else short_text(step.result),
        "exception": step.exception,
        "before": [list(item) for item in before],
        "changed": [list(item) for item in changed],
        "truncated": step.truncated,
        **({"profile_fallbacks": list(step.fallbacks)} if step.fallbacks else {}),
    }


