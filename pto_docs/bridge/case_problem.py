"""The problem of a v2 case that cannot run on a tree's model (``pto-docs exec``), shared by ``exec_model`` and
``exec_bundle`` (its own module so that ``exec_model`` can import ``exec_bundle`` without a cycle)."""

from __future__ import annotations


class CaseProblem(ValueError):
    """The case cannot run on this model: ``pointer`` says where in the case."""

    def __init__(self, message: str, pointer: str = "/"):
        super().__init__(message)
        self.pointer = pointer
