"""The ``ieee`` profile's scalar FSU and CUBE matrix hooks (profiles.bind_profile calls ``bind``).

Bound: ``ScalarFPBinaryProfile`` in the rounding modes other than RNE (RNE keeps profiles.py's NumPy path),
``ScalarFPUnaryProfile``, ``ScalarFPFusedProfile``, ``ScalarFPToIntegerProfile``, ``ScalarFPConvertProfile``,
``ScalarIntegerToFPProfile``, ``TileProfileMatrixAccumulate``, ``TileProfileMatrixBias`` and
``TileProfileMatrixScaledAccumulate`` (ieee_scalar.py). A call the profile cannot compute (a type code
without a bound format: TF32 as a scalar carrier, HiF8, the 6- and 4-bit types, E8M0, HiF4X2; integer
matrix types, which the ASL's portable integer arithmetic already gets right; an operation it does not
know) runs the ASL's own pto-v0 function and is recorded in ``program.profile_fallbacks`` (a set of hook
names, emptied by the caller per run), so a page can say its example used a pto-v0 placeholder.
"""

from __future__ import annotations

from . import ieee_scalar
from .float_formats import FORMATS
from .values import BV

FLOAT_TILE_TYPES = ("TileDataType_FP64", "TileDataType_FP32", "TileDataType_TF32", "TileDataType_HF32",
                    "TileDataType_FP16", "TileDataType_BF16", "TileDataType_E4M3", "TileDataType_E5M2")
BINARY_OPS = {"FloatingBinary_ADD": "+", "FloatingBinary_SUB": "-", "FloatingBinary_MUL": "*",
              "FloatingBinary_DIV": "/"}
UNARY_OPS = ("FloatingUnary_ABS", "FloatingUnary_SQRT", "FloatingUnary_EXP", "FloatingUnary_RECIP")


def _width_mask(fmt) -> int:
    return (1 << fmt.width) - 1


def _result(bits: int, flags: int) -> tuple[BV, BV]:
    return BV(bits, 64), BV(flags, 5)


def _tile_format(data_type: str):
    return FORMATS[data_type] if data_type in FLOAT_TILE_TYPES else None


def _hooks(fallbacks: set):
    """name -> (arity, factory taking the ASL's own function and returning the bound hook)."""

    def fallback(name, asl, *args):
        fallbacks.add(name)
        return asl(*args)

    def binary(asl):
        def hook(op, mode, code, left, right):
            fmt = ieee_scalar.scalar_format(code.val) or (FORMATS["TileDataType_TF32"] if code.val == 2 else None)
            if op not in BINARY_OPS or fmt is None:
                return fallback("ScalarFPBinaryProfile", asl, op, mode, code, left, right)
            m = _width_mask(fmt)
            return _result(*ieee_scalar.binary(BINARY_OPS[op], fmt, mode, left.val & m, right.val & m))
        return hook

    def unary(asl):
        def hook(op, mode, code, value):
            fmt = ieee_scalar.scalar_format(code.val)
            if op not in UNARY_OPS or fmt is None:
                return fallback("ScalarFPUnaryProfile", asl, op, mode, code, value)
            return _result(*ieee_scalar.unary(op, fmt, mode, value.val & _width_mask(fmt)))
        return hook

    def fused(asl):
        def hook(op, mode, code, addend, left, right):
            fmt = ieee_scalar.scalar_format(code.val)
            if op not in ieee_scalar.FUSED or fmt is None:
                return fallback("ScalarFPFusedProfile", asl, op, mode, code, addend, left, right)
            m = _width_mask(fmt)
            return _result(*ieee_scalar.fused(op, fmt, mode, addend.val & m, left.val & m, right.val & m))
        return hook

    def to_integer(asl):
        def hook(mode, destination, source, value):
            fmt = ieee_scalar.scalar_format(source.val)
            if fmt is None or destination.val not in ieee_scalar.INTEGER_CODES:
                return fallback("ScalarFPToIntegerProfile", asl, mode, destination, source, value)
            return _result(*ieee_scalar.to_integer(fmt, destination.val, mode, value.val & _width_mask(fmt)))
        return hook

    def convert(asl):
        def hook(mode, destination, source, value):
            src, dst = ieee_scalar.scalar_format(source.val), ieee_scalar.scalar_format(destination.val)
            if src is None or dst is None:
                return fallback("ScalarFPConvertProfile", asl, mode, destination, source, value)
            return _result(*ieee_scalar.convert(src, dst, mode, value.val & _width_mask(src)))
        return hook

    def from_integer(asl):
        def hook(mode, source, destination, value):
            fmt = ieee_scalar.scalar_format(destination.val)
            if fmt is None or source.val not in ieee_scalar.INTEGER_CODES:
                return fallback("ScalarIntegerToFPProfile", asl, mode, source, destination, value)
            return _result(*ieee_scalar.from_integer(source.val, fmt, mode, value.val))
        return hook

    def accumulate(asl):
        def hook(accumulator, left, right, destination, left_type, right_type, control):
            formats = tuple(_tile_format(t) for t in (destination, left_type, right_type))
            if None in formats:
                if not all(t.startswith(("TileDataType_S", "TileDataType_U")) for t in
                           (destination, left_type, right_type)):
                    fallbacks.add("TileProfileMatrixAccumulate")
                return asl(accumulator, left, right, destination, left_type, right_type, control)
            words = (v.val & _width_mask(f) for v, f in zip((accumulator, left, right), formats, strict=True))
            return BV(ieee_scalar.matrix_accumulate(*words, formats, control["rounding_mode"],
                                                    bool(control["saturating"])), 64)
        return hook

    def bias(asl):
        def hook(value, bias_value, destination, bias_type):
            dst, src = _tile_format(destination), _tile_format(bias_type)
            if dst is None or src is None:
                if not all(t.startswith(("TileDataType_S", "TileDataType_U")) for t in (destination, bias_type)):
                    fallbacks.add("TileProfileMatrixBias")
                return asl(value, bias_value, destination, bias_type)
            return BV(ieee_scalar.matrix_bias(value.val & _width_mask(dst), bias_value.val & _width_mask(src),
                                              dst, src), 64)
        return hook

    def scaled(asl):
        def hook(accumulator, left, right, left_scale, right_scale, left_present, right_present,
                 destination, left_type, right_type, left_scale_type, right_scale_type):
            args = (accumulator, left, right, left_scale, right_scale, left_present, right_present,
                    destination, left_type, right_type, left_scale_type, right_scale_type)
            formats = tuple(_tile_format(t) for t in (destination, left_type, right_type))
            scale_types = [t for t, present in ((left_scale_type, left_present), (right_scale_type, right_present))
                           if present]
            if None in formats or any(t != "TileDataType_E8M0" for t in scale_types):
                return fallback("TileProfileMatrixScaledAccumulate", asl, *args)
            words = [v.val & _width_mask(f) for v, f in zip((accumulator, left, right), formats, strict=True)]
            scales = (left_scale.val & 0xFF if left_present else None,
                      right_scale.val & 0xFF if right_present else None)
            return BV(ieee_scalar.matrix_accumulate(*words, formats, "NumericRound_RNE", False, scales), 64)
        return hook

    return {"ScalarFPBinaryProfile": (5, binary), "ScalarFPUnaryProfile": (4, unary),
            "ScalarFPFusedProfile": (6, fused), "ScalarFPToIntegerProfile": (4, to_integer),
            "ScalarFPConvertProfile": (4, convert), "ScalarIntegerToFPProfile": (4, from_integer),
            "TileProfileMatrixAccumulate": (7, accumulate), "TileProfileMatrixBias": (4, bias),
            "TileProfileMatrixScaledAccumulate": (12, scaled)}


def bind(program) -> None:
    """Install the hooks (profiles.bind_profile then wraps ``ScalarFPBinaryProfile``'s with its NumPy RNE
    path)."""
    fallbacks: set = set()
    program.profile_fallbacks = fallbacks
    for name, (arity, factory) in _hooks(fallbacks).items():
        for fn in program.functions.get(name, ()):
            if fn.arity == arity:
                program.ns[fn.pyname] = factory(program.compile_python(fn))
