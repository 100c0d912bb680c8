"""This repository's mkdocs.yml, adapted for a test or a benchmark: every path absolute, the pto-docs plugin
pointed at another spec root and given other options. Shared so that each caller states only what differs."""

from __future__ import annotations

import logging
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _yaml(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def config_copy(directory: Path, spec_root: Path | None = None, *, custom_dir: Path | None = None,
                name: str = "mkdocs.yml", **options) -> Path:
    """Write the adapted mkdocs.yml into ``directory`` and return its path; ``options`` are pto-docs plugin
    options (``cache_dir=...``, ``fast_search=False``, ...)."""
    text = (REPO / "mkdocs.yml").read_text("utf-8")
    text = text.replace("docs_dir: site_src", f"docs_dir: {REPO / 'site_src'}")
    if custom_dir is not None:
        text = text.replace("  name: material\n", f"  name: material\n  custom_dir: {custom_dir}\n", 1)
    lines = [f"      spec_root: {spec_root or REPO / 'catalog'}\n"]
    lines += [f"      {key}: {_yaml(value)}\n" for key, value in options.items()]
    text = text.replace("      spec_root: catalog\n", "".join(lines))
    path = Path(directory) / name
    path.write_text(text, "utf-8")
    return path


def build_catalog(site: Path, **options) -> None:
    """Build catalog/ into ``site`` in this process (both languages, no page cache, no fork, so monkeypatched
    code sees every page), with the plugin ``options`` given."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    config = load_config(config_file=str(REPO / "mkdocs.yml"), site_dir=str(site))
    plugin = config.plugins["pto-docs"]
    plugin.config.spec_root = str(REPO / "catalog")
    plugin.config.cache = False
    plugin.config.parallel = False
    for key, value in options.items():
        setattr(plugin.config, key, value)
    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    config.plugins.on_startup(command="build", dirty=False)
    build(config, dirty=False)


def instances_of(monkeypatch, cls) -> list:
    """Every ``cls`` object made from now on (its ``__init__`` wrapped for the test), in the order they were made."""
    made: list = []
    original = cls.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(cls, "__init__", init)
    return made
