"""Where the catalog meets the ASL interpreter: the AVS inputs from the one loaded tree, and the run.

``pto_docs.asl`` is a library of its own; this module hands it the unit and test texts that the loader
read, and adds to each result the sha256 of the test file it ran, so a report can tell a result that
still describes the tree from one that no longer does."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .asl.harness import TestPoint as AslTestPoint
from .asl.harness import _selected, run_avs
from .asl.model import DECODER_NODE
from .asl.model import Unit as AslUnit
from .model import Catalog


@dataclass(frozen=True)
class AvsInputs:
    units: list[AslUnit]
    points: list[AslTestPoint]
    sha256: dict[str, str]  # test id -> sha256 of its file

    @property
    def needs_decoders(self) -> bool:
        return any(DECODER_NODE in u.depends_on for u in self.units)


def avs_inputs(catalog: Catalog, pattern: str | None = None) -> AvsInputs:
    units = [AslUnit(u.id, u.path, tuple(u.depends_on), u.file.text)
             for u in sorted(catalog.units.values(), key=lambda u: u.path)]
    points = [AslTestPoint(t.id, t.path, t.kind, t.file.text) for t in sorted(catalog.tests.values(), key=lambda t: t.path)]
    if pattern is not None:
        points = [p for p in points if _selected(p, pattern)]
    return AvsInputs(units, points, {t.id: t.file.sha256 for t in catalog.tests.values()})


def instruction_entry_names(catalog: Catalog) -> list[str]:
    """The subprograms named after an instruction (``TMATMUL``, ``TTRANS``): tests call a tile operation's
    semantics by that name, so ``--examples`` watches them as instruction entry points."""
    return sorted({re.sub(r"[^A-Za-z0-9]+", "_", u.mnemonic) for u in catalog.instructions if u.mnemonic})


def run_avs_on_catalog(inputs: AvsInputs, generated: str | None, **options) -> dict:
    doc = run_avs(inputs.units, inputs.points, generated, **options)
    for result in doc["tests"]:
        result["sha256"] = inputs.sha256.get(result["id"], "")
    return doc
