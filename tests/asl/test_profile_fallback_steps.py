"""An instruction step that ran a pto-v0 placeholder under profile ieee (a hook pto-docs cannot compute in IEEE
754: ieee_hooks.py) says so in its step JSON (``profile_fallbacks``), so the page of its example can; a step that
ran none says nothing."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import jsonschema

import pto_docs

UNIT = """
type FloatingUnaryOperation of enumeration { FloatingUnary_SQRT };
type NumericRoundingMode of enumeration { NumericRound_RNE };

implementation func ScalarFPUnaryProfile(operation: FloatingUnaryOperation,
        rounding_mode: NumericRoundingMode, source_type: bits(5), value: bits(64)) => (bits(64), bits(5))
begin
    return (value, Zeros{5});
end;

var Last : bits(64) = Zeros{64};

func DemoSqrt(code: bits(5), value: bits(64))
begin
    let (r, f) = ScalarFPUnaryProfile(FloatingUnary_SQRT, NumericRound_RNE, code, value);
    Last = r;
end;
"""
FOUR32 = "ZeroExtend{64}(0x40800000[31:0])"
TEST = f"""
func main() => integer
begin
    DemoSqrt('00110', {FOUR32});
    DemoSqrt('00001', {FOUR32});
    return 0;
end;
"""


def run(profile: str) -> dict:
    from pto_docs.asl.harness import run_avs, tests_from_sources
    from pto_docs.asl.model import units_from_sources
    unit = '// PTO-UNIT: {"id": "PTO-DEMO", "depends_on": []}\n' + textwrap.dedent(UNIT)
    test = '// PTO-TEST: {"id": "T-SQRT", "kind": "execution"}\n' + TEST
    points = tests_from_sources([("tests/asl/demo/t.asl", test)])
    return run_avs(units_from_sources([("asl/demo/u.asl", unit)]), points, None, jobs=1, profile=profile,
                   steps=["DemoSqrt"])


def test_a_step_that_ran_a_placeholder_names_the_hook_and_only_that_step():
    doc = run("ieee")
    (result,) = doc["tests"]
    assert result["status"] == "pass", result["message"]
    hif8, fp32 = result["steps"]
    assert hif8["profile_fallbacks"] == ["ScalarFPUnaryProfile"]  # type code 6 (HiF8): no IEEE format bound
    assert "profile_fallbacks" not in fp32  # FP32: computed in IEEE 754 (sqrt(4) = 2)
    assert hif8["changed"] == [["Last", "0x0000000000000000", "0x0000000040800000"]]  # the placeholder: 4.0
    assert fp32["changed"] == [["Last", "0x0000000040800000", "0x0000000040000000"]]  # sqrt: 2.0
    schema = json.loads((Path(pto_docs.__file__).parent / "schemas" / "avs.schema.json").read_text())
    jsonschema.validate(doc, schema)
    # pto-v0 binds no IEEE hook: nothing falls back
    assert all("profile_fallbacks" not in s for s in run("pto-v0")["tests"][0]["steps"])
