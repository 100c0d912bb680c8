"""Run-time outcomes of an ASL program other than a normal return."""

from __future__ import annotations


class AslError(Exception):
    """A dynamic error (ASLRef: 'ASL Dynamic error')."""


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
