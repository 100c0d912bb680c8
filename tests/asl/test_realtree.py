"""Against a real PTO-ISA/pto-spec checkout (PTO_SPEC_CHECKOUT): every ASL file parses, and a deterministic
sample of AVS test points (the first three of each kind, by id) passes on the interpreter."""

from __future__ import annotations

import pytest

from pto_docs.asl.harness import Session
from pto_docs.asl.lexer import AslSyntaxError
from pto_docs.asl.model import load_model
from pto_docs.asl.parser import parse
from pto_docs.avs import avs_inputs

pytestmark = pytest.mark.realtree


def test_every_unit_and_test_file_parses(real_load):
    catalog = real_load.catalog
    files = [(u.path, u.file.text) for u in catalog.units.values()] + [(t.path, t.file.text) for t in catalog.tests.values()]
    assert len(files) > 4000
    errors = []
    for path, text in files:
        try:
            parse(text, path)
        except AslSyntaxError as exc:
            errors.append(str(exc))
    assert errors == []


def test_sample_of_avs_points_passes(real_load, real_decoders, tmp_path):
    inputs = avs_inputs(real_load.catalog)
    by_kind: dict[str, list] = {}
    for point in inputs.points:
        by_kind.setdefault(point.kind, []).append(point)
    sample = [p for kind in sorted(by_kind) for p in sorted(by_kind[kind], key=lambda p: p.test_id)[:3]]
    session = Session(load_model(inputs.units, real_decoders.read_text("utf-8"), tmp_path))
    results = [session.run(p) for p in sample]
    failures = [(r["id"], r["status"], r["message"]) for r in results if r["status"] != "pass"]
    assert failures == []
    assert len(results) == len(sample) >= 8
