"""The no-change fast path of ``pto-docs build``: skip loading, validating and rendering the spec tree when
every input of the last successful build is byte-identical.

The *tree digest* is the sha256 of
  * every file of the spec root (path and sha256 of its content; a link inside the root by what it leads to;
    only the root's own ``.git`` directory and our outputs excluded) and the
    checkout's git identity (commit, dirty flag, exact tag: the release identity the pages show);
  * every file of the installed ``pto_docs`` package (its source, schemas, lexers, label catalogs), so a
    change to the loader, the validator, a schema or the renderer is a different digest;
  * every file of the page templates directory;
  * the versions of Python and of every library that reaches a page or a diagnostic, and the plugin's
    configuration (languages, strictness, trace policy, ...) and the page language.
A language's *manifest* (``tree-<locale>.json`` in the cache directory) records, for that digest, what the
build derived from the tree: the navigation, each page's src_uri, Markdown and page-cache key, the non-page
files, the validation diagnostics (replayed on the console) and the translation notes. It is written only
after a build without warnings or errors, and used only when both the digest and the page-cache build
signature (theme, configuration, navigation; see cache.py) match; a page missing from the page pack falls
back to the full build. Nothing is keyed by time stamps, so a stale manifest cannot be used.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from ..sources.digest import hash_dir as _hash_dir

FORMAT = 3
LIBRARIES = ("mkdocs", "mkdocs-material", "markdown", "pymdown-extensions", "pygments", "jinja2", "markupsafe",
             "jsonschema", "jieba", "pyyaml")


def _versions() -> dict[str, str]:
    out = {"python": sys.version}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


def tree_digest(root: Path, templates_dir: str | None, plugin_config: dict[str, Any], keep: dict | None = None,
                outputs: tuple[str, ...] = ()) -> str:
    """The digest; with ``keep``, every spec file's bytes and sha256 read for it (by absolute path), which the
    loader then parses instead of reading the tree again (so the digest describes exactly the bytes parsed).
    ``outputs``: our own output directories (site, cache), left out where they lie inside the spec root."""
    from .. import __file__ as package_init
    from ..render.resources import TEMPLATES_DIR
    from ..sources.release import git_identity
    digest = hashlib.sha256(f"pto-docs tree digest {FORMAT}\n".encode())
    skip = frozenset(os.path.realpath(path) for path in outputs if path)
    _hash_dir(digest, Path(root).resolve(), "spec", keep, skip)
    digest.update(json.dumps(git_identity(Path(root).resolve())).encode())
    _hash_dir(digest, Path(package_init).resolve().parent, "pto_docs", spec=False)
    _hash_dir(digest, Path(templates_dir or TEMPLATES_DIR), "templates", spec=False)
    digest.update(json.dumps({"versions": _versions(), "config": plugin_config}, sort_keys=True, default=str).encode())
    return digest.hexdigest()


class TreeManifest:
    """A language's manifest, sealed with the user's key (store/seal.py): one that does not verify is never used."""

    def __init__(self, directory: str | os.PathLike, locale: str, sealer=None):
        from ..store import user_sealer
        self.path = Path(directory) / f"tree-{locale}.json"
        self.sealer = sealer if sealer is not None else user_sealer()

    def load(self, digest: str, quiet: bool = False) -> dict[str, Any] | None:
        """The manifest of the last build if it was made from ``digest``; else None (never an error). A damaged
        one is a warning, unless ``quiet`` (a look ahead at another language's, which reports it itself)."""
        if self.sealer is None or not os.path.lexists(self.path):
            return None
        payload = self.sealer.load(self.path)
        if payload is None:
            if not quiet:
                logging.getLogger("pto_docs.cache").warning(
                    f"pto-docs: the build manifest {self.path} is not sealed with this user's cache key; "
                    f"discarded, the tree is loaded again")
            return None
        try:
            data = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("digest") != digest:
            return None
        return data

    def save(self, digest: str, **values: Any) -> None:
        if self.sealer is None:
            return
        data = {"format": FORMAT, "digest": digest, **values}
        self.sealer.save(self.path, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))

    def remove(self) -> None:
        try:
            self.path.unlink()
        except OSError:
            pass
