"""The release gate: findings from a report, a policy giving each finding code a severity, the exit code.

Exit codes follow OpenFastTrace: 0 clean (warnings allowed), 1 at least one error finding,
2 usage or I/O problems (decided by the command, never here).

A policy maps finding codes to ``error``, ``warning`` or ``ignore``. Keys may be fnmatch patterns
(``evidence-*``, ``*``); an exact key beats a pattern, and among patterns the later one wins.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..model.diagnostics import Diagnostic

ERROR, WARNING, IGNORE = "error", "warning", "ignore"
SEVERITIES = (ERROR, WARNING, IGNORE)

# code -> (default severity, what it means)
CODES: dict[str, tuple[str, str]] = {
    # hashes: <kind>-<status>
    **{f"{kind}-{status}": (sev, f"{kind} hash {status}") for kind in
       ("unit", "test", "documentation", "adr", "requirement", "file")
       for status, sev in (("stale", ERROR), ("missing", ERROR), ("recorded-only", ERROR), ("unrecorded", ERROR))},
    "recorder-missing": (ERROR, "a release-evidence file that records hashes (traceability, manifest, ...) is gone"),
    "file-recorded-only": (WARNING, "a recorded repository file is absent"),
    "evidence-stale": (ERROR, "an evidence file differs from the hash the release evidence records"),
    "evidence-missing": (ERROR, "an evidence file the release needs is absent and unrecorded"),
    "evidence-recorded-only": (WARNING, "an evidence file known only by its recorded hash"),
    "evidence-unrecorded": (IGNORE, "an evidence file no recorder lists"),
    "evidence-input-stale": (WARNING, "a third-party evidence file recorded an input hash that is now old"),
    "aggregate-stale": (ERROR, "a digest over several inputs (content_sha256, policy, ADR aggregate) differs"),
    "summary-mismatch": (ERROR, "a count differs from the summary the tree records"),
    # coverage
    "unit-untested": (ERROR, "a unit without tests"),
    "requirement-uncovered": (ERROR, "an executable requirement without tests"),
    "test-unknown-requirement": (ERROR, "a test names a requirement that does not exist"),
    "requirement-unowned": (ERROR, "a requirement whose owner unit does not exist"),
    "adr-unknown-link": (ERROR, "an ADR link or citation to an unknown id"),
    "adr-cited-inactive": (ERROR, "a draft, superseded or rejected ADR cited as current"),
    "translation-stale": (WARNING, "a translation whose English text changed"),
    "translation-orphaned": (ERROR, "a translation of a subject that no longer exists"),
    "example-digest-mismatch": (ERROR, "a worked example's result digest differs from the pinned one"),
    "example-failed": (ERROR, "a worked example could not run"),
    "example-unpinned": (WARNING, "a worked example without a pinned digest while the tree has a review lock"),
    # AVS results (pto-docs trace --avs): the spec's test points run on pto-docs' ASL interpreter
    "avs-fail": (ERROR, "an AVS test point failed (an assertion of the test did not hold)"),
    "avs-error": (ERROR, "an AVS test point ended in a dynamic error"),
    "avs-stale": (ERROR, "an AVS result describes an older version of its test file"),
    "avs-missing": (ERROR, "an AVS test point has no result in the given results"),
    "avs-needs-decoders": (ERROR, "an AVS test point was not run: it calls a Validate* entry point of the spec's "
                                  "decoder generator, and the run had pto-docs' own decoders (pto-docs avs --decoders)"),
    "avs-example-missing": (WARNING, "an instruction that no AVS test point of the results executes (no worked example)"),
    "avs-example-failing": (ERROR, "an instruction whose every worked example comes from a test point that does not pass"),
    "avs-example-changed": (ERROR, "an instruction's worked-example digests differ from the ones the review lock pins"),
    "avs-example-unpinned": (WARNING, "an instruction's worked examples are not pinned while the lock pins examples"),
    # suspect links
    "link-suspect": (ERROR, "an end of a reviewed link changed since it was stamped"),
    "link-unstamped": (ERROR, "a link that was never reviewed"),
    "link-removed": (ERROR, "a reviewed link that no longer exists"),
    "coverage-suspect": (ERROR, "a test of this requirement changed since it was stamped"),
    "lock-missing": (ERROR, "--check needs a review lock; run pto-docs trace --stamp"),
    "lock-invalid": (ERROR, "the review lock cannot be read"),
    # the loader
    "load-error": (ERROR, "the loader reported an error"),
    "load-warning": (IGNORE, "the loader reported a warning"),
}


# codes of checks that run only when asked: listed in a report's policy only by a run that made the check
ON_REQUEST: dict[str, tuple[str, str]] = {
    "CHANGE-UNDOCUMENTED": (WARNING, "trace --previous: a removed instruction or a changed encoding that no ADR or "
                                     "changelog entry of the new release names"),
}


class PolicyError(ValueError):
    pass


@dataclass(frozen=True)
class Policy:
    overrides: tuple[tuple[str, str], ...] = ()

    def severity(self, code: str) -> str:
        exact = [sev for key, sev in self.overrides if key == code]
        if exact:
            return exact[-1]
        matched = [sev for key, sev in self.overrides if key != code and fnmatch.fnmatchcase(code, key)]
        if matched:
            return matched[-1]
        return CODES.get(code, ON_REQUEST.get(code, (ERROR, "")))[0]

    def effective(self, also: Iterable[str] = ()) -> dict[str, str]:
        """Every code's severity; ``also``: codes of ON_REQUEST checks this run made."""
        return {code: self.severity(code) for code in sorted({*CODES, *also})}

    def with_overrides(self, more: Iterable[tuple[str, str]]) -> Policy:
        return Policy(self.overrides + tuple(more))


def parse_policy_items(items: Mapping[str, Any] | Iterable[str], where: str) -> list[tuple[str, str]]:
    """``{"translation-stale": "warning"}`` or ``["translation-stale=warning"]`` -> [(key, severity)]."""
    pairs: list[tuple[str, str]] = []
    if isinstance(items, Mapping):
        raw = [(str(k), v) for k, v in items.items()]
    else:
        raw = []
        for item in items:
            key, sep, value = str(item).partition("=")
            if not sep:
                raise PolicyError(f"{where}: {item!r} is not KEY=error|warning|ignore")
            raw.append((key.strip(), value.strip()))
    for key, value in raw:
        if value not in SEVERITIES:
            raise PolicyError(f"{where}: {key}: severity must be error, warning or ignore, not {value!r}")
        if not any(fnmatch.fnmatchcase(code, key) for code in (*CODES, *ON_REQUEST)):
            raise PolicyError(f"{where}: {key!r} matches no finding code (known: "
                              f"{', '.join(sorted((*CODES, *ON_REQUEST)))})")
        pairs.append((key, value))
    return pairs


# A finding is the one problem type, a Diagnostic, whose subject is the id of the item it concerns.
Finding = Diagnostic


def finding(path: str, code: str, ident: str, message: str, severity: str = ERROR, line: int = 0,
            col: int = 0) -> Diagnostic:
    return Diagnostic(path, line, col, severity, code, message, subject=ident)


def apply_policy(raw: Iterable[tuple], policy: Policy) -> list[Finding]:
    """(code, id, path, message[, line, col]) -> findings with severities; ignored ones are dropped."""
    out = set()
    for code, ident, path, message, *where in raw:
        severity = policy.severity(code)
        if severity != IGNORE:
            out.add(finding(path, code, ident, message, severity, *where))
    return sorted(out, key=lambda f: (f.path, f.code, f.subject, f.message, f.line, f.col))


def exit_code(findings: Iterable[Finding]) -> int:
    return 1 if any(f.severity == ERROR for f in findings) else 0
