"""FLAGS-PROSE: an Execute* function that drops flags the NDF sticky-status clause says are recorded."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pto_docs.checks.flags import flags_prose_diagnostics

PROFILE = """func ProfileWithFlags(x: integer) => (integer, bits(5))
begin
    return (x, Zeros{5});
end;

func ProfileDropping(x: integer) => integer
begin
    let (result, -) = ProfileWithFlags(x);
    return result;
end;

func ExecuteDropping()
begin
    let y = ProfileDropping(1);
end;

func ExecuteRecording()
begin
    let y = ProfileDropping(1);
    RecordNumericStatusFlags(Zeros{5});
end;
"""


def _catalog(text: str, with_clause: bool = True):
    unit = SimpleNamespace(path="asl/model/x.asl", file=SimpleNamespace(text=text))
    clause = SimpleNamespace(id="PTO-NUMERIC-STATUS-STICKY-001", path="asl/arch/status.asl", line=7)
    return SimpleNamespace(units={"u": unit}, ndf_clauses=(clause,) if with_clause else ())


def test_execute_function_dropping_flags_is_named_with_the_clause():
    diags = flags_prose_diagnostics(_catalog(PROFILE))
    assert [(d.code, d.path, d.line) for d in diags] == [("FLAGS-PROSE", "asl/model/x.asl", 12)]
    message = diags[0].message
    assert "ExecuteDropping" in message and "ProfileDropping (asl/model/x.asl:6)" in message
    assert "PTO-NUMERIC-STATUS-STICKY-001 (asl/arch/status.asl:7)" in message


def test_no_clause_or_no_discarding_function_gives_no_finding():
    assert flags_prose_diagnostics(_catalog(PROFILE, with_clause=False)) == []
    assert flags_prose_diagnostics(_catalog(PROFILE.replace("let (result, -)", "let (result, f)"))) == []


@pytest.mark.realtree
def test_real_tree_names_execute_tile_binary(real_load):
    diags = flags_prose_diagnostics(real_load.catalog)
    assert [d.message.split(" ", 1)[0] for d in diags] == ["ExecuteTileBinary"]
    assert diags[0].path == "asl/tile/model/execution/elementwise.asl"
    assert "asl/arch/state/numeric-status.asl:" in diags[0].message
