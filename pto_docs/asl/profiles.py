"""Numeric profiles: how the ASL's ``impdef``/``implementation`` floating-point hooks are bound.

``pto-v0``: the spec's own ``implementation`` functions, run as written (ASLRef's behaviour; raw carrier
bits, e.g. TSQRT of 4.0 returns the bits of 4.0).

``ieee``: ``TileProfileUnary`` is bound to NumPy/ml_dtypes arithmetic for SQRT and RECIP (correctly
rounded: computed exactly or in float64, whose double rounding is innocuous for these operations) and
RSQRT, EXP, LOG (float64 libm, then rounded once to the element type) on FP64, FP32, FP16 and BF16,
returning IEEE 754 flags as the ASL's ``bits(5)`` vector (NV bit 0, DZ 1, OF 2, UF 3, NX 4).
``ScalarFPBinaryProfile`` ADD/SUB/MUL/DIV with round-to-nearest-even on type codes 0 (FP64), 1 (FP32),
4 (FP16), 5 (BF16) is bound the same way (NumPy status flags for NV/DZ/OF; NX and UF from the exact
rational result). ``TileProfileFusedMultiplyAdd`` (TFMA) and ``TileProfileFloatingModulo`` with its flags (TREM: the
floor modulo, whose nonzero result has the divisor's sign as for signed integers) are computed exactly with
rationals and rounded once to nearest-even. The same five hooks on TF32, HF32, E4M3 and E5M2 (type codes 2, 3,
7, 8) are computed exactly on the spec's layouts and rounded once (ieee_exact.py, float_formats.py), and
``TileProfileConvert`` (TCVT) converts between those eight floating formats and the integers S/U 8..64
under the rounding mode and saturation the ASL passes (ieee_convert.py). Every other operation, type and
rounding mode falls through to the ASL implementation.
"""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np

from . import ieee_convert, ieee_exact, ieee_hooks
from .float_formats import FORMATS as EXACT_FORMATS
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
                5: "TileDataType_BF16", 2: "TileDataType_TF32", 3: "TileDataType_HF32", 7: "TileDataType_E4M3",
                8: "TileDataType_E5M2"}
# the formats without a NumPy arithmetic of their own: computed by ieee_exact on their exact values
EXACT_TYPES = ("TileDataType_TF32", "TileDataType_HF32", "TileDataType_E4M3", "TileDataType_E5M2")
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


# (precision p, emin, emax, canonical quiet NaN) of each bound floating type
FORMATS = {
    "TileDataType_FP64": (53, -1022, 1023, 0x7FF8000000000000),
    "TileDataType_FP32": (24, -126, 127, 0x7FC00000),
    "TileDataType_FP16": (11, -14, 15, 0x7E00),
    "TileDataType_BF16": (8, -126, 127, 0x7FC0),
}


def _round_half_even(x: Fraction) -> int:
    return round(x)  # Fraction.__round__ without digits: ties to even


def round_exact(exact: Fraction, data_type: str) -> tuple[Fraction | float, int]:
    """``exact`` (nonzero) rounded to nearest-even onto ``data_type``: (value or signed infinity, flags).

    Tininess as the NumPy executor detects it (pto_docs/executor/dtypes.py ``round_to_format``): after rounding
    with an unbounded exponent for the narrow types, on the rounded result for FP64."""
    p, emin, emax, _ = FORMATS[data_type]
    negative, a = exact < 0, abs(exact)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1  # now 2**e <= a < 2**(e+1)
    quantum = Fraction(2) ** (max(e, emin) - p + 1)
    rounded = _round_half_even(a / quantum) * quantum
    inexact = rounded != a
    if rounded >= Fraction(2) ** (emax + 1):
        return (-math.inf if negative else math.inf), OF | NX
    if p == 53:
        tiny = rounded < Fraction(2) ** emin
    else:
        unbounded = Fraction(2) ** (e - p + 1)
        tiny = _round_half_even(a / unbounded) * unbounded < Fraction(2) ** emin
    flags = (NX if inexact else 0) | (UF if tiny and inexact else 0)
    return (-rounded if negative else rounded), flags


def _bits_of(value: Fraction | float, data_type: str, negative_zero: bool = False) -> int:
    spec = FLOAT_TYPES[data_type]
    if value == 0:
        return _encode(-0.0 if negative_zero else 0.0, spec)
    return _encode(float(value), spec)  # exact: the value is representable in the type (and in float64)


def ieee_fused_multiply_add(data_type: str, addend: int, left: int, right: int) -> tuple[int, int]:
    """(bits, flags) of left * right + addend with one rounding. The ASL (TileFixedFusedMultiplyAddValue) has
    already taken the invalid cases (a signaling NaN, zero times infinity, opposite infinities)."""
    spec = FLOAT_TYPES[data_type]
    x, y, z = (float(_decode(b, spec)) for b in (left, right, addend))
    if math.isnan(x) or math.isnan(y) or math.isnan(z):
        return FORMATS[data_type][3], 0
    if math.isinf(x) or math.isinf(y) or math.isinf(z):
        return _encode(x * y + z, spec), 0  # an infinite product or addend: exact
    exact = Fraction(x) * Fraction(y) + Fraction(z)
    if exact == 0:
        special = x * y + z  # the sign of an exact zero sum (IEEE 754: -0 only for -0 + -0 under RNE)
        return _bits_of(0, data_type, negative_zero=special == 0 and math.copysign(1.0, special) < 0), 0
    value, flags = round_exact(exact, data_type)
    return _encode(value, spec) if isinstance(value, float) else _bits_of(value, data_type), flags


def ieee_floating_modulo(data_type: str, left: int, right: int) -> tuple[int, int]:
    """(bits, flags) of the floor modulo left - floor(left / right) * right (a nonzero result has the divisor's
    sign, as TREM's signed integers), correctly rounded; a NaN from non-NaN operands (infinite left, zero
    right) is invalid."""
    spec = FLOAT_TYPES[data_type]
    x, y = float(_decode(left, spec)), float(_decode(right, spec))
    snan = _is_snan(left, spec) or _is_snan(right, spec)
    if math.isnan(x) or math.isnan(y):
        return FORMATS[data_type][3], NV if snan else 0
    if math.isinf(x) or y == 0:
        return FORMATS[data_type][3], NV
    if math.isinf(y):
        if x == 0:
            return _bits_of(0, data_type, negative_zero=y < 0), 0
        return (_encode(y, spec) if (x < 0) != (y < 0) else left), 0
    r = math.fmod(x, y)  # exact
    if r == 0:
        return _bits_of(0, data_type, negative_zero=math.copysign(1.0, y) < 0), 0
    if (r < 0) == (y < 0):
        return _encode(r, spec), 0
    value, flags = round_exact(Fraction(r) + Fraction(y), data_type)
    if value == 0:
        return _bits_of(0, data_type, negative_zero=math.copysign(1.0, y) < 0), flags
    return _bits_of(value, data_type), flags


def _exact(data_type: str):
    return EXACT_FORMATS[data_type] if data_type in EXACT_TYPES else None


def _masked(value: BV, data_type: str) -> int:
    return value.val & ((1 << EXACT_FORMATS[data_type].width) - 1)


def bind_profile(program, profile: str) -> None:
    """Install ``profile``'s native hooks into ``program`` (pto-v0 installs none)."""
    if profile not in PROFILES:
        raise ValueError(f"unknown numeric profile {profile!r}; expected one of {', '.join(PROFILES)}")
    if profile == "pto-v0":
        return
    ieee_hooks.bind(program)  # the scalar FSU and matrix hooks, every rounding mode
    for fn in program.functions.get("TileProfileUnary", ()):
        if fn.arity != 3:
            continue
        asl_version = program.compile_python(fn)

        def hook(op, data_type, value, _asl=asl_version):
            if op in UNARY and _exact(data_type):
                bits, flags = ieee_exact.unary(op, _exact(data_type), _masked(value, data_type))
                return BV(bits, value.width), BV(flags, 5)
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
        any_mode = program.ns[fn.pyname]  # ieee_hooks' exact hook, bound above

        def scalar_hook(op, rounding, source_type, left, right, _asl=asl_version, _any=any_mode):
            data_type = SCALAR_CODES.get(source_type.val, "")
            if rounding != "NumericRound_RNE":
                return _any(op, rounding, source_type, left, right)
            if op not in BINARY_OPS or data_type not in EXACT_FORMATS:
                return _asl(op, rounding, source_type, left, right)
            if _exact(data_type):
                bits, flags = ieee_exact.binary(BINARY_OPS[op], _exact(data_type), _masked(left, data_type),
                                                _masked(right, data_type))
                return BV(bits, left.width), BV(flags, 5)
            spec = FLOAT_TYPES[data_type]
            mask = (1 << spec[2]) - 1
            bits, flags = ieee_binary(BINARY_OPS[op], spec, left.val & mask, right.val & mask)
            return BV(bits, left.width), BV(flags, 5)

        program.ns[fn.pyname] = scalar_hook
    for fn in program.functions.get("TileProfileFusedMultiplyAdd", ()):
        if fn.arity != 4:
            continue
        asl_version = program.compile_python(fn)

        def fma_hook(data_type, addend, left, right, _asl=asl_version):
            if _exact(data_type):
                bits, flags = ieee_exact.fused_multiply_add(
                    _exact(data_type), *(_masked(v, data_type) for v in (addend, left, right)))
                return BV(bits, left.width), BV(flags, 5)
            spec = FLOAT_TYPES.get(data_type)
            if spec is None:
                return _asl(data_type, addend, left, right)
            mask = (1 << spec[2]) - 1
            bits, flags = ieee_fused_multiply_add(data_type, addend.val & mask, left.val & mask, right.val & mask)
            return BV(bits, left.width), BV(flags, 5)

        program.ns[fn.pyname] = fma_hook
    modulo: dict[tuple, tuple[int, int]] = {}  # one computation for the value hook and the flags hook

    def _modulo(data_type, left, right):
        key = (data_type, _masked(left, data_type), _masked(right, data_type))
        if key not in modulo:
            if len(modulo) > 4096:
                modulo.clear()
            if _exact(data_type):
                modulo[key] = ieee_exact.floating_modulo(_exact(data_type), key[1], key[2])
            else:
                modulo[key] = ieee_floating_modulo(*key)
        return modulo[key]
    for name, arity, pick in (("TileProfileFloatingModulo", 3, 0), ("TileProfileFloatingModuloFlags", 3, 1)):
        for fn in program.functions.get(name, ()):
            if fn.arity != arity:
                continue
            asl_version = program.compile_python(fn)

            def rem_hook(data_type, left, right, _asl=asl_version, _pick=pick):
                if data_type not in EXACT_FORMATS:
                    return _asl(data_type, left, right)
                result = _modulo(data_type, left, right)[_pick]
                return BV(result, left.width) if _pick == 0 else BV(result, 5)

            program.ns[fn.pyname] = rem_hook
    for fn in program.functions.get("TileProfileConvert", ()):
        if fn.arity != 4:
            continue
        asl_version = program.compile_python(fn)

        def convert_hook(value, source_type, destination_type, control, _asl=asl_version):
            if not ieee_convert.handles(source_type, destination_type):
                return _asl(value, source_type, destination_type, control)
            word, flags = ieee_convert.convert(value.val, source_type, destination_type,
                                               control["rounding_mode"], bool(control["saturating"]))
            return BV(word, value.width), BV(flags, 5)

        program.ns[fn.pyname] = convert_hook
