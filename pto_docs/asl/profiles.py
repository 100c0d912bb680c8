"""Numeric profiles: how the ASL's ``impdef``/``implementation`` floating-point hooks are bound.

``pto-v0``: the spec's own ``implementation`` functions, run as written (ASLRef's behaviour; raw carrier
bits, e.g. TSQRT of 4.0 returns the bits of 4.0).

``ieee``: ``TileProfileUnary`` is bound to NumPy/ml_dtypes arithmetic for SQRT and RECIP (correctly
rounded: computed exactly or in float64, whose double rounding is innocuous for these operations) and
RSQRT, EXP, LOG (float64 libm, then rounded once to the element type) on FP64, FP32, FP16 and BF16,
returning IEEE 754 flags as the ASL's ``bits(5)`` vector (NV bit 0, DZ 1, OF 2, UF 3, NX 4).
``ScalarFPBinaryProfile`` ADD/SUB/MUL/DIV with round-to-nearest-even on type codes 0 (FP64), 1 (FP32),
4 (FP16), 5 (BF16) is bound the same way (NumPy status flags for NV/DZ/OF; NX and UF from the exact
rational result). Every other operation, type and rounding mode falls through to the ASL implementation.
"""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np

from .values import BV

PROFILES = ("pto-v0", "ieee")
NV, DZ, OF, UF, NX = 1, 2, 4, 8, 16
FLOAT_TYPES = {
    "TileDataType_FP64": (np.float64, np.uint64, 64),
    "TileDataType_FP32": (np.float32, np.uint32, 32),
    "TileDataType_FP16": (np.float16, np.uint16, 16),
    "TileDataType_BF16": (ml_dtypes.bfloat16, np.uint16, 16),
}
UNARY = ("TileUnary_SQRT", "TileUnary_RSQRT", "TileUnary_RECIP", "TileUnary_EXP", "TileUnary_LOG")


def _decode(bits: int, spec):
    ftype, utype, _ = spec
    return np.array([bits], dtype=utype).view(ftype)[0]


def _encode(value, spec) -> int:
    ftype, utype, _ = spec
    return int(np.array([value], dtype=ftype).view(utype)[0])


def _is_snan(bits: int, spec) -> bool:
    x = _decode(bits, spec)
    if not np.isnan(x):
        return False
    quiet_bit = {64: 1 << 51, 32: 1 << 22}.get(spec[2])
    if quiet_bit is None:
        mantissa_bits = 9 if spec[0] is np.float16 else 6
        quiet_bit = 1 << mantissa_bits
    return not bits & quiet_bit


def ieee_unary(op: str, spec, bits: int) -> tuple[int, int]:
    """(result bits, flags) of one unary operation on an element of type ``spec``."""
    ftype = spec[0]
    x = _decode(bits, spec)
    flags = NV if _is_snan(bits, spec) else 0
    if np.isnan(x):
        return _encode(np.array(np.nan, dtype=ftype), spec), flags
    xf = float(x)
    if op == "TileUnary_SQRT":
        if xf < 0:
            return _encode(np.nan, spec), NV
        r = ftype(np.sqrt(np.float64(xf))) if spec[2] < 64 else np.sqrt(x)
        exact = math.isinf(xf) or Fraction(float(r)) ** 2 == Fraction(xf)
    elif op == "TileUnary_RSQRT":
        if xf < 0:
            return _encode(np.nan, spec), NV
        if xf == 0:
            return _encode(math.copysign(math.inf, xf), spec), DZ
        r = ftype(1.0 / math.sqrt(xf))
        exact = math.isinf(xf) or Fraction(float(r)) ** 2 * Fraction(xf) == 1
    elif op == "TileUnary_RECIP":
        if xf == 0:
            return _encode(math.copysign(math.inf, xf), spec), DZ
        if math.isinf(xf):
            return _encode(math.copysign(0.0, xf), spec), flags
        exact_value = 1 / Fraction(xf)
        try:
            wide = float(exact_value)
        except OverflowError:  # 1 / tiny subnormal beyond the float64 range
            wide = math.copysign(math.inf, xf)
        with np.errstate(over="ignore"):
            r = ftype(wide) if spec[2] < 64 else np.float64(wide)
        exact = math.isfinite(float(r)) and Fraction(float(r)) == exact_value  # overflow: inexact
    elif op == "TileUnary_EXP":
        r = ftype(np.exp(np.float64(xf)))
        exact = xf == 0 or math.isinf(xf)
    else:
        if xf < 0:
            return _encode(np.nan, spec), NV
        if xf == 0:
            return _encode(-math.inf, spec), DZ
        r = ftype(np.log(np.float64(xf)))
        exact = xf == 1 or math.isinf(xf)
    rf = float(r)
    if math.isinf(rf) and not math.isinf(xf):
        flags |= OF | NX
    elif not exact:
        flags |= NX
        tiny = float(np.finfo(ftype).tiny) if ftype is not ml_dtypes.bfloat16 else 2.0 ** -126
        if rf != 0 and abs(rf) < tiny or rf == 0:
            flags |= UF
    return _encode(r, spec), flags


SCALAR_CODES = {0: "TileDataType_FP64", 1: "TileDataType_FP32", 4: "TileDataType_FP16",
                5: "TileDataType_BF16"}
BINARY_OPS = {"FloatingBinary_ADD": "+", "FloatingBinary_SUB": "-", "FloatingBinary_MUL": "*",
              "FloatingBinary_DIV": "/"}


def ieee_binary(op: str, spec, left: int, right: int) -> tuple[int, int]:
    """(result bits, flags) of one binary operation, rounded to nearest-even by NumPy/ml_dtypes."""
    ftype = spec[0]
    a, b = _decode(left, spec), _decode(right, spec)
    raised = []
    with np.errstate(all="call", call=lambda kind, flag: raised.append(flag)):
        wide = np.float64 if spec[2] == 64 else np.float32
        x, y = wide(a), wide(b)
        r = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.divide}[op](x, y)
        r = ftype(r)
    flags = 0
    for flag in raised:
        flags |= (DZ if flag & 1 else 0) | (OF if flag & 2 else 0) | (NV if flag & 8 else 0)
    if _is_snan(left, spec) or _is_snan(right, spec):
        flags |= NV
    af, bf, rf = float(a), float(b), float(r)
    if math.isfinite(af) and math.isfinite(bf) and not (op == "/" and bf == 0):
        exact = {"+": lambda: Fraction(af) + Fraction(bf), "-": lambda: Fraction(af) - Fraction(bf),
                 "*": lambda: Fraction(af) * Fraction(bf), "/": lambda: Fraction(af) / Fraction(bf)}[op]()
        if math.isinf(rf):
            flags |= OF | NX
        elif Fraction(rf) != exact:
            flags |= NX
            tiny = 2.0 ** -126 if ftype is ml_dtypes.bfloat16 else float(np.finfo(ftype).tiny)
            if abs(exact) < tiny:
                flags |= UF
    return _encode(r, spec), flags


def bind_profile(program, profile: str) -> None:
    """Install ``profile``'s native hooks into ``program`` (pto-v0 installs none)."""
    if profile not in PROFILES:
        raise ValueError(f"unknown numeric profile {profile!r}; expected one of {', '.join(PROFILES)}")
    if profile == "pto-v0":
        return
    for fn in program.functions.get("TileProfileUnary", ()):
        if fn.arity != 3:
            continue
        asl_version = program.compile_python(fn)

        def hook(op, data_type, value, _asl=asl_version):
            spec = FLOAT_TYPES.get(data_type)
            if op not in UNARY or spec is None:
                return _asl(op, data_type, value)
            width = spec[2]
            bits, flags = ieee_unary(op, spec, value.val & ((1 << width) - 1))
            return BV(bits, value.width), BV(flags, 5)

        program.ns[fn.pyname] = hook
    for fn in program.functions.get("ScalarFPBinaryProfile", ()):
        if fn.arity != 5:
            continue
        asl_version = program.compile_python(fn)

        def scalar_hook(op, rounding, source_type, left, right, _asl=asl_version):
            spec = FLOAT_TYPES.get(SCALAR_CODES.get(source_type.val, ""))
            if op not in BINARY_OPS or spec is None or rounding != "NumericRound_RNE":
                return _asl(op, rounding, source_type, left, right)
            mask = (1 << spec[2]) - 1
            bits, flags = ieee_binary(BINARY_OPS[op], spec, left.val & mask, right.val & mask)
            return BV(bits, left.width), BV(flags, 5)

        program.ns[fn.pyname] = scalar_hook
