"""The plugin's ``previous`` option (``pto-docs build NEW --previous OLD``): the release a site's history is told
against. OLD is a spec tree directory (relative to mkdocs.yml) or a git revision of the checkout the spec root
lies in (read from .git without running git: history/release.py).

The previous release is loaded once per process and identity (a directory: the sha256 of every byte of it, as the
tree digest hashes the spec root; a revision: its commit), so a serving reload or the second language does not
load it again; its identity is part of the no-change digest (build.py), so a changed OLD rebuilds the site.
The new release's changelog (``CHANGELOG.md`` at its root, read as the gate reads it: history/naming.py) is what
the pages of removed instructions quote where it names them (history/notes.py).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from mkdocs.exceptions import PluginError

from ..store.memo import Memo

_KEEP = 2
_LOADED = Memo(__name__, "the previous releases loaded: identity -> history.release.LoadedRelease", limit=_KEEP)


class PreviousRelease:
    def __init__(self, spec: str, base: Path, spec_root: Path):
        self.spec = spec
        self.base = base  # the directory a relative OLD is read from (mkdocs.yml's)
        self.spec_root = spec_root  # a revision is one of the checkout the spec root lies in
        self._identity: str | None = None

    @property
    def path(self) -> Path:
        return self.base / self.spec

    def is_tree(self) -> bool:
        return bool(self.spec) and self.path.is_dir()

    def identity(self) -> str:
        """What decides the previous release's content: ``tree:<sha256>`` or ``commit:<sha>``."""
        if self._identity is None:
            if self.is_tree():
                from ..sources.digest import hash_dir
                digest = hashlib.sha256()
                hash_dir(digest, self.path.resolve(), "previous")
                self._identity = f"tree:{self.path.resolve()}:{digest.hexdigest()}"
            else:
                from ..sources.gitrev import RevisionError, find_checkout, resolve
                checkout = find_checkout(self.spec_root)
                if checkout is None:
                    raise PluginError(f"{self.spec}: error[IO-ROOT]: previous release: neither a spec tree directory "
                                      f"nor a git revision (no git checkout at {self.spec_root})")
                try:
                    commit = resolve(checkout, self.spec)[0]
                except RevisionError as exc:
                    raise PluginError(str(exc)) from None
                self._identity = f"commit:{checkout}:{commit}"
        return self._identity

    def loaded(self):
        """The previous release, loaded (history.release.LoadedRelease); PluginError when it cannot be."""
        key = self.identity()
        hit = _LOADED.get(key)
        if hit is None:
            from .. import api
            try:
                hit = api.load_release(str(self.path) if self.is_tree() else self.spec,
                                       self.base if self.is_tree() else self.spec_root)
            except api.ConfigProblem as exc:
                raise PluginError(f"previous release: {exc}") from None
            _LOADED[key] = hit  # (the memo keeps the last _KEEP)
        return hit

    def history(self, catalog, root: Path):
        """The ReleaseHistory of the tree ``catalog`` (loaded from ``root``) against this previous release."""
        from ..history.naming import changelog_text
        from ..history.notes import release_history
        return release_history(self.loaded().catalog, catalog, changelog_text(root), label=self.label())

    def label(self) -> str | None:
        """How the pages name the previous release: its declared version (None), or a revision's name."""
        return None if self.is_tree() else self.spec

