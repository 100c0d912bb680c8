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
    from pto_docs.store.seal import SealedFolder, Sealer
    cache = SealedFolder(tmp_path, Sealer(b"a test's own key, 32 bytes long!"))
    parts = [("a.asl", "constant K = 1;\n")]
    first = model_from_sources(parts, {}, cache)
    files = list(tmp_path.glob("asl-model-*.pickle"))
    assert len(files) == 1 and first.decls[0].name == "K"
    assert cache.sealer.open(files[0].name, files[0].read_bytes()) is not None  # sealed with the key given
    files[0].write_bytes(b"not a pickle")
    again = model_from_sources(parts, {}, cache)
    assert again.decls == first.decls and again.digest == first.digest
    assert cache.sealer.open(files[0].name, files[0].read_bytes()) is not None  # rewritten
    other = model_from_sources([("a.asl", "constant K = 2;\n")], {}, cache)
    assert other.digest != first.digest
    assert len(list(tmp_path.glob("asl-model-*.pickle"))) == 2
    json.dumps(first.digest)


def test_a_bare_path_is_no_cache(tmp_path):
    """asl/ caches only through a sealed cache object its caller gives (pto_docs.store): a plain folder is not
    written, so nothing unauthenticated is ever read back."""
    model_from_sources([("a.asl", "constant K = 1;\n")], {}, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_cache_only_costs_time(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    model = model_from_sources([("a.asl", "constant K = 1;\n")], {}, blocker / "cache")
    assert model.decls[0].name == "K"


def test_a_cached_tree_of_the_plain_tuple_format_is_parsed_again(tmp_path):
    """Trees cached before the syntax tree had named nodes (format 2: plain tuples) are never handed out as
    today's nodes, even under the same entry name: they are parsed again (and the entry rewritten)."""
    import pickle

    from pto_docs.asl.syntax import Global
    from pto_docs.store.seal import SealedFolder, Sealer
    cache = SealedFolder(tmp_path, Sealer(b"a test's own key, 32 bytes long!"))
    parts = [("a.asl", "constant K = 1;\n")]
    model_from_sources(parts, {}, cache)
    [entry] = [p.name for p in tmp_path.glob("asl-model-*.pickle")]
    old = [("global", 0, "constant", "K", None, ("lit", 13, 1))]
    cache.save(entry, pickle.dumps(("pto-docs-asl-model-2", old), protocol=pickle.HIGHEST_PROTOCOL))
    again = model_from_sources(parts, {}, cache)
    assert type(again.decls[0]) is Global and again.decls[0].init.value == 1
    assert type(model_from_sources(parts, {}, cache).decls[0]) is Global  # the entry was rewritten
