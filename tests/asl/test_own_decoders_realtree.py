"""pto-docs' own generated:decoders (pto_docs.isa.decoders) against the spec's own generator output
(PTO_DOCS_AVS_DECODERS) on the real tree (PTO_SPEC_CHECKOUT): the same declarations, and every decoder and
per-form table gives the same answer (or fails the same way) on the same inputs, each model linked on its own."""

from __future__ import annotations

import random
import re

import pytest

from pto_docs.asl.errors import AslError
from pto_docs.asl.harness import Session
from pto_docs.asl.model import VALIDATION_FUNC, load_model
from pto_docs.asl.parser import parse
from pto_docs.asl.runner import run_in_big_stack
from pto_docs.asl.values import BV
from pto_docs.bridge.avs import avs_inputs
from pto_docs.isa.decoders import generate_decoders, mask_of, projections

pytestmark = pytest.mark.realtree


@pytest.fixture(scope="module")
def both(real_load, real_decoders, asl_model_cache):
    catalog = real_load.catalog
    ours = generate_decoders(catalog)
    theirs = real_decoders.read_text("utf-8")
    units = avs_inputs(catalog).units
    programs = [Session(load_model(units, text, asl_model_cache)).program for text in (ours, theirs)]
    return catalog, ours, theirs, programs


def _answer(program, name, args):
    try:
        return ("value", program.call(name, *args))
    except AslError as exc:  # AslUnreachable, AslAssertionError: an index outside the table
        return ("raises", type(exc).__name__)


def _declarations(text: str) -> dict:
    """Declarations by name (``func:`` before a function's), each as its parse tree without source positions."""
    decls = parse(VALIDATION_FUNC.sub("", text), "@decoder@")
    plain = lambda d: re.sub(r"'@decoder@:\d+:\d+'", "'@'", re.sub(r"\bpos=\d+", "pos=", repr(d)))  # noqa: E731
    return {("func:" + d.name) if d.tag == "func" else d.name: plain(d) for d in decls}


# Not per-form tables: the same statements whatever the numbering, so the same parse tree as upstream's.
SAME_TEXT = ("ExecuteTileInstruction", "ExecuteTileInstructionWithoutTime",
             "ExecuteTileInstructionWithoutTimeWithAcceptedApplicabilityRules", "SystemRegisterAccessOf",
             "TileCanonicalTEPLAliasOfIndex", "TileOperationDATRFieldsLegal", "TileTEPLAliasAcceptsOperation",
             "TileOperationRejectedByAcceptedApplicabilityRules")


def test_declarations_and_the_tile_dispatch_are_those_of_the_spec_generator(both):
    _, ours, theirs, _ = both
    mine, upstream = _declarations(ours), _declarations(theirs)
    # every subprogram upstream generates besides its Validate* test bodies, and no other
    assert {n for n in mine if n.startswith("func:")} == {n for n in upstream if n.startswith("func:")}
    assert len(mine) > 80 and set(mine) <= set(upstream)
    assert [n for n in mine if not n.startswith("func:") and mine[n] != upstream[n]] == []
    assert [n for n in SAME_TEXT if mine["func:" + n] != upstream["func:" + n]] == []
    shared = set(mine)
    used = {"PTO_SCALAR_FORM_COUNT", "PTO_COMMAND_FORM_COUNT", "PTO_TILE_OPERATION_COUNT", "ScalarOperation",
            "CommandOperation", "TileOperation", "ScalarOperandField", "CommandOperandField", "TileOperandField"}
    assert used <= set(shared)
    # the upstream constants ours lack are counts of its generated test cases (Validate* bodies), used by no unit
    assert all(n.endswith("_CASE_COUNT") or n.endswith("_EFFECT_FORM_COUNT") or "_OCCURRENCE_" in n
               for n in set(upstream) - set(mine))


def _words(rows: list[dict], width: int, rng: random.Random, per_form: int = 3):
    """Per form: its match bits with random bits where the mask leaves them free."""
    out = []
    for index, row in enumerate(rows):
        fixed = match = 0
        for part in row["encoding"]:
            fixed |= mask_of(part) << (part["index"] * 32)
            match |= int(part["match"], 16) << (part["index"] * 32)
        span = (1 << row["length_bits"]) - 1
        words = [match] + [(rng.getrandbits(row["length_bits"]) & ~fixed & span) | match for _ in range(per_form - 1)]
        out.append((index, row, words))
    return out


def _compare(programs, calls) -> list:
    ours, theirs = programs
    differences = []
    for name, args in calls:
        a, b = _answer(ours, name, args), _answer(theirs, name, args)
        if a != b:
            differences.append((name, args, a, b))
    return differences


def test_every_decoder_and_table_answers_as_the_spec_generator(both):
    catalog, _, _, programs = both
    scalar, _, command, tile = projections(catalog)
    rng = random.Random(20260412)
    calls: list = []
    scalar_fields = sorted({f"ScalarField_{f['name']}" for r in scalar for f in r["fields"]})
    command_fields = sorted({f"CommandField_{f['name']}" for r in command for f in r["fields"]})
    for index, row, words in _words(scalar, 48, rng):
        length = row["length_bits"]
        own = [f"ScalarField_{f['name']}" for f in row["fields"]]
        others = rng.sample(scalar_fields, 2)
        for word in words + [rng.getrandbits(length)]:
            calls.append(("DecodeScalarForm", (BV(word, 48), length)))
        for name in ("ScalarFamilyOfForm", "ScalarOperationOfForm", "ScalarHandlerOfForm", "ScalarAGUActionOfForm",
                     "ScalarAGUAddressKindOfForm", "ScalarAGUSizeOfForm", "ScalarAGUOffsetScaleOfForm",
                     "ScalarAGUUpdateModeOfForm", "ScalarAGUSignedLoadOfForm", "ScalarAGUPrefetchReturnsAddress"):
            calls.append((name, (index,)))
        for field in own + others:
            for name in ("ScalarOperandPresent", "ScalarOperandWidth", "ScalarOperandSignedness"):
                calls.append((name, (index, field)))
            for word in words:
                calls.append(("DecodeScalarOperandRaw", (BV(word, 48), index, field)))
        for word in words + [rng.getrandbits(48)]:
            calls.append(("ScalarFormOperandsLegal", (BV(word, 48), index)))
            calls.append(("ScalarRegisterOperandsLegal", (BV(word, 48), index)))
    for index, row, words in _words(command, 64, rng):
        length = row["length_bits"]
        own = [f"CommandField_{f['name']}" for f in row["fields"]]
        for word in words + [rng.getrandbits(length)]:
            calls.append(("DecodeCommandForm", (BV(word, 64), length)))
        for name in ("CommandBundleKindOfForm", "CommandBundleOperationClassOfForm", "CommandBundleArgumentKindOfForm",
                     "CommandBundleSelectorConstantPresent", "CommandBundleSelectorUsesEncodingVariant",
                     "CommandBundleTransferOfForm", "CommandHasSignedOffset", "CommandOperationOfForm",
                     "CommandHandlerOfForm", "CommandFormSelectsTileOperation", "CommandTileFamilyOfForm"):
            calls.append((name, (index,)))
        for field in own + rng.sample(command_fields, 2):
            for name in ("CommandOperandPresent", "CommandOperandWidth", "CommandOperandSignedness"):
                calls.append((name, (index, field)))
            for word in words:
                calls.append(("DecodeCommandOperandRaw", (BV(word, 64), index, field)))
        for word in words:
            for name in ("CommandFormOperandsLegal", "CommandBundleSelectorConstantOfForm", "CommandSignedOffsetOfForm",
                         "CommandTileCodeOfForm", "CommandTileDataTypeOfForm"):
                calls.append((name, (BV(word, 64), index)))
    families = ("TileDecode_TEPL", "TileDecode_TLSU", "TileDecode_CUBE")
    for family in families:
        for code in list(range(256)) + rng.sample(range(256, 4096), 64):
            calls.append(("DecodeTileOperation", (family, BV(code, 12))))
    tile_fields = sorted({f"TileOperand_{o['field']}" for r in tile for o in r["operands"]})
    datr = ("CMode", "PadValueOrByteId", "Sat", "Canonicalize", "DataType", "RMode", "Layout")
    for index in range(len(tile)):
        for name in ("TileOperationOfIndex", "TileHandlerOfIndex", "TileClassOfIndex", "TileEngineOfIndex",
                     "TileOperationUsesTEPLCarrier", "TileOperationDATRPadUnion", "TileCanonicalTEPLAliasOfIndex"):
            calls.append((name, (index,)))
        for field in tile_fields:
            calls.append(("TileOperandPresent", (index, field)))
        for field in datr:
            calls.append(("TileOperationDATRFieldApplicable", (index, f"TileDATRField_{field}")))
        for alias in ("TileTEPLAlias_TEPL", "TileTEPLAlias_VEC", "TileTEPLAlias_SFU"):
            calls.append(("TileTEPLAliasAcceptsOperation", (alias, index)))
        for rules in ("NumericApplicabilityRules_None", "NumericApplicabilityRules_A2A3MxRejection"):
            calls.append(("TileOperationRejectedByAcceptedApplicabilityRules", (rules, index)))
        for _ in range(4):
            values = (BV(rng.choice((0, rng.getrandbits(3))), 3), BV(rng.choice((0, rng.getrandbits(2))), 2),
                      rng.random() < 0.3, rng.random() < 0.3, BV(rng.choice((0, rng.getrandbits(5))), 5),
                      BV(rng.choice((0, rng.getrandbits(3))), 3), BV(rng.choice((0, rng.getrandbits(5))), 5))
            calls.append(("TileOperationDATRFieldsLegal", (index, *values)))
    registers = catalog.json("spec/catalog/system-registers.json")["registers"]
    addresses = set(rng.getrandbits(24) for _ in range(200))
    for row in registers:
        low = int(row.get("address", row.get("low_index", "0")), 0)
        addresses |= {low, low | (rng.getrandbits(4) << 12), low | (rng.getrandbits(12) << 12),
                      low | (row.get("fixed_context", 0) << 12)}
    calls += [("SystemRegisterAccessOf", (BV(a, 24),)) for a in sorted(addresses)]
    assert len(calls) > 30_000
    differences = run_in_big_stack(_compare, programs, calls)
    assert differences[:20] == []
