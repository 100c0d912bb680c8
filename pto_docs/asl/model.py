"""Assemble the PTO ASL model from unit texts: unit metadata, source order, generated decoders.

The source order is computed from each unit's ``// PTO-UNIT:`` or ``// PTO-INSTRUCTION:`` record
(its ``id`` and ``depends_on``): repeatedly emit, sorted by path, every unit whose dependencies are
all emitted; the synthetic node ``generated:decoders`` stands for the generated decoder text.
"""

from __future__ import annotations

import functools
import hashlib
import json
import pickle
import re
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .parser import parse
from .syntax import collections_paused

UNIT_PREFIXES = ("// PTO-UNIT: ", "// PTO-INSTRUCTION: ")
DECODER_NODE = "generated:decoders"
CACHE_FORMAT = "pto-docs-asl-model-4"  # 4: a BitField keeps its type (3: nodes of syntax.py, 2: plain tuples)
VALIDATION_FUNC = re.compile(r"^func (Validate[A-Za-z0-9_]+)\(\)\n.*?^end;\n", re.MULTILINE | re.DOTALL)


class ParsedCache(Protocol):
    """Where parsed declarations are kept, given by the caller (this package opens no cache of its own):
    ``load(entry)`` answers the bytes last saved under ``entry`` (a relative name such as
    ``units/<sha256>.pickle``) only when it can vouch that this program saved them (pto-docs passes its
    store's sealed folder: an HMAC with the user's key), else None; ``save(entry, data)`` keeps them (OSError
    when it cannot)."""

    def load(self, entry: str) -> bytes | None: ...

    def save(self, entry: str, data: bytes) -> None: ...


@dataclass(frozen=True)
class Unit:
    unit_id: str
    path: str
    depends_on: tuple[str, ...]
    text: str


def unit_record(text: str) -> dict | None:
    for line in text.splitlines():
        for prefix in UNIT_PREFIXES:
            if line.startswith(prefix):
                return json.loads(line[len(prefix):])
    return None


def units_from_sources(sources: Iterable[tuple[str, str]]) -> list[Unit]:
    """Units from (path, text) pairs, each identified by its ``// PTO-UNIT:`` / ``// PTO-INSTRUCTION:`` record.
    The caller reads the files (pto-docs hands over the texts of its one read of the tree)."""
    units = []
    for path, text in sorted(sources):
        record = unit_record(text) or {}
        units.append(Unit(record.get("id", path), path, tuple(record.get("depends_on", ())), text))
    return units


def source_order(units: list[Unit]) -> list[str]:
    """Unit ids (and DECODER_NODE) in dependency order, ties broken by path."""
    deps = {u.unit_id: set(u.depends_on) for u in units}
    deps.setdefault(DECODER_NODE, set())
    paths = {u.unit_id: u.path for u in units}
    remaining = set(deps)
    order: list[str] = []
    while remaining:
        ready = sorted((n for n in remaining if not deps[n] & remaining),
                       key=lambda n: (0, paths[n]) if n in paths else (1, n))
        if not ready:
            raise ValueError("ASL unit dependency cycle: " + ", ".join(sorted(remaining)))
        order.extend(ready)
        remaining.difference_update(ready)
    return order


def split_validation(text: str) -> dict[str, str]:
    return {m.group(1): m.group(0) for m in VALIDATION_FUNC.finditer(text)}


@dataclass
class Model:
    """The parsed model: declarations in source order, plus validation entry-point texts (parsed when a test
    point calls one: :meth:`validation_decls`)."""

    decls: list
    validation: dict[str, str]
    digest: str
    cache: ParsedCache | None = None  # where parsed validation entry points are kept (load_model's cache)

    def validation_decls(self, name: str) -> list | None:
        """The declarations of validation entry point ``name`` (None: the generated text has no such function).
        With a ``cache`` each is parsed once per text and parser, in an entry of its own: pto-spec 0.58.3's
        1,153 entry points are 36 MB of generated ASL, and reading them parsed takes a whole AVS run from
        46–48 s to 42.5 s (one worker). One entry each, named by the function's own text, so any run that calls
        it reads it, whichever points that run selects and in whatever order its workers take them."""
        text = self.validation.get(name)
        if text is None:
            return None
        entry = None
        if self.cache is not None:
            entry = f"validation/{_digest([(f'@validation@/{name}', text)])}.pickle"
            decls = _read_pickle(self.cache, entry)
            if decls is not None:
                return decls
        decls = parse(text, f"@validation@/{name}")
        if entry is not None:
            _write_pickle(self.cache, entry, decls)
        return decls


@functools.cache
def _parser_digest() -> bytes:
    """The parser's own source: a changed parser never reuses trees cached by an older one (read once per
    process: the code a process runs does not change under it)."""
    here = Path(__file__).parent
    h = hashlib.sha256()
    for name in ("keywords.py", "lexer.py", "parser.py", "parse_expr.py", "parse_stmt.py", "syntax.py", "values.py"):
        h.update((here / name).read_bytes())
    return h.digest()


def _digest(parts: list[tuple[str, str]]) -> str:
    h = hashlib.sha256(_parser_digest())
    for name, text in parts:
        h.update(name.encode() + b"\0" + text.encode() + b"\0")
    return h.hexdigest()


class GeneratedAslMissing(ValueError):
    """The model depends on ``generated:decoders`` and no generated decoder text was given."""


def load_model(units: list[Unit], generated: str | None, cache: ParsedCache | None = None,
               memo: MutableMapping | None = None) -> Model:
    """The parsed model: ``units`` in source order with ``generated`` (the decoder and validation ASL a spec's
    own generator writes, e.g. ``scripts/generate-asl-decoders --kind monolithic``) standing for
    ``generated:decoders``. With ``cache`` (see :class:`ParsedCache`) and ``memo``, each unit is parsed once per
    text and parser (see :func:`model_from_sources`)."""
    by_id = {u.unit_id: u for u in units}
    if generated is None and any(DECODER_NODE in u.depends_on for u in units):
        raise GeneratedAslMissing(f"the model depends on {DECODER_NODE}: give the generated decoder ASL")
    validation = split_validation(generated or "")
    decoder = VALIDATION_FUNC.sub("", generated or "")
    order = source_order(units)
    parts = [("@decoder@", decoder) if n == DECODER_NODE else (by_id[n].path, by_id[n].text) for n in order]
    return model_from_sources(parts, validation, cache, memo)


def _usable(cache) -> ParsedCache | None:
    """``cache`` when it is a :class:`ParsedCache`; anything else (a bare folder path) caches nothing: this
    package never reads a pickle nobody vouched for."""
    return cache if callable(getattr(cache, "load", None)) and callable(getattr(cache, "save", None)) else None


def _read_pickle(cache: ParsedCache, entry: str):
    """The cached object, or None. ``cache.load`` answers only bytes it authenticated; only those are unpickled."""
    payload = cache.load(entry)
    if payload is None:
        return None
    try:
        with collections_paused():
            fmt, value = pickle.loads(payload)
    except Exception:  # noqa: BLE001 - authentic but of another parser or Python: parsed again and replaced
        return None
    return value if fmt == CACHE_FORMAT else None


def _write_pickle(cache: ParsedCache, entry: str, payload) -> None:
    """Best effort: a cache that cannot be written (read-only, full disk) only costs time."""
    try:
        cache.save(entry, pickle.dumps((CACHE_FORMAT, payload), protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        pass


def model_from_sources(parts: list[tuple[str, str]], validation: dict[str, str],
                       cache: ParsedCache | None = None, memo: MutableMapping | None = None) -> Model:
    """Parse ``parts`` (path, text), each part once per text and parser: its declarations are kept under the
    sha256 of (parser, path, text) in ``memo`` (a mapping the caller keeps for the life of its process: pto-docs
    gives a store.memo.Memo) and in ``cache`` (an entry ``units/<sha256>.pickle`` each). A save of one unit
    while serving then parses that unit only (pto-spec 0.58.3: 840 units, 0.45 s to parse them all, 0.33 s more
    to pickle them), and any process finds the units it did not change parsed on disk."""
    cache = _usable(cache)
    digest = _digest(parts + sorted(validation.items()))
    decls: list = []
    for path, text in parts:
        decls.extend(_part_decls(path, text, cache, memo))
    return Model(decls, validation, digest, cache)


def _part_decls(path: str, text: str, cache: ParsedCache | None, memo: MutableMapping | None) -> list:
    """The declarations of one part: from ``memo``, else from ``cache``, else parsed (and kept in both)."""
    key = _digest([(path, text)])
    if memo is not None:
        found = memo.pop(key, None)
        if found is not None:
            memo[key] = found  # (again the newest: a memo with a limit drops the parts no model uses first)
            return found
    entry = f"units/{key}.pickle"
    found = _read_pickle(cache, entry) if cache is not None else None
    if found is None:
        found = parse(text, path)
        if cache is not None:
            _write_pickle(cache, entry, found)
    if memo is not None:
        memo[key] = found
    return found
