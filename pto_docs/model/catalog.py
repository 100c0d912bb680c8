"""The immutable catalog model: what one parse of a spec tree produces.

Every record keeps the file and line it came from. Parsed JSON is deep-frozen
(MappingProxyType / tuple); use ``frozen.thaw`` to get plain data back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class SourceFile:
    """One file of the spec tree: its POSIX path relative to the root, its raw-byte sha256 and its text."""

    path: str
    sha256: str
    size: int
    text: str  # decoded UTF-8 with line endings normalised to LF (parsing only; never hashed)

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


@dataclass(frozen=True)
class NdfClause:
    id: str
    kind: str
    level: str
    layer: str
    status: str
    body: str
    path: str
    line: int  # line of NDF-BEGIN
    end_line: int  # line of NDF-END
    clause_sha256: str  # sha256 of the body text (UTF-8)
    executable: bool


@dataclass(frozen=True)
class DocRegion:
    name: str
    path: str
    begin_line: int  # line of DOC-BEGIN; code starts on the next line
    end_line: int  # line of DOC-END
    text: str


@dataclass(frozen=True)
class StateRecord:
    id: str
    path: str
    line: int
    record: Mapping[str, Any]


@dataclass(frozen=True)
class Unit:
    """An ASL unit: a ``// PTO-INSTRUCTION:`` (kind "instruction") or ``// PTO-UNIT:`` (kind "unit") file."""

    id: str
    kind: str
    surface: str
    mnemonic: str | None
    summary: str
    classification: tuple[str, ...]
    depends_on: tuple[str, ...]
    path: str
    line: int
    record: Mapping[str, Any]
    review: Mapping[str, Any] | None
    states: tuple[StateRecord, ...]
    ndf: tuple[NdfClause, ...]
    regions: tuple[DocRegion, ...]
    file: SourceFile

    @property
    def is_instruction(self) -> bool:
        return self.kind == "instruction"

    @property
    def engine(self) -> str | None:
        return self.record.get("engine")

    @property
    def contract(self) -> Mapping[str, Any]:
        return self.record.get("contract", EMPTY)

    @property
    def catalog_records(self) -> tuple[Mapping[str, Any], ...]:
        return tuple(self.record.get("catalog_records", ()))

    @property
    def requirement_id(self) -> str | None:
        return derived_requirement_id(self.surface, self.mnemonic) if self.mnemonic else None

    def region(self, name: str) -> DocRegion | None:
        for region in self.regions:
            if region.name == name:
                return region
        return None


@dataclass(frozen=True)
class Requirement:
    """An NDF clause or a derived ``PTO-INST-<SURFACE>-<SLUG>`` instruction identity."""

    id: str
    origin: str  # "ndf" | "instruction"
    executable: bool
    status: str
    owner: str  # owning unit id
    owner_path: str
    ndf: NdfClause | None = None


@dataclass(frozen=True)
class TestPoint:
    id: str
    path: str
    source: str
    requirements: tuple[str, ...]
    kind: str
    summary: str
    pass_condition: str
    related_sources: tuple[str, ...]
    line: int
    record: Mapping[str, Any]
    file: SourceFile

    @property
    def directory_source(self) -> str:
        """The owning unit path implied by the test's directory: tests/asl/<X>/name.asl -> asl/<X>.asl."""
        parent = self.path.rsplit("/", 1)[0]
        return "asl/" + parent[len("tests/asl/"):] + ".asl" if parent.startswith("tests/asl/") else ""


@dataclass(frozen=True)
class Adr:
    id: str
    title: str
    status: str
    path: str
    front: Mapping[str, Any]
    front_line: int
    body: str
    body_line: int
    file: SourceFile


@dataclass(frozen=True)
class JsonFile:
    """A spec/ JSON file (catalog, evidence, manifest) with its parsed data."""

    path: str
    data: Any
    file: SourceFile


@dataclass(frozen=True)
class TranslatedString:
    pointer: str
    en_sha256: str
    text: str
    line: int


@dataclass(frozen=True)
class Translation:
    locale: str
    subject: str
    path: str
    strings: Mapping[str, TranslatedString]
    file: SourceFile


@dataclass(frozen=True)
class ExampleCase:
    """A catalog-authored worked example: a pto-docs case v1 file under examples/<MNEMONIC>/."""

    name: str
    instruction: str
    path: str
    case: Mapping[str, Any]
    file: SourceFile


@dataclass(frozen=True)
class Release:
    version: str
    status: str  # "release-candidate" | "verified"
    encoding_abi: str
    commit: str | None
    dirty: bool | None
    tag: str | None


@dataclass(frozen=True)
class Catalog:
    root: str
    release: Release
    files: Mapping[str, SourceFile]
    units: Mapping[str, Unit]
    requirements: Mapping[str, Requirement]
    tests: Mapping[str, TestPoint]
    adrs: Mapping[str, Adr]
    json_files: Mapping[str, JsonFile]
    translations: Mapping[tuple[str, str], Translation]  # (locale, subject) -> translation
    examples: tuple[ExampleCase, ...]
    specification: Mapping[str, Any]
    # indexes, derived once at load time
    unit_by_path: Mapping[str, str] = field(default_factory=lambda: EMPTY)
    tests_by_unit: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: EMPTY)
    tests_by_requirement: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: EMPTY)
    adrs_by_unit: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: EMPTY)
    adrs_by_ndf: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: EMPTY)
    instruction_by_mnemonic: Mapping[tuple[str, str], str] = field(default_factory=lambda: EMPTY)  # (surface, mnemonic) -> id
    # form mnemonic -> (id of the block or scalar unit carrying it, that unit's encoded forms of that mnemonic)
    forms_by_mnemonic: Mapping[str, tuple[str, tuple[Mapping[str, Any], ...]]] = field(default_factory=lambda: EMPTY)

    @property
    def instructions(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.units.values() if u.is_instruction)

    @property
    def ndf_clauses(self) -> tuple[NdfClause, ...]:
        return tuple(c for u in self.units.values() for c in u.ndf)

    def json(self, path: str) -> Any:
        entry = self.json_files.get(path)
        return entry.data if entry else None

    def unit_for_path(self, path: str) -> Unit | None:
        uid = self.unit_by_path.get(path)
        return self.units.get(uid) if uid else None

    def find_instruction(self, mnemonic: str, surface: str | None = None) -> Unit | None:
        if surface:
            uid = self.instruction_by_mnemonic.get((surface, mnemonic))
            return self.units.get(uid) if uid else None
        for (_surface, m), uid in self.instruction_by_mnemonic.items():
            if m == mnemonic:
                return self.units[uid]
        return None


def slug(text: str) -> str:
    """Upper-case, every run of characters outside [A-Z0-9] becomes '-' (pto-spec id rule)."""
    out: list[str] = []
    dash = False
    for ch in text.upper():
        if "A" <= ch <= "Z" or "0" <= ch <= "9":
            out.append(ch)
            dash = False
        elif not dash:
            out.append("-")
            dash = True
    return "".join(out).strip("-")


def derived_requirement_id(surface: str, mnemonic: str) -> str:
    return f"PTO-INST-{slug(surface)}-{slug(mnemonic)}"


def asl_name(mnemonic: str) -> str:
    """How ASL subprogram names spell a mnemonic: every run of characters outside [A-Za-z0-9] becomes '_'
    (``InstructionContractExecute_L_BSTOP``, ``TMATMUL_MX``)."""
    return re.sub(r"[^A-Za-z0-9]+", "_", mnemonic)


def mnemonic_stem(mnemonic: str) -> str:
    """File stem of an instruction unit: runs outside [A-Za-z0-9._-] become '_'."""
    out: list[str] = []
    under = False
    for ch in mnemonic:
        if ch.isascii() and (ch.isalnum() or ch in "._-"):
            out.append(ch)
            under = False
        elif not under:
            out.append("_")
            under = True
    return "".join(out)
