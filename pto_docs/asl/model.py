"""Assemble the PTO ASL model from a spec tree: unit metadata, source order, generated decoders.

The source order is computed from each unit's ``// PTO-UNIT:`` or ``// PTO-INSTRUCTION:`` record
(its ``id`` and ``depends_on``): repeatedly emit, sorted by path, every unit whose dependencies are
all emitted; the synthetic node ``generated:decoders`` stands for the generated decoder text.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .parser import parse

UNIT_PREFIXES = ("// PTO-UNIT: ", "// PTO-INSTRUCTION: ")
DECODER_NODE = "generated:decoders"
CACHE_FORMAT = "pto-docs-asl-model-1"
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
    spec_root = Path(spec_root)
    units = load_units(spec_root)
    by_id = {u.unit_id: u for u in units}
    monolithic = generated_asl(spec_root, "monolithic")
    validation = split_validation(monolithic)
    decoder = VALIDATION_FUNC.sub("", monolithic)
    order = source_order(units)
    parts = [("@decoder@", decoder) if n == DECODER_NODE else (by_id[n].path, by_id[n].text) for n in order]
    return model_from_sources(parts, validation, cache_dir)


def model_from_sources(parts: list[tuple[str, str]], validation: dict[str, str],
                       cache_dir: Path | None = None) -> Model:
    """Parse ``parts`` (path, text) once; reuse a pickle keyed by their sha256 when present."""
    digest = _digest(parts + sorted(validation.items()))
    cache_file = Path(cache_dir) / f"asl-model-{digest}.pickle" if cache_dir else None
    if cache_file is not None and cache_file.exists():
        try:
            with cache_file.open("rb") as handle:
                fmt, decls = pickle.load(handle)
            if fmt == CACHE_FORMAT:
                return Model(decls, validation, digest)
        except Exception:  # noqa: BLE001 - a damaged cache is discarded and rebuilt
            pass
        cache_file.unlink(missing_ok=True)
    decls = []
    for path, text in parts:
        decls.extend(parse(text, path))
    if cache_file is not None:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache_file.with_suffix(".tmp")
        with tmp.open("wb") as handle:
            pickle.dump((CACHE_FORMAT, decls), handle, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(cache_file)
    return Model(decls, validation, digest)
