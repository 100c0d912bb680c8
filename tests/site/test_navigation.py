"""render/navigation.py: every page once, in reading order, and no sidebar group larger than MAX_ENTRIES."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pto_docs.render.navigation import MAX_ENTRIES, RANGE_DASH, navigation, ranges


def entries(titles):
    return [{t: f"{t}.md"} for t in titles]


def flatten(items) -> list[str]:
    out = []
    for item in items:
        ((_, value),) = item.items()
        out += flatten(value) if isinstance(value, list) else [value]
    return out


def groups(items):
    yield items
    for item in items:
        ((_, value),) = item.items()
        if isinstance(value, list):
            yield from groups(value)


@pytest.mark.parametrize("n", [0, 1, MAX_ENTRIES])
def test_small_groups_stay_as_they_are(n):
    given = entries([f"I{i:03d}" for i in range(n)])
    assert ranges(given) == given


@pytest.mark.parametrize("n", [MAX_ENTRIES + 1, 47, 48, 49, 183])
def test_large_groups_become_the_fewest_even_ranges(n):
    titles = [f"I{i:03d}" for i in range(n)]
    runs = ranges(entries(titles))
    assert len(runs) == -(-n // MAX_ENTRIES)
    sizes = [len(next(iter(r.values()))) for r in runs]
    assert max(sizes) <= MAX_ENTRIES and max(sizes) - min(sizes) <= max(1, len(runs) - 1)
    assert flatten(runs) == [f"{t}.md" for t in titles]  # order kept, nothing lost or repeated
    for run in runs:
        ((label, members),) = run.items()
        assert label == _first(members) + RANGE_DASH + _last(members)


def _first(members):
    return next(iter(members[0]))


def _last(members):
    return next(iter(members[-1]))


def test_range_labels_leave_out_a_shared_multi_segment_prefix():
    runs = ranges(entries([f"PTO-BLOCK-MODEL-{chr(65 + i)}{i}" for i in range(26)]))
    assert [next(iter(r)) for r in runs] == ["A0 – M12", "N13 – Z25"]
    runs = ranges(entries([f"ADR-{i:04d}" for i in range(1, 30)]))
    assert next(iter(runs[0])) == "ADR-0001 – ADR-0015"  # one shared segment stays


def _unit(surface, classification, mnemonic=None, uid=None):
    is_instruction = mnemonic is not None
    path = f"asl/{surface}/{'/'.join(classification)}/{mnemonic or uid}.asl"
    return SimpleNamespace(surface=surface, classification=tuple(classification), mnemonic=mnemonic,
                           id=uid or f"PTO-{surface.upper()}-{mnemonic}", path=path, is_instruction=is_instruction)


def test_a_large_tree_keeps_every_page_once_in_groups_of_at_most_max_entries():
    instructions = [_unit("scalar", ["agu"], f"L{i:03d}") for i in range(100)]
    instructions += [_unit("tile", ["elementwise", "arith"], f"T{i:02d}") for i in range(5)]
    units = [_unit("tile", ["model", "legality", f"rule-{i}"], uid=f"PTO-TILE-MODEL-LEGALITY-R{i:02d}") for i in range(30)]
    units += [_unit("tile", ["model", "state", "types"], uid="PTO-TILE-MODEL-STATE-TYPES")]
    adrs = {f"ADR-{i:04d}": None for i in range(1, 61)}
    renderer = SimpleNamespace(catalog=SimpleNamespace(instructions=instructions, adrs=adrs, requirements={}, units={}),
                               units=instructions + units, data=SimpleNamespace(trace_page=lambda locale: None))
    nav = navigation(renderer, "en")
    pages = flatten(nav)
    assert len(pages) == len(set(pages))
    from pto_docs.render import routes
    expected = {routes.unit_src(u) for u in instructions + units} | {routes.adr_src(a) for a in adrs}
    assert expected <= set(pages)
    assert all(len(group) <= MAX_ENTRIES for group in groups(nav))
    agu = [routes.unit_src(u) for u in instructions[:100]]
    assert [p for p in pages if p in agu] == agu  # alphabetical ranges keep the mnemonic order
    # architecture units group by their classification without its last (unit-naming) segment, and the
    # surface-wide "model" level is skipped over
    ((_, unit_groups),) = nav[2].items()
    ((_, tile),) = unit_groups[1].items()
    assert [next(iter(g)) for g in tile] == ["legality", "state"]


def test_the_reports_entry_follows_the_analysis_report_page_and_navigation_builds_no_report(monkeypatch):
    """navigation asks the analysed tree (SiteData.trace_page, made once) whether there is a report page; it never
    builds the traceability report itself."""
    from pto_docs import trace

    def refuse(*args, **kwargs):
        raise AssertionError("navigation built the traceability report")
    monkeypatch.setattr(trace, "build_report", refuse)
    asked = []
    for page in ("# report", None):
        data = SimpleNamespace(trace_page=lambda locale, page=page: asked.append(locale) or page)
        renderer = SimpleNamespace(catalog=SimpleNamespace(instructions=[], adrs={}, requirements={}, units={}),
                                   units=[], data=data)
        titles = [next(iter(entry)) for entry in navigation(renderer, "en")]
        assert ("Reports" in titles) == (page is not None)
    assert asked == ["en", "en"]
