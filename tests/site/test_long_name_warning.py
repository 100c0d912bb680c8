"""A tree whose instruction has no long name in pto-docs' table builds, and the build says so once, as a warning
line naming the unit file (warning[LONG-NAME]); its page shows the mnemonic alone."""

from __future__ import annotations

import io
import logging
import os

from tests.spec_factory import UNIT_PATH, make_tree


def test_a_mnemonic_without_a_long_name_builds_with_a_warning_line(tmp_path):
    from conftest import REPO

    from pto_docs.cli import build as build_cmd
    root = make_tree(tmp_path / "spec")
    site = tmp_path / "site"
    args = type("Args", (), {"spec_root": str(root), "site_dir": str(site), "config_file": str(REPO / "mkdocs.yml"),
                             "no_strict": False})()
    err = io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    # (a handler of our own on the plugin's logger: once MkDocs' CLI has run in this process it stops the "mkdocs"
    # loggers propagating to the root, where caplog listens)
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.INFO)
    handler.emit = records.append
    logger = logging.getLogger("mkdocs.plugins.pto-docs")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        rc = build_cmd.run(args, io.StringIO(), err)
    finally:
        os.chdir(cwd)
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert rc == 0, err.getvalue()
    lines = [r.getMessage() for r in records if "[LONG-NAME]" in r.getMessage()]
    assert lines == [f"{UNIT_PATH}:1:1: warning[LONG-NAME]: instruction TDEMO has no long name in pto-docs' table "
                     "(i18n/long_names.yaml); its pages show the mnemonic alone"]
    page = (site / "instructions/tile/elementwise-tile-tile/arithmetic/TDEMO/index.html").read_text("utf-8")
    assert '<h1 id="tdemo">TDEMO<' in page  # (no " — " and no name)
