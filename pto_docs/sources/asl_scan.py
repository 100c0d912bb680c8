"""Line scanner for ASL files: metadata records, NDF clauses and DOC regions.

It matches only the exact prefixes pto-spec defines, wherever the line sits, and never raises
on any text: every structural problem becomes a Diagnostic.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..model.diagnostics import Diagnostic, error
from ..model.frozen import sha256_text
from ..schemas.strict_parse import loads_json

RECORD_PREFIXES = {
    "PTO-INSTRUCTION": "// PTO-INSTRUCTION: ",
    "PTO-UNIT": "// PTO-UNIT: ",
    "PTO-REVIEW": "// PTO-REVIEW: ",
    "PTO-STATE": "// PTO-STATE: ",
    "PTO-TEST": "// PTO-TEST: ",
}
NDF_BEGIN = "// NDF-BEGIN: "
NDF_END = "// NDF-END: "
NDF_ATTRS = "// ndf: "
DOC_BEGIN = "// DOC-BEGIN: "
DOC_END = "// DOC-END: "

NDF_ID = re.compile(r"PTO-[A-Z0-9]+(?:-[A-Z0-9]+)*\Z")
DOC_NAME = re.compile(r"[a-z][a-z0-9-]*\Z")
NDF_ATTR_KEYS = ("kind", "level", "layer", "status")
# Upstream's longest record line is 26,070 characters; ten times that is a broken or hostile file.
MAX_RECORD_CHARS = 262_144


@dataclass
class RawRecord:
    kind: str
    line: int
    col: int  # 1-based column where the JSON starts
    text: str
    data: Any = None


@dataclass
class RawNdf:
    id: str
    line: int
    end_line: int
    attrs: dict[str, str]
    attrs_line: int
    body: str

    @property
    def clause_sha256(self) -> str:
        return sha256_text(self.body)


@dataclass
class RawRegion:
    name: str
    begin_line: int
    end_line: int
    text: str


@dataclass
class AslScan:
    records: list[RawRecord] = field(default_factory=list)
    ndf: list[RawNdf] = field(default_factory=list)
    regions: list[RawRegion] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def of_kind(self, kind: str) -> list[RawRecord]:
        return [r for r in self.records if r.kind == kind]


def parse_record_json(path: str, line: int, col: int, text: str, kind: str) -> tuple[Any, Diagnostic | None]:
    """Parse one record's JSON text; a syntax error names the exact column."""
    try:
        data = loads_json(text)
    except json.JSONDecodeError as exc:
        return None, error(path, line, col + exc.pos, "JSON-SYNTAX", f"{kind} record is not valid JSON: {exc.msg}")
    except RecursionError:
        return None, error(path, line, col, "JSON-SYNTAX", f"{kind} record nests too deeply")
    if not isinstance(data, dict):
        return None, error(path, line, col, "RECORD-NOT-OBJECT", f"{kind} record must be a JSON object")
    return data, None


def ndf_body_line(line: str) -> str:
    rest = line[2:]
    return rest[1:] if rest.startswith(" ") else rest


def scan_asl(path: str, text: str, kinds: tuple[str, ...]) -> AslScan:
    scan = AslScan()
    diags = scan.diagnostics
    lines = text.split("\n")
    open_ndf: dict[str, Any] | None = None
    open_doc: dict[str, Any] | None = None
    prefixes = [(k, RECORD_PREFIXES[k]) for k in kinds]
    for index, line in enumerate(lines):
        number = index + 1
        if not line.startswith("//"):
            if open_ndf is not None:
                if open_ndf["attrs_line"] == 0:
                    diags.append(error(path, open_ndf["line"], 1, "NDF-ATTRS-MISSING",
                                       f"NDF clause {open_ndf['id']} must be followed by a '// ndf: kind=… level=… layer=… status=…' line"))
                    open_ndf["attrs_line"] = -1
                diags.append(error(path, number, 1, "NDF-BODY", f"line inside NDF clause {open_ndf['id']} is not a comment"))
                open_ndf = None
            if open_doc is not None:
                open_doc["body"].append(line)
            continue
        for kind, prefix in prefixes:
            if line.startswith(prefix):
                col = len(prefix) + 1
                if len(line) > MAX_RECORD_CHARS:
                    diags.append(error(path, number, 1, "RECORD-TOO-LONG",
                                       f"{kind} record line has {len(line):,} characters (limit {MAX_RECORD_CHARS:,})"))
                    break
                raw = RawRecord(kind, number, col, line[len(prefix):])
                raw.data, diag = parse_record_json(path, number, col, raw.text, kind)
                if diag:
                    diags.append(diag)
                scan.records.append(raw)
                break
        else:
            if line.startswith(NDF_BEGIN):
                clause_id = line[len(NDF_BEGIN):].strip()
                if open_ndf is not None:
                    diags.append(error(path, number, 1, "NDF-NESTED", f"NDF clause {clause_id} begins inside clause {open_ndf['id']}"))
                if open_doc is not None:
                    diags.append(error(path, number, 1, "NDF-IN-DOC", f"NDF clause {clause_id} begins inside DOC region {open_doc['name']}"))
                if not NDF_ID.match(clause_id):
                    diags.append(error(path, number, len(NDF_BEGIN) + 1, "NDF-ID",
                                       f"NDF clause id {clause_id!r} does not match PTO-[A-Z0-9]+(-[A-Z0-9]+)*"))
                open_ndf = {"id": clause_id, "line": number, "attrs": {}, "attrs_line": 0, "body": []}
                continue
            if line.startswith(NDF_END):
                clause_id = line[len(NDF_END):].strip()
                if open_ndf is None:
                    diags.append(error(path, number, 1, "NDF-END-STRAY", f"NDF-END {clause_id} without a matching NDF-BEGIN"))
                    continue
                if clause_id != open_ndf["id"]:
                    diags.append(error(path, number, len(NDF_END) + 1, "NDF-END-MISMATCH",
                                       f"NDF-END {clause_id} closes clause {open_ndf['id']}"))
                if open_ndf["attrs_line"] == 0:
                    diags.append(error(path, open_ndf["line"], 1, "NDF-ATTRS-MISSING",
                                       f"NDF clause {open_ndf['id']} has no '// ndf:' attribute line"))
                body = "\n".join(open_ndf["body"]).strip()
                if not body:
                    diags.append(error(path, open_ndf["line"], 1, "NDF-EMPTY", f"NDF clause {open_ndf['id']} has an empty body"))
                scan.ndf.append(RawNdf(open_ndf["id"], open_ndf["line"], number, open_ndf["attrs"],
                                       max(open_ndf["attrs_line"], 0), body))
                open_ndf = None
                continue
            if open_ndf is not None:
                if open_ndf["attrs_line"] == 0:
                    if line.startswith(NDF_ATTRS) and number == open_ndf["line"] + 1:
                        open_ndf["attrs"] = _parse_ndf_attrs(path, number, line, diags)
                        open_ndf["attrs_line"] = number
                        continue
                    diags.append(error(path, number, 1, "NDF-ATTRS-MISSING",
                                       f"NDF clause {open_ndf['id']} must be followed directly by its '// ndf:' attribute line"))
                    open_ndf["attrs_line"] = -1
                open_ndf["body"].append(ndf_body_line(line))
                continue
            if line.startswith(DOC_BEGIN):
                name = line[len(DOC_BEGIN):].strip()
                if open_doc is not None:
                    diags.append(error(path, number, 1, "DOC-NESTED", f"DOC region {name} begins inside region {open_doc['name']}"))
                if not DOC_NAME.match(name):
                    diags.append(error(path, number, len(DOC_BEGIN) + 1, "DOC-NAME", f"DOC region name {name!r} does not match [a-z][a-z0-9-]*"))
                open_doc = {"name": name, "line": number, "body": []}
                continue
            if line.startswith(DOC_END):
                name = line[len(DOC_END):].strip()
                if open_doc is None:
                    diags.append(error(path, number, 1, "DOC-END-STRAY", f"DOC-END {name} without a matching DOC-BEGIN"))
                    continue
                if name != open_doc["name"]:
                    diags.append(error(path, number, len(DOC_END) + 1, "DOC-END-MISMATCH", f"DOC-END {name} closes region {open_doc['name']}"))
                scan.regions.append(RawRegion(open_doc["name"], open_doc["line"], number, "\n".join(open_doc["body"])))
                open_doc = None
                continue
        if open_doc is not None:
            open_doc["body"].append(line)
    if open_ndf is not None:
        diags.append(error(path, open_ndf["line"], 1, "NDF-UNTERMINATED", f"NDF clause {open_ndf['id']} has no NDF-END"))
    if open_doc is not None:
        diags.append(error(path, open_doc["line"], 1, "DOC-UNTERMINATED", f"DOC region {open_doc['name']} has no DOC-END"))
    return scan


def _parse_ndf_attrs(path: str, number: int, line: str, diags: list[Diagnostic]) -> dict[str, str]:
    attrs: dict[str, str] = {}
    col = len(NDF_ATTRS) + 1
    for token in line[len(NDF_ATTRS):].split(" "):
        if not token:
            col += 1
            continue
        key, sep, value = token.partition("=")
        if not sep or not value:
            diags.append(error(path, number, col, "NDF-ATTRS", f"NDF attribute {token!r} is not key=value"))
        elif key in attrs:
            diags.append(error(path, number, col, "NDF-ATTRS", f"NDF attribute {key!r} is given twice"))
        else:
            attrs[key] = value
        col += len(token) + 1
    keys = tuple(attrs)
    if keys != NDF_ATTR_KEYS:
        diags.append(error(path, number, len(NDF_ATTRS) + 1, "NDF-ATTRS",
                           f"NDF attributes must be exactly kind= level= layer= status= in that order (found {' '.join(keys) or 'none'})"))
    return attrs
