"""pto-docs init writes the minimal mkdocs.yml and never overwrites one."""

from __future__ import annotations

import io
from types import SimpleNamespace

import yaml

from pto_docs.cli import init as init_cmd


def test_init_writes_the_minimal_config_and_refuses_to_overwrite(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    assert init_cmd.run(SimpleNamespace(spec_root=str(tmp_path)), out, err) == 0
    config = yaml.safe_load((tmp_path / "mkdocs.yml").read_text("utf-8"))
    assert config == {"site_name": "PTO ISA specification", "theme": {"name": "material"},
                      "plugins": [{"pto-docs": {"spec_root": "."}}, "search"]}
    (tmp_path / "mkdocs.yml").write_text("mine\n", "utf-8")
    assert init_cmd.run(SimpleNamespace(spec_root=str(tmp_path)), out, err) == 2
    assert "already exists" in err.getvalue()
    assert (tmp_path / "mkdocs.yml").read_text("utf-8") == "mine\n"


def test_init_of_a_missing_directory_is_a_usage_error(tmp_path):
    err = io.StringIO()
    assert init_cmd.run(SimpleNamespace(spec_root=str(tmp_path / "nope")), io.StringIO(), err) == 2
    assert "IO-ROOT" in err.getvalue()
