"""The pto-docs options of ./mkdocs.yml for the commands that do not run MkDocs (validate, trace).

MkDocs' ``!ENV`` tags are resolved as MkDocs resolves them (pyyaml-env-tag); any other tag reads as an
empty value. A ``spec_root`` that is not a string (an ``!ENV`` whose variables are unset) is a
:class:`ConfigProblem`, reported in one line with exit 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

DEFAULT_SPEC_ROOT = "catalog"


class ConfigProblem(ValueError):
    """A pto-docs option of mkdocs.yml that cannot be used."""


class _Loader(yaml.SafeLoader):
    """safe_load with MkDocs' !ENV tag; every other tag (!relative, !!python/...) reads as None."""


def _env(loader, node):
    from yaml_env_tag import construct_env_tag
    return construct_env_tag(loader, node)


_Loader.add_constructor("!ENV", _env)
_Loader.add_multi_constructor("", lambda loader, suffix, node: None)


def plugin_options(config_file: str | Path = "mkdocs.yml") -> dict[str, Any]:
    path = Path(config_file)
    if not path.is_file():
        return {}
    try:
        data = yaml.load(path.read_text("utf-8"), Loader=_Loader)  # noqa: S506 - SafeLoader subclass
    except (yaml.YAMLError, OSError, UnicodeDecodeError):
        return {}
    plugins = data.get("plugins", []) if isinstance(data, dict) else []
    for entry in plugins if isinstance(plugins, list) else [plugins]:
        if isinstance(entry, dict) and "pto-docs" in entry:
            options = entry["pto-docs"] or {}
            return options if isinstance(options, dict) else {}
    return {}


def configured_spec_root(config_file: str | Path = "mkdocs.yml") -> str:
    options = plugin_options(config_file)
    root = options.get("spec_root", DEFAULT_SPEC_ROOT)
    if not isinstance(root, str) or not root:
        raise ConfigProblem(f"{config_file}: plugins.pto-docs.spec_root is empty or not a path "
                            f"(an !ENV tag whose variables are unset, without a default?)")
    base = Path(config_file).parent
    return str(base / root) if not Path(root).is_absolute() else str(root)
