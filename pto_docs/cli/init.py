"""pto-docs init [SPEC_ROOT]: write the minimal mkdocs.yml that builds the site of a spec tree with MkDocs.

The file goes to the root of the spec tree and names it as ``spec_root: .``; an existing mkdocs.yml is never
overwritten (exit 2). The plugin adds everything else the site needs (theme overrides, stylesheet, Markdown
extensions; see site/config.py), and leaves the tree's own docs/ out of the site (option ``docs``).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TextIO

MINIMAL = """\
# The pto-docs site of this spec tree: `mkdocs build` (both languages into site/), `mkdocs serve --dirty`.
site_name: PTO ISA specification
theme:
  name: material
plugins:
  - pto-docs:
      spec_root: .
  - search
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec_root", nargs="?", default=".", help="spec tree to write mkdocs.yml into (default: .)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    root = Path(args.spec_root)
    if not root.is_dir():
        err.write(f"{root}: error[IO-ROOT]: spec root does not exist or is not a directory\n")
        return 2
    target = root / "mkdocs.yml"
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        err.write(f"{target}: error[USAGE]: already exists; pto-docs init does not overwrite it\n")
        return 2
    except OSError as exc:
        err.write(f"{target}: error[IO-WRITE]: cannot write: {exc.strerror or exc}\n")
        return 2
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(MINIMAL)
    out.write(f"wrote {target}: `mkdocs build -f {target}` builds the site into {root / 'site'}\n")
    return 0
