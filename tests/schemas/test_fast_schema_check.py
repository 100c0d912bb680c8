"""The fast yes/no schema check (fastjsonschema, draft-07 code) accepts exactly what jsonschema (2020-12) accepts.

schema_registry.schema_problems trusts the fast check's "valid" and sends everything else to jsonschema, so
a record the fast check accepted but jsonschema would reject would lose its diagnostics. These tests compare
the two verdicts over every record of catalog/ (and of a pto-spec checkout, when PTO_SPEC_CHECKOUT is set),
the good/bad samples of test_schemas.py, an exhaustive sweep of single mutations of one valid record of
every kind, and hypothesis-generated multiple mutations; and they pin the keyword allow-list that makes the
draft-07 reading of our 2020-12 schemas sound.
"""

from __future__ import annotations

import copy
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pto_docs.analysis.load import load_catalog
from pto_docs.checks import records as record_check
from pto_docs.schemas import registry as schema_registry
from pto_docs.schemas.registry import (
    FAST_KEYWORDS,
    RECORD_SCHEMAS,
    dereferenced,
    fast_check,
    fast_validator,
    load_schema,
    schema_names,
    schema_problems,
    unsupported_keywords,
    validator,
)
from pto_docs.store import validation_cache
from tests.schemas.test_schemas import BAD, GOOD

REPO = Path(__file__).resolve().parents[2]
RECORD_KINDS = sorted(set(RECORD_SCHEMAS.values()))


def _verdicts(name: str, instance: Any) -> tuple[bool, bool]:
    return fast_check(name)(instance), validator(name).is_valid(instance)


def _records_of(root: Path) -> list[tuple[str, Any]]:
    """(schema name, parsed record) of every record the loader schema-checks in the tree at ``root``."""
    seen: list[tuple[str, Any]] = []
    real = record_check.schema_problems

    def spy(name, instance):
        seen.append((name, copy.deepcopy(instance)))
        return real(name, instance)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(record_check, "schema_problems", spy)
        mp.setattr(validation_cache, "enabled", False)
        load_catalog(root)
    return seen


@pytest.fixture(scope="module")
def catalog_records() -> list[tuple[str, Any]]:
    return _records_of(REPO / "catalog")


@pytest.fixture(scope="module")
def seeds(catalog_records) -> dict[str, list[Any]]:
    """Valid records of every record kind: catalog/'s, and the good samples of test_schemas.py."""
    out: dict[str, list[Any]] = {name: [] for name in RECORD_KINDS}
    for name, record in catalog_records:
        out[name].append(record)
    for name, record in GOOD.items():
        out[name].append(copy.deepcopy(record))
    # the 0.58.0 record format (sources/formats.py): an instruction record without its contract
    out["instruction-v0"] += [{k: v for k, v in copy.deepcopy(r).items() if k != "contract"} for r in out["instruction"]]
    return out


# -- the allow-list ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", schema_names())
def test_every_shipped_schema_uses_only_allowed_keywords(name):
    """A schema edit using a keyword outside FAST_KEYWORDS (prefixItems, unevaluatedProperties,
    dependentRequired, format, a $ref beside other keywords, ...) fails here: extend FAST_KEYWORDS only after
    checking that fastjsonschema's draft-07 code and jsonschema's 2020-12 reading agree on it."""
    assert list(unsupported_keywords(dereferenced(name))) == []
    assert fast_check(name) is not None


@pytest.mark.parametrize("name", schema_names())
def test_every_ref_is_alone_so_it_is_inlined(name):
    # draft-07 ignores the siblings of a $ref, 2020-12 applies them: only a lone $ref is safe to inline
    def refs(node: Any) -> Iterator[dict]:
        if isinstance(node, dict):
            if "$ref" in node:
                yield node
            for value in node.values():
                yield from refs(value)
        elif isinstance(node, list):
            for value in node:
                yield from refs(value)

    assert [r for r in refs(load_schema(name)) if len(r) != 1] == []
    assert list(refs(dereferenced(name))) == []


@pytest.mark.parametrize("keyword, value", [
    ("prefixItems", [{"type": "string"}]),
    ("unevaluatedProperties", False),
    ("dependentRequired", {"a": ["b"]}),
    ("format", "date"),
    ("dependencies", {"a": ["b"]}),
    ("additionalItems", False),
    ("$ref", "#/$defs/x"),
    ("default", 1),
    ("contentEncoding", "base64"),
])
@pytest.mark.parametrize("where", ["top", "properties", "items", "oneOf", "if", "then", "else", "not",
                                   "additionalProperties", "propertyNames", "$defs", "deep"])
def test_a_keyword_outside_the_allow_list_is_found_anywhere(keyword, value, where):
    leaf = {"type": "object", keyword: value}
    schema = {
        "top": leaf,
        "properties": {"properties": {"a": leaf}},
        "items": {"items": leaf},
        "oneOf": {"oneOf": [{"type": "null"}, leaf]},
        "if": {"if": leaf, "then": {}},
        "then": {"if": {}, "then": leaf},
        "else": {"if": {}, "else": leaf},
        "not": {"not": leaf},
        "additionalProperties": {"additionalProperties": leaf},
        "propertyNames": {"propertyNames": leaf},
        "$defs": {"$defs": {"d": leaf}},
        "deep": {"properties": {"a": {"items": {"allOf": [{"anyOf": [leaf]}]}}}},
    }[where]
    found = list(unsupported_keywords(schema))
    assert [p for p in found if p.endswith("/" + keyword)], (schema, found)
    assert fast_validator(schema) is None


def test_a_schema_without_a_fast_check_still_gets_its_diagnostics(monkeypatch):
    monkeypatch.setattr(schema_registry, "fast_check", lambda name: None)
    sample = copy.deepcopy(GOOD["unit"])
    assert list(schema_problems("unit", sample)) == []
    sample["extra"] = 1
    assert [(p.code, p.pointer) for p in schema_problems("unit", sample)] == [("SCHEMA-UNKNOWN-KEY", "/extra")]


def test_a_valid_record_never_meets_jsonschema(monkeypatch):
    def no_jsonschema(name):
        raise AssertionError("jsonschema was used for a valid record")

    for name in GOOD:
        fast_check(name)  # compiled (and the schema checked) before jsonschema is taken away
    monkeypatch.setattr(schema_registry, "validator", no_jsonschema)
    for name, record in GOOD.items():
        assert list(schema_problems(name, record)) == []


def test_allow_list_is_only_keywords_both_drafts_share():
    draft07_only = {"dependencies", "additionalItems", "definitions"}
    only_2020_12 = {"prefixItems", "unevaluatedItems", "unevaluatedProperties", "dependentRequired",
                    "dependentSchemas", "$dynamicRef", "$dynamicAnchor", "$anchor", "$vocabulary", "$ref"}
    assert not FAST_KEYWORDS & (draft07_only | only_2020_12 | {"format", "default", "contentEncoding",
                                                                "contentMediaType", "contentSchema"})


# -- equivalence over real records -----------------------------------------------------------------------
def test_catalog_records_agree(catalog_records):
    assert {name for name, _ in catalog_records} >= {"instruction", "unit", "review", "test", "ndf-attributes",
                                                    "adr", "translation", "release-manifest",
                                                    "traceability-evidence"}
    for name, record in catalog_records:
        fast, precise = _verdicts(name, record)
        assert fast == precise, (name, record)
        assert precise  # catalog/ is valid


@pytest.mark.realtree
def test_real_tree_records_agree(real_tree_root):
    records = _records_of(real_tree_root)
    assert len(records) > 5000
    disagreements = [(name, record) for name, record in records if len(set(_verdicts(name, record))) != 1]
    assert disagreements == []


@pytest.mark.parametrize("name", sorted(GOOD))
def test_good_samples_agree(name):
    assert _verdicts(name, GOOD[name]) == (True, True)


@pytest.mark.parametrize("name, mutate, code, pointer", BAD)
def test_bad_samples_agree_and_keep_their_diagnostics(name, mutate, code, pointer, monkeypatch):
    sample = copy.deepcopy(GOOD[name])
    mutate(sample)
    assert _verdicts(name, sample) == (False, False)
    with_fast = list(schema_problems(name, sample))
    monkeypatch.setattr(schema_registry, "fast_checks_enabled", False)
    assert list(schema_problems(name, sample)) == with_fast


# -- equivalence over mutations --------------------------------------------------------------------------
def _walk(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, (*path, index))


def _schema_values(schema: Any) -> list[Any]:
    """Values a schema singles out: enum members, consts, bounds and their neighbours, property names."""
    out: list[Any] = []
    for _, node in _walk(schema):
        if not isinstance(node, dict):
            continue
        out += list(node.get("enum", []))
        if "const" in node:
            out.append(node["const"])
        for bound in ("minimum", "maximum"):
            if isinstance(node.get(bound), (int, float)):
                out += [node[bound], node[bound] - 1, node[bound] + 1, node[bound] + 0.5, float(node[bound])]
        if isinstance(node.get("minLength"), int):
            out += ["x" * node["minLength"], "x" * max(node["minLength"] - 1, 0)]
        if isinstance(node.get("properties"), dict):
            out += list(node["properties"])
    return out


def _schema_patterns(schema: Any) -> list[str]:
    return sorted({node["pattern"] for _, node in _walk(schema) if isinstance(node, dict)
                   and isinstance(node.get("pattern"), str)})


def _property_names(schema: Any) -> list[str]:
    return sorted({key for _, node in _walk(schema) if isinstance(node, dict)
                   and isinstance(node.get("properties"), dict) for key in node["properties"]})


FIXED_VALUES = [None, True, False, 0, -1, 1, 1.0, 1.5, 2**64, "", "x", "\n", [], {}, ["x"], {"x": 1}]


def _distinct(values: list[Any]) -> list[Any]:
    seen, out = set(), []
    for value in values:
        key = (type(value).__name__, repr(value))
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out


def _get(record: Any, path: tuple) -> Any:
    for part in path:
        record = record[part]
    return record


def _set(record: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    _get(record, path[:-1])[path[-1]] = value
    return record


def _trimmed(record: Any) -> Any:
    """``record`` with every list cut to its first two items (a smaller record reaches the same schema
    locations; catalog/'s traceability evidence has 952 nodes)."""
    if isinstance(record, dict):
        return {k: _trimmed(v) for k, v in record.items()}
    if isinstance(record, list):
        return [_trimmed(v) for v in record[:2]]
    return record


def _single_mutations(name: str, record: Any) -> Iterator[Any]:
    """Every single mutation of ``record`` at every node: change the value (another type, a value the
    schema singles out), drop a key, add an unknown or a known key, shrink or grow or reorder a list, touch a
    string's ends. The record is mutated in place and restored after each yield."""
    schema = dereferenced(name)
    values = _distinct(FIXED_VALUES + _schema_values(schema))
    names = ["zz_unknown", *_property_names(schema)]
    for path, node in list(_walk(record)):
        parent = _get(record, path[:-1]) if path else None
        for value in values:
            if parent is None:
                yield copy.deepcopy(value)
                continue
            parent[path[-1]] = copy.deepcopy(value)
            yield record
            parent[path[-1]] = node
        if isinstance(node, dict):
            for key in list(node):
                value = node.pop(key)
                yield record
                node[key] = value
            for key in names:
                if key not in node:
                    node[key] = copy.deepcopy(next(iter(node.values()))) if node else "x"
                    yield record
                    del node[key]
        elif isinstance(node, list) and node:
            original = list(node)
            for edit in (lambda v: v[1:], lambda v: v[:-1], lambda v: v + [copy.deepcopy(v[0])], lambda v: v[::-1]):
                node[:] = edit(original)
                yield record
                node[:] = original
        elif isinstance(node, str) and parent is not None:
            for edit in (lambda s: s + "\n", lambda s: "\n" + s, lambda s: s + "x", lambda s: " " + s,
                         lambda s: s[:-1], lambda s: s.lower(), lambda s: s.upper(), lambda s: s + "\n\n"):
                parent[path[-1]] = edit(node)
                yield record
                parent[path[-1]] = node


@pytest.mark.parametrize("name", RECORD_KINDS)
def test_every_single_mutation_agrees(name, seeds):
    verdicts = {True: 0, False: 0}
    for seed in seeds[name][:2]:
        trimmed = _trimmed(seed)
        record = copy.deepcopy(trimmed if validator(name).is_valid(trimmed) else seed)
        for mutant in _single_mutations(name, record):
            fast, precise = _verdicts(name, mutant)
            assert fast == precise, (name, copy.deepcopy(mutant))
            verdicts[precise] += 1
        assert validator(name).is_valid(record)  # restored
    assert verdicts[False] > 0 and verdicts[True] > 0, verdicts  # the sweep reaches both sides


json_leaves = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                        st.floats(allow_nan=True, allow_infinity=True), st.text(string.printable, max_size=6))
json_values = st.recursive(json_leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(string.ascii_lowercase + "_", max_size=6), inner, max_size=3)),
    max_leaves=6)


def _donors(records: list[Any]) -> dict[str, list[Any]]:
    """Every value seen under each key in ``records``: swapping them in keeps a record mostly valid, and
    reaches the if/then and oneOf branches that depend on a sibling's value."""
    out: dict[str, list[Any]] = {}
    for record in records:
        for _, node in _walk(record):
            if isinstance(node, dict):
                for key, value in node.items():
                    out.setdefault(key, []).append(value)
    return {key: _distinct(values) for key, values in out.items()}


@st.composite
def mutated(draw, name: str, seeds: dict[str, list[Any]]) -> Any:
    schema = dereferenced(name)
    record = _trimmed(draw(st.sampled_from(seeds[name])))
    donors = _donors(seeds[name])
    patterns = _schema_patterns(schema)
    interesting = st.sampled_from(_distinct(FIXED_VALUES + _schema_values(schema)))
    strings = st.one_of(st.sampled_from(patterns).flatmap(st.from_regex) if patterns else st.nothing(),
                        st.text(max_size=12))
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 2, 3]))):
        paths = [path for path, _ in _walk(record)]
        path = draw(st.sampled_from(paths))
        node = _get(record, path)
        op = draw(st.sampled_from(["donor", "donor", "donor", "interesting", "string", "json", "drop", "add",
                                   "list"]))
        if op == "donor" and isinstance(node, dict):
            key = draw(st.sampled_from(sorted(donors)))
            node[key] = copy.deepcopy(draw(st.sampled_from(donors[key])))
        elif op == "donor" and path and isinstance(path[-1], str) and path[-1] in donors:
            record = _set(record, path, copy.deepcopy(draw(st.sampled_from(donors[path[-1]]))))
        elif op == "drop" and isinstance(node, dict) and node:
            del node[draw(st.sampled_from(sorted(node)))]
        elif op == "add" and isinstance(node, dict):
            key = draw(st.one_of(st.sampled_from(_property_names(schema) or ["x"]), st.text(max_size=5)))
            node[key] = draw(st.one_of(interesting, json_values, strings))
        elif op == "list" and isinstance(node, list):
            if node and draw(st.booleans()):
                node.append(copy.deepcopy(draw(st.sampled_from(node))))
            elif node and draw(st.booleans()):
                node.pop(draw(st.integers(min_value=0, max_value=len(node) - 1)))
            else:
                node.append(draw(st.one_of(interesting, json_values, strings)))
        elif op == "interesting":
            record = _set(record, path, copy.deepcopy(draw(interesting)))
        elif op == "string" or (op == "donor" and isinstance(node, str)):
            record = _set(record, path, draw(strings))
        else:
            record = _set(record, path, draw(json_values))
    return record


@pytest.mark.parametrize("name", RECORD_KINDS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_mutations_agree(name, seeds, data):
    record = data.draw(mutated(name, seeds))
    fast, precise = _verdicts(name, record)
    assert fast == precise
