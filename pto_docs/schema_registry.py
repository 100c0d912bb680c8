"""The JSON Schemas shipped with pto-docs (draft 2020-12), loaded once into a referencing registry."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from .jsonpos import pointer_of

# record kind -> schema file
RECORD_SCHEMAS = {
    "PTO-INSTRUCTION": "instruction",
    "PTO-UNIT": "unit",
    "PTO-REVIEW": "review",
    "PTO-STATE": "state",
    "PTO-TEST": "test",
    "NDF": "ndf-attributes",
    "ADR": "adr",
    "TRANSLATION": "translation",
    "TRACEABILITY": "traceability-evidence",
    "MANIFEST": "release-manifest",
}

_CODES = {
    "required": "SCHEMA-REQUIRED",
    "type": "SCHEMA-TYPE",
    "additionalProperties": "SCHEMA-UNKNOWN-KEY",
    "unevaluatedProperties": "SCHEMA-UNKNOWN-KEY",
    "enum": "SCHEMA-ENUM",
    "const": "SCHEMA-ENUM",
    "pattern": "SCHEMA-PATTERN",
}


def schema_names() -> list[str]:
    return sorted(p.name[: -len(".schema.json")] for p in resources.files("pto_docs.schemas").iterdir()
                  if p.name.endswith(".schema.json"))


@cache
def load_schema(name: str) -> dict[str, Any]:
    text = resources.files("pto_docs.schemas").joinpath(f"{name}.schema.json").read_text("utf-8")
    return json.loads(text)


@cache
def registry() -> Registry:
    resources_ = []
    for name in schema_names():
        schema = load_schema(name)
        if "$id" in schema:
            resources_.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources_)


def _inline_refs(node: Any, resolver, depth: int = 0) -> Any:
    """Replace every $ref by the schema it names (resolved through the registry), once, at start-up.

    The published schemas keep their $refs; validating against the dereferenced copy gives the same
    verdicts while sparing a registry lookup per keyword per record (a third of the validation time).
    """
    if depth > 32:
        return node
    if isinstance(node, dict):
        if "$ref" in node and len(node) == 1:
            resolved = resolver.lookup(node["$ref"])
            return _inline_refs(resolved.contents, resolved.resolver, depth + 1)
        return {k: _inline_refs(v, resolver, depth) for k, v in node.items() if k != "$id" or depth == 0}
    if isinstance(node, list):
        return [_inline_refs(v, resolver, depth) for v in node]
    return node


@cache
def validator(name: str) -> Draft202012Validator:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    resolver = registry().resolver(base_uri=schema.get("$id", ""))
    return Draft202012Validator(_inline_refs(schema, resolver), registry=registry())


@dataclass(frozen=True)
class SchemaProblem:
    code: str
    message: str
    pointer: str
    path: tuple  # instance path tokens, for locating a column


def _leaf(err: ValidationError) -> ValidationError:
    while err.validator in ("oneOf", "anyOf") and err.context:
        err = best_match(err.context)
    return err


def schema_problems(name: str, instance: Any) -> Iterator[SchemaProblem]:
    for err in validator(name).iter_errors(instance):
        err = _leaf(err)
        path = list(err.absolute_path)
        code = _CODES.get(str(err.validator), "SCHEMA")
        message = err.message
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = set(err.schema.get("properties", {}))
            extra = sorted(k for k in err.instance if k not in allowed)
            for key in extra:
                yield SchemaProblem(code, f"unknown key {key!r}", pointer_of([*path, key]), tuple([*path, key]))
            continue
        if err.validator == "required":
            message = err.message.replace("is a required property", "is required but missing")
        if len(message) > 300:
            message = message[:297] + "..."
        yield SchemaProblem(code, message, pointer_of(path), tuple(path))
