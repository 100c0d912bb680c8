"""Shared helpers of the adversarial suite: run a command, and prove that nothing but its outputs changed."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def snapshot(root: Path, skip: tuple[str, ...] = ()) -> dict[str, bytes | str]:
    """Every entry under ``root`` (relative path -> sha256 of its bytes, link target, '<dir>' or '<special …>'),
    ``skip`` prefixes left out."""
    found: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            full = Path(dirpath) / name
            rel = full.relative_to(root).as_posix()
            if any(rel == s or rel.startswith(s + "/") for s in skip):
                continue
            if full.is_symlink():
                found[rel] = "-> " + os.readlink(full)
            elif full.is_dir():
                found[rel] = "<dir>"
            elif full.is_file():
                with open(full, "rb") as fh:
                    found[rel] = hashlib.file_digest(fh, "sha256").digest()
            else:
                found[rel] = f"<special {os.lstat(full).st_mode:o}>"
    return found


def run_main(*argv: str, cwd: Path | None = None) -> tuple[int, str, str]:
    """``pto-docs ARGV`` in this process (stdout, stderr captured); a traceback would fail the test as an error."""
    from pto_docs.cli import main
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    here = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        code = main(list(argv))
    finally:
        os.chdir(here)
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def run_cli(*argv: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 1800) -> tuple[int, str, str]:
    """``python -m pto_docs.cli ARGV`` in a fresh process; asserts that it printed no traceback."""
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    done = subprocess.run([sys.executable, "-m", "pto_docs.cli", *argv], cwd=cwd or REPO, env=environ,
                          capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return done.returncode, done.stdout, done.stderr


def run_capped(*argv: str, gigabytes: int = 2) -> tuple[int, str, str]:
    """``pto-docs ARGV`` in a process capped at ``gigabytes`` of address space: a regression that would fill the
    machine's memory fails (MemoryError, a traceback) instead. Asserts nothing itself."""
    limit = gigabytes << 30
    done = subprocess.run([sys.executable, "-c", "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, "
                           f"({limit}, {limit})); from pto_docs.cli import main; sys.exit(main(sys.argv[1:]))", *argv],
                          capture_output=True, text=True, timeout=1800)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "T"
    shutil.copytree(REPO / "catalog", root)
    return root


BAD_SCHEMES = ("javascript:", "vbscript:", "data:")


def unsafe_markup(html: str, allowed_tags: frozenset[str] | None = None) -> list[str]:
    """Every handler attribute, every href/src a browser would read as javascript:, vbscript: or data:, and (when
    ``allowed_tags`` is given) every other tag, in ``html`` as a browser's tokenizer sees it (entities decoded)."""
    from html.parser import HTMLParser

    found: list[str] = []

    class Scan(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if allowed_tags is not None and tag not in allowed_tags:
                found.append(f"<{tag}>")
            for name, value in attrs:
                if name.startswith("on"):
                    found.append(f"<{tag} {name}>")
                if name in ("href", "src", "action", "formaction", "xlink:href", "poster", "srcset") and value:
                    url = "".join(ch for ch in value if ord(ch) > 0x20).lower()
                    if url.startswith(BAD_SCHEMES):
                        found.append(f"<{tag} {name}={value!r}>")

        handle_startendtag = handle_starttag

    Scan(convert_charrefs=True).feed(html)
    return found
