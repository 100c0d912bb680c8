"""Subcommands beyond validate and exec; each module registers its parser and runs it."""

from __future__ import annotations

import argparse
from typing import TextIO

# (command name, module, description); modules define add_arguments(parser) and run(args, out, err) -> int
COMMANDS: list[tuple[str, str, str]] = [
    ("build", "pto_docs.cli.build", "build the bilingual MkDocs site (same as mkdocs build --strict)"),
    ("build-versions", "pto_docs.cli.build_versions",
     "a versioned site: one site per release tree under <version>/, with Material's version selector"),
    ("trace", "pto_docs.cli.trace", "traceability report and release gate (hashes, coverage, suspect links)"),
    ("diff", "pto_docs.cli.diff", "what changed between two releases (spec trees or git revisions)"),
    ("avs", "pto_docs.cli.avs", "run the spec's AVS test points on the built-in ASL interpreter"),
    ("evidence", "pto_docs.cli.evidence",
     "rewrite or --check the derived catalogs, evidence and manifest of a tree pto-docs maintains"),
    ("i18n", "pto_docs.cli.i18n", "translation status and skeletons (i18n status | i18n extract)"),
    ("init", "pto_docs.cli.init", "write a minimal mkdocs.yml for a spec tree (never overwrites)"),
]


def register_more(sub: argparse._SubParsersAction) -> None:
    import importlib
    for name, module, help_text in COMMANDS:
        parser = sub.add_parser(name, help=help_text)
        importlib.import_module(module).add_arguments(parser)


def dispatch(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import importlib
    for name, module, _help in COMMANDS:
        if name == args.command:
            return importlib.import_module(module).run(args, out, err)
    err.write(f"pto-docs: unknown command {args.command}\n")
    return 2
