"""Release trees for the versioned-site tests: copies of the catalog that declare another release version."""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def release_copy(parent: Path, version: str, *, name: str | None = None) -> Path:
    """A copy of catalog/ at ``parent/<name or version>`` whose specification.toml declares ``version``."""
    root = parent / (name or version)
    shutil.copytree(REPO / "catalog", root)
    spec = root / "specification.toml"
    text, n = re.subn(r'(?m)^architecture_version = ".*"$', f"architecture_version = {version!r}".replace("'", '"'),
                      spec.read_text("utf-8"))
    assert n == 1
    spec.write_text(text, "utf-8")
    return root


def git(root: Path, *args: str) -> str:
    import subprocess
    env = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin",
           "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}
    return subprocess.run(["git", "-C", str(root), *args], env=env, check=True, capture_output=True, text=True).stdout


def build_versions(*argv: str, cwd: Path = REPO) -> tuple[int, str]:
    """``pto-docs build-versions ARGV`` run in ``cwd`` (by default the repository: its mkdocs.yml), as the CLI
    runs it; (exit code, stderr)."""
    import contextlib

    from pto_docs.cli import main
    err = io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = main(["build-versions", "-q", *argv])
    finally:
        os.chdir(here)
    return rc, err.getvalue()


def selector(page) -> tuple[str, list[str]]:
    """The version selector of the page shown in chromium: (its current title, the titles it lists)."""
    page.wait_for_selector(".md-version__current", state="attached")
    current = page.inner_text(".md-version__current").strip()
    listed = [t.strip() for t in page.eval_on_selector_all(".md-version__list .md-version__link",
                                                           "els => els.map(e => e.textContent)")]
    return current, listed


def switch_to(page, target: str, url: str) -> tuple[str, list[str]]:
    """Pick ``target`` in the version selector (its list opens on hover); the selector of the page it leads to,
    once the address is ``url``."""
    page.hover(".md-version")
    page.click(f".md-version__list .md-version__link >> text='{target}'")
    page.wait_for_url(url)
    return selector(page)
