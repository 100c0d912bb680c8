"""ADR Markdown files: multi-line JSON front matter between '---' lines, then the body."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..model.catalog import SourceFile
from ..model.diagnostics import Diagnostic, error

ADR_FILE = re.compile(r"(\d{4})-[A-Za-z0-9._-]+\.md\Z")
TEMPLATE_ID = "ADR-0000"


@dataclass
class RawAdr:
    file: SourceFile
    front: dict[str, Any] | None
    front_line: int  # line of the opening '{'
    body: str
    body_line: int


def parse_adr(file: SourceFile) -> tuple[RawAdr | None, list[Diagnostic]]:
    diags: list[Diagnostic] = []
    lines = file.text.split("\n")
    if not lines or lines[0].strip() != "---":
        diags.append(error(file.path, 1, 1, "ADR-FRONT-MATTER", "ADR must start with a '---' line followed by JSON front matter"))
        return None, diags
    try:
        close = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        diags.append(error(file.path, 1, 1, "ADR-FRONT-MATTER", "ADR front matter has no closing '---' line"))
        return None, diags
    text = "\n".join(lines[1:close])
    try:
        from ..schemas.strict_parse import loads_json
        front = loads_json(text)
    except json.JSONDecodeError as exc:
        diags.append(error(file.path, exc.lineno + 1, exc.colno, "JSON-SYNTAX", f"ADR front matter is not valid JSON: {exc.msg}"))
        return None, diags
    except RecursionError:
        diags.append(error(file.path, 2, 1, "JSON-SYNTAX", "ADR front matter nests too deeply"))
        return None, diags
    if not isinstance(front, dict):
        diags.append(error(file.path, 2, 1, "RECORD-NOT-OBJECT", "ADR front matter must be a JSON object"))
        return None, diags
    body = "\n".join(lines[close + 1:]).strip("\n")
    return RawAdr(file, front, 2, body, close + 2), diags


def adr_title(front: dict[str, Any], body: str) -> str:
    title = front.get("title")
    if isinstance(title, str) and title:
        return title
    for line in body.split("\n"):
        if line.startswith("# "):
            return re.sub(r"^#\s+ADR[ -]?\d{4}:\s*", "", line).strip()
    return ""


def is_template(file: SourceFile) -> bool:
    return file.path.rsplit("/", 1)[-1].startswith("0000-")
