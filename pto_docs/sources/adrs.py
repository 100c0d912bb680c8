"""ADR Markdown files: multi-line JSON front matter between '---' lines, then the body; or, in the Markdown ADR
format of earlier releases (sources/formats.py), a title line and metadata bullets."""

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


# -- the Markdown ADR format (pto-spec releases up to 0.58.2: sources/formats.py) -------------------------
_HEADING = re.compile(r"#[ \t]+(?:ADR[ -]?(\d{4})[ \t]*:)?")
# (bounded keys, the value is the rest of the line: no pattern here backtracks over a long line)
_BULLET = re.compile(r"-[ \t]+(?:\*\*([A-Za-z][A-Za-z -]{0,60}?)\*\*[ \t]*:|\*\*([A-Za-z][A-Za-z -]{0,60}?):\*\*|"
                     r"([A-Za-z][A-Za-z -]{0,60}?):)")
STATUS_WORDS = ("proposed", "accepted", "rejected", "superseded", "deprecated", "draft")


def _status_word(text: str) -> str:
    """``Accepted.`` -> ``accepted``; a status that does not start with a known word is kept, lower-cased."""
    text = " ".join(text.split()).rstrip(".")
    first = re.match(r"[A-Za-z]*", text).group(0).lower()
    return first if first in STATUS_WORDS else text.lower()


def parse_adr_markdown(file: SourceFile) -> tuple[RawAdr | None, list[Diagnostic]]:
    """An ADR of the Markdown format: ``# ADR-NNNN: Title`` (``ADR NNNN``, or a plain title), then metadata
    bullets ``- Key: value`` (``- **Key**: value``, continued on indented lines) or a ``## Status`` section.
    Its front is made of what it says: id (from the file name), title, status (the first word, lower-cased,
    when it is a known one), status_text, number (the heading's, if any) and metadata (bullet key -> text)."""
    diags: list[Diagnostic] = []
    lines = file.text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None or not lines[start].startswith("# "):
        diags.append(error(file.path, (start or 0) + 1, 1, "ADR-MARKDOWN", "ADR must start with a '# ' title line "
                           "(the Markdown ADR format of this release)"))
        return None, diags
    heading = _HEADING.match(lines[start])
    number, title = heading.group(1), lines[start][heading.end():].strip()
    metadata: dict[str, str] = {}
    last = None
    kept = list(lines)  # the body: everything after the title line but the metadata bullets
    for i in range(start + 1, len(lines)):
        line = lines[i]
        bullet = _BULLET.match(line.strip()) if line.startswith("-") else None
        if bullet:
            last = (bullet.group(1) or bullet.group(2) or bullet.group(3)).strip().lower()
            metadata[last] = line.strip()[bullet.end():].strip()
        elif line.startswith((" ", "\t")) and line.strip() and last is not None:
            metadata[last] = f"{metadata[last]} {line.strip()}".strip()
        elif line.startswith(">") or not line.strip():
            last = None if line.strip() else last  # a note quoted before the bullets stays in the body
            continue
        else:
            break
        kept[i] = ""
    body_from = start + 1
    status_text = metadata.get("status")
    if status_text is None:
        status_text = _status_section(lines[body_from:])
    front: dict[str, Any] = {"id": f"ADR-{file.path.rsplit('/', 1)[-1][:4]}", "title": title,
                             "status": _status_word(status_text or ""), "status_text": status_text,
                             "number": number, "metadata": metadata}
    if not title:
        diags.append(error(file.path, start + 1, 1, "ADR-MARKDOWN", "ADR title line is empty"))
    if status_text is None:
        diags.append(error(file.path, start + 1, 1, "ADR-STATUS", "ADR states no status (no '- Status:' line and "
                           "no '## Status' section)"))
    body = "\n".join(kept[body_from:]).strip("\n")
    body_line = body_from + 1 + next((k for k, line in enumerate(kept[body_from:]) if line.strip()), 0)
    return RawAdr(file, front, start + 1, body, body_line), diags


def _status_section(lines: list[str]) -> str | None:
    """The first paragraph of a ``## Status`` section."""
    for i, line in enumerate(lines):
        if line.strip().lower() == "## status":
            para: list[str] = []
            for text in lines[i + 1:]:
                if text.startswith("#") or (not text.strip() and para):
                    break
                if text.strip():
                    para.append(text.strip())
            return " ".join(para) if para else None
    return None
