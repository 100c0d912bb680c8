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
    files = list(tmp_path.glob("units/*.pickle"))
    assert len(files) == 1 and first.decls[0].name == "K"
    assert cache.sealer.open(files[0].name, files[0].read_bytes()) is not None  # sealed with the key given
    files[0].write_bytes(b"not a pickle")
    again = model_from_sources(parts, {}, cache)
    assert again.decls == first.decls and again.digest == first.digest
    assert cache.sealer.open(files[0].name, files[0].read_bytes()) is not None  # rewritten
    other = model_from_sources([("a.asl", "constant K = 2;\n")], {}, cache)
    assert other.digest != first.digest
    assert len(list(tmp_path.glob("units/*.pickle"))) == 2
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
    [entry] = [f"units/{p.name}" for p in tmp_path.glob("units/*.pickle")]
    old = [("global", 0, "constant", "K", None, ("lit", 13, 1))]
    cache.save(entry, pickle.dumps(("pto-docs-asl-model-2", old), protocol=pickle.HIGHEST_PROTOCOL))
    again = model_from_sources(parts, {}, cache)
    assert type(again.decls[0]) is Global and again.decls[0].init.value == 1
    assert type(model_from_sources(parts, {}, cache).decls[0]) is Global  # the entry was rewritten


def _counting_parse(monkeypatch) -> list[str]:
    """The paths asl.model parses from now on (its ``parse`` wrapped)."""
    from pto_docs.asl import model
    parsed: list[str] = []
    real = model.parse

    def parse(text, path="<string>"):
        parsed.append(path)
        return real(text, path)
    monkeypatch.setattr(model, "parse", parse)
    return parsed


def test_the_memo_parses_only_a_changed_unit_again(monkeypatch):
    """A serving process links the model again after a save of code: with the memo it gives, only the saved unit
    is parsed; the others are the declarations parsed before, and the model is the one a fresh parse makes."""
    parsed = _counting_parse(monkeypatch)
    memo: dict = {}
    parts = [("a.asl", "constant A = 1;\n"), ("b.asl", "constant B = 2;\n"), ("c.asl", "constant C = 3;\n")]
    first = model_from_sources(parts, {}, None, memo)
    assert parsed == ["a.asl", "b.asl", "c.asl"]
    edited = [parts[0], ("b.asl", "constant B = 2;\nconstant B2 = B + 1;\n"), parts[2]]
    parsed.clear()
    again = model_from_sources(edited, {}, None, memo)
    assert parsed == ["b.asl"]
    assert again.decls[0] is first.decls[0] and again.decls[-1] is first.decls[-1]  # reused, not parsed again
    fresh = model_from_sources(edited, {})
    assert again.decls == fresh.decls and again.digest == fresh.digest != first.digest
    assert [d.name for d in again.decls] == ["A", "B", "B2", "C"]


def test_the_memo_follows_a_removed_or_renamed_unit(monkeypatch):
    """The memo is keyed by path and text: a unit removed is simply absent from the model, a unit moved to another
    path is parsed again (its diagnostics name the new path), and its old text under the old path is not used."""
    parsed = _counting_parse(monkeypatch)
    memo: dict = {}
    parts = [("a.asl", "constant A = 1;\n"), ("b.asl", "constant B = 2;\n")]
    model_from_sources(parts, {}, None, memo)
    parsed.clear()
    removed = model_from_sources(parts[:1], {}, None, memo)
    assert parsed == [] and [d.name for d in removed.decls] == ["A"]
    assert removed.digest == model_from_sources(parts[:1], {}).digest
    func = "func F() => integer\nbegin\n    return 1;\nend;\n"
    model_from_sources([parts[0], ("b.asl", func)], {}, None, memo)
    parsed.clear()
    renamed = model_from_sources([parts[0], ("z.asl", func)], {}, None, memo)
    assert parsed == ["z.asl"] and [d.name for d in renamed.decls] == ["A", "F"]
    assert renamed.decls[1].loc == "z.asl:1:1"  # (the declaration parsed under b.asl says b.asl:1:1)


def test_the_memo_keeps_the_units_a_model_uses_when_it_is_full(monkeypatch):
    """A memo with a limit (store.memo.Memo drops the oldest inserted entry first) keeps the units the last model
    used: each one read is made the newest again, so a long serving session's edits push out old versions of the
    edited unit, not the units nobody edits."""
    from pto_docs.store.memo import Memo
    parsed = _counting_parse(monkeypatch)
    memo = Memo(__name__, "a test's parsed units", limit=3)
    parts = [("a.asl", "constant A = 1;\n"), ("b.asl", "constant B = 2;\n")]
    model_from_sources(parts, {}, None, memo)
    for n in range(3, 6):  # three saves of b.asl
        model_from_sources([parts[0], ("b.asl", f"constant B = {n};\n")], {}, None, memo)
    parsed.clear()
    model_from_sources([parts[0], ("b.asl", "constant B = 5;\n")], {}, None, memo)
    assert parsed == []  # a.asl, read at every save, is still kept
    assert len(memo) == 3


def test_a_fresh_process_reads_the_unchanged_units_from_the_cache(tmp_path, monkeypatch):
    """The cache keeps each unit in an entry of its own: a process whose memo is empty (the serving process, whose
    first build linked the model in a forked worker) parses only the unit changed since."""
    from pto_docs.store.seal import SealedFolder, Sealer
    parsed = _counting_parse(monkeypatch)
    cache = SealedFolder(tmp_path, Sealer(b"a test's own key, 32 bytes long!"))
    parts = [("a.asl", "constant A = 1;\n"), ("b.asl", "constant B = 2;\n")]
    model_from_sources(parts, {}, cache, {})
    parsed.clear()
    edited = model_from_sources([parts[0], ("b.asl", "constant B = 3;\n")], {}, cache, {})
    assert parsed == ["b.asl"] and edited.decls[1].init.value == 3
