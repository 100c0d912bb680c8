"""Operation registry: mnemonic -> class, engine, accepted types, binding shape.

Accepted data-type sets are the model's own
``InstructionContractDataTypeLegal_<MNEMONIC>`` functions of release 0.58.3
(asl/tile/<class>/**/<MNEMONIC>.asl, asl/tile/model/legality/dtype-layout.asl,
asl/tile/model/execution/unary.asl and comparison.asl), restricted to the
sixteen modelled data types.  Where the contract prose lists a narrower set,
the model set is what this executor accepts; ``accepted_data_types`` exposes
it so the two can be compared.
"""

from __future__ import annotations

from dataclasses import dataclass

ELEMENTWISE = "elementwise-tile-tile"
REDUCE_EXPAND = "reduce-and-expand"

# TileVecArithmeticDataTypeSupported
VEC_ARITH = ("FP64", "FP32", "TF32", "HF32", "FP16", "BF16", "E4M3", "E5M2",
             "S64", "S32", "S16", "S8", "U64", "U32", "U16", "U8")
# TileVecScalarIntegerDataTypeSupported
INTEGERS = ("S64", "S32", "S16", "S8", "U64", "U32", "U16", "U8")
# TileFloatingElementwiseDataTypeSupported
FLOATS = ("FP64", "FP32", "TF32", "HF32", "FP16", "BF16", "E4M3", "E5M2")
# TileA9DataTypeSupported (arg-reduction sources)
A9 = ("FP32", "FP16", "BF16", "S32", "S16", "S8", "U32", "U16", "U8")
EXPDIF_SOURCES = ("FP32", "FP16", "BF16")


@dataclass(frozen=True)
class OpSpec:
    mnemonic: str
    op_class: str
    engine: str
    kind: str  # binary unary fma compare select expand reduce
    op: str  # numeric operation name (ADD, SQRT, COPY, SUM, ...)
    data_types: tuple[str, ...]
    bindings: tuple[int, ...]  # sources carried by each B.IOT, last one has ->Dst
    axis: str | None = None  # "row" / "column" for reduce-and-expand
    datr_fields: tuple[str, ...] = ("PadValue",)

    @property
    def source_count(self) -> int:
        return sum(self.bindings)


def _ops():
    ops = []
    add = ops.append
    for m, op, eng in [("TADD", "ADD", "VEC"), ("TSUB", "SUB", "VEC"), ("TMUL", "MUL", "VEC"),
                       ("TMAX", "MAX", "VEC"), ("TMIN", "MIN", "VEC"),
                       ("TDIV", "DIV", "SFU"), ("TREM", "REM", "SFU")]:
        add(OpSpec(m, ELEMENTWISE, eng, "binary", op, VEC_ARITH, (2,)))
    for m, op in [("TAND", "AND"), ("TOR", "OR"), ("TXOR", "XOR"), ("TSHL", "SHL"), ("TSHR", "SHR")]:
        add(OpSpec(m, ELEMENTWISE, "VEC", "binary", op, INTEGERS, (2,)))
    add(OpSpec("TFMA", ELEMENTWISE, "VEC", "fma", "FMA", VEC_ARITH, (2, 1)))
    for m, op in [("TABS", "ABS"), ("TNEG", "NEG"), ("TRELU", "RELU")]:
        add(OpSpec(m, ELEMENTWISE, "VEC", "unary", op, VEC_ARITH, (1,)))
    add(OpSpec("TNOT", ELEMENTWISE, "VEC", "unary", "NOT", INTEGERS, (1,)))
    for m, op in [("TSQRT", "SQRT"), ("TRSQRT", "RSQRT"), ("TEXP", "EXP"), ("TLOG", "LOG"),
                  ("TRECIP", "RECIP")]:
        add(OpSpec(m, ELEMENTWISE, "SFU", "unary", op, FLOATS, (1,)))
    add(OpSpec("TCMP", ELEMENTWISE, "VEC", "compare", "CMP", VEC_ARITH, (2,),
               datr_fields=("CMode", "PadValue")))
    add(OpSpec("TSEL", ELEMENTWISE, "VEC", "select", "SEL", VEC_ARITH, (2, 1)))
    # TCVT: InstructionContractDataTypeLegal_TCVT accepts every assigned type
    add(OpSpec("TCVT", ELEMENTWISE, "VEC", "convert", "CVT", VEC_ARITH, (1,),
               datr_fields=("DataType", "RMode", "Sat", "Canonicalize", "Layout", "PadValue")))

    for axis, prefix in (("column", "TCOL"), ("row", "TROW")):
        add(OpSpec(prefix + "EXPAND", REDUCE_EXPAND, "SFU", "expand", "COPY", VEC_ARITH, (1,), axis))
        for suffix, op in [("ADD", "ADD"), ("SUB", "SUB"), ("MUL", "MUL"), ("DIV", "DIV"),
                           ("MAX", "MAX"), ("MIN", "MIN")]:
            add(OpSpec(prefix + "EXPAND" + suffix, REDUCE_EXPAND, "SFU", "expand", op,
                       VEC_ARITH, (2,), axis))
        add(OpSpec(prefix + "EXPANDEXPDIF", REDUCE_EXPAND, "SFU", "expand", "EXPDIF",
                   EXPDIF_SOURCES, (2,), axis, datr_fields=("DataType", "PadValue")))
        for suffix, op, types in [("SUM", "SUM", VEC_ARITH), ("PROD", "PRODUCT", VEC_ARITH),
                                  ("MAX", "MAX", VEC_ARITH), ("MIN", "MIN", VEC_ARITH),
                                  ("ARGMAX", "ARGMAX", A9), ("ARGMIN", "ARGMIN", A9)]:
            add(OpSpec(prefix + suffix, REDUCE_EXPAND, "SFU", "reduce", op, types, (1,), axis))
    return {o.mnemonic: o for o in ops}


OPS: dict[str, OpSpec] = _ops()

# Release 0.58.3 operations of the two classes that are not modelled (none:
# TCVT is modelled for the sixteen data types, see conversion.TCVT_PROFILE_NOTES).
NOT_MODELLED: dict[str, str] = {}

UPSTREAM_CLASS = {m: o.op_class for m, o in OPS.items()}
