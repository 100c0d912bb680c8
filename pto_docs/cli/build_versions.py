"""pto-docs build-versions TREE [TREE ...] [--site-dir OUT] [--latest VERSION]: a versioned site.

One site per release tree (a directory, or a git revision of the checkout around the working directory) under OUT/<version>/ (the version is the tree's ``release.architecture_version``), in
mike's layout: OUT/versions.json, a ``latest`` alias (redirect pages) and OUT/index.html redirecting to it, each
further language under its own prefix (OUT/zh-CN/<version>/, OUT/zh-CN/versions.json), and Material's version
selector in every page's header. Each release is built once and cached (site/versions.py): adding a release to
the list rebuilds only the new one. Exit codes as ``pto-docs build``.
"""

from __future__ import annotations

import logging
from typing import TextIO


def add_arguments(parser) -> None:
    parser.add_argument("trees", nargs="+", metavar="TREE",
                        help="release trees (spec roots) or git revisions (release tags) of the checkout, in any order")
    parser.add_argument("--site-dir", "-o", default="site", help="output directory (default: site)")
    parser.add_argument("--latest", default=None, metavar="VERSION",
                        help="the release the latest alias names (default: the highest version)")
    parser.add_argument("--changes", action="store_true",
                        help="each release's site gets a 'Changes since' page against the release before it")
    parser.add_argument("--config-file", default=None,
                        help="MkDocs config (default: ./mkdocs.yml, else the configuration shipped with pto-docs)")
    parser.add_argument("--no-strict", action="store_true", help="do not abort on MkDocs warnings")
    parser.add_argument("--no-cache", action="store_true", help="build every release again, keep nothing")
    parser.add_argument("--cache-dir", default=None,
                        help="where the releases' builds are kept (default: $XDG_CACHE_HOME/pto-docs/versions)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress and no log below warnings")
    parser.add_argument("--force", action="store_true",
                        help="replace the contents of a site directory that does not look like a previous site")


def run(args, out: TextIO, err: TextIO) -> int:
    from pathlib import Path

    from .. import api
    from ..runtime.progress import Progress
    from ..site.versions import build_versions
    from ..store.output_guard import write_error

    quiet = bool(args.quiet)
    logging.basicConfig(format="%(levelname)-7s -  %(message)s", level=logging.WARNING if quiet else logging.INFO)
    if quiet:
        logging.getLogger("mkdocs").setLevel(logging.WARNING)
    logging.getLogger("jieba").setLevel(logging.WARNING)
    config_file = args.config_file or ("mkdocs.yml" if Path("mkdocs.yml").is_file() else None)
    progress = Progress(stream=err, quiet=quiet)

    def report(result: dict) -> None:
        progress.summary(f"{result['version']}: {result['summary']}")

    try:
        results = build_versions(args.trees, args.site_dir, config_file=config_file, strict=not args.no_strict,
                                 cache=not args.no_cache, cache_dir=args.cache_dir, latest=args.latest,
                                 progress=progress, force=args.force, report=report, changes=args.changes)
    except api.ConfigProblem as exc:
        progress.clear()
        err.write(f"{exc}\n")
        return 2
    except OSError as exc:
        progress.clear()
        return write_error(err, exc, args.site_dir)
    except api.BuildFailed as exc:
        progress.clear()
        err.write(f"pto-docs build-versions: {exc}\n")
        return 1
    latest = next(r["version"] for r in results if r["version"] == (args.latest or results[0]["version"]))
    progress.summary(f"pto-docs: {len(results)} releases ({', '.join(r['version'] for r in results)}), "
                     f"latest {latest} -> {Path(args.site_dir).resolve()}")
    return 0
