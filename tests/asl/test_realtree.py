"""Against a real PTO-ISA/pto-spec checkout (PTO_SPEC_CHECKOUT): every ASL file parses, and a deterministic
sample of AVS test points (the first three of each kind, by id) passes on the interpreter."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pto_docs.asl.harness import Session, load_tests
from pto_docs.asl.lexer import AslSyntaxError
from pto_docs.asl.model import load_model
from pto_docs.asl.parser import parse

pytestmark = pytest.mark.realtree
ROOT = os.environ.get("PTO_SPEC_CHECKOUT")
needs_tree = pytest.mark.skipif(not ROOT, reason="PTO_SPEC_CHECKOUT is not set")


@needs_tree
def test_every_unit_and_test_file_parses():
    root = Path(ROOT)
    files = sorted((root / "asl").rglob("*.asl")) + sorted((root / "tests" / "asl").rglob("*.asl"))
    assert len(files) > 1000
    errors = []
    for path in files:
        try:
            parse(path.read_text(encoding="utf-8"), str(path.relative_to(root)))
        except AslSyntaxError as exc:
            errors.append(str(exc))
    assert errors == []


@needs_tree
def test_sample_of_avs_points_passes(tmp_path):
    root = Path(ROOT)
    by_kind: dict[str, list] = {}
    for point in load_tests(root):
        by_kind.setdefault(point.kind, []).append(point)
    sample = [p for kind in sorted(by_kind) for p in sorted(by_kind[kind], key=lambda p: p.test_id)[:3]]
    session = Session(load_model(root, tmp_path))
    results = [session.run(p) for p in sample]
    failures = [(r["id"], r["status"], r["message"]) for r in results if r["status"] != "pass"]
    assert failures == []
    assert len(results) == len(sample) >= 8
