"""The one problem type of pto-docs, shaped like a compiler's diagnostic:
``path:line:col: severity[CODE]: [subject: ]message (at /pointer)``.

The loader and validator report Diagnostics; the release gate's findings (trace/gate.py) are Diagnostics too,
with the id of the item they concern as ``subject`` and a finding code as ``code``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    col: int
    severity: str
    code: str
    message: str
    pointer: str = ""
    subject: str = ""  # the id of the item a finding concerns (trace/gate.py); empty for a load diagnostic

    def format(self) -> str:
        """One line: names and messages with control characters (a newline in a file name) escaped."""
        path = printable(self.path)
        where = f"{path}:{self.line}:{self.col}" if self.line else (path or "<spec>")
        text = f"{where}: {self.severity}[{self.code}]: "
        if self.subject:
            text += f"{printable(self.subject)}: "
        text += printable(self.message, backslash=False)
        if self.pointer:
            text += f" (at {printable(self.pointer, backslash=False)})"
        return text

    def as_json(self) -> dict:
        """The ``pto-docs validate --format json`` shape (no subject)."""
        data = asdict(self)
        del data["subject"]
        return data

    def as_finding_json(self) -> dict:
        """The shape of a finding in the traceability report (``pto-docs.traceability.v1``)."""
        out: dict[str, str | int] = {"code": self.code, "id": self.subject, "path": self.path,
                                     "message": self.message, "severity": self.severity}
        if self.line:
            out.update(line=self.line, col=self.col)
        return out

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR


def printable(text: str, backslash: bool = True) -> str:
    """Text as one printable line: control characters (newline, escape, ...) as Python escapes; with
    ``backslash``, a backslash doubled too, so that an escaped name cannot be mistaken for another."""
    text = str(text)
    if text.isprintable() and (not backslash or "\\" not in text):
        return text
    out = []
    for ch in text:
        if ch == "\\" and backslash:
            out.append("\\\\")
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def error(path: str, line: int, col: int, code: str, message: str, pointer: str = "") -> Diagnostic:
    return Diagnostic(path, line, col, ERROR, code, message, pointer)


def warning(path: str, line: int, col: int, code: str, message: str, pointer: str = "") -> Diagnostic:
    return Diagnostic(path, line, col, WARNING, code, message, pointer)


def sort_diagnostics(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(set(diags), key=lambda d: (d.path, d.line, d.col, d.code, d.message, d.pointer))


def count(diags: Iterable[Diagnostic]) -> tuple[int, int]:
    errors = warnings = 0
    for d in diags:
        if d.is_error:
            errors += 1
        else:
            warnings += 1
    return errors, warnings


class SpecRootError(Exception):
    """The spec root itself is unusable (missing, not a directory): a usage/I-O problem, exit 2."""
