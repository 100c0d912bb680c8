"""pto_docs.executor: a NumPy reference model of PTO tile semantics.

A self-contained library (it loads only its JSON schemas from
``pto_docs/schemas``).  It models the 64 tile registers, bundle state
(B.DIM, B.DATR PadValue/DataType/RMode/Sat, PE_MASK), the order of effects
(preflight, source snapshot, compute, padding, atomic publication) and the
operations of the elementwise-tile-tile (including TCVT) and reduce-and-expand
classes of PTO-ISA release 0.58.3.  ``TCVT_PROFILE_NOTES`` lists the numeric
profile choices the model makes where the release leaves TCVT to a profile.
"""

from __future__ import annotations

from .bundle import check_bundle, parse_bundle_text
from .case import run_case
from .cli import exec_command, load_case
from .conversion import TCVT_PROFILE_NOTES
from .examples import default_cases as _default_cases
from .faults import CaseError, TileFault
from .registry import NOT_MODELLED, OPS, UPSTREAM_CLASS

__all__ = [
    "run_case", "load_case", "exec_command", "supported_instructions", "operation_class",
    "accepted_data_types", "default_cases", "parse_bundle_text", "check_bundle",
    "CaseError", "TileFault", "NOT_MODELLED", "TCVT_PROFILE_NOTES",
]


def supported_instructions() -> frozenset[str]:
    """Mnemonics the executor models faithfully."""
    return frozenset(OPS)


def operation_class(mnemonic: str) -> str:
    """Upstream operation class, e.g. "elementwise-tile-tile" or "reduce-and-expand"."""
    try:
        return UPSTREAM_CLASS[mnemonic]
    except KeyError:
        raise KeyError(f"unknown instruction {mnemonic}") from None


def accepted_data_types(mnemonic: str) -> tuple[str, ...]:
    """The model's accepted DataType set for ``mnemonic``."""
    try:
        return OPS[mnemonic].data_types
    except KeyError:
        raise KeyError(f"unsupported instruction {mnemonic}") from None


def default_cases(mnemonic: str) -> list[dict]:
    """Default worked-example cases (each validates and runs with status ok)."""
    return _default_cases(mnemonic)
