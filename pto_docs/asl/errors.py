"""Run-time outcomes of an ASL program other than a normal return."""

from __future__ import annotations

import re


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


class AslInternalError(AslError):
    """The last-resort net: a failure of the interpreter itself, reported as a dynamic error (``internal_error``)."""


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
    error = AslInternalError(f"{_where(exc)}internal error: {type(exc).__name__}" + (f": {detail}" if detail else ""))
    error.__traceback__ = None
    return error


class AslTypeError(AslError):
    """A value of the wrong type met at run time (ASLRef rejects such a program when it type-checks it; this
    interpreter has no static checker and finds it where the value is used)."""


_PY_KIND = {"int": "an integer", "str": "a string", "BV": "a bitvector", "Fraction": "a real", "dict": "a record",
            "list": "an array", "tuple": "a tuple", "bool": "a boolean", "NoneType": "no value"}
_OPERANDS = re.compile(r"unsupported operand type\(s\) for ([^:]+): '(\w+)' and '(\w+)'\Z")
_COMPARE = re.compile(r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'\Z")
_UNARY = re.compile(r"bad operand type for unary (\S+): '(\w+)'\Z")
_SUBSCRIPT = re.compile(r"'(\w+)' object (is not subscriptable|does not support item assignment)\Z")
_INDICES = re.compile(r"(list|tuple) indices must be integers or slices, not (\w+)\Z")
_ATTRIBUTE = re.compile(r"'(\w+)' object has no attribute '(val|width)'\Z")
_NOT_INTEGER = re.compile(r"'(\w+)' object cannot be interpreted as an integer\Z")
_STR_INDEX = re.compile(r"(string|str) indices must be integers(?: or slices)?, not '?(\w+)'?\Z")
_FUNCTION = re.compile(r"bad operand type for (\w+)\(\): '(\w+)'\Z")
_NOT_ITERABLE = re.compile(r"cannot unpack non-iterable (\w+) object\Z|'(\w+)' object is not iterable\Z")
_CONCAT = re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+\Z')
_UNBOUND = re.compile(r"cannot access local variable 'l_(\w+)'")
_QUOTED = re.compile(r"'(\w+)'")
_ASL_OP = {"&": "AND", "|": "OR", "^": "XOR", "~": "NOT", "** or pow()": "^"}


def _kind(name: str) -> str:
    return _PY_KIND.get(name, f"a value of Python type {name}")


def type_error_text(exc: BaseException) -> str | None:
    """What a Python exception of the generated code on values the ASL should not have combined means in ASL
    terms (an operator on operands of the wrong types, a field of a value that has none, a bitvector operation
    on an integer), or None when it is not one of those."""
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - e.g. a message that formats a huge integer
        return None
    kind = type(exc)
    if kind is KeyError and exc.args and type(exc.args[0]) is str:
        return f"the record has no field {exc.args[0]}"
    if kind is KeyError and exc.args and type(exc.args[0]) is int:
        return "a record indexed as an array"
    if kind is UnboundLocalError and (m := _UNBOUND.match(text)):
        return f"{m[1]} is read before it has a value (in its own initialiser?)"
    if kind is ZeroDivisionError:
        return "division by zero"
    if kind is AttributeError:
        m = _ATTRIBUTE.match(text)
        return f"{_kind(m[1])} where a bitvector is expected" if m else None
    if kind is not TypeError:
        return None
    if m := _OPERANDS.match(text):
        op = _ASL_OP.get(m[1], m[1])
        return f"operator {op} cannot combine {_kind(m[2])} and {_kind(m[3])}"
    if m := _COMPARE.match(text):
        return f"comparison {m[1]} cannot compare {_kind(m[2])} and {_kind(m[3])}"
    if m := _UNARY.match(text):
        return f"operator {_ASL_OP.get(m[1], m[1])} cannot apply to {_kind(m[2])}"
    if m := _SUBSCRIPT.match(text):
        what = "read" if m[2].startswith("is not") else "written"
        return f"{_kind(m[1])} has no fields or elements to be {what}"
    if m := _INDICES.match(text):
        return f"{_kind(m[1])} indexed by {_kind(m[2])} (a field of a value that has no fields?)"
    if m := _CONCAT.match(text):
        return f"operator + cannot combine {_kind(m[1])} and {_kind(m[2])}"
    if m := _STR_INDEX.match(text):
        return f"a string indexed by {_kind(m[2])} (a field or an element of a string?)"
    if m := _NOT_INTEGER.match(text):
        return f"{_kind(m[1])} where an integer is expected"
    if m := _FUNCTION.match(text):
        return f"{m[1]} cannot apply to {_kind(m[2])}"
    if text == "not all arguments converted during string formatting":  # str % int: DIV's exactness, MOD
        return "DIV or MOD on a string or an enumeration label"
    if m := _NOT_ITERABLE.match(text):
        return f"{_kind(m[1] or m[2])} where a tuple is expected"
    quoted = _QUOTED.findall(text)
    if quoted and all(q in _PY_KIND for q in quoted):  # another of Python's messages on ASL values: its types renamed
        return "a value of the wrong type: " + _QUOTED.sub(lambda q: _kind(q[1]), text)
    return None


def runtime_type_error(exc: BaseException) -> AslError:
    """A Python exception of the interpreter as an ASL error naming the subprogram it came from: an
    ``AslTypeError`` saying what was combined wrongly when ``type_error_text`` knows it, else ``internal_error``."""
    text = type_error_text(exc)
    if text is None:
        return internal_error(exc)
    error = AslTypeError(f"{_where(exc)}type error: {text}")
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
