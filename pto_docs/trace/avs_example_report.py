"""The worked examples of the AVS results in the traceability report: per instruction its examples and their
digests, coverage per surface, and the findings (missing, failing, changed against the review lock, unpinned).

Data in, data out: the examples themselves (unit id -> its worked examples, each with ``test_id``, ``kind``,
``step_index``, ``status``, ``own`` and ``digest``) are chosen by ``bridge.avs_examples.examples_by_unit``, which
decodes the recorded words; the caller hands them in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..i18n.messages import say
from ..model.catalog import Catalog
from .lock import ReviewLock


def example_pins(found: Mapping[str, Sequence]) -> dict[str, dict[str, list[str]]]:
    """The review lock's ``avs_examples`` group: unit id -> the sorted digests of its worked examples."""
    return {uid: {"digests": sorted(e.digest for e in examples)} for uid, examples in sorted(found.items()) if examples}


def example_section(catalog: Catalog, found: Mapping[str, Sequence],
                    lock: ReviewLock | None) -> tuple[dict[str, Any], list[tuple[str, str, str, str]]]:
    pins = lock.items.get("avs_examples") if lock is not None else None
    rows, raw = [], []
    for unit in sorted(catalog.instructions, key=lambda u: u.id):
        examples = found.get(unit.id, [])
        rows.append({"id": unit.id, "mnemonic": unit.mnemonic, "surface": unit.surface,
                     "examples": [{"test": e.test_id, "kind": e.kind, "step": e.step_index, "status": e.status,
                                   "own": e.own, "digest": e.digest} for e in examples]})
        if not examples:
            raw.append(("avs-example-missing", unit.id, unit.path,
                        say("avs_example_missing", mnemonic=unit.mnemonic)))
            continue
        if not any(e.status == "pass" for e in examples):
            raw.append(("avs-example-failing", unit.id, unit.path,
                        say("avs_example_failing", mnemonic=unit.mnemonic,
                            tests=", ".join(f"{e.test_id} ({e.status})" for e in examples))))
        if pins is None:
            continue
        pinned = pins.get(unit.id)
        digests = sorted(e.digest for e in examples)
        if pinned is None:
            raw.append(("avs-example-unpinned", unit.id, unit.path,
                        say("avs_example_unpinned", mnemonic=unit.mnemonic)))
        elif sorted(pinned.get("digests", ())) != digests:
            raw.append(("avs-example-changed", unit.id, unit.path,
                        say("avs_example_changed", mnemonic=unit.mnemonic, digests=", ".join(d[:12] for d in digests),
                            pinned=", ".join(d[:12] for d in sorted(pinned.get("digests", ()))) or "none")))
    cover = coverage(catalog, found)
    total = {"instructions": 0, "passing": 0, "failing": 0, "none": 0}
    for row in cover.values():
        for key in total:
            total[key] += row[key]
    return {"coverage": cover, "total": total, "instructions": rows}, raw


def coverage(catalog: Catalog, examples: Mapping[str, Sequence]) -> dict[str, dict[str, int]]:
    """Per surface: instructions, with an example from a passing run, with only failing ones, without any."""
    out: dict[str, dict[str, int]] = {}
    for unit in catalog.instructions:
        row = out.setdefault(unit.surface, {"instructions": 0, "passing": 0, "failing": 0, "none": 0})
        row["instructions"] += 1
        found = examples.get(unit.id, [])
        if any(e.status == "pass" for e in found):
            row["passing"] += 1
        elif found:
            row["failing"] += 1
        else:
            row["none"] += 1
    return dict(sorted(out.items()))
