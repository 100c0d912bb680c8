"""site/config.py and api.mkdocs_config: a configuration problem is one clear message and a non-zero exit
before anything is built, from `mkdocs build` and from `pto-docs build` alike; never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PLUGIN = "plugins:\n  - pto-docs:\n      spec_root: {root}\n{extra}  - search\n"
CASES = {
    "no theme": ("site_name: x\n", "", "needs the Material theme"),
    "another theme": ("site_name: x\ntheme: readthedocs\n", "", "needs the Material theme"),
    "unknown option": ("site_name: x\ntheme: {name: material}\n", "      spec_rot: x\n",
                       "Unrecognised configuration name: spec_rot"),
    "unset !ENV": ("site_name: x\ntheme: {name: material}\n", None, "spec_root': is empty"),
    "bad trace_policy severity": ("site_name: x\ntheme: {name: material}\n",
                                  "      trace_policy: {translation-stale: fatal}\n",
                                  "severity must be error, warning or ignore, not 'fatal'"),
}


def _write(tmp_path: Path, case: str) -> Path:
    head, extra, _ = CASES[case]
    (tmp_path / "docs").mkdir(exist_ok=True)
    if extra is None:
        plugin = "plugins:\n  - pto-docs:\n      spec_root: !ENV [PTO_DOCS_TEST_UNSET_VARIABLE]\n"
    else:
        plugin = PLUGIN.format(root=REPO / "catalog", extra=extra)
    path = tmp_path / "mkdocs.yml"
    path.write_text(head + plugin, "utf-8")
    return path


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    env.pop("PTO_DOCS_TEST_UNSET_VARIABLE", None)
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=300)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("command", ["mkdocs", "pto-docs"])
def test_a_configuration_problem_is_one_message_before_any_page(tmp_path, case, command):
    _write(tmp_path, case)
    args = ["mkdocs", "build", "-q"] if command == "mkdocs" else ["pto_docs.cli", "build", "-q"]
    result = _run(args, tmp_path)
    assert result.returncode == (1 if command == "mkdocs" else 2), result.stderr
    assert CASES[case][2] in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert not (tmp_path / "site").exists()  # nothing was built
    assert "pages in" not in result.stderr


def test_pto_docs_trace_and_validate_read_env_tags_and_refuse_an_unset_one(tmp_path):
    _write(tmp_path, "unset !ENV")
    for command in (["pto_docs.cli", "trace"], ["pto_docs.cli", "validate"]):
        result = _run(command, tmp_path)
        assert result.returncode == 2 and "spec_root is empty" in result.stderr and "Traceback" not in result.stderr
    (tmp_path / "mkdocs.yml").write_text(
        f"plugins:\n  - pto-docs:\n      spec_root: !ENV [PTO_DOCS_TEST_UNSET_VARIABLE, {REPO / 'catalog'}]\n", "utf-8")
    result = _run(["pto_docs.cli", "validate"], tmp_path)
    assert result.returncode == 0, result.stderr


def test_trace_policy_is_checked_by_the_same_code_in_the_plugin_and_in_trace(tmp_path):
    _write(tmp_path, "bad trace_policy severity")
    result = _run(["pto_docs.cli", "trace"], tmp_path)
    assert result.returncode == 2
    assert "severity must be error, warning or ignore, not 'fatal'" in result.stderr


def test_theme_overrides_go_after_a_users_custom_dir_and_the_stylesheet_is_added_once(tmp_path):
    from mkdocs.config import load_config

    from pto_docs.render.resources import FIND_STYLESHEET, OVERRIDES_DIR, STYLESHEET
    from pto_docs.site.config import adopt_site_settings
    mine = tmp_path / "mine"
    mine.mkdir()
    (tmp_path / "docs").mkdir()
    path = tmp_path / "mkdocs.yml"
    path.write_text(f"site_name: x\ntheme:\n  name: material\n  custom_dir: {mine}\nextra_css: [{STYLESHEET}]\n"
                    "plugins:\n  - pto-docs\n", "utf-8")
    config = load_config(config_file=str(path))
    adopt_site_settings(config)
    adopt_site_settings(config)  # (every language build calls it)
    dirs = config.theme.dirs
    assert dirs[0] == str(mine) and dirs[1] == str(OVERRIDES_DIR) and dirs.count(str(OVERRIDES_DIR)) == 1
    assert "material" in dirs[2]
    assert [str(css) for css in config.extra_css] == [STYLESHEET, FIND_STYLESHEET]
    assert {"attr_list", "admonition", "pymdownx.superfences"} <= set(config.markdown_extensions)
    assert "navigation.prune" in config.theme["features"]
