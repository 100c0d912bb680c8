"""`mkdocs serve --dirty` after a save of code: the served site (both languages) is the site a fresh build of the
saved tree makes, whatever the serving process kept from its earlier rebuilds (parsed units, teaching results
and keys, page models, theme listings). The serving rebuilds are driven in this process as MkDocs' serve command
drives them; the fresh build is another process with its own empty caches. Fixture: a copy of catalog/."""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
from pathlib import Path

from tests.mkdocs_config import config_copy

SERVE_URL = "http://127.0.0.1:8000/"


def _serve_rebuild(config_file: Path, site: Path) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    config = load_config(config_file=str(config_file), site_dir=str(site))  # as serve's get_config()
    config.plugins.on_startup(command="serve", dirty=True)
    config.site_url = SERVE_URL
    build(config, serve_url=SERVE_URL, dirty=True)


def _fresh_build(tmp_path: Path, tree: Path, name: str) -> Path:
    """The site of a new `mkdocs build` process of ``tree`` (empty user cache, no page cache)."""
    work = tmp_path / name
    work.mkdir()
    config = config_copy(work, tree, cache=False)
    config.write_text(config.read_text("utf-8") + f"site_url: {SERVE_URL}\n", "utf-8")
    env = {**os.environ, "XDG_CACHE_HOME": str(work / "user-cache"), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(work / "site")],
                          cwd=work, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return work / "site"


def _differences(served: Path, fresh: Path) -> list[str]:
    """Files that differ, or are in one site only (sitemap.xml.gz: gzip stamps its own mtime; .pto-docs-site: the
    marker a staged build leaves, output_guard.py)."""
    out: list[str] = []

    def walk(cmp: filecmp.dircmp, rel: str) -> None:
        out.extend(f"{rel}{n} (only served)" for n in cmp.left_only)
        out.extend(f"{rel}{n} (only fresh)" for n in cmp.right_only)
        out.extend(f"{rel}{n}" for n in cmp.diff_files if n != "sitemap.xml.gz")
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{rel}{name}/")
    cmp = filecmp.dircmp(served, fresh, ignore=[".pto-docs-site"])
    walk(cmp, "")
    # dircmp compares by os.stat signature first: compare the contents of every common file outright
    for path in served.rglob("*"):
        if path.is_file() and path.name != "sitemap.xml.gz":
            other = fresh / path.relative_to(served)
            if other.is_file() and path.read_bytes() != other.read_bytes():
                out.append(str(path.relative_to(served)))
    return sorted(set(out))


def _instruction_pages(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in (site / "instructions").rglob("index.html")}


def test_a_save_of_code_serves_what_a_fresh_build_of_the_saved_tree_makes(tmp_path, tree, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serve-user-cache"))
    from pto_docs.store.seal import forget_user_sealers
    forget_user_sealers()
    config_file = config_copy(tmp_path, tree, cache_dir=tmp_path / "cache")
    # (the site_url serve gives the primary language only: in the file, each language has it, as in the fresh build)
    config_file.write_text(config_file.read_text("utf-8") + f"site_url: {SERVE_URL}\n", "utf-8")
    site = tmp_path / "serve-site"
    _serve_rebuild(config_file, site)
    tmul = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    tmul.write_text(tmul.read_text("utf-8") + "constant PTO_SERVE_EDIT = 1;\n", "utf-8")  # code nothing calls
    _serve_rebuild(config_file, site)
    assert "PTO_SERVE_EDIT" in (site / "zh-CN/instructions/tile/elementwise-tile-tile/arithmetic/TMUL/index.html"
                                ).read_text("utf-8")
    assert _differences(site, _fresh_build(tmp_path, tree, "fresh1")) == []
    # the execution machinery every tile scenario enters: every tile example runs again, with other results
    machinery = tree / "asl/tile/model/dispatch/top-level.asl"
    text = machinery.read_text("utf-8")
    served_before = _instruction_pages(site)
    assert "then x + y else" in text
    machinery.write_text(text.replace("then x + y else", "then x - y else", 1), "utf-8")
    _serve_rebuild(config_file, site)
    changed = [p for p, data in _instruction_pages(site).items() if served_before.get(p) != data]
    assert changed  # (the tile examples' results are not those of before: pages changed)
    assert _differences(site, _fresh_build(tmp_path, tree, "fresh2")) == []
    # both saved back as they were: the texts parsed (and taught) two saves ago, handed back by the memos
    tmul.write_text(tmul.read_text("utf-8").replace("constant PTO_SERVE_EDIT = 1;\n", ""), "utf-8")
    machinery.write_text(text, "utf-8")
    _serve_rebuild(config_file, site)
    assert _differences(site, _fresh_build(tmp_path, tree, "fresh3")) == []
