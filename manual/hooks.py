"""MkDocs hooks of the manual (manual/mkdocs.yml), two jobs done at build time so the manual cannot drift:

* the table of diagnostic codes on diagnostics.md is written from the code registry ``CODES`` of this checkout
  (``pto_docs/model/codes.py``), read by its file path, so the
  manual describes the code beside it, not whatever pto-docs happens to be installed;
* the table of the traceability gate's finding codes on traceability.md is written from ``CODES`` of
  ``pto_docs/trace/gate.py`` (imported from this checkout: it is made by comprehensions, so it is not read as text);
* ``benchmarks/RESULTS.md``, the speed log that lives with the benchmarks, becomes the page ``speed-log.md``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

from mkdocs.structure.files import File

REPO = Path(__file__).resolve().parent.parent
CODES_FILES = ("pto_docs/model/codes.py",)
CODES_MARKER = "<!-- codes-table -->"
GATE_MARKER = "<!-- gate-codes-table -->"
SPEED_LOG = REPO / "benchmarks" / "RESULTS.md"


def load_codes() -> dict[str, str]:
    for relative in CODES_FILES:
        path = REPO / relative
        if path.is_file():
            spec = importlib.util.spec_from_file_location("_manual_codes", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return dict(module.CODES)
    raise FileNotFoundError(f"no code registry at {' or '.join(CODES_FILES)} under {REPO}")


_MARKUP = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "\\|", **{c: "\\" + c for c in "\\*_[]"}}


def markdown_text(meaning: str) -> str:
    """A registry meaning as Markdown that shows exactly that text: `code spans` stay, and outside them every
    character Markdown or HTML would read (``<SUBJECT>``, ``[a-z]*``, ``json|yaml``) is escaped."""
    parts = meaning.split("`")
    for i in range(0, len(parts), 2):  # the even parts are outside code spans
        parts[i] = "".join(_MARKUP.get(c, c) for c in parts[i])
    return "`".join(parts)


def codes_table(codes: dict[str, str]) -> str:
    rows = ["| code | meaning |", "| --- | --- |"]
    rows += [f"| `{code}` | {markdown_text(meaning)} |" for code, meaning in codes.items()]
    return "\n".join(rows)


def load_gate_codes() -> dict[str, tuple[str, str]]:
    """The gate's finding codes (code -> default severity, meaning) of the pto_docs beside this manual."""
    loaded = sys.modules.get("pto_docs")
    if loaded is not None and Path(loaded.__file__).resolve().parent != REPO / "pto_docs":
        raise RuntimeError(f"another pto_docs is already imported ({loaded.__file__}); the manual needs {REPO}")
    sys.path.insert(0, str(REPO))
    try:
        return dict(importlib.import_module("pto_docs.trace.gate").CODES)
    finally:
        sys.path.remove(str(REPO))


def gate_table(codes: dict[str, tuple[str, str]]) -> str:
    rows = ["| finding | default | meaning |", "| --- | --- | --- |"]
    rows += [f"| `{code}` | {severity} | {markdown_text(meaning)} |" for code, (severity, meaning) in codes.items()]
    return "\n".join(rows)


def on_files(files, config):
    files.append(File.generated(config, "speed-log.md", abs_src_path=str(SPEED_LOG)))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    if CODES_MARKER in markdown:
        markdown = markdown.replace(CODES_MARKER, codes_table(load_codes()))
    if GATE_MARKER in markdown:
        markdown = markdown.replace(GATE_MARKER, gate_table(load_gate_codes()))
    return markdown
