"""The JSON Schemas shipped with pto-docs (draft 2020-12), loaded once into a referencing registry.

Checking a record takes two steps. A yes/no validator compiled by fastjsonschema from the dereferenced
schema answers first; only a record it does not accept goes through jsonschema, which alone produces the
diagnostics (message, JSON pointer, instance path for the column). Every shipped record is normally valid,
so jsonschema is met only by the invalid ones. The fast check is exact, not an approximation: it is
compiled only from a schema whose every keyword is in :data:`FAST_KEYWORDS` (keywords that mean the same in
draft-07, which fastjsonschema implements, and in 2020-12), with ``pattern`` matched as jsonschema does
(``re.search`` of the pattern as written; fastjsonschema would turn ``$`` into ``\\Z``). A schema with any
other keyword, or with a $ref that could not be inlined, gets no fast check and goes to jsonschema every
time. tests/loader/test_fast_schema_check.py checks that both accept exactly the same records.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from fastjsonschema.draft07 import CodeGeneratorDraft07
from fastjsonschema.ref_resolver import RefResolver
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from .jsonpos import pointer_of

# record kind -> schema file
RECORD_SCHEMAS = {
    "PTO-INSTRUCTION": "instruction",
    "PTO-INSTRUCTION-V0": "instruction-v0",  # releases before 0.58.1 (sources/formats.py)
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
def dereferenced(name: str) -> dict[str, Any]:
    """The schema ``name`` with its $refs inlined. (A shipped schema is not checked against the 2020-12 metaschema
    here, which took 0.6 s of every process that checks records: the suite checks each one,
    tests/loader/test_schemas.py.)"""
    schema = load_schema(name)
    resolver = registry().resolver(base_uri=schema.get("$id", ""))
    return _inline_refs(schema, resolver)


@cache
def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(dereferenced(name), registry=registry())


# -- the fast yes/no check --------------------------------------------------------------------------
# Keywords of the shipped schemas whose meaning is the same in draft-07 (as fastjsonschema implements it,
# with the pattern fix below) and in draft 2020-12 (as jsonschema implements it) for every value json.loads
# can produce. Before adding one, check both implementations; the equivalence tests cover only keywords
# some shipped schema uses. Not here on purpose: prefixItems, unevaluated*, dependent*, $dynamicRef,
# $anchor (2020-12 only), items as an array, additionalItems, dependencies, definitions (draft-07 meanings
# 2020-12 dropped), format (jsonschema does not assert it by default; fastjsonschema does), default,
# contentEncoding/contentMediaType (fastjsonschema transforms the value), and $ref (draft-07 ignores its
# siblings; 2020-12 does not): a $ref must have been inlined by _inline_refs.
# The one other difference, fastjsonschema taking a tuple for an array, cannot arise: records come from
# json.loads (or are dicts of strings).
FAST_KEYWORDS = frozenset({
    "type", "enum", "const",
    "properties", "required", "additionalProperties", "propertyNames", "minProperties", "maxProperties",
    "items", "minItems", "maxItems", "uniqueItems",
    "pattern", "minLength",
    "minimum", "maximum",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
    # annotations and structure, no assertion
    "$schema", "$id", "$defs", "$comment", "title", "description",
})
_JSON_TYPES = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})
_ONE_SCHEMA = ("items", "not", "if", "then", "else", "additionalProperties", "propertyNames", "contains",
               "additionalItems", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")


def unsupported_keywords(schema: Any, pointer: str = "") -> Iterator[str]:
    """JSON pointers (``/…/keyword``) of every keyword of ``schema`` outside :data:`FAST_KEYWORDS`, and of
    a ``type`` that is not one of the seven JSON types or an ``items`` that is not a single schema."""
    if isinstance(schema, bool):
        return
    if not isinstance(schema, dict):
        yield pointer or "/"
        return
    for key, value in schema.items():
        here = f"{pointer}/{key}"
        if key not in FAST_KEYWORDS:
            yield here
        elif key == "type" and not set(value if isinstance(value, list) else [value]) <= _JSON_TYPES:
            yield here
        elif key == "items" and not isinstance(value, (dict, bool)):
            yield here
        if key in _ONE_SCHEMA:
            yield from unsupported_keywords(value, here)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            for index, item in enumerate(value):
                yield from unsupported_keywords(item, f"{here}/{index}")
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            for sub, item in value.items():
                yield from unsupported_keywords(item, f"{here}/{sub.replace('~', '~0').replace('/', '~1')}")


class _YesNoDraft07(CodeGeneratorDraft07):
    """fastjsonschema's draft-07 code generator, reduced to a yes/no answer and with jsonschema's patterns."""

    def exc(self, msg, *args, append_to_msg=None, rule=None):
        # No message: only whether the record is valid is used (and fastjsonschema 2.22's own short form
        # of a const failure raises KeyError while generating).
        self.l('raise JsonSchemaValueException("invalid")')

    def generate_pattern(self):
        # jsonschema: re.search(pattern, instance) with the pattern as written, so "^A$" accepts "A\n".
        with self.l("if isinstance({variable}, str):"):
            pattern = self._definition["pattern"]
            self._compile_regexps[pattern] = re.compile(pattern)
            with self.l("if not REGEX_PATTERNS[{}].search({variable}):", repr(pattern)):
                self.exc("pattern", rule="pattern")


def _refuse(uri: str):
    raise LookupError(f"no remote schema is fetched ({uri})")


def compile_fast_check(schema: dict[str, Any]) -> Callable[[Any], None]:
    """The fastjsonschema function of a dereferenced ``schema``: returns for a valid instance, raises for
    an invalid one. The caller has checked that :func:`unsupported_keywords` finds nothing."""
    definition = {k: v for k, v in schema.items() if k not in ("$schema", "$defs")}
    handlers = {scheme: _refuse for scheme in ("", "http", "https", "file", "ftp", "data")}
    resolver = RefResolver.from_schema(definition, handlers=handlers, store={})
    generator = _YesNoDraft07(definition, resolver=resolver, formats={}, use_default=False, use_formats=False)
    state = generator.global_state
    exec(compile(generator.func_code, f"<fast check of {schema.get('$id', 'a schema')}>", "exec"), state)  # code generated from the shipped schemas only
    return state[resolver.get_scope_name()]


def fast_validator(schema: dict[str, Any]) -> Callable[[Any], bool] | None:
    """``is_valid(instance)`` for a dereferenced ``schema``, or None when the schema cannot be checked
    exactly that way. A False answer is never a diagnostic by itself: it only sends the instance to
    jsonschema, which decides."""
    if next(unsupported_keywords(schema), None) is not None:
        return None
    try:
        function = compile_fast_check(schema)
    except Exception:  # a fastjsonschema whose internals moved: slower, never wrong (a test fails on it)
        return None

    def is_valid(instance: Any) -> bool:
        try:
            function(instance)
        except Exception:  # JsonSchemaValueException, or anything odd: let jsonschema decide
            return False
        return True

    return is_valid


fast_checks_enabled = True  # False: every record goes through jsonschema (the tests compare both ways)


@cache
def fast_check(name: str) -> Callable[[Any], bool] | None:
    """The fast check of schema ``name``, compiled on its first record (about 5 ms a record kind)."""
    return fast_validator(dereferenced(name))


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
    if fast_checks_enabled:
        check = fast_check(name)
        if check is not None and check(instance):
            return
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
