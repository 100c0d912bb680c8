"""The NumPy executor agrees with the spec's own ASL model (interpreter, ``ieee`` profile).

Random legal (and some illegal) cases of every operation the NumPy model implements and the bridge runs
(``pto_docs.bridge.executor_asl``) go through both; result bits, definedness, status flags and faults must be
equal. One linked ASL program serves the whole session.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pto_docs.executor import run_case
from pto_docs.executor.registry import OPS

pytestmark = pytest.mark.realtree

# Float types whose arithmetic the ieee profile binds to real IEEE 754 (pto_docs/asl/profiles.py): all
# eight floating formats the NumPy executor models.
IEEE_FLOATS = ("FP64", "FP32", "TF32", "HF32", "FP16", "BF16", "E4M3", "E5M2")
INTEGERS = ("S64", "S32", "S16", "S8", "U64", "U32", "U16", "U8")
BITS = {"FP64": 64, "S64": 64, "U64": 64, "FP32": 32, "TF32": 32, "HF32": 32, "S32": 32, "U32": 32,
        "FP16": 16, "BF16": 16, "S16": 16, "U16": 16, "E4M3": 8, "E5M2": 8, "S8": 8, "U8": 8}
# (exponent bits, fraction bits, required low zero bits) of each floating layout (asl/arch/data-types/formats)
LAYOUT = {"FP64": (11, 52, 0), "FP32": (8, 23, 0), "TF32": (8, 10, 13), "HF32": (8, 11, 12), "FP16": (5, 10, 0),
          "BF16": (8, 7, 0), "E4M3": (4, 3, 0), "E5M2": (5, 2, 0)}
CAPACITY = 128


@pytest.fixture(scope="session")
def asl_bridge(real_load, real_decoders, asl_model_cache):
    from pto_docs.bridge.avs import avs_inputs
    from pto_docs.bridge.executor_asl import AslBridge

    units = avs_inputs(real_load.catalog).units
    bridge = AslBridge(units, real_decoders.read_text(encoding="utf-8"), asl_model_cache)
    # Hypothesis runs a full garbage collection when a test starts (registering its random generator); the
    # linked model is millions of long-lived objects, so move them out of the collector's sight.
    import gc
    gc.collect()
    gc.freeze()
    return bridge


# Profile hooks the ieee profile leaves to the spec's placeholders, so their floating types are not compared
# (none now: TREM's TileProfileFloatingModulo and TFMA's TileProfileFusedMultiplyAdd are bound, asl/profiles.py).
PLACEHOLDER_FLOATS: set[str] = set()


def _types(mnemonic):
    floats = () if mnemonic in PLACEHOLDER_FLOATS else IEEE_FLOATS
    return [t for t in OPS[mnemonic].data_types if t in floats + INTEGERS]


def _tile(dt, columns, vr, vc, elements=None, kind=None):
    if kind == "predicate":
        rows = CAPACITY * 8 // (columns * BITS[dt])
        t = {"kind": "predicate", "capacity_bytes": CAPACITY, "rows": rows, "columns": columns,
             "valid_rows": vr, "valid_columns": vc}
    else:
        t = {"capacity_bytes": CAPACITY, "rows": CAPACITY * 8 // (columns * BITS[dt]),
             "columns": columns, "data_type": dt, "valid_rows": vr, "valid_columns": vc}
    if elements is not None:
        t["elements"] = elements
    return t


@st.composite
def _elements(draw, dt, vr, vc, predicate=False, undefined_ok=True):
    width = 1 if predicate else BITS[dt]
    special = [0, 1, (1 << width) - 1, 1 << (width - 1), (1 << (width - 1)) - 1]
    low = 0
    if dt in IEEE_FLOATS and not predicate:
        exp, frac, low = LAYOUT[dt]
        frac += low
        one = 1 << low
        special += [((1 << exp) - 1) << frac, (((1 << exp) - 1) << frac) | one,
                    (((1 << exp) - 2) << frac) | ((1 << frac) - one), ((1 << (exp - 1)) - 1) << frac,
                    (((1 << exp) - 1) << frac) | ((1 << frac) - one), one, (1 << frac) - one]
        special = [v & ((1 << width) - one) for v in special]
    raw = st.integers(0, (1 << width) - 1)
    if low:  # TF32/HF32: mostly valid encodings (low bits zero), sometimes an invalid one
        raw = st.one_of(raw.map(lambda v: v & ~((1 << low) - 1)), raw.map(lambda v: v & ~((1 << low) - 1)),
                        raw.map(lambda v: v & ~((1 << low) - 1)), raw)
    value = st.one_of(raw, st.sampled_from(special))
    rows = []
    hole = undefined_ok and draw(st.integers(0, 15)) == 0
    for r in range(vr):
        row = []
        for c in range(vc):
            v = draw(value)
            if hole and r == vr - 1 and c == vc - 1:
                row.append(None)
            else:
                row.append(v if predicate else "0x" + format(v, f"0{width // 4 or 1}x"))
        rows.append(row)
    return rows


@st.composite
def cases(draw, mnemonic):
    spec = OPS[mnemonic]
    dt = draw(st.sampled_from(_types(mnemonic)))
    columns = draw(st.sampled_from([1, 2, 4, 8]))
    phys = CAPACITY * 8 // (columns * BITS[dt])
    vr = draw(st.integers(1, min(3, phys)))
    vc = draw(st.integers(1, columns))
    el = lambda r=vr, c=vc, d=dt: draw(_elements(d, r, c))  # noqa: E731
    tiles, bundle = {}, {}
    kind = spec.kind
    if kind in ("binary", "unary", "fma"):
        n = {"binary": 2, "unary": 1, "fma": 3}[kind]
        for i in range(n):
            tiles[i] = _tile(dt, columns, vr, vc, el())
        tiles[n] = _tile(dt, columns, vr, vc)
        sources, dst = list(range(n)), n
    elif kind == "compare":
        tiles = {0: _tile(dt, columns, vr, vc, el()), 1: _tile(dt, columns, vr, vc, el()),
                 2: _tile(dt, columns, vr, vc, kind="predicate")}
        bundle["cmode"] = draw(st.sampled_from(["EQ", "NE", "LT", "GT", "LE", "GE"]))
        sources, dst = [0, 1], 2
    elif kind == "select":
        mask = draw(_elements(dt, vr, vc, predicate=True))
        tiles = {0: _tile(dt, columns, vr, vc, mask, kind="predicate"),
                 1: _tile(dt, columns, vr, vc, el()), 2: _tile(dt, columns, vr, vc, el()),
                 3: _tile(dt, columns, vr, vc)}
        sources, dst = [0, 1, 2], 3
    elif kind == "reduce":
        tiles[0] = _tile(dt, columns, vr, vc, el())
        dst_type = draw(st.sampled_from(["S32", "U32"])) if spec.op.startswith("ARG") else dt
        if spec.axis == "row":
            tiles[1] = _tile(dst_type, 1, vr, 1)
        else:
            tiles[1] = _tile(dst_type, columns, 1, vc)
        sources, dst = [0], 1
    elif kind == "convert":  # TCVT: a new destination of the bundle's DataType (or the source type)
        dst_type = draw(st.sampled_from([None, *_types(mnemonic)]))
        target = dst_type or dt
        capacity = CAPACITY * max(1, BITS[dt] // BITS[target])  # both capacities legal
        rows = capacity * 8 // (columns * BITS[dt])
        vr = min(vr, rows)
        tiles[0] = {**_tile(dt, columns, vr, vc, draw(_elements(dt, vr, vc))), "capacity_bytes": capacity,
                    "rows": rows}
        if dst_type:
            bundle["data_type"] = dst_type
        bundle["rounding"] = draw(st.sampled_from([None, 0, 1, 2, 3, 4, 5, 6, 7, "RNE", "RTZ", "RDN", "RUP",
                                                   "RNA", "RTO", "RHB"]))
        if bundle["rounding"] is None:
            del bundle["rounding"]
        bundle["saturate"] = draw(st.booleans())
        sources, dst = [0], 1
    else:  # expand
        bshape = (1, vc) if spec.axis == "column" else (vr, 1)
        bcols = columns if spec.axis == "column" else 1
        bcast = _tile(dt, bcols, *bshape, el(*bshape))
        if spec.op == "COPY":
            tiles = {0: bcast, 1: _tile(dt, columns, vr, vc)}
            sources, dst = [0], 1
        else:
            tiles = {0: _tile(dt, columns, vr, vc, el()), 1: bcast, 2: _tile(dt, columns, vr, vc)}
            sources, dst = [0, 1], 2
    if draw(st.booleans()):
        bundle["pad_value"] = draw(st.sampled_from(["Zero", "Max", "Min", "Null"]))
    case = {"tiles": {str(k): v for k, v in tiles.items()},
            "execute": {"instruction": mnemonic, "destination": dst, "sources": sources}}
    if bundle:
        case["bundle"] = bundle
    return case


def _is_nan(bits, dt):
    exp, frac, low = LAYOUT[dt]
    top = bits >> (frac + low) & ((1 << exp) - 1) == (1 << exp) - 1
    fraction = bits >> low & ((1 << frac) - 1)
    if dt == "E4M3":  # no infinity: S.1111.111 is the only NaN
        return top and fraction == (1 << frac) - 1
    return top and fraction != 0


def _nan_neutral(view, dt):
    """NaN payloads are the numeric profile's choice (ScalarFPBinaryProfile: "a named numeric profile
    supplies the correctly rounded arithmetic result"); the ieee profile keeps the host's payload, the
    executor returns the canonical quiet NaN. Compare "a NaN" with "a NaN"."""
    if dt not in IEEE_FLOATS or view["destination"] is None:
        return view
    rows = [["NaN" if b is not None and _is_nan(b, dt) else b for b in row] for row in view["destination"]]
    return {**view, "destination": rows}


def _agree(bridge, case):
    from pto_docs.bridge.executor_asl import numpy_view

    dst = case["execute"]["destination"]
    if str(dst) in case["tiles"]:
        dt = case["tiles"][str(dst)].get("data_type")
    else:  # TCVT's new destination
        dt = case.get("bundle", {}).get("data_type") or case["tiles"][str(case["execute"]["sources"][0])]["data_type"]
    want = _nan_neutral(bridge.run(case), dt)
    got = _nan_neutral(numpy_view(run_case(case), dst), dt)
    assert got == want, case


EXAMPLES = {"TCVT": 300}  # 16 x 17 type pairs, 8 rounding selectors, Sat


def _bridged():
    from pto_docs.bridge.executor_asl import bridged_mnemonics
    return [m for m in bridged_mnemonics() if _types(m)]


@pytest.mark.parametrize("mnemonic", _bridged())
def test_executor_agrees_with_asl(asl_bridge, mnemonic):
    @settings(max_examples=EXAMPLES.get(mnemonic, 25), deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(cases(mnemonic))
    def check(case):
        _agree(asl_bridge, case)

    # In this thread, not in a big-stack one (the bridge makes one per case): Hypothesis keeps its random
    # generator per thread, and registering a new one runs a full garbage collection of this process, which
    # holds the whole linked ASL model: about a second per test.
    check()


def test_fault_and_flags_reach_the_comparison(asl_bridge):
    """The bridge reports faults and flags (so agreement on them is not vacuous)."""
    from pto_docs.asl.runner import run_in_big_stack

    hole = {"tiles": {"0": _tile("FP32", 1, 1, 1, [[None]]), "1": _tile("FP32", 1, 1, 1, [["0x3f800000"]]),
                      "2": _tile("FP32", 1, 1, 1)},
            "execute": {"instruction": "TADD", "destination": 2, "sources": [0, 1]}}
    got = asl_bridge.run(hole)
    assert (got["status"], got["fault"]) == ("fault", "Fault_TileLegality")
    run_in_big_stack(_agree, asl_bridge, hole)
    negative = {"tiles": {"0": _tile("FP32", 1, 1, 1, [["0xbf800000"]]), "1": _tile("FP32", 1, 1, 1)},
                "execute": {"instruction": "TSQRT", "destination": 1, "sources": [0]}}
    got = asl_bridge.run(negative)
    assert got["status_flags"]["NV"] and got["destination"][0][0] == 0x7FC00000
    run_in_big_stack(_agree, asl_bridge, negative)


def test_invalid_tf32_encodings_agree(asl_bridge):
    """TADD accepts a TF32 source with nonzero low bits in the ASL (TileOperandsLegal_ExecuteTileBinary checks
    encodings only for MAX/MIN): both sides compute, and give the canonical NaN for that element."""
    from pto_docs.asl.runner import run_in_big_stack

    case = {"tiles": {"0": _tile("TF32", 2, 1, 2, [["0x3f800001", "0x40000000"]]),
                      "1": _tile("TF32", 2, 1, 2, [["0x3f800000", "0x3f800000"]]), "2": _tile("TF32", 2, 1, 2)},
            "execute": {"instruction": "TADD", "destination": 2, "sources": [0, 1]}}
    got = asl_bridge.run(case)
    assert got["status"] == "ok" and got["destination"][0][:2] == [0x7FC00000, 0x40400000]
    run_in_big_stack(_agree, asl_bridge, case)
