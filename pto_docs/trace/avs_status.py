"""AVS results (``pto-docs avs --json``, schema ``pto-docs.avs.v1``) read back for the report and the pages.

A result belongs to the tree only while the test file it ran is unchanged: each result carries the sha256 of
that file, and a different hash makes the result *stale*. A test point without a result is *missing*. A point
the run did not run for lack of the spec generator's ``Validate*`` entry points is *needs-decoders*.

Pages show less than the report (:func:`page_statuses`): neither a point the run filtered out (``--kind``, ``-k``)
nor one that needs the generated decoders: a reader sees what the model said of the spec, never what the tool
could not do."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..i18n.messages import say
from ..model.catalog import Catalog

SCHEMA = "pto-docs.avs.v1"
STATUSES = ("pass", "fail", "error", "stale", "missing", "needs-decoders")


class AvsResultsError(ValueError):
    """The results file cannot be used (unreadable, not JSON, not pto-docs.avs.v1)."""


@dataclass(frozen=True)
class AvsStatus:
    status: str  # pass | fail | error | stale | missing | needs-decoders
    message: str = ""
    profile: str = ""


def read_avs_results(path: str | Path, data: bytes | None = None) -> dict:
    """The checked ``pto-docs.avs.v1`` document at ``path`` (or in ``data``, read from there already)."""
    from ..schemas.registry import fast_check, validator
    from ..schemas.strict_parse import loads_json
    try:
        text = (Path(path).read_bytes() if data is None else data).decode("utf-8")
        doc = loads_json(text)
    except OSError as exc:
        raise AvsResultsError(f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise AvsResultsError("not UTF-8 text") from None
    except (json.JSONDecodeError, RecursionError) as exc:
        raise AvsResultsError(f"not JSON: {getattr(exc, 'msg', exc)}") from None
    fast = fast_check("avs")  # a yes/no check compiled from the schema; jsonschema explains a document it refuses
    if fast is not None and fast(doc):
        return doc
    errors = sorted(validator("avs").iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/" + "/".join(str(p) for p in errors[0].absolute_path)
        raise AvsResultsError(f"not a {SCHEMA} document: {errors[0].message} (at {where})")
    return doc


def avs_statuses(catalog: Catalog, doc: Mapping | None) -> dict[str, AvsStatus]:
    """Every test point of the tree with its status in ``doc`` (None: no results, an empty mapping)."""
    if doc is None:
        return {}
    profile = doc.get("profile", "")
    results = {r["id"]: r for r in doc.get("tests", ())}
    out = {}
    for tid, test in catalog.tests.items():
        result = results.get(tid)
        if result is None:
            out[tid] = AvsStatus("missing", say("avs_missing"), profile)
        elif result.get("sha256") != test.file.sha256:
            out[tid] = AvsStatus("stale", say("avs_stale", path=result.get("path"),
                                              recorded=result.get("sha256") or "(not recorded)", now=test.file.sha256),
                                 profile)
        else:
            out[tid] = AvsStatus(result["status"], result.get("message", ""), profile)
    return out


def page_statuses(catalog: Catalog, doc: Mapping | None) -> dict[str, AvsStatus]:
    """The statuses pages show: :func:`avs_statuses` without the points that need the generated decoders and
    without those the run did not select (its recorded ``selection``; a document without one: the kinds it has
    no result of)."""
    if doc is None:
        return {}
    selected = run_selection(doc)
    return {tid: status for tid, status in avs_statuses(catalog, doc).items()
            if status.status != "needs-decoders" and selected(catalog.tests[tid])}


def run_selection(doc: Mapping):
    """``selected(test)``: whether the run of ``doc`` was asked to run the catalog test ``test``."""
    from fnmatch import fnmatch
    selection = doc.get("selection")
    if not isinstance(selection, Mapping):
        ran = {r.get("kind") for r in doc.get("tests", ())}
        return lambda test: test.kind in ran
    kinds = selection.get("kinds")
    kinds = set(kinds) if isinstance(kinds, list) else None
    pattern = selection.get("pattern") if isinstance(selection.get("pattern"), str) else None

    def selected(test) -> bool:
        if kinds is not None and test.kind not in kinds:
            return False
        if pattern is None:
            return True
        if any(c in pattern for c in "*?["):  # as asl.harness._selected
            return fnmatch(test.id, pattern) or fnmatch(test.path, pattern)
        return pattern in test.id or pattern in test.path
    return selected


def avs_findings(catalog: Catalog, statuses: Mapping[str, AvsStatus]) -> list[tuple[str, str, str, str]]:
    """(code, id, path, message) for every test point that did not pass on the current tree."""
    raw = []
    for tid, status in sorted(statuses.items()):
        if status.status != "pass":
            raw.append((f"avs-{status.status}", tid, catalog.tests[tid].path, status.message or status.status))
    return raw


def avs_summary(statuses: Mapping[str, AvsStatus]) -> dict[str, int]:
    counts = dict.fromkeys(STATUSES, 0)
    for status in statuses.values():
        counts[status.status] += 1
    return counts
