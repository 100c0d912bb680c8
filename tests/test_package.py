"""The wheel carries everything: built once per session (`pip wheel`), installed into a fresh venv (the
dependencies come from the system site-packages), and run from a directory outside the repository, it builds
a copy of catalog/ through `pto-docs build` and through a minimal mkdocs.yml (`pto-docs init`) with `mkdocs
build`: both languages, our stylesheet, the SVG diagrams, no traceback.

The dependencies are those of the interpreter running the tests: when that is itself a venv (a newcomer's), a
`--system-site-packages` venv made from it would see the base interpreter's packages instead, so the fresh venv
gets a `.pth` file naming the running interpreter's site-packages (appended after its own, so the wheel wins)."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _run(args: list[str], cwd: Path, timeout: int = 900) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
    assert "Traceback" not in result.stdout + result.stderr
    return result


@pytest.fixture(scope="session")
def venv(tmp_path_factory) -> Path:
    """A fresh venv with the wheel of this checkout installed (one wheel build per test session)."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"  # a clean copy: no build/ or egg-info of an earlier build in the checkout
    top = {".git", "site", ".pto-docs-cache", "build", "dist", ".nox", ".pytest_cache", ".ruff_cache"}
    shutil.copytree(REPO, source, ignore=lambda d, names: [n for n in names if (Path(d) == REPO and n in top)
                                                           or n == "__pycache__" or n.endswith(".egg-info")])
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"), str(source)], tmp)
    wheel = next((tmp / "dist").glob("pto_docs-*.whl"))
    venv, python = tmp / "venv", str(tmp / "venv/bin/python")
    if _pip_version() >= (22, 3):  # no pip of its own (ensurepip is most of a venv's making): ours installs into it
        _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], tmp)
        _run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--ignore-installed",
              str(wheel)], tmp)
    else:
        _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], tmp)
        _run([python, "-m", "pip", "install", "-q", "--no-deps", "--ignore-installed", str(wheel)], tmp)
    _see_the_running_interpreters_packages(python)
    return venv


def _see_the_running_interpreters_packages(python: str) -> None:
    """A `.pth` in the fresh venv naming this interpreter's site-packages: the dependencies installed where the
    tests run (a venv or the system) are importable there, after the venv's own packages (the wheel)."""
    own = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], Path(python).parent)
    parents = [p for p in dict.fromkeys(site.getsitepackages()) if Path(p).is_dir()]
    (Path(own.stdout.strip()) / "zz-running-interpreter.pth").write_text("".join(p + "\n" for p in parents), "utf-8")


def _pip_version() -> tuple[int, ...]:
    import pip
    return tuple(int(part) for part in pip.__version__.split(".")[:2] if part.isdigit())


@pytest.fixture(scope="session")
def outside(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("outside")
    shutil.copytree(REPO / "catalog", work / "spec")
    return work


def _check_site(site: Path) -> None:
    css = (REPO / "site_src/assets/pto-docs.css").read_bytes()
    script = (REPO / "site_src/assets/pto-search.js").read_bytes()
    for lang in ("", "zh-CN/"):
        assert 'lang="' + ("zh" if lang else "en") in (site / lang / "index.html").read_text("utf-8")
        assert (site / lang / "assets/pto-docs.css").read_bytes() == css
        assert "assets/pto-docs.css" in (site / lang / "index.html").read_text("utf-8")
        assert (site / lang / "assets/pto-search.js").read_bytes() == script  # the page loads it
        assert "assets/pto-search.js" in (site / lang / "index.html").read_text("utf-8")
        assert "assets/pto-language.js" in (site / lang / "index.html").read_text("utf-8")
        assert (site / lang / "assets/pto-language.js").read_bytes() == (REPO / "site_src/assets/pto-language.js").read_bytes()
        tmul = site / lang / "instructions/tile/elementwise-tile-tile/arithmetic/TMUL/index.html"
        assert "<svg" in tmul.read_text("utf-8")


def test_the_installed_package_is_the_wheel_with_its_templates(venv, outside):
    result = _run([str(venv / "bin/python"), "-c",
                   "import pto_docs, pto_docs.render.resources as r; print(pto_docs.__file__); print(r.TEMPLATES_DIR);"
                   "print(r.SITE_SRC_DIR); print(r.DEFAULT_CONFIG.is_file())"], outside)
    package, templates, site_src, default = result.stdout.split()
    assert package.startswith(str(venv)) and templates.startswith(str(venv)) and site_src.startswith(str(venv))
    assert default == "True"
    assert (Path(templates) / "pages/instruction.md.j2").is_file()


def test_pto_docs_build_from_the_wheel_outside_the_repository(venv, outside):
    _run([str(venv / "bin/pto-docs"), "build", "spec", "--site-dir", "cli-site", "-q"], outside)
    _check_site(outside / "cli-site")


def test_minimal_mkdocs_yml_from_the_wheel_outside_the_repository(venv, outside):
    _run([str(venv / "bin/pto-docs"), "init", "spec"], outside)
    _run([str(venv / "bin/python"), "-m", "mkdocs", "build", "-q"], outside / "spec")
    _check_site(outside / "spec" / "site")


def test_the_shipped_default_config_is_this_repositorys_mkdocs_yml_without_its_paths():
    import yaml

    from pto_docs.render.resources import DEFAULT_CONFIG
    repo = yaml.safe_load((REPO / "mkdocs.yml").read_text("utf-8"))
    shipped = yaml.safe_load(DEFAULT_CONFIG.read_text("utf-8"))
    assert {k: v for k, v in repo.items() if k not in ("docs_dir", "site_dir")} == shipped
