"""site/template_cache.py: a build keeps the templates it compiled (Material's and ours) in the user's cache, and
the next build, of any tree, compiles none of them; the sites are byte-identical. A damaged file there is
compiled again and rewritten, never loaded; ``--no-cache`` neither reads nor writes it; a user cache inside the
spec tree is not used."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import jinja2

from pto_docs.site.template_cache import FILE_MAGIC, CompiledTemplates
from pto_docs.store import Sealer

REPO = Path(__file__).resolve().parents[2]
SEALER = Sealer(bytes(range(32)))  # a key of the test's own (store/seal.py)

# `pto-docs build`, recording every template Jinja compiles, in this process and in the forked language ones
COUNTING_BUILD = """
import os, sys, jinja2
log = sys.argv.pop(1)
compile_once = jinja2.Environment._compile
def counted(self, source, filename):
    with open(log, "a", encoding="utf-8") as f:
        f.write(f"{os.getpid()} {filename}\\n")
    return compile_once(self, source, filename)
jinja2.Environment._compile = counted
sys.argv[0] = "pto-docs"
from pto_docs.cli import run
run()
"""


def _build(tmp: Path, name: str, user_cache: Path, *extra: str, root: Path = REPO / "catalog") -> list[str]:
    """Build ``root`` into ``tmp/name``; the templates compiled (one line per compile: pid and file)."""
    log = tmp / f"{name}.compiled"
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1", "XDG_CACHE_HOME": str(user_cache)}
    result = subprocess.run([sys.executable, "-c", COUNTING_BUILD, str(log), "build", str(root), "--site-dir",
                             str(tmp / name), "--cache-dir", str(tmp / f"{name}.cache"), "-q", *extra],
                            cwd=tmp, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return log.read_text("utf-8").splitlines() if log.exists() else []


def _template_file(path: Path) -> str:
    """The template file whose compiled code the cache file at ``path`` holds (the code object's file name)."""
    import io
    import marshal
    import pickle

    from jinja2.bccache import bc_magic
    stream = io.BytesIO(path.read_bytes()[len(FILE_MAGIC) + 32:])
    assert stream.read(len(bc_magic)) == bc_magic
    pickle.load(stream)  # the source checksum
    return marshal.load(stream).co_filename


def _files(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def test_the_next_build_compiles_no_template_and_gives_the_same_site(tmp_path):
    user = tmp_path / "user-cache"
    first = _build(tmp_path, "first", user)
    files = {line.split(" ", 1)[1] for line in first}
    assert any("material" in f for f in files) and any(f.endswith(".md.j2") for f in files), sorted(files)
    kept = sorted((user / "pto-docs" / "templates").iterdir())
    assert len(kept) >= len(files) > 20
    assert _build(tmp_path, "second", user) == []
    assert _files(tmp_path / "second") == _files(tmp_path / "first")


def test_a_damaged_file_is_compiled_again_and_rewritten(tmp_path):
    user = tmp_path / "user-cache"
    _build(tmp_path, "first", user)
    kept = sorted((user / "pto-docs" / "templates").iterdir())
    damaged = kept[:3]
    templates = {_template_file(path) for path in damaged}
    data = bytearray(damaged[0].read_bytes())
    data[-10] ^= 0x01  # a flipped bit in the compiled code
    damaged[0].write_bytes(bytes(data))
    damaged[1].write_bytes(damaged[1].read_bytes()[:50])  # truncated
    damaged[2].write_bytes(b"not a compiled template")  # foreign
    again = _build(tmp_path, "again", user)
    # those templates compiled again (each maybe in both processes: the language's may read before the other
    # rewrote it), and no other
    assert {line.split(" ", 1)[1] for line in again} == templates, again
    assert _files(tmp_path / "again") == _files(tmp_path / "first")
    assert all(path.read_bytes().startswith(FILE_MAGIC) for path in damaged)
    assert _build(tmp_path, "third", user) == []


def test_no_cache_neither_reads_nor_writes_compiled_templates(tmp_path):
    user = tmp_path / "user-cache"
    compiled = _build(tmp_path, "plain", user, "--no-cache")
    assert len(compiled) > 20 and not (user / "pto-docs" / "templates").exists()
    _build(tmp_path, "cached", user)
    assert len(_build(tmp_path, "plain-again", user, "--no-cache")) == len(compiled)


def test_a_user_cache_inside_the_spec_tree_is_not_written(tmp_path):
    root = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", root)
    user = root / "cache-in-tree"
    _build(tmp_path, "site", user, root=root)
    assert not (user / "pto-docs" / "templates").exists()


def test_an_edited_template_or_other_settings_compile_afresh(tmp_path):
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "t.j2").write_text("{{ x }}!", "utf-8")
    kept = tmp_path / "compiled"

    def render(autoescape: bool) -> str:
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)), autoescape=autoescape,
                                 bytecode_cache=CompiledTemplates(kept, SEALER))
        return env.get_template("t.j2").render(x="<b>")

    assert render(True) == "&lt;b&gt;!"
    assert render(False) == "<b>!"  # not the autoescaping code kept above
    assert len(list(kept.iterdir())) == 2
    (folder / "t.j2").write_text("{{ x }}?", "utf-8")
    assert render(True) == "&lt;b&gt;?"
    assert len(list(kept.iterdir())) == 2  # rewritten in place


def test_an_unwritable_cache_only_costs_the_compile(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", "utf-8")
    env = jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ 1 + 1 }}"}),
                             bytecode_cache=CompiledTemplates(blocker / "templates", SEALER))
    assert env.get_template("t").render() == "2"
