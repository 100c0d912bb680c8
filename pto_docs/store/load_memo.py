"""What one file alone yields, remembered between loads of the same tree (``mkdocs serve`` after a save).

A load of a 5,000-file tree re-parses every file although a save changes one. A :class:`LoadMemo` keeps,
for each file, the result of every per-file step (its parsed record object and the diagnostics that file
alone produces), keyed by the step, the file's path and the sha256 of its bytes: the key names everything the
step reads, so a hit is exactly what re-running the step would give. Steps that look across files (duplicate
ids, cross references, indexes) are never memoised and always re-run on the whole tree.

Each load is one *generation*: :meth:`LoadMemo.finish` keeps only the entries that load used, so removed or
edited files do not accumulate. A memo belongs to one process; nothing is written to disk.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any


class LoadMemo:
    def __init__(self) -> None:
        self._old: dict[Hashable, Any] = {}
        self._new: dict[Hashable, Any] = {}
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The remembered value of ``key``, else ``compute()`` (remembered for the next generation)."""
        if key in self._new:
            self.hits += 1
            return self._new[key]
        if key in self._old:
            self.hits += 1
            value = self._old[key]
        else:
            self.misses += 1
            value = compute()
        self._new[key] = value
        return value

    def per_file(self, step: str, file, parse: Callable[[Any, list], Any]) -> tuple[Any, tuple]:
        """``parse(file, diags)`` of one source file: (its value, the diagnostics it appended)."""
        def compute() -> tuple[Any, tuple]:
            diags: list = []
            value = parse(file, diags)
            return value, tuple(diags)
        return self.get((step, file.path, file.sha256), compute)

    def finish(self) -> None:
        """End a generation: keep what this load used, forget the rest."""
        self._old, self._new = self._new, {}

    def __len__(self) -> int:
        return len(self._old) + len(self._new)


class NoMemo:
    """The same interface, remembering nothing: a one-off load (``pto-docs validate``, ``pto-docs build``)."""

    @staticmethod
    def get(key: Hashable, compute: Callable[[], Any]) -> Any:
        return compute()

    @staticmethod
    def per_file(step: str, file, parse: Callable[[Any, list], Any]) -> tuple[Any, tuple]:
        diags: list = []
        value = parse(file, diags)
        return value, tuple(diags)

    @staticmethod
    def finish() -> None:
        pass
