"""Against a real PTO-ISA/pto-spec checkout (PTO_SPEC_CHECKOUT): every ASL file parses, and every AVS test point
passes on the interpreter (through `pto-docs avs`, as a release engineer runs it)."""

from __future__ import annotations

import pytest

from pto_docs.asl.lexer import AslSyntaxError
from pto_docs.asl.parser import parse

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


def test_every_avs_point_of_the_real_tree_passes(real_tree_root, real_load, real_decoders, asl_model_cache, tmp_path):
    """The release gate RG-05 asks this of ASLRef; here it runs on pto-docs' own interpreter, every point."""
    import contextlib
    import io
    import json

    from pto_docs.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["avs", str(real_tree_root), "--decoders", str(real_decoders), "-q",
                     "--cache-dir", str(asl_model_cache), "--json", str(tmp_path / "avs.json")])
    doc = json.loads((tmp_path / "avs.json").read_text("utf-8"))
    failures = [(t["id"], t["status"], t["message"]) for t in doc["tests"] if t["status"] != "pass"]
    assert failures == []
    assert doc["summary"]["total"] == len(real_load.catalog.tests) and code == 0, out.getvalue()
