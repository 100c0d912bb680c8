"""Process memos with an owner: every cache pto-docs keeps in memory between calls is a :class:`Memo`, made here
with the module that owns it, what it holds and, where it could grow without end, how many entries it keeps.

A memo is a dict (the owner reads and writes it as one); :func:`memos` lists them all (what a long ``mkdocs
serve`` holds), :func:`forget_all` empties them (a test that must start cold, a process that wants its memory
back). On-disk caches are sealed folders (seal.py) under the user's cache directory (paths.py)."""

from __future__ import annotations

from typing import Any

__all__ = ["Memo", "forget_all", "memos"]

_ALL: list[Memo] = []  # every memo made in this process (the registry itself is the one memo without a Memo)


class Memo(dict):
    """A named process memo. ``limit``: at most this many entries, the oldest inserted dropped first (entries
    set through ``memo[key] = value``)."""

    def __init__(self, owner: str, holds: str, limit: int | None = None) -> None:
        super().__init__()
        self.owner, self.holds, self.limit = owner, holds, limit
        _ALL.append(self)

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        if self.limit is not None:
            while len(self) > self.limit:
                del self[next(iter(self))]

    def of(self, owner: object, make, *more: Any) -> Any:
        """What ``make()`` gives for this very ``owner`` object (and ``more`` key parts): kept under ``id(owner)``
        with the owner itself, so an id reused by a later object is never taken for it."""
        key = (id(owner), *more)
        held = self.get(key)
        if held is not None and held[0] is owner:
            return held[1]
        result = make()
        self[key] = (owner, result)
        return result

    def __repr__(self) -> str:
        return f"Memo({self.owner!r}, {self.holds!r}, {len(self)} entries)"

    __hash__ = object.__hash__  # (a memo is one object: usable as a key, never equal to another by content)

    def __eq__(self, other: object) -> bool:
        return self is other


def memos() -> list[Memo]:
    return list(_ALL)


def forget_all() -> None:
    for memo in _ALL:
        memo.clear()
