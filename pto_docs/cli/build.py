"""pto-docs build [SPEC_ROOT] [--site-dir DIR] [-q]: the same site as `mkdocs build --strict`, from any spec tree.

Faster than plain `mkdocs build` on a rebuild: pages whose every input is unchanged are reused from the
content-addressed cache (the tree's folder in the user's cache, ``$XDG_CACHE_HOME/pto-docs/trees/``, or the
plugin's ``cache_dir``, never inside the spec tree; every entry sealed with the user's key; ``--no-cache`` turns
it off). Progress goes to stderr when it is a terminal (``-q`` silences it and the log); one summary line
closes every run.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TextIO


def add_arguments(parser) -> None:
    parser.add_argument("spec_root", nargs="?", default=None,
                        help="spec tree to build (default: the pto-docs spec_root of the MkDocs config)")
    parser.add_argument("--site-dir", default=None, help="output directory (default: the config's site_dir)")
    parser.add_argument("--config-file", default=None,
                        help="MkDocs config (default: ./mkdocs.yml, else the configuration shipped with pto-docs)")
    parser.add_argument("--no-strict", action="store_true", help="do not abort on MkDocs warnings")
    parser.add_argument("--no-cache", action="store_true", help="rebuild every page (ignore and do not use the cache)")
    parser.add_argument("--cache-dir", default=None, help="page cache directory (default: the tree's folder in $XDG_CACHE_HOME/pto-docs/trees)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress and no log below warnings")
    parser.add_argument("--previous", default=None, metavar="OLD",
                        help="add a 'Changes since OLD' page and notes: OLD is a spec tree or a git revision of the checkout")
    parser.add_argument("--force", action="store_true",
                        help="replace the contents of a site directory that does not look like a previous site")


def run(args, out: TextIO, err: TextIO) -> int:
    from .. import api
    from ..runtime.progress import Progress

    quiet = bool(getattr(args, "quiet", False))
    logging.basicConfig(format="%(levelname)-7s -  %(message)s", level=logging.WARNING if quiet else logging.INFO)
    if quiet:
        logging.getLogger("mkdocs").setLevel(logging.WARNING)
    logging.getLogger("jieba").setLevel(logging.WARNING)
    from ..store.output_guard import refuse_build_outputs, write_error
    if refuse_build_outputs(err, args.site_dir, args.spec_root, create=False):  # before MkDocs reads its config
        return 2
    if _bad_previous(getattr(args, "previous", None), args.spec_root, err):
        return 2
    config_file = args.config_file or ("mkdocs.yml" if Path("mkdocs.yml").is_file() else None)
    progress = Progress(stream=err, quiet=quiet)
    try:
        summary = api.build_site(args.spec_root, args.site_dir, config_file=config_file, strict=not args.no_strict,
                                 cache=not getattr(args, "no_cache", False), cache_dir=getattr(args, "cache_dir", None),
                                 progress=progress, force=bool(getattr(args, "force", False)),
                                 previous=getattr(args, "previous", None))
    except api.ConfigProblem as exc:  # (its message names where: the config file, the path refused)
        progress.clear()
        err.write(f"{exc}\n")
        return 2
    except OSError as exc:  # an unwritable or full disk while building: one message, exit 2
        progress.clear()
        return write_error(err, exc, args.site_dir or "pto-docs build")
    except api.BuildFailed as exc:
        progress.clear()
        err.write(f"pto-docs build: {exc}\n")
        return 1
    if summary:
        progress.summary(summary)
    return 0


def _bad_previous(previous: str | None, spec_root: str | None, err: TextIO) -> bool:
    """``--previous OLD`` that is neither a directory nor a revision of the checkout the spec root lies in: one
    line, and True (exit 2)."""
    if previous is None or Path(previous).is_dir():
        return False
    from ..sources.gitrev import RevisionError, find_checkout, resolve
    where = Path(spec_root or ".").resolve()
    checkout = find_checkout(where)
    if checkout is None:
        err.write(f"{previous}: error[IO-ROOT]: --previous: neither a spec tree directory nor a git revision (no git "
                  f"checkout at {where})\n")
        return True
    try:
        resolve(checkout, previous)
    except RevisionError as exc:
        err.write(f"{exc}\n")
        return True
    return False
