"""Where the configured spec root is: the pto-docs plugin entry of ./mkdocs.yml, else catalog/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

DEFAULT_SPEC_ROOT = "catalog"


class _Loader(yaml.SafeLoader):
    """safe_load that tolerates MkDocs' !ENV / !!python tags by reading them as plain scalars."""


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)


def plugin_options(config_file: str | Path = "mkdocs.yml") -> dict[str, Any]:
    path = Path(config_file)
    if not path.is_file():
        return {}
    try:
        data = yaml.load(path.read_text("utf-8"), Loader=_Loader)  # noqa: S506 - SafeLoader subclass
    except (yaml.YAMLError, OSError, UnicodeDecodeError):
        return {}
    for entry in (data or {}).get("plugins", []) or []:
        if isinstance(entry, dict) and "pto-docs" in entry:
            options = entry["pto-docs"] or {}
            return options if isinstance(options, dict) else {}
    return {}


def configured_spec_root(config_file: str | Path = "mkdocs.yml") -> str:
    options = plugin_options(config_file)
    root = options.get("spec_root", DEFAULT_SPEC_ROOT)
    base = Path(config_file).parent
    return str(base / root) if not Path(root).is_absolute() else str(root)
