"""The matrix (CUBE) and special-grid tile teaching scenarios: composed from a handler record's roles, nothing or a safe grid from a malformed one
(a tree's record is data: a stray element, a selector out of range, a role it does not know)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pto_docs.bridge.teaching_matrix import matrix_scenarios

UNIT = SimpleNamespace(id="PTO-TILE-TMATMUL_ACC", mnemonic="TMATMUL_ACC", record={"block": ["BSTART.TMATMUL AType"]})
RECORD = {"family": "CUBE", "function": 2, "semantic_handler": "TMATMUL_ACC",
          "arguments": [{"operand": "destination0"}, {"operand": "source0"}, {"operand": "source1"},
                        {"operand": "source2"}],
          "operands": [{"field": "destination0", "role": "destination"}, {"field": "source0", "role": "accumulator"},
                       {"field": "source1", "role": "left"}, {"field": "source2", "role": "right"}]}


def test_a_matrix_record_gives_small_typed_matrices_in_cube_layouts():
    first = matrix_scenarios(UNIT, RECORD)[0]
    assert first.asm == "BSTART.TMATMUL FP16" and first.data_type == "FP16"
    assert first.instruction == {"call": "TMATMUL_ACC", "arguments": ["1", "2", "3", "4"]}
    assert "selector = Zeros{10} + 2" in first.setup[0] and "data_type = '00100'" in first.setup[0]
    layouts = {line.split("TileLayout_")[1].split(",")[0] for line in first.setup if "ConfigureCubeTile" in line}
    assert layouts == {"CUBE_M16", "CUBE_N8"}
    # the destination and the accumulator in FP32, the two factors in FP16, each 2 x 2
    assert [(t[1], t[2], t[3], t[4]) for t in first.tiles] == [
        ("destination", "FP32", 2, 2), ("source", "FP32", 2, 2), ("source", "FP16", 2, 2), ("source", "FP16", 2, 2)]
    assert len(first.reads) == 4


@pytest.mark.parametrize("change", [
    {"function": 99}, {"function": -1}, {"arguments": "abc"}, {"operands": None},
    {"arguments": [{"operand": "destination0"}, {"operand": "source1"}]},  # no right matrix
    {"operands": [{"field": "destination0", "role": "destination"}, {"field": "source0", "role": "mystery"}]},
])
def test_a_malformed_matrix_record_gives_no_scenario(change):
    assert matrix_scenarios(UNIT, {**RECORD, **change}) == []


def test_stray_argument_elements_are_ignored_not_a_crash():
    record = {**RECORD, "arguments": RECORD["arguments"] + [5, "x", None]}
    assert matrix_scenarios(UNIT, record)[0].instruction["arguments"] == ["1", "2", "3", "4"]


@pytest.mark.parametrize("role", ["persistent sorted Local left source", "Local Matrix feature-map source",
                                  "U8 prefix filter", "S32 row-index source", "packed predicate mask"])
def test_a_special_source_role_on_an_ordinary_shape_composes(role):
    """A tree may give any operation a role the special grids answer (sorted, feature-map, prefix filter ...): its
    2 x 4 tile repeats the grid instead of raising IndexError."""
    from pto_docs.bridge.teaching_tiles import tile_scenarios
    record = {"semantic_handler": "TFOO", "arguments": [{"operand": "destination0"}, {"operand": "source0"}],
              "operands": [{"field": "destination0", "role": "destination"}, {"field": "source0", "role": role}]}
    unit = SimpleNamespace(id="PTO-TILE-TFOO", mnemonic="TFOO", catalog_records=[record], record={})
    found = tile_scenarios(None, None, unit)
    assert found and all(len(t[5]) == 2 and all(len(row) == 4 for row in t[5]) for t in found[0].tiles
                         if t[1] == "source")
