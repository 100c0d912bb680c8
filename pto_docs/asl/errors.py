"""Run-time outcomes of an ASL program other than a normal return."""

from __future__ import annotations


class AslError(Exception):
    """A dynamic error (ASLRef: 'ASL Dynamic error')."""


class AslLimitError(AslError):
    """A run over one of its limits (steps, time, the size of a value: asl/limits.py, Program.tick)."""


class AslAssertionError(AslError):
    def __init__(self, loc: str, text: str):
        super().__init__(f"{loc}: assertion failed: {text}")
        self.loc, self.text = loc, text


class AslUnreachable(AslError):
    def __init__(self, loc: str):
        super().__init__(f"{loc}: unreachable statement reached")


class AslThrow(Exception):
    """An ASL exception in flight; ``value`` is the exception record, ``type_name`` its type."""

    def __init__(self, value, type_name: str):
        super().__init__(f"uncaught ASL exception {type_name}")
        self.value, self.type_name = value, type_name


class AslCompileError(Exception):
    """A static problem found while compiling (unknown name, bad arity, unsupported construct)."""


def asl_frame(exc: BaseException) -> str | None:
    """``path:line:col name`` of the innermost generated subprogram (``<asl LOC NAME>``) the exception passed
    through, or None."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.startswith("<asl ") and filename.endswith(">"):
            found = filename[5:-1]
        tb = tb.tb_next
    return found


def _where(exc: BaseException) -> str:
    frame = asl_frame(exc)
    if frame is None:
        return ""
    loc, _, name = frame.rpartition(" ")
    return f"{loc}: in {name}: " if loc else f"in {name}: "


def internal_error(exc: BaseException) -> AslError:
    """The last-resort net: an exception of the interpreter itself (a Python TypeError on values the ASL should
    not have combined, a limit of Python's) as a dynamic error naming the subprogram it came from."""
    try:
        detail = str(exc)
    except Exception:  # noqa: BLE001 - e.g. a message that formats a huge integer
        detail = ""
    detail = detail if len(detail) <= 300 else detail[:300] + "..."
    error = AslError(f"{_where(exc)}internal error: {type(exc).__name__}" + (f": {detail}" if detail else ""))
    error.__traceback__ = None
    return error


def located(exc: BaseException) -> str:
    """The text of an ASL error, with the subprogram it was raised in when its message has no position."""
    text = str(exc)
    if isinstance(exc, AslError) and not has_position(text):
        return _where(exc) + text
    return text


def has_position(text: str) -> bool:
    head = text.split(": ", 1)[0]
    parts = head.rsplit(":", 2)
    return len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit()
