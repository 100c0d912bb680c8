"""Each record kind's schema accepts a good sample and rejects a bad one with the expected code and pointer."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from pto_docs.schemas.registry import load_schema, schema_names, schema_problems
from tests import spec_factory as sf

GOOD = {
    "instruction": sf.instruction_record(),
    "unit": sf.unit_record(),
    "review": dict(sf.REVIEW),
    "state": {"id": "PTO-STATE-DEMO", "classification": ["demo"], "scope": "core", "owner": "PTO-TILE-MODEL-DEMO-STATE",
              "members": ["_Demo"], "depends_on": []},
    "test": sf.test_record(),
    "ndf-attributes": {"kind": "contract", "level": "L1", "layer": "tile", "status": "accepted"},
    "adr": sf.adr_front(),
    "translation": {"schema": "pto-docs.translation.v1", "locale": "zh-CN", "subject": "PTO-TILE-TDEMO",
                    "strings": [{"pointer": "/summary", "en_sha256": "a" * 64, "text": "演示"}]},
}

BAD = [
    ("instruction", lambda r: r.pop("contract"), "SCHEMA-REQUIRED", ""),
    ("instruction", lambda r: r["catalog_records"][0].__setitem__("family", "XYZ"), "SCHEMA-ENUM", "/catalog_records/0/family"),
    ("unit", lambda r: r.__setitem__("surface", "cloud"), "SCHEMA-ENUM", "/surface"),
    ("unit", lambda r: r.__setitem__("extra", 1), "SCHEMA-UNKNOWN-KEY", "/extra"),
    ("review", lambda r: r.__setitem__("outcome", "MAYBE"), "SCHEMA-ENUM", "/outcome"),
    ("state", lambda r: r.__setitem__("scope", "galaxy"), "SCHEMA-ENUM", "/scope"),
    ("test", lambda r: r.__setitem__("requirements", "PTO-X"), "SCHEMA-TYPE", "/requirements"),
    ("test", lambda r: r.__setitem__("id", "AVS-1"), "SCHEMA-PATTERN", "/id"),
    ("ndf-attributes", lambda r: r.__setitem__("level", "L3"), "SCHEMA-ENUM", "/level"),
    ("adr", lambda r: r.__setitem__("accepted", None), "SCHEMA-TYPE", "/accepted"),
    ("adr", lambda r: r.pop("legacy_ids"), "SCHEMA-REQUIRED", ""),
    ("translation", lambda r: r["strings"][0].__setitem__("en_sha256", "xyz"), "SCHEMA-PATTERN", "/strings/0/en_sha256"),
]


def test_every_shipped_schema_is_valid_draft_2020_12():
    names = schema_names()
    assert {"instruction", "unit", "review", "state", "test", "ndf-attributes", "adr", "translation"} <= set(names)
    for name in names:
        schema = load_schema(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("name", sorted(GOOD))
def test_good_samples_pass(name):
    assert list(schema_problems(name, GOOD[name])) == []


@pytest.mark.parametrize("name, mutate, code, pointer", BAD)
def test_bad_samples_fail_with_code_and_pointer(name, mutate, code, pointer):
    import copy
    sample = copy.deepcopy(GOOD[name])
    mutate(sample)
    problems = list(schema_problems(name, sample))
    assert problems, "the mutated sample must be rejected"
    assert (code, pointer) in {(p.code, p.pointer) for p in problems}, problems
