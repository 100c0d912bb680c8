"""pto-docs build [SPEC_ROOT] [--site-dir DIR] [-q]: the same site as `mkdocs build --strict`, from any spec tree.

Faster than plain `mkdocs build` on a rebuild: pages whose every input is unchanged are reused from the
content-addressed cache (``.pto-docs-cache/`` beside the site, or the plugin's ``cache_dir``; ``--no-cache``
turns it off). Progress goes to stderr when it is a terminal (``-q`` silences it and the log); one summary line
closes every run.
"""

from __future__ import annotations

import logging
import os
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
    parser.add_argument("--no-cache", action="store_true", help="rebuild every page (ignore and do not use the cache)")
    parser.add_argument("--cache-dir", default=None, help="page cache directory (default: .pto-docs-cache beside the site)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress and no log below warnings")
    parser.add_argument("--force", action="store_true",
                        help="replace the contents of a site directory that does not look like a previous site")


def _config_file(explicit: str | None) -> str:
    if explicit:
        return explicit
    here = Path("mkdocs.yml")
    return str(here if here.is_file() else REPO_CONFIG)


def run(args, out: TextIO, err: TextIO) -> int:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, ConfigurationError, PluginError

    from ..progress import Progress

    quiet = bool(getattr(args, "quiet", False))
    if args.spec_root is not None and not Path(args.spec_root).is_dir():
        err.write(f"{args.spec_root}: error[IO-ROOT]: spec root does not exist or is not a directory\n")
        return 2
    logging.basicConfig(format="%(levelname)-7s -  %(message)s", level=logging.WARNING if quiet else logging.INFO)
    if quiet:
        logging.getLogger("mkdocs").setLevel(logging.WARNING)
    logging.getLogger("jieba").setLevel(logging.WARNING)
    overrides = {"strict": not args.no_strict}
    if args.site_dir:
        overrides["site_dir"] = os.path.abspath(args.site_dir)
    from ..output_guard import refuse_build_outputs, write_error
    if refuse_build_outputs(err, args.site_dir, args.spec_root, create=False):  # before MkDocs reads its config
        return 2
    try:
        config = load_config(config_file=_config_file(args.config_file), **overrides)
        plugin = config.plugins["pto-docs"]
        if args.spec_root is not None:
            plugin.config.spec_root = os.path.abspath(args.spec_root)
        if getattr(args, "cache_dir", None):
            plugin.config.cache_dir = os.path.abspath(args.cache_dir)
        use_cache = plugin.config.cache and not getattr(args, "no_cache", False)
        plugin.config.cache = use_cache
        plugin.dirty_build = use_cache  # dirty: MkDocs skips the pages the plugin reuses from the cache
        plugin.progress = Progress(stream=err, quiet=quiet)
        if refuse_build_outputs(err, config["site_dir"], plugin.spec_root(config), plugin.config.cache_dir,
                                force=bool(getattr(args, "force", False))):
            return 2
        build(config, dirty=use_cache)
    except OSError as exc:  # an unwritable or full disk while building: one message, exit 2
        plugin.progress.clear() if "plugin" in locals() and plugin.progress else None
        return write_error(err, exc, config["site_dir"] if "config" in locals() else "pto-docs build")
    except (PluginError, Abort, ConfigurationError) as exc:
        plugin.progress.clear() if "plugin" in locals() and plugin.progress else None
        err.write(f"pto-docs build: {exc}\n")
        return 2 if isinstance(exc, ConfigurationError) else 1  # a bad configuration is a usage problem
    if plugin.summary_text:
        plugin.progress.summary(plugin.summary_text)
    return 0
