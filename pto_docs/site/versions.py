"""A versioned site (``pto-docs build-versions TREE... --site-dir OUT``): one site per release, in mike's layout.

Each release tree is built like ``pto-docs build`` (every language), with the plugin's ``version`` option set to
its release version (``release.architecture_version`` of its specification.toml), which turns on Material's
version selector (``extra.version.provider: mike``) and makes the language switch link across the layout below.
The whole site is then put together in a staging directory and swapped into place (output.publish), so a failed
run leaves the last site as it was:

    OUT/versions.json            [{"version": "0.58.3", "title": "0.58.3", "aliases": ["latest"]}, ...] newest first
    OUT/index.html               redirect to latest/
    OUT/latest/...               a redirect page for every page of the latest release (mike's redirect alias)
    OUT/<version>/...            the primary language's site of that release
    OUT/<lang>/versions.json, OUT/<lang>/index.html, OUT/<lang>/latest/, OUT/<lang>/<version>/
                                 every further language the same way, under its own prefix (mike's
                                 ``--deploy-prefix``): Material finds ``../versions.json`` above a language's root

Each release is built once and kept: its site lives in the user's cache (``<cache>/versions/<tree key>/site``,
beside its own page cache, apart from ``pto-docs build``'s, whose pages differ), so a release whose tree digest
(tree_cache.py: every byte of the tree, of pto-docs, the templates and the options) is unchanged is not loaded
or rendered again, and when its cached site is intact not even written (uptodate.py). The published files are
hard links to the cached ones where the file system allows (else copies): MkDocs and pto-docs never write into
a published file, they replace whole directories.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .. import api
from ..model.diagnostics import error
from ..store.output_guard import OutputRefused, check_site_dir
from . import output

ALIAS = "latest"
# a release version names a directory of the site: digits first (never a language prefix nor the alias), then
# a short run of letters, digits and . _ + - (no path separator, no "..")
VERSION_NAME = re.compile(r"[0-9][0-9A-Za-z._+-]{0,63}\Z")
SPEC = "specification.toml"


@dataclass(frozen=True)
class Release:
    root: Path
    version: str


def release_version(root: Path) -> str:
    """The release version a tree declares (``[release] architecture_version``), checked as a directory name;
    ConfigProblem (one ``path:line:col: error[CODE]`` line) otherwise."""
    path = root / SPEC
    from ..store.atomic import read_no_follow
    try:
        text = read_no_follow(path).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise api.ConfigProblem(f"{path}: error[IO-READ]: cannot read the release version: "
                                f"{getattr(exc, 'strerror', None) or exc}") from None
    try:
        spec = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        raise api.ConfigProblem(f"{path}:1:1: error[TOML-SYNTAX]: specification.toml is not valid TOML "
                                "(`pto-docs validate` says where)") from None
    release = spec.get("release")
    version = release.get("architecture_version") if isinstance(release, dict) else None
    line = _line_of(text, "architecture_version")
    if not isinstance(version, str):
        problem = "a versioned site needs the tree's release version: [release] architecture_version, a string"
    elif not VERSION_NAME.match(version) or ".." in version:
        problem = (f"release version {json.dumps(version)} cannot name a directory of the site (a digit, then at "
                   "most 63 letters, digits or . _ + -)")
    else:
        return version
    raise api.ConfigProblem(error(str(path), line, 1, "VERSION-NAME", problem, "/release/architecture_version").format())


def _line_of(text: str, key: str) -> int:
    m = re.search(rf"^[ \t]*{re.escape(key)}[ \t]*=", text, re.M)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def revision_tree(rev: str) -> Path:
    """The spec tree of revision ``rev`` of the git checkout around the working directory, read from its .git
    without running git (sources/gitrev.py) once per commit into the user's cache
    (``<cache>/versions/revisions/<commit>/``), so its build is kept like a directory's."""
    from ..sources.gitrev import RevisionError, find_checkout, read_revision, resolve
    from ..store import user_cache_root
    checkout = find_checkout(os.getcwd())
    if checkout is None:
        raise api.ConfigProblem(f"{rev}: error[IO-ROOT]: neither a spec tree directory nor a git revision (no git "
                                f"checkout at {os.getcwd()})")
    try:
        commit = resolve(checkout, rev)[0]
        tree = user_cache_root() / "versions" / "revisions" / commit
        if not tree.is_dir():
            os.makedirs(tree.parent, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{commit}.", dir=tree.parent))
            try:
                read_revision(checkout, commit, staging)
                os.replace(staging, tree)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
    except RevisionError as exc:
        raise api.ConfigProblem(str(exc)) from None
    return tree


def version_key(version: str) -> tuple:
    """Release order: numeric parts as numbers (0.58.10 after 0.58.9), other parts after them as text."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[._+-]", version))


def releases(trees: list[str]) -> list[Release]:
    """The releases of ``trees`` (directories, or git revisions of the checkout around the working directory),
    newest first; ConfigProblem for a missing tree or revision, or a version given twice."""
    found: dict[str, Release] = {}
    for tree in trees:
        root = Path(tree) if Path(tree).is_dir() else revision_tree(tree)
        release = Release(root.resolve(), release_version(root))
        if release.version in found:
            raise api.ConfigProblem(error(tree, 0, 0, "VERSION-TWICE", f"release {release.version} is also the tree "
                                          f"{found[release.version].root}; give each release once").format())
        found[release.version] = release
    return sorted(found.values(), key=lambda r: version_key(r.version), reverse=True)


def release_dirs(root: Path, cache_dir: str | None) -> tuple[Path, Path]:
    """(page cache, site) of a release tree: ``<cache>/versions/<tree key>/{pages,site}``."""
    from ..store import user_cache_root
    from ..store.paths import tree_key
    base = Path(cache_dir) if cache_dir else user_cache_root() / "versions"
    folder = base / tree_key(root)
    return folder / "pages", folder / "site"


def build_versions(trees: list[str], site_dir: str, *, config_file: str | None = None, strict: bool = True,
                   cache: bool = True, cache_dir: str | None = None, latest: str | None = None, progress=None,
                   force: bool = False, report=None, changes: bool = False) -> list[dict]:
    """Build the versioned site of ``trees`` into ``site_dir``; one result per release, newest first:
    ``{"version", "root", "summary"}``. ``report(result)`` is called after each release. ConfigProblem and
    BuildFailed as :func:`pto_docs.api.build_site`. ``changes``: each release's site tells what changed since the
    release before it in the list (``pto-docs build --previous``)."""
    found = releases(trees)
    if not found:
        raise api.ConfigProblem("pto-docs build-versions: error[USAGE]: give at least one release tree")
    versions = [r.version for r in found]
    latest = latest or versions[0]
    if latest not in versions:
        raise api.ConfigProblem(f"pto-docs build-versions: error[USAGE]: --latest {latest} is none of the "
                                f"releases given ({', '.join(versions)})")
    try:
        _check_apart(site_dir, cache_dir)
        for release in found:
            check_site_dir(site_dir, release.root, force=force, create=True)
    except OutputRefused as exc:
        raise api.ConfigProblem(exc.format()) from None
    config = api.mkdocs_config(config_file, spec_root=str(found[0].root), site_dir=site_dir, strict=strict)
    options = config.plugins["pto-docs"].config
    languages = list(options.languages)
    use_cache = bool(cache and options.cache)
    results, built = [], []
    scratch = None if use_cache else tempfile.mkdtemp(prefix="pto-docs-versions-")
    try:
        for i, release in enumerate(found):
            previous = str(found[i + 1].root) if changes and i + 1 < len(found) else None
            pages, site = release_dirs(release.root, cache_dir)
            if scratch is not None:
                site = Path(scratch) / release.version
            try:
                summary = api.build_site(str(release.root), str(site), config_file=config_file, strict=strict,
                                         cache=use_cache, cache_dir=str(pages) if use_cache else None,
                                         progress=progress, force=True, version=release.version, previous=previous)
            except api.BuildFailed as exc:  # (nothing is published: the site stays as it was)
                raise api.BuildFailed(f"release {release.version} ({release.root}): {exc}; the site is left as "
                                      "it was") from None
            result = {"version": release.version, "root": str(release.root), "summary": summary}
            results.append(result)
            built.append((release, site))
            if report is not None:
                report(result)
        how = _publish(site_dir, built, languages, latest)
        for result in results:
            result["published"] = how
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return results


def _check_apart(site_dir: str, cache_dir: str | None) -> None:
    """The site and the kept builds must not hold each other: publishing replaces the site's directories."""
    from ..store import user_cache_root
    out = Path(os.path.realpath(site_dir))
    kept = Path(os.path.realpath(cache_dir)) if cache_dir else Path(os.path.realpath(user_cache_root()))
    if out == kept or out in kept.parents or kept in out.parents:
        raise OutputRefused(site_dir, f"refusing to publish a versioned site over, in or around the cache of its "
                                      f"releases' builds ({kept})")


def _publish(site_dir: str, built: list[tuple[Release, Path]], languages: list[str], latest: str) -> str:
    """Publish the versioned site (versions_publish.py: whole the first time, then only what changed)."""
    from .versions_publish import publish
    primary = languages[0]
    others = sorted(output.locale_dir(loc, primary).rstrip("/") for loc in languages[1:])
    entries = [{"version": r.version, "title": r.version, "aliases": [ALIAS] if r.version == latest else []}
               for r, _site in built]
    listing = (json.dumps(entries, indent=2) + "\n").encode("utf-8")
    plan, files = [], {}
    for loc in languages:
        prefix = output.locale_dir(loc, primary)
        skip = others if loc == primary else []
        for release, site in built:
            plan.append({"key": prefix + release.version, "source": str(site / prefix), "skip": skip})
        source = next(site for release, site in built if release.version == latest) / prefix
        plan.append({"key": prefix + ALIAS, "alias_of": prefix + latest, "version": latest, "source": str(source),
                     "skip": skip})
        files[prefix + "versions.json"] = listing
        files[prefix + "index.html"] = redirect_page(f"{ALIAS}/")
    return publish(site_dir, plan, files, _link_tree, _redirects)


def _link_tree(source: Path, target: Path, skip: set[str]) -> None:
    """``target`` as a copy of ``source`` (top-level names in ``skip`` left out): hard links where possible.
    Only directories and regular files are taken (a built site has nothing else); nothing is followed."""
    for dirpath, dirnames, filenames in os.walk(source):
        rel = os.path.relpath(dirpath, source)
        if rel == ".":
            dirnames[:] = [d for d in dirnames if d not in skip]
            filenames = [f for f in filenames if f not in skip]
        os.makedirs(target / rel, exist_ok=True)
        for name in filenames:
            src, dst = os.path.join(dirpath, name), target / rel / name
            if not os.path.isfile(src) or os.path.islink(src):
                continue
            try:
                os.link(src, dst)
            except OSError:
                shutil.copy2(src, dst)


def _redirects(release_dir: Path, alias_dir: Path, version: str, skip: set[str] = frozenset()) -> None:
    """mike's redirect alias: for every page of the release (``release_dir`` without its top-level names
    ``skip``), a page at the same place under the alias that sends the reader there (keeping the #fragment)."""
    os.makedirs(alias_dir, exist_ok=True)
    for dirpath, dirnames, filenames in os.walk(release_dir):
        rel = os.path.relpath(dirpath, release_dir)
        if rel == ".":
            dirnames[:] = [d for d in dirnames if d not in skip]
        for name in filenames:
            if not name.endswith(".html") or name == "404.html":
                continue
            parts = [] if rel == "." else rel.split(os.sep)
            page = "/".join(parts + ([] if name == "index.html" else [name]))
            href = "../" * (len(parts) + 1) + version + "/" + page + ("/" if page and name == "index.html" else "")
            os.makedirs(alias_dir / rel, exist_ok=True)
            (alias_dir / rel / name).write_bytes(redirect_page(href))


def redirect_page(href: str) -> bytes:
    """A page that sends the reader to ``href`` (relative), as mike's redirect template does."""
    from urllib.parse import quote
    url = quote(href, safe="/.-_~")
    attr = html.escape(url, quote=True)
    script = json.dumps(url).replace("<", "\\u003c")
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Redirecting</title>\n'
            f'<noscript><meta http-equiv="refresh" content="0; url={attr}"></noscript>\n'
            f'<script>window.location.replace({script} + window.location.hash);</script>\n</head>\n<body>\n'
            f'Redirecting to <a href="{attr}">{attr}</a>...\n</body>\n</html>\n').encode()
