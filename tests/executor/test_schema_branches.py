"""The element schemas of cases and results list their branches under ``anyOf`` (a compiled check stops at the first
branch that fits, where ``oneOf`` tries every branch, at about 1,300 raised exceptions a result): that means "exactly
one of" only while no value fits two branches. Each such ``anyOf`` is checked here for that, on a spread of values."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

SCHEMAS = Path(__file__).resolve().parents[2] / "pto_docs" / "schemas"
VALUES = [0, 1, -7, 2**70, 1.5, -0.0, float("inf"), True, False, None, "nan", "inf", "-inf", "0x1f", "0x1F", "0x",
          "1f", "", "NaN", "x", [], [1], {}, {"a": 1}]


def _any_ofs(node, path=""):
    if isinstance(node, dict):
        if "anyOf" in node:
            yield path, node["anyOf"]
        for key, value in node.items():
            yield from _any_ofs(value, f"{path}/{key}")
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from _any_ofs(value, f"{path}/{n}")


@pytest.mark.parametrize("name", ["result.schema.json", "case.schema.json"])
def test_element_branches_are_disjoint(name):
    schema = json.loads((SCHEMAS / name).read_text("utf-8"))
    found = [(path, branches) for path, branches in _any_ofs(schema) if all("type" in b or "enum" in b for b in branches)]
    assert found, "no element anyOf found"
    for path, branches in found:
        for value in VALUES:
            fits = [b for b in branches if jsonschema.Draft202012Validator(b).is_valid(value)]
            assert len(fits) <= 1, (name, path, value, fits)


def test_a_bad_element_is_still_refused():
    from executor_helpers import tile

    from pto_docs.executor.case import CaseError, validate_schema
    for element in (1.5, None, True, "0x3f800000", "nan"):
        validate_schema({"tiles": {"0": tile("FP32", [[element]])},
                         "execute": {"instruction": "TABS", "destination": 1, "sources": [0]}})
    for element in ("one", [1], {"a": 1}, "0x"):
        with pytest.raises(CaseError):
            validate_schema({"tiles": {"0": tile("FP32", [[element]])},
                             "execute": {"instruction": "TABS", "destination": 1, "sources": [0]}})
