"""Assemble the PTO ASL model from a spec tree: unit metadata, source order, generated decoders.

The source order is computed from each unit's ``// PTO-UNIT:`` or ``// PTO-INSTRUCTION:`` record
(its ``id`` and ``depends_on``): repeatedly emit, sorted by path, every unit whose dependencies are
all emitted; the synthetic node ``generated:decoders`` stands for the generated decoder text.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .parser import parse

UNIT_PREFIXES = ("// PTO-UNIT: ", "// PTO-INSTRUCTION: ")
DECODER_NODE = "generated:decoders"
CACHE_FORMAT = "pto-docs-asl-model-2"
VALIDATION_FUNC = re.compile(r"^func (Validate[A-Za-z0-9_]+)\(\)\n.*?^end;\n", re.MULTILINE | re.DOTALL)


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


def load_units(spec_root: Path) -> list[Unit]:
    units = []
    for path in sorted((spec_root / "asl").rglob("*.asl")):
        text = path.read_text(encoding="utf-8")
        record = unit_record(text) or {}
        rel = path.relative_to(spec_root).as_posix()
        units.append(Unit(record.get("id", rel), rel, tuple(record.get("depends_on", ())), text))
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


def generated_asl(spec_root: Path, kind: str) -> str:
    """Decoder or validation ASL from the spec tree's own generator (see README: a known gap)."""
    script = spec_root / "scripts" / "generate-asl-decoders"
    done = subprocess.run([sys.executable, str(script), "--kind", kind], cwd=spec_root,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"decoder generation failed: {done.stderr.strip()}")
    return done.stdout


SKIPPED_DIRS = {".git", "build", ".pto-docs-cache", "__pycache__"}


def tree_digest(spec_root: Path) -> str:
    """sha256 over every file of the spec tree (paths and bytes) that the decoder generator could read."""
    h = hashlib.sha256()
    for path in sorted(spec_root.rglob("*")):
        rel = path.relative_to(spec_root)
        if rel.parts and rel.parts[0] in SKIPPED_DIRS or not path.is_file():
            continue
        h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def cached_generated_asl(spec_root: Path, cache_dir: Path | None) -> str:
    """The generator's monolithic output, reused while no file of the spec tree changed."""
    if cache_dir is None:
        return generated_asl(spec_root, "monolithic")
    cache_file = Path(cache_dir) / f"asl-generated-{tree_digest(spec_root)}.asl"
    try:
        return cache_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        pass
    text = generated_asl(spec_root, "monolithic")
    tmp = cache_file.with_suffix(f".{os.getpid()}.tmp")
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(cache_file)
    except OSError:
        _discard(tmp)
    return text


def split_validation(text: str) -> dict[str, str]:
    return {m.group(1): m.group(0) for m in VALIDATION_FUNC.finditer(text)}


@dataclass
class Model:
    """The parsed model: declarations in source order, plus validation entry-point texts."""

    decls: list
    validation: dict[str, str]
    digest: str


def _parser_digest() -> bytes:
    """The parser's own source: a changed parser never reuses trees cached by an older one."""
    here = Path(__file__).parent
    h = hashlib.sha256()
    for name in ("lexer.py", "parser.py", "parse_expr.py", "parse_stmt.py", "values.py"):
        h.update((here / name).read_bytes())
    return h.digest()


def _digest(parts: list[tuple[str, str]]) -> str:
    h = hashlib.sha256(_parser_digest())
    for name, text in parts:
        h.update(name.encode() + b"\0" + text.encode() + b"\0")
    return h.hexdigest()


def load_model(spec_root: Path, cache_dir: Path | None = None) -> Model:
    """The parsed model of a spec tree; with ``cache_dir``, parsed once per tree content and parser."""
    spec_root = Path(spec_root)
    key = None
    if cache_dir is not None:
        key = hashlib.sha256(_parser_digest() + tree_digest(spec_root).encode()).hexdigest()
        cached = _read_pickle(Path(cache_dir) / f"asl-tree-{key}.pickle")
        if cached is not None:
            decls, validation, digest = cached
            return Model(decls, validation, digest)
    units = load_units(spec_root)
    by_id = {u.unit_id: u for u in units}
    monolithic = cached_generated_asl(spec_root, cache_dir)
    validation = split_validation(monolithic)
    decoder = VALIDATION_FUNC.sub("", monolithic)
    order = source_order(units)
    parts = [("@decoder@", decoder) if n == DECODER_NODE else (by_id[n].path, by_id[n].text) for n in order]
    model = model_from_sources(parts, validation, cache_dir)
    if key is not None:
        _write_pickle(Path(cache_dir) / f"asl-tree-{key}.pickle", (model.decls, model.validation, model.digest))
    return model


def _read_pickle(path: Path):
    """The cached object, or None; a damaged or foreign cache file is removed (never fatal)."""
    if not path.exists():
        return None
    try:
        with path.open("rb") as handle:
            fmt, payload = pickle.load(handle)
        if fmt == CACHE_FORMAT:
            return payload
    except Exception:  # noqa: BLE001 - a damaged cache is discarded and rebuilt
        pass
    _discard(path)
    return None


def _discard(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def _write_pickle(path: Path, payload) -> None:
    """Best effort: a cache that cannot be written (read-only tree, full disk) only costs time."""
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("wb") as handle:
            pickle.dump((CACHE_FORMAT, payload), handle, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(path)
    except OSError:
        _discard(tmp)


def model_from_sources(parts: list[tuple[str, str]], validation: dict[str, str],
                       cache_dir: Path | None = None) -> Model:
    """Parse ``parts`` (path, text) once; reuse a pickle keyed by their sha256 when present."""
    digest = _digest(parts + sorted(validation.items()))
    cache_file = Path(cache_dir) / f"asl-model-{digest}.pickle" if cache_dir else None
    if cache_file is not None:
        decls = _read_pickle(cache_file)
        if decls is not None:
            return Model(decls, validation, digest)
    decls = []
    for path, text in parts:
        decls.extend(parse(text, path))
    if cache_file is not None:
        _write_pickle(cache_file, decls)
    return Model(decls, validation, digest)
