"""SrcR modifier codes read from the AGU wording of a unit's legality prose ("SrcRType=0 leaves SrcR unchanged, ...
SrcRType=3 negates the full PTO_XLEN value"): without it `ld [a0, a1]` encoded SrcRType=3, which negates a1."""

from __future__ import annotations

from types import SimpleNamespace

from pto_docs.isa.assembler.spelling import _modifier_codes

AGU = ("SrcRType=0 leaves SrcR unchanged, SrcRType=1 sign-extends SrcR[31:0], SrcRType=2 zero-extends SrcR[31:0], "
       "and SrcRType=3 negates the full PTO_XLEN value. Encoded shamt zero performs no shift.")


def test_agu_wording_gives_every_modifier_its_code():
    unit = SimpleNamespace(contract={"legality": [AGU]})
    assert _modifier_codes(unit, ("sw", "uw", "neg")) == {"": 0, "sw": 1, "uw": 2, "neg": 3}


def test_alu_wording_is_read_as_before():
    prose = "SrcRType=00 selects .sw, SrcRType=01 selects .uw, SrcRType=10 selects .neg, SrcRType=11 selects no modifier"
    unit = SimpleNamespace(contract={"legality": [prose]})
    assert _modifier_codes(unit, ("sw", "uw", "neg")) == {"": 3, "sw": 0, "uw": 1, "neg": 2}
