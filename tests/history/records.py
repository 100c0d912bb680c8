"""Edit the records of a catalog copy, reading them as plain JSON lines (not through pto-docs' loader)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

RECORD = re.compile(r"^// PTO-INSTRUCTION: (\{.*\})$", re.M)


def instruction_records(root: Path) -> dict[str, dict]:
    """mnemonic -> the // PTO-INSTRUCTION: record of every asl/ file of the tree, read with json and re."""
    out = {}
    for path in sorted((root / "asl").rglob("*.asl")):
        m = RECORD.search(path.read_text("utf-8"))
        if m:
            record = json.loads(m.group(1))
            out[record["mnemonic"]] = record
    return out


def edit_record(path: Path, change: Callable[[dict], None]) -> None:
    text = path.read_text("utf-8")
    m = RECORD.search(text)
    record = json.loads(m.group(1))
    change(record)
    line = "// PTO-INSTRUCTION: " + json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    path.write_text(text[:m.start()] + line + text[m.end():], "utf-8")


def markdown_adr(path: Path, lines: list[str]) -> None:
    """Rewrite an ADR of the JSON front-matter format in the Markdown ADR format: ``lines`` replace the front
    matter and the title line."""
    text = path.read_text("utf-8")
    body = text.split("\n---\n", 1)[1]
    body = body.split("\n", 1)[1] if body.startswith("# ") else body
    path.write_text("\n".join(lines) + "\n" + body, "utf-8")
