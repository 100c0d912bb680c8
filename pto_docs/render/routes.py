"""Where every generated page lives: source URIs (virtual Markdown files) and site URLs, one place."""

from __future__ import annotations

import posixpath
from functools import lru_cache
from urllib.parse import quote

from ..model.catalog import Unit

HOME = "index.md"
INSTRUCTION_INDEX = "instructions/index.md"
UNIT_INDEX = "units/index.md"
ADR_INDEX = "adrs/index.md"
REQUIREMENTS = "requirements/index.md"
TRACEABILITY = "reports/traceability.md"
CHANGES = "changes.md"  # with the plugin's ``previous``: what changed since that release (changes.py)
DATA_TYPES = "reference/data-types.md"


@lru_cache(maxsize=65536)  # pure, and the same surfaces, classes and names recur on every index page
def _segment(text: str) -> str:
    """A path segment that is safe in a URL and on disk (keeps '.', '_' and '-' like the unit file names)."""
    out = "".join(ch if (ch.isascii() and (ch.isalnum() or ch in "._-")) else "_" for ch in text)
    return out.strip(".") or "_"


def unit_src(unit: Unit) -> str:
    if unit.is_instruction:
        stem = unit.path.rsplit("/", 1)[-1]
        stem = stem[:-4] if stem.endswith(".asl") else stem
        parts = ["instructions", _segment(unit.surface), *(_segment(c) for c in unit.classification), _segment(stem)]
        return "/".join(parts) + ".md"
    return f"units/{_segment(unit.id)}.md"


def adr_src(adr_id: str) -> str:
    return f"adrs/{_segment(adr_id)}.md"


def example_file(mnemonic: str, name: str) -> str:
    return f"examples/{_segment(mnemonic)}/{_segment(name)}.json"


def url_of(src_uri: str) -> str:
    """The directory URL MkDocs gives a Markdown source with use_directory_urls (the only mode we support)."""
    if not src_uri.endswith(".md"):
        return src_uri
    stem = src_uri[:-3]
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        return stem[:-5]
    return stem + "/"


def relative(from_src: str, to: str, anchor: str = "") -> str:
    """Relative link from the page built from ``from_src`` to a page source (``.md``) or a site file."""
    return _relative(from_src, to) + (f"#{anchor}" if anchor else "")


@lru_cache(maxsize=65536)  # pure: an index page links to every unit, and posixpath.relpath is slow
def _relative(from_src: str, to: str) -> str:
    base = url_of(from_src).rstrip("/") or "."
    page = to.endswith(".md")
    target = (url_of(to).rstrip("/") or ".") if page else to
    rel = posixpath.relpath(target, base)
    if page:
        rel = "./" if rel == "." else rel + "/"
    return quote(rel, safe="/._-~")


def depth(url: str) -> int:
    return len([p for p in url.split("/") if p]) if url.endswith("/") or url == "" else url.count("/")
