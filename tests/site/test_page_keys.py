"""The page-cache keys of a serving process (site/memory.py PageKeys): a page's parts are hashed once per parts
object, also when the build signature changes (it covers the navigation and the footer, which most saves
change), and a digest a forked language worker made of parts it inherited is kept by the serving process
(site/languages.py), so the next rebuild's worker does not hash that page again."""

from __future__ import annotations

import os
import pickle

from pto_docs.render.parts import PageParts
from pto_docs.site import memory
from pto_docs.site.languages import Languages


def _counting(monkeypatch) -> list[str]:
    hashed: list[str] = []
    real = memory.parts_digest
    monkeypatch.setattr(memory, "parts_digest", lambda src, parts: hashed.append(src) or real(src, parts))
    return hashed


def test_a_new_signature_hashes_no_page_again(monkeypatch):
    parts = PageParts("# TADD\n", ["<p>adds</p>"], ["<table></table>"])
    other = PageParts("# TADD\n", ["<p>adds two</p>"], ["<table></table>"])  # another page: another key
    expected = [memory.page_key(sig, "instructions/TADD.md", p)
                for sig, p in (("signature 1", parts), ("signature 2", parts), ("signature 2", other))]
    assert len(set(expected)) == 3
    hashed = _counting(monkeypatch)
    keys = memory.PageKeys()
    assert keys.key("signature 1", "instructions/TADD.md", parts) == expected[0]
    assert keys.key("signature 2", "instructions/TADD.md", parts) == expected[1]  # (a save elsewhere)
    assert hashed == ["instructions/TADD.md"]
    assert keys.key("signature 2", "instructions/TADD.md", other) == expected[2] and len(hashed) == 2


def test_a_workers_digests_are_kept_by_the_serving_process(monkeypatch):
    """The worker's digests of parts it inherited come back as (id, shape, digest) and are adopted for the same
    objects; one of parts the serving process does not hold (or of another shape) is ignored."""
    kept = PageParts("# TADD\n", ["<p>adds</p>"], [])
    gone = PageParts("# TSUB\n", [], [])
    want = memory.page_key("sig 2", "zh/TADD.md", kept)
    hashed = _counting(monkeypatch)

    class Renderer:
        rendered = {"k1": (kept, (), frozenset())}
        _previous = None

    class Primary:
        state = type("State", (), {"renderer": Renderer()})()
        memory = memory.SiteMemory()

    languages = Languages.__new__(Languages)
    languages.primary = Primary()
    read, write = os.pipe()  # (as the worker's process would: its digests made apart, sent back pickled)
    if os.fork() == 0:  # pragma: no cover - the child
        keys = memory.PageKeys()
        keys.made = []
        keys.key("sig", "zh/TADD.md", kept)
        keys.key("sig", "zh/TSUB.md", gone)
        os.write(write, pickle.dumps(keys.made))
        os._exit(0)
    os.close(write)
    os.wait()
    with os.fdopen(read, "rb") as fh:
        made = pickle.loads(fh.read())
    made.append((id(kept), ("zh/TADD.md", 99, 0, 0), "a digest of another shape"))
    hashed.clear()
    languages._adopt_keys(made)
    assert Primary.memory.keys.key("sig 2", "zh/TADD.md", kept) == want and hashed == []  # adopted: not hashed
    Primary.memory.keys.key("sig 2", "zh/TSUB.md", gone)
    assert hashed == ["zh/TSUB.md"]  # (not the serving process's object: nothing adopted for it)


def test_pages_a_worker_took_over_stay_the_serving_process_objects():
    """A worker names the pages it took over from the renderer before (it does not send them back): the serving
    process keeps its own objects for them (and so the digests it holds of them), and adopts what was rendered."""
    mine = (PageParts("# TADD\n", [], []), (), frozenset())
    new = (PageParts("# TMUL\n", [], []), (), frozenset())

    class Previous:
        rendered = {"zh TADD": mine}

    class Renderer:
        _previous = Previous()
        rendered: dict = {}

        def take_rendered(self, entries):
            self.rendered.update(entries)

    class Primary:
        state = type("State", (), {"renderer": Renderer()})()

    languages = Languages.__new__(Languages)
    languages.primary = Primary()
    languages._adopt_rendered({"zh TMUL": new}, ["zh TADD", "zh gone"])
    assert Renderer.rendered == {"zh TADD": mine, "zh TMUL": new}
    assert Renderer.rendered["zh TADD"] is mine
