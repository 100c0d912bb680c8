"""One traceability run of a loaded tree: run the worked examples, (stamp the review lock), report, findings,
verdict. No printing, no exit, no reading of mkdocs.yml (cli/trace.py does that); the report itself is
``trace.build_report`` (data in, data out)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..bridge import examples as bridge_examples
from ..bridge.avs_examples import report_examples
from ..store.atomic import atomic_write
from ..trace.gate import PolicyError, exit_code
from ..trace.lock import LockError, ReviewLock, lock_path, lock_text, read_lock
from ..trace.report import build_report, findings_of, source_date, stamp_document
from ..trace.run import TraceRun, configured_policy


class StampError(Exception):
    """The review lock could not be stamped; the message is the one diagnostic line."""


def _examples(catalog) -> tuple[tuple, list[tuple[str, str, str, str]]]:
    try:
        return tuple(bridge_examples.worked_examples(catalog)), []
    except Exception as exc:  # an executor bug must fail the gate, not crash it
        return (), [("example-failed", "executor", "", f"worked examples could not run: {type(exc).__name__}: {exc}")]


def trace(result, *, check: bool = False, stamp: bool = False, policy_items: Iterable[str] = (),
          options: Mapping | None = None, environ: Mapping[str, str] | None = None, avs: Mapping | None = None,
          changes: Iterable[tuple] = (), checked: Iterable[str] = ()):
    """The report and findings of ``result`` (a LoadResult); ``avs``: a pto-docs.avs.v1 document whose results join
    the test rows; ``changes``: raw findings of the change check (history/undocumented.py) and ``checked`` the
    on-request codes it checked (trace/gate.py ON_REQUEST). Raises PolicyError for a bad policy or SOURCE_DATE_EPOCH (before anything is written),
    StampError when the review lock cannot be stamped."""
    policy = configured_policy(policy_items, options)
    try:
        date = source_date(environ or {})
    except ValueError as exc:
        raise PolicyError(str(exc)) from None
    catalog = result.catalog
    examples, extra = _examples(catalog)
    avs_examples = report_examples(catalog, avs)
    lock: ReviewLock | str = "auto"
    if stamp:
        target = lock_path(catalog.root)
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise StampError(f"{target}: error[OUTPUT-REFUSED]: the review lock is a symbolic link or not a regular "
                             "file; refusing to replace it")
        document = stamp_document(catalog, examples, avs, avs_examples)
        if "avs_examples" not in document["items"]:  # stamped without AVS results: the pinned examples stay pinned
            try:
                previous = read_lock(catalog.root)
            except (LockError, OSError):
                previous = None
            pinned = previous.items.get("avs_examples") if previous is not None else None
            if pinned:
                document["items"]["avs_examples"] = {uid: dict(entry) for uid, entry in pinned.items()
                                                     if uid in catalog.units}
        try:
            atomic_write(target, lock_text(document).encode("utf-8"))
        except OSError as exc:
            raise StampError(f"{target}: error[IO-WRITE]: cannot write the review lock: {exc.strerror or exc}") from None
        try:
            lock = read_lock(catalog.root)
        except (LockError, OSError) as exc:
            raise StampError(f"{target}: error[IO-WRITE]: the review lock just written cannot be read back: {exc}") from None
    report = build_report(catalog, result.tree, examples, lock=lock, check=check, policy=policy, date=date,
                          diagnostics=result.diagnostics, extra_findings=[*extra, *changes], checked=checked,
                          avs=avs,
                          avs_examples=avs_examples)
    findings = findings_of(report)
    return TraceRun(report, findings, exit_code(findings), stamp)


