"""The source formats a spec tree is written in, as its release identity declares them.

pto-spec changed two record formats between its 0.58 releases. Which one a tree uses follows from the
``[release] architecture_version`` its ``specification.toml`` declares (:data:`RELEASE_FORMATS`: the releases
published in an earlier format), never from the look of a file:

======================  ===========================  ==========================================================
format                  releases                     what differs
======================  ===========================  ==========================================================
instruction record v0   0.58.0                       ``// PTO-INSTRUCTION:`` records have no ``contract``
instruction record v1   0.58.1 and later             ``contract`` is required (schemas/instruction.schema.json)
ADR Markdown            up to 0.58.2                 no front matter: ``# ADR-NNNN: Title`` (or ``# ADR NNNN:``),
                                                     then ``- Status: ...`` bullets or a ``## Status`` section
ADR JSON front matter   0.58.3 and later             JSON between ``---`` lines (schemas/adr.schema.json)
======================  ===========================  ==========================================================

Every other tree (a later release, a tree of its own numbering such as a test's, or one declaring no version) is
read in the current formats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

INSTRUCTION_V0, INSTRUCTION_V1 = "instruction-v0", "instruction-v1"
ADR_MARKDOWN, ADR_JSON = "adr-markdown", "adr-json-front-matter"


@dataclass(frozen=True)
class SourceFormats:
    instruction_record: str = INSTRUCTION_V1
    adr: str = ADR_JSON

    @property
    def instruction_kind(self) -> str:
        """The record kind whose schema checks a ``// PTO-INSTRUCTION:`` record (schemas/registry.py)."""
        return "PTO-INSTRUCTION-V0" if self.instruction_record == INSTRUCTION_V0 else "PTO-INSTRUCTION"


CURRENT = SourceFormats()


# the pto-spec releases published in an earlier format: architecture_version -> (instruction record, ADR)
RELEASE_FORMATS = {
    "0.58.0": SourceFormats(INSTRUCTION_V0, ADR_MARKDOWN),
    "0.58.1": SourceFormats(INSTRUCTION_V1, ADR_MARKDOWN),
    "0.58.2": SourceFormats(INSTRUCTION_V1, ADR_MARKDOWN),
}


def formats_of(spec: Mapping[str, Any]) -> SourceFormats:
    """The formats of a tree whose parsed specification.toml is ``spec``."""
    release = spec.get("release") if isinstance(spec, Mapping) else None
    version = release.get("architecture_version") if isinstance(release, Mapping) else None
    return RELEASE_FORMATS.get(version, CURRENT) if isinstance(version, str) else CURRENT
