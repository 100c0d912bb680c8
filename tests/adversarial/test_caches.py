"""Issue 30, finding 1: a cache the tree's authors can write.

The build cache lives in the user's cache, keyed by the tree, never under the spec root, and every entry is
sealed with the user's key (store/seal.py): a committed ``.pto-docs-cache/`` is never read nor written through,
a planted pickle never runs, a key file others can read or that is a symlink means no cache at all.
The planted files are made the way an attacker would: with pto-docs' own cache classes, under the attacker's
own user cache (and so the attacker's key, when there is one)."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO, run_cli

SCRIPT = "<script>alert('planted')</script><img src=x onerror=alert(1)>"


def _env(user: Path) -> dict:
    return {"XDG_CACHE_HOME": str(user), "PYTHONPATH": str(REPO)}


def _initialised(tmp_path: Path, git: bool) -> Path:
    """A copy of catalog/ after `pto-docs init` (mkdocs.yml at its root: the site goes to <root>/site)."""
    root = tmp_path / "T"
    shutil.copytree(REPO / "catalog", root)
    assert run_cli("init", str(root))[0] == 0
    if git:
        for argv in (["init", "-q"], ["add", "-A"], ["-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "t"]):
            subprocess.run(["git", *argv], cwd=root, check=True, capture_output=True)
    return root


def _build(root: Path, user: Path, how: str, *extra: str) -> subprocess.CompletedProcess:
    """``pto-docs build`` or ``mkdocs build --dirty`` (the cached MkDocs build) run in the tree, as a user would."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **_env(user)}
    argv = ["-m", "pto_docs.cli", "build", *extra] if how == "pto-docs" else ["-m", "mkdocs", "build", "--dirty", *extra]
    done = subprocess.run([sys.executable, *argv], cwd=root, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done


def _site_text(site: Path) -> str:
    return "\n".join(p.read_text("utf-8", "replace") for p in sorted(site.rglob("*.html")))


def _as_attacker(attacker: Path, make) -> None:
    """Run ``make()`` in this process with ``attacker`` as the user's cache (the attacker's key, if any)."""
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(attacker)
    try:
        make()
    finally:
        if previous is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = previous


# -- sub-finding 1: a committed highlight cache -----------------------------------------------------------------

@pytest.mark.parametrize("how", ["pto-docs", "mkdocs"])
@pytest.mark.parametrize("git", [True, False], ids=["git-clone", "plain-tree"])
def test_a_committed_highlight_cache_reaches_no_page(tmp_path, how, git):
    from pto_docs.render.fragments import HighlightCache
    root = _initialised(tmp_path, git)
    attacker, made = tmp_path / "attacker", tmp_path / "attacker-cache"
    _build(root, attacker, "pto-docs", "--site-dir", str(tmp_path / "attacker-site"), "--cache-dir", str(made))

    def plant():
        highlighted = HighlightCache(str(made / "highlight.json.z"))
        assert highlighted.old, "the attacker's build highlighted no code"
        planted = HighlightCache(str(root / ".pto-docs-cache" / "highlight.json.z"))
        planted.new = dict.fromkeys(highlighted.old, SCRIPT)
        planted.save()
    _as_attacker(attacker, plant)
    if git:
        subprocess.run(["git", "add", "-Af", ".pto-docs-cache"], cwd=root, check=True)
        subprocess.run(["git", "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "cache"], cwd=root,
                       check=True)
    _build(root, tmp_path / "victim", how)
    pages = _site_text(root / "site")
    assert "alert('planted')" not in pages and "onerror=alert" not in pages


# -- sub-finding 2: a planted page pack --------------------------------------------------------------------------

def test_a_planted_page_pack_is_not_published(tmp_path):
    from pto_docs.site.cache import PageCache
    root = _initialised(tmp_path, git=False)
    attacker, made = tmp_path / "attacker", tmp_path / "attacker-cache"
    _build(root, attacker, "pto-docs", "--cache-dir", str(made))  # the same tree, at the same place
    shutil.rmtree(root / "site")

    def plant():
        real = PageCache(made, "en")
        assert real.old, "the attacker's build kept no page"
        forged = PageCache(root / ".pto-docs-cache", "en")
        for key, (blob, entries) in real.old.items():
            forged.put(key, blob.decode("utf-8").replace("<body", f"<body>{SCRIPT}<div", 1), entries)
        forged.save()  # (every digest recomputed by pto-docs' own writer)
    _as_attacker(attacker, plant)
    _build(root, tmp_path / "victim", "pto-docs")
    assert "alert('planted')" not in _site_text(root / "site")


# -- sub-finding 3: last-build.json committed as a symlink ---------------------------------------------------------

@pytest.mark.parametrize("where", ["committed", "explicit-cache-dir"])
def test_a_symlinked_build_report_is_not_written_through(tmp_path, where):
    root = _initialised(tmp_path, git=False)
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n", "utf-8")
    cache = root / ".pto-docs-cache" if where == "committed" else tmp_path / "cache"
    cache.mkdir()
    (cache / "last-build.json").symlink_to(outside)
    extra = ("--cache-dir", str(cache)) if where != "committed" else ()
    _build(root, tmp_path / "user", "pto-docs", *extra)
    _build(root, tmp_path / "user", "pto-docs", "--site-dir", str(tmp_path / "again"), *extra)  # (pages reused)
    assert outside.read_text("utf-8") == "precious\n"


# -- sub-finding 4: planted pickles never run ----------------------------------------------------------------------

class _Payload:
    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def _plant_pickles(files: list[Path], marker: Path) -> dict[Path, bytes]:
    """Each file replaced by a pickle that makes ``marker`` when loaded (in the format of the pre-seal caches)."""
    planted = {}
    for path in files:
        data = pickle.dumps(("pto-docs-asl-model-2", _Payload(marker)), protocol=pickle.HIGHEST_PROTOCOL)
        path.write_bytes(data)
        planted[path] = data
    return planted


def _assert_rebuilt(planted: dict[Path, bytes], marker: Path) -> None:
    assert not marker.exists(), "a planted pickle ran"
    for path, data in planted.items():
        assert path.read_bytes() != data, f"{path} was not rebuilt"


def test_a_planted_model_pickle_in_the_user_cache_does_not_run(tmp_path):
    root = tmp_path / "T"
    shutil.copytree(REPO / "catalog", root)
    user = tmp_path / "user"
    assert run_cli("avs", str(root), "-q", env=_env(user))[0] == 0
    files = sorted((user / "pto-docs" / "asl").glob("units/*.pickle"))
    assert files
    marker = tmp_path / "ran"
    planted = _plant_pickles(files, marker)
    assert run_cli("avs", str(root), "-q", env=_env(user))[0] == 0
    _assert_rebuilt(planted, marker)


def test_a_planted_examples_model_pickle_does_not_run(tmp_path):
    """``avs_examples: run`` (the repository's mkdocs.yml) keeps its parsed model in avs-examples, next to its
    results (bridge.avs.run_tree_avs: the one cache rule of an AVS run)."""
    root = tmp_path / "T"
    shutil.copytree(REPO / "catalog", root)
    user = tmp_path / "user"
    assert run_cli("build", str(root), "--site-dir", str(tmp_path / "s1"), "-q", env=_env(user))[0] == 0
    examples = user / "pto-docs" / "avs-examples"
    files = sorted(examples.glob("units/*.pickle"))
    assert files
    for done in examples.glob("avs-examples-*.json"):
        done.unlink()  # so the next build runs the points again, reading the model
    marker = tmp_path / "ran"
    planted = _plant_pickles(files, marker)
    assert run_cli("build", str(root), "--site-dir", str(tmp_path / "s2"), "-q", "--no-cache", env=_env(user))[0] == 0
    _assert_rebuilt(planted, marker)


def test_a_planted_validation_pickle_does_not_run(tmp_path, monkeypatch):
    from pto_docs.asl.harness import tests_from_sources
    from pto_docs.asl.model import units_from_sources
    from pto_docs.bridge.avs import AvsInputs, run_avs_on_catalog
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user"))
    unit = '// PTO-UNIT: {"id": "PTO-A", "depends_on": ["generated:decoders"]}\nconstant BASE = 10;\n'
    test = ('// PTO-TEST: {"id": "T-V", "kind": "execution"}\n'
            "func main() => integer\nbegin\n    ValidateDecoded();\n    return 0;\nend;\n")
    generated = "constant DECODED = 7;\n\nfunc ValidateDecoded()\nbegin\n    assert DECODED == 7;\nend;\n"
    inputs = AvsInputs(units_from_sources([("asl/a.asl", unit)]), tests_from_sources([("tests/asl/t.asl", test)]), {})
    cache = tmp_path / "user" / "pto-docs" / "asl"
    first = run_avs_on_catalog(inputs, generated, jobs=1, cache_dir=cache)
    assert [t["status"] for t in first["tests"]] == ["pass"]
    files = sorted((cache / "validation").glob("*.pickle"))
    assert files
    marker = tmp_path / "ran"
    planted = _plant_pickles(files, marker)
    again = run_avs_on_catalog(inputs, generated, jobs=1, cache_dir=cache)
    assert [t["status"] for t in again["tests"]] == ["pass"]
    _assert_rebuilt(planted, marker)


def test_a_planted_compiled_template_does_not_run(tmp_path):
    import hashlib

    from jinja2.bccache import bc_magic
    root = tmp_path / "T"
    shutil.copytree(REPO / "catalog", root)
    user = tmp_path / "user"
    assert run_cli("build", str(root), "--site-dir", str(tmp_path / "s1"), "-q", env=_env(user))[0] == 0
    files = sorted((user / "pto-docs" / "templates").iterdir())
    assert files
    marker = tmp_path / "ran"
    planted = {}
    for path in files:  # Jinja's bucket unpickles the source checksum first: the payload goes there
        payload = bc_magic + pickle.dumps(_Payload(marker), protocol=2)
        path.write_bytes(b"pto-docs compiled template 1\n" + hashlib.sha256(payload).digest() + payload)
        planted[path] = path.read_bytes()
    done = run_cli("build", str(root), "--site-dir", str(tmp_path / "s2"), "--cache-dir", str(tmp_path / "c2"), "-q",
                   env=_env(user))
    assert done[0] == 0
    _assert_rebuilt(planted, marker)


# -- the key ----------------------------------------------------------------------------------------------------

def _bad_key(user: Path, kind: str, tmp_path: Path) -> None:
    folder = user / "pto-docs"
    folder.mkdir(parents=True, mode=0o700)
    key = folder / "key"
    if kind == "symlink":
        elsewhere = tmp_path / "their-key"
        elsewhere.write_bytes(os.urandom(32))
        elsewhere.chmod(0o600)
        key.symlink_to(elsewhere)
    else:
        key.write_bytes(os.urandom(32))
        key.chmod(0o644 if kind == "mode-0644" else 0o600)
        if kind == "another-user":
            os.chown(key, 65534, 65534)


@pytest.mark.parametrize("kind", ["mode-0644", "symlink", "another-user"])
def test_a_key_file_others_can_reach_is_refused(tmp_path, kind):
    if kind == "another-user" and os.getuid() != 0:
        pytest.skip("giving a file to another user needs root")
    root = _initialised(tmp_path, git=False)
    user = tmp_path / "user"
    _bad_key(user, kind, tmp_path)
    before = (user / "pto-docs" / "key").read_bytes()
    done = _build(root, user, "pto-docs")
    warnings = [line for line in done.stderr.splitlines() if "cache key" in line]
    assert len(warnings) == 1 and "no cache is read or written" in warnings[0], done.stderr
    assert not (user / "pto-docs" / "trees").exists() and not (user / "pto-docs" / "templates").exists()
    assert (user / "pto-docs" / "key").read_bytes() == before  # not replaced either
    assert not (root / ".pto-docs-cache").exists()


def test_the_key_is_made_private_in_a_private_directory(tmp_path, monkeypatch):
    """A user cache folder an older pto-docs made with the umask's mode (0755) becomes 0700; the key is 0600."""
    import stat

    from pto_docs.store import seal
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "pto-docs").mkdir(mode=0o755)
    (tmp_path / "pto-docs").chmod(0o755)
    seal.forget_user_sealers()
    assert seal.user_sealer() is not None
    assert stat.S_IMODE((tmp_path / "pto-docs").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "pto-docs" / "key").stat().st_mode) == 0o600
    seal.forget_user_sealers()


# -- where the cache is -----------------------------------------------------------------------------------------

def test_the_default_cache_is_outside_the_tree_and_a_second_build_reuses_it(tmp_path, monkeypatch):
    root = _initialised(tmp_path, git=False)
    user = tmp_path / "user"
    before = sorted(p.name for p in root.iterdir())
    _build(root, user, "pto-docs")
    first = {str(p.relative_to(root / "site")): p.read_bytes() for p in (root / "site").rglob("*") if p.is_file()}
    assert sorted(p.name for p in root.iterdir()) == sorted([*before, "site"])  # nothing but the site in the tree
    from pto_docs.store import tree_cache_dir
    monkeypatch.setenv("XDG_CACHE_HOME", str(user))
    folder = tree_cache_dir(root)
    assert (user / "pto-docs" / "trees") in folder.parents and (folder / "pages-en.pack").is_file()
    (root / "site" / "index.html").unlink()  # (so the site is built again, from the cache)
    second = _build(root, user, "pto-docs")
    report = {r["locale"]: r for r in json.loads((folder / "last-build.json").read_text("utf-8"))}
    assert report["en"]["built"] == [] and report["zh-CN"]["built"] == [] and report["en"]["reused"], second.stderr
    again = {str(p.relative_to(root / "site")): p.read_bytes() for p in (root / "site").rglob("*") if p.is_file()}
    assert again == first


def test_an_explicit_cache_dir_in_the_tree_is_refused_by_mkdocs_build(tmp_path):
    root = _initialised(tmp_path, git=False)
    config = root / "mkdocs.yml"
    config.write_text(config.read_text("utf-8").replace("spec_root: .", "spec_root: .\n      cache_dir: .cache"), "utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **_env(tmp_path / "user")}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--dirty"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "error[OUTPUT-REFUSED]" in done.stderr and "inside the spec root" in done.stderr, done.stderr
    assert not (root / ".cache").exists()


def test_a_symlink_at_the_staging_name_is_not_written_through(tmp_path):
    """The staging directory beside a site in the tree is named after the building process: a link planted at
    that name is replaced by a directory of pto-docs' own, not built into."""
    from .conftest import run_main
    root = _initialised(tmp_path, git=False)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / f".site.pto-build-{os.getpid()}").symlink_to(outside)
    code, _out, err = run_main("build", str(root), "--site-dir", str(root / "site"), "-q", "--no-cache")
    assert code == 0, err
    assert list(outside.iterdir()) == []
    assert (root / "site" / "index.html").is_file()
