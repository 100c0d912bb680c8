"""pto-docs build [SPEC_ROOT] [--site-dir DIR]: the same site as `mkdocs build --strict`, from any spec tree."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import TextIO

REPO_CONFIG = Path(__file__).resolve().parents[2] / "mkdocs.yml"


def add_arguments(parser) -> None:
    parser.add_argument("spec_root", nargs="?", default=None,
                        help="spec tree to build (default: the pto-docs spec_root of the MkDocs config)")
    parser.add_argument("--site-dir", default=None, help="output directory (default: the config's site_dir)")
    parser.add_argument("--config-file", default=None,
                        help="MkDocs config (default: ./mkdocs.yml, else the one shipped with pto-docs)")
    parser.add_argument("--no-strict", action="store_true", help="do not abort on MkDocs warnings")


def _config_file(explicit: str | None) -> str:
    if explicit:
        return explicit
    here = Path("mkdocs.yml")
    return str(here if here.is_file() else REPO_CONFIG)


def run(args, out: TextIO, err: TextIO) -> int:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, ConfigurationError, PluginError

    if args.spec_root is not None and not Path(args.spec_root).is_dir():
        err.write(f"{args.spec_root}: error[IO-ROOT]: spec root does not exist or is not a directory\n")
        return 2
    logging.basicConfig(format="%(levelname)-7s -  %(message)s", level=logging.INFO)
    overrides = {"strict": not args.no_strict}
    if args.site_dir:
        overrides["site_dir"] = os.path.abspath(args.site_dir)
    start = time.monotonic()
    try:
        config = load_config(config_file=_config_file(args.config_file), **overrides)
        plugin = config.plugins["pto-docs"]
        if args.spec_root is not None:
            plugin.config.spec_root = os.path.abspath(args.spec_root)
        build(config)
    except (PluginError, Abort, ConfigurationError) as exc:
        err.write(f"pto-docs build: {exc}\n")
        return 1
    out.write(f"site written to {config.site_dir} in {time.monotonic() - start:.1f} s\n")
    return 0
