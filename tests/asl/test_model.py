"""Model assembly: unit source order from metadata, and the parse cache keyed by source hashes."""

from __future__ import annotations

import json

from pto_docs.asl.model import DECODER_NODE, Unit, model_from_sources, source_order


def unit(uid, path, deps=()):
    return Unit(uid, path, tuple(deps), "")


def test_source_order_respects_dependencies_then_paths():
    units = [unit("C", "asl/c.asl", ["A"]), unit("A", "asl/z.asl"), unit("B", "asl/b.asl", [DECODER_NODE])]
    # round 1: A and the decoder node (paths before synthetic nodes); round 2: B, C by path
    assert source_order(units) == ["A", DECODER_NODE, "B", "C"]


def test_parse_cache_is_reused_and_damage_is_repaired(tmp_path):
    parts = [("a.asl", "constant K = 1;\n")]
    first = model_from_sources(parts, {}, tmp_path)
    files = list(tmp_path.glob("asl-model-*.pickle"))
    assert len(files) == 1 and first.decls[0][3] == "K"
    files[0].write_bytes(b"not a pickle")
    again = model_from_sources(parts, {}, tmp_path)
    assert again.decls == first.decls and again.digest == first.digest
    other = model_from_sources([("a.asl", "constant K = 2;\n")], {}, tmp_path)
    assert other.digest != first.digest
    assert len(list(tmp_path.glob("asl-model-*.pickle"))) == 2
    json.dumps(first.digest)
