"""The instruction probe (pto_docs/asl/probe.py) and the harness's --examples steps, on a small model written here."""

from __future__ import annotations

import json
import textwrap

import jsonschema
import pytest

from pto_docs.asl.harness import run_avs
from pto_docs.asl.harness import tests_from_sources as points_from
from pto_docs.asl.model import units_from_sources
from pto_docs.schemas.registry import validator


def unit(uid: str, body: str) -> str:
    return f"// PTO-UNIT: {json.dumps({'id': uid, 'depends_on': []})}\n{textwrap.dedent(body)}"


def avs_file(tid: str, kind: str, body: str) -> str:
    return f"// PTO-TEST: {json.dumps({'id': tid, 'kind': kind})}\n{textwrap.dedent(body)}"


MODEL = unit("PTO-M", """
    var R : array [[8]] of bits(8);
    var PC : bits(8);
    var Mode : integer = 0;
    func ResetProfileState()
    begin
        Mode = 1;
    end;
    func Helper(i : integer)
    begin
        R[[i]] = R[[i]] + 1;
    end;
    func ExecuteWord(word : bits(16)) => boolean
    begin
        let dst = UInt(word[3:0]);
        R[[dst]] = word[15:8];
        R[[dst + 1]] = word[15:8] + 1;
        ExecuteNested();
        PC = PC + 2;
        return TRUE;
    end;
    func ExecuteNested()
    begin
        Mode = Mode + 10;
    end;
    func ExecuteFaulting()
    begin
        PC = PC + 1;
        assert FALSE;
    end;
    func TWIDGET(i : integer)
    begin
        R[[i]] = '11111111';
    end;
    """)

TESTS = {
    "tests/asl/t1.asl": avs_file("T-EXEC", "execution", """
        func main() => integer
        begin
            ResetProfileState();
            R[[5]] = '00000011';
            Helper(5);
            let ok = ExecuteWord('1010101000000010');
            assert ok;
            let again = ExecuteWord('0000000100000110');
            TWIDGET(0);
            return 0;
        end;
        """),
    "tests/asl/t2.asl": avs_file("T-FAULT", "fault", """
        func main() => integer
        begin
            ResetProfileState();
            ExecuteFaulting();
            return 0;
        end;
        """),
}


@pytest.fixture(scope="module")
def doc():
    units = units_from_sources([("asl/m.asl", MODEL)])
    return run_avs(units, points_from(TESTS.items()), None, jobs=1, steps=["TWIDGET"])


def by_id(doc, tid):
    return next(t for t in doc["tests"] if t["id"] == tid)


def test_each_outermost_entry_call_is_one_step_with_its_arguments_and_result(doc):
    steps = by_id(doc, "T-EXEC")["steps"]
    # ExecuteNested runs inside ExecuteWord: not a step of its own; TWIDGET is watched because it was named
    assert [s["function"] for s in steps] == ["ExecuteWord", "ExecuteWord", "TWIDGET"]
    assert steps[0]["arguments"] == ["0xaa02"] and steps[0]["result"] == "TRUE"
    assert steps[2]["arguments"] == ["0"] and steps[2]["result"] is None


def test_before_is_what_the_test_set_up_relative_to_the_reset_state(doc):
    first = by_id(doc, "T-EXEC")["steps"][0]
    # R[5] = 3, then Helper added 1; Mode = 1 is what ResetProfileState leaves, so it is not listed
    assert first["before"] == [["R[5]", "0x04"]]


def test_changed_lists_every_changed_leaf_with_before_and_after_grouping_array_runs(doc):
    first, second = by_id(doc, "T-EXEC")["steps"][:2]
    assert first["changed"] == [["Mode", "1", "11"], ["PC", "0x00", "0x02"], ["R[2..3]", "0x00 0x00", "0xaa 0xab"]]
    # the second word writes R[6], R[7]; the state before it includes the first step's effects
    assert ["R[2..3]", "0xaa 0xab"] in second["before"]
    assert ["PC", "0x02", "0x04"] in second["changed"]
    assert ["R[6..7]", "0x00 0x00", "0x01 0x02"] in second["changed"]


def test_an_exception_is_recorded_on_its_step_and_still_ends_the_test(doc):
    result = by_id(doc, "T-FAULT")
    assert result["status"] == "fail"
    (step,) = result["steps"]
    assert step["function"] == "ExecuteFaulting"
    assert step["exception"].startswith("AslAssertionError")
    assert step["changed"] == [["PC", "0x00", "0x01"]]


def test_results_with_steps_follow_the_published_schema(doc):
    validator("avs").validate(doc)
    broken = json.loads(json.dumps(doc))
    broken["tests"][0]["steps"][0]["before"] = [["R[5]"]]
    with pytest.raises(jsonschema.ValidationError):
        validator("avs").validate(broken)


def test_without_steps_the_results_carry_none(doc):
    units = units_from_sources([("asl/m.asl", MODEL)])
    plain = run_avs(units, points_from(TESTS.items()), None, jobs=1)
    assert all("steps" not in t for t in plain["tests"])
    assert [t["status"] for t in plain["tests"]] == [t["status"] for t in doc["tests"]]


def test_wide_bitvectors_are_shown_by_their_set_bits():
    from pto_docs.asl.probe import short_text
    from pto_docs.asl.values import BV
    assert short_text(BV(0b1101, 4096)) == "bits(4096) set 0, 2..3"
    assert short_text(BV(0, 4096)) == "bits(4096) all 0"
    assert short_text(BV(0xAB, 8)) == "0xab"
