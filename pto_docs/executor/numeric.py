"""Vectorised element semantics shared by every operation class.

Integer semantics follow asl/tile/model/execution/elementwise.asl and
unary.asl (results wrap modulo the element width; signed division truncates,
signed modulo takes the divisor's sign).  Floating special values follow the
architectural rules in asl/tile/model/execution/unary.asl
(``TileSFUUnarySpecialValue``, ``TileFloatingUnaryValue``), minmax.asl and
asl/arch/features/mx-formats.asl (``HardwareNumericMinMaxSpecial``, canonical
NaNs).  Ordinary finite arithmetic follows the named IEEE hardware profile
the ASL refers to (asl/arch/features/mx-formats.asl: gradual underflow,
tininess after rounding, no FTZ/DAZ): correctly rounded round-to-nearest-even
with IEEE NV/DZ/OF/UF/NX; every produced NaN is the canonical quiet NaN.

All functions take and return raw-bit ``uint64`` arrays.  Each returns the
result bits and a dict of boolean flag arrays (NV, DZ, OF, UF, NX).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from . import dtypes
from .dtypes import DataType, classify, decode, round_to_format, to_signed

U64 = np.uint64


def _flags(shape, **kw):
    out = {k: np.zeros(shape, bool) for k in ("NV", "DZ", "OF", "UF", "NX")}
    for k, v in kw.items():
        out[k] = out[k] | np.broadcast_to(np.asarray(v, bool), shape)
    return out


def merge_flags(*flag_dicts):
    out = {k: False for k in ("NV", "DZ", "OF", "UF", "NX")}
    for f in flag_dicts:
        for k, v in f.items():
            out[k] = out[k] | bool(np.any(v))
    return out


# ------------------------------------------------------ error-free helpers

def _two_sum_err(a, b, s):
    with np.errstate(all="ignore"):
        bb = s - a
        err = (a - (s - bb)) + (b - bb)
    return np.where(np.isfinite(s), err, 0.0)


_SPLIT = 134217729.0  # 2**27 + 1


def _split(a):
    with np.errstate(all="ignore"):
        c = _SPLIT * a
        hi = c - (c - a)
    return hi, a - hi


def _two_prod_err(a, b, p):
    ah, al = _split(a)
    bh, bl = _split(b)
    with np.errstate(all="ignore"):
        err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return np.where(np.isfinite(p), err, 0.0)


def _exact_fraction_inexact(x, y, v, op):
    """Per-element exact check for FP64 results outside the EFT-safe range."""
    out = np.zeros(v.shape, bool)
    # a result from an infinite operand is exact (finite / inf = 0): only finite operands are checked
    for idx in zip(*np.nonzero(np.isfinite(v) & np.isfinite(x) & np.isfinite(y))):
        xi, yi, vi = float(x[idx]), float(y[idx]), float(v[idx])
        if op == "mul":
            exact = Fraction(xi) * Fraction(yi)
        elif op == "div":
            exact = Fraction(xi) / Fraction(yi)
        else:
            exact = Fraction(xi) * Fraction(xi)  # sqrt check: v*v == x
            out[idx] = Fraction(vi) * Fraction(vi) != Fraction(xi)
            continue
        out[idx] = Fraction(vi) != exact
    return out


def _risky(*arrays):
    """Where a value is too small or too large for the error-free transformations above to be exact."""
    m = np.zeros(np.shape(arrays[0]), bool)
    for a in arrays:
        aa = np.abs(a)
        m |= np.isfinite(aa) & (aa != 0) & ((aa < 2.0 ** -960) | (aa > 2.0 ** 960))
    return m


def _risky_quotient_or_product(x, y, v):
    """``_risky``, and where the product or quotient of finite nonzero operands rounded to zero (2**-960 squared:
    every term of the error-free transformation underflows with it, so it would call the zero exact)."""
    flushed = (v == 0) & (x != 0) & (y != 0) & np.isfinite(x) & np.isfinite(y)
    return _risky(x, y, v) | flushed


# --------------------------------------------------------- float binaries

def float_binary(op: str, a, b, dt: DataType):
    """ADD, SUB, MUL, DIV, REM on floating raw bits."""
    ca, cb = classify(a, dt), classify(b, dt)
    x, y = decode(a, dt), decode(b, dt)
    with np.errstate(all="ignore"):
        if op == "ADD":
            v = x + y
            err = _two_sum_err(x, y, v)
            inexact = err != 0
        elif op == "SUB":
            v = x - y
            err = _two_sum_err(x, -y, v)
            inexact = err != 0
        elif op == "MUL":
            v = x * y
            inexact = _two_prod_err(x, y, v) != 0
            if dt.name == "FP64":
                risky = _risky_quotient_or_product(x, y, v)
                if risky.any():
                    inexact = np.where(risky, _exact_fraction_inexact(x, y, v, "mul"), inexact)
        elif op == "DIV":
            v = x / y
            inexact = _two_prod_err(v, y, v * y) != 0
            inexact |= (v * y) != x
            if dt.name == "FP64":
                risky = _risky_quotient_or_product(x, y, v)
                if risky.any():
                    inexact = np.where(risky, _exact_fraction_inexact(x, y, v, "div"), inexact)
        elif op == "REM":
            r = np.fmod(x, y)
            adjust = (r != 0) & (np.signbit(r) != np.signbit(y)) & np.isfinite(r)
            s = r + y
            v = np.where(adjust, s, r)
            v = np.where((v == 0) & np.isfinite(r), np.copysign(0.0, y), v)
            inexact = adjust & (_two_sum_err(r, y, s) != 0)
        else:  # pragma: no cover
            raise ValueError(op)
    fin_in = ca["finite"] & cb["finite"]
    dz = np.zeros(v.shape, bool)
    if op == "DIV":
        dz = cb["zero"] & ~ca["zero"] & ca["finite"]
    overflow = np.isinf(v) & fin_in & ~dz
    # a result from an infinite operand is exact (finite / inf = 0: the v * y check sees 0 * inf = NaN)
    inexact = np.where(np.isfinite(v) & fin_in, inexact, False)
    bits, nx, of, uf = round_to_format(v, dt, inexact_in=inexact, overflow_in=overflow)
    nan_in = ca["nan"] | cb["nan"]
    invalid = np.isnan(v) & ~nan_in
    # an operand that is not a valid encoding (TF32/HF32 with nonzero low bits; legal for these operations in
    # the ASL) is an invalid operation, as the spec's reference E8M0 profile treats NumericValue_InvalidEncoding
    bad = ~(dtypes.encoding_valid(a, dt) & dtypes.encoding_valid(b, dt))
    bits = np.where(bad, U64(dt.canonical_nan), bits)
    nv = ca["snan"] | cb["snan"] | invalid | bad
    ok = ~bad
    return bits, _flags(v.shape, NV=nv, DZ=dz & ok, OF=of & ok, UF=uf & ok, NX=nx & ok)


def float_minmax(maximum: bool, a, b, dt: DataType):
    """HardwareNumericFloatingMinMax: NaN and signed-zero rules, then order."""
    a = np.asarray(a, U64)
    b = np.asarray(b, U64)
    ca, cb = classify(a, dt), classify(b, dt)
    ka, kb = dtypes.order_key(a, dt), dtypes.order_key(b, dt)
    pick_a = (ka >= kb) if maximum else (ka <= kb)
    out = np.where(pick_a, a, b)
    both_zero = ca["zero"] & cb["zero"]
    if maximum:
        zero_res = np.where(ca["neg"] & cb["neg"], a, U64(0))
    else:
        zero_res = np.where(ca["neg"], a, np.where(cb["neg"], b, U64(0)))
    out = np.where(both_zero, zero_res, out)
    out = np.where(ca["nan"] & ~cb["nan"], b, out)
    out = np.where(cb["nan"] & ~ca["nan"], a, out)
    out = np.where(ca["nan"] & cb["nan"], U64(dt.canonical_nan), out)
    nv = ca["snan"] | cb["snan"]
    return out.astype(U64), _flags(out.shape, NV=nv)


def float_fma(a, b, c, dt: DataType):
    """TileFixedFusedMultiplyAddValue: one rounding of a*b + c."""
    ca, cb, cc = classify(a, dt), classify(b, dt), classify(c, dt)
    x, y, z = decode(a, dt), decode(b, dt), decode(c, dt)
    shape = x.shape
    with np.errstate(all="ignore"):
        if dt.name == "FP64":
            v = np.zeros(shape)
            inexact = np.zeros(shape, bool)
            overflow = np.zeros(shape, bool)
            p_special = x * y + z  # specials and zero signs
            for idx in np.ndindex(shape):
                xi, yi, zi = float(x[idx]), float(y[idx]), float(z[idx])
                if not (np.isfinite(xi) and np.isfinite(yi) and np.isfinite(zi)):
                    v[idx] = p_special[idx]
                    continue
                exact = Fraction(xi) * Fraction(yi) + Fraction(zi)
                if exact == 0:
                    v[idx] = p_special[idx] if p_special[idx] == 0 else 0.0
                    continue
                try:
                    r = float(exact)
                except OverflowError:
                    r = float("inf") if exact > 0 else float("-inf")
                if np.isinf(r):
                    overflow[idx] = True
                else:
                    inexact[idx] = Fraction(r) != exact
                v[idx] = r
        else:
            p = x * y  # exact in float64 for every format up to FP32
            s = p + z
            err = _two_sum_err(p, z, s)
            inexact = np.isfinite(s) & (err != 0)
            # round to odd at float64 precision, then one RNE rounding below
            sbits = s.view(np.uint64)
            even = (sbits & U64(1)) == 0
            toward = np.where(err > 0, np.inf, -np.inf)
            s = np.where(inexact & even, np.nextafter(s, toward), s)
            v = s
            overflow = np.zeros(shape, bool)
    zero_inf = (ca["zero"] & cb["inf"]) | (ca["inf"] & cb["zero"])
    prod_inf = ca["inf"] | cb["inf"]
    prod_neg = ca["neg"] != cb["neg"]
    opposite = prod_inf & cc["inf"] & (prod_neg != cc["neg"])
    nv = ca["snan"] | cb["snan"] | cc["snan"] | zero_inf | opposite
    bits, nx, of, uf = round_to_format(v, dt, inexact_in=inexact, overflow_in=overflow)
    bits = np.where(nv, U64(dt.canonical_nan), bits)
    nx, of, uf = nx & ~nv, of & ~nv, uf & ~nv
    return bits.astype(U64), _flags(shape, NV=nv, OF=of, UF=uf, NX=nx)


# ------------------------------------------------------------ float unary

def float_sign_unary(op: str, a, dt: DataType):
    """ABS / NEG / RELU on floating carriers (TileFloatingUnaryValue)."""
    a = np.asarray(a, U64)
    sign = U64(dt.sign_bit)
    if op == "ABS":
        return a & ~sign & U64(dt.mask), _flags(a.shape)
    if op == "NEG":
        return (a ^ sign) & U64(dt.mask), _flags(a.shape)
    ca = classify(a, dt)
    out = np.where(ca["neg"] | ca["zero"], U64(0), a)
    out = np.where(ca["nan"], U64(dt.canonical_nan), out)
    return out.astype(U64), _flags(a.shape, NV=ca["snan"])


def _unbounded(dt: DataType, negative):
    """Signed infinity, or canonical NaN for a format without infinity."""
    if not dt.has_inf:
        return np.full(np.shape(negative), dt.canonical_nan, np.uint64)
    inf = np.uint64(((1 << dt.exp_bits) - 1) << (dt.frac_bits + dt.low_zero_bits))
    return np.where(negative, inf | U64(dt.sign_bit), inf).astype(U64)


def float_sfu_unary(op: str, a, dt: DataType):
    """SQRT, RSQRT, EXP, LOG, RECIP: special values first, then the profile."""
    a = np.asarray(a, U64)
    shape = a.shape
    c = classify(a, dt)
    x = decode(a, dt)
    nan_bits = U64(dt.canonical_nan)
    neg_nonzero = c["neg"] & ~c["zero"]
    pos_zero_bits = U64(0)
    handled = c["nan"].copy()
    out = np.where(c["nan"], nan_bits, U64(0))
    nv = c["snan"].copy()
    dz = np.zeros(shape, bool)

    def special(mask, value, nv_mask=None, dz_mask=None):
        nonlocal out, handled, nv, dz
        m = mask & ~handled
        out = np.where(m, value, out)
        handled = handled | m
        if nv_mask is not None:
            nv = nv | (m & nv_mask)
        if dz_mask is not None:
            dz = dz | (m & dz_mask)

    pinf = c["inf"] & ~c["neg"]
    ninf = c["inf"] & c["neg"]
    true = np.ones(shape, bool)
    if op == "EXP":
        special(c["zero"], U64(dt.one_bits))
        special(pinf, a)
        special(ninf, pos_zero_bits)
    elif op == "LOG":
        special(a == U64(dt.one_bits), pos_zero_bits)
        special(c["zero"], _unbounded(dt, true), dz_mask=true)
        special(pinf, a)
        special(neg_nonzero, nan_bits, nv_mask=true)
    elif op == "RECIP":
        special(c["zero"], _unbounded(dt, c["neg"]), dz_mask=true)
        special(ninf, U64(dt.sign_bit))
        special(pinf, pos_zero_bits)
    elif op == "SQRT":
        special(c["zero"] | pinf, a)
        special(neg_nonzero, nan_bits, nv_mask=true)
    elif op == "RSQRT":
        special(c["zero"], _unbounded(dt, c["neg"]), dz_mask=true)
        special(pinf, pos_zero_bits)
        special(neg_nonzero, nan_bits, nv_mask=true)
    else:  # pragma: no cover
        raise ValueError(op)

    todo = ~handled
    xs = np.where(todo, x, 1.0)
    with np.errstate(all="ignore"):
        if op == "EXP":
            v = np.exp(xs)
            inexact = todo.copy()
        elif op == "LOG":
            v = np.log(xs)
            inexact = todo.copy()
        elif op == "RECIP":
            v = 1.0 / xs
            inexact = (_two_prod_err(v, xs, v * xs) != 0) | ((v * xs) != 1.0)
            if dt.name == "FP64":
                risky = _risky(xs, v)
                if risky.any():
                    ones = np.ones(shape)
                    inexact = np.where(risky, _exact_fraction_inexact(ones, xs, v, "div"), inexact)
        elif op == "SQRT":
            v = np.sqrt(xs)
            inexact = (_two_prod_err(v, v, v * v) != 0) | ((v * v) != xs)
            if dt.name == "FP64":
                risky = _risky(xs, v)
                if risky.any():
                    inexact = np.where(risky, _exact_fraction_inexact(xs, xs, v, "sqrt"), inexact)
        else:  # RSQRT: exact only for even powers of two
            v = 1.0 / np.sqrt(xs)
            f, e2 = np.frexp(xs)
            inexact = ~((f == 0.5) & (((e2 - 1) % 2) == 0))
    overflow = np.isinf(v) & todo
    bits, nx, of, uf = round_to_format(v, dt, inexact_in=inexact & todo, overflow_in=overflow)
    out = np.where(todo, bits, out).astype(U64)
    return out, _flags(shape, NV=nv, DZ=dz, OF=of & todo, UF=uf & todo, NX=nx & todo)


# ---------------------------------------------------------------- integers

def int_binary(op: str, a, b, dt: DataType):
    a = np.asarray(a, U64)
    b = np.asarray(b, U64)
    m = U64(dt.mask)
    w = dt.bits
    shape = a.shape
    with np.errstate(all="ignore"):
        if op == "ADD":
            r = a + b
        elif op == "SUB":
            r = a - b
        elif op == "MUL":
            r = a * b
        elif op in ("MAX", "MIN"):
            if dt.is_signed:
                sa, sb = to_signed(a, dt), to_signed(b, dt)
                pick_a = (sa >= sb) if op == "MAX" else (sa <= sb)
            else:
                pick_a = (a >= b) if op == "MAX" else (a <= b)
            r = np.where(pick_a, a, b)
        elif op == "AND":
            r = a & b
        elif op == "OR":
            r = a | b
        elif op == "XOR":
            r = a ^ b
        elif op in ("SHL", "SHR"):
            count = b & U64(w - 1)
            if op == "SHL":
                r = a << count
            elif dt.is_signed:
                r = (to_signed(a, dt) >> count.astype(np.int64)).view(U64)
            else:
                r = a >> count
        elif op in ("DIV", "REM"):
            r = _int_divrem(op, a, b, dt)
        else:  # pragma: no cover
            raise ValueError(op)
    return (r & m).astype(U64), _flags(shape)


def _int_divrem(op, a, b, dt):
    if not dt.is_signed:
        q = a // b
        return q if op == "DIV" else a - q * b
    sa, sb = to_signed(a, dt), to_signed(b, dt)
    na, nb = sa < 0, sb < 0
    ma = np.where(na, U64(0) - sa.view(U64), sa.view(U64))
    mb = np.where(nb, U64(0) - sb.view(U64), sb.view(U64))
    mq = ma // mb
    q = np.where(na != nb, U64(0) - mq, mq)
    if op == "DIV":
        return q
    rem = sa.view(U64) - q * sb.view(U64)
    rs = rem.view(np.int64)
    fix = (rs != 0) & ((rs < 0) != nb)
    return np.where(fix, rem + sb.view(U64), rem)


def int_unary(op: str, a, dt: DataType):
    a = np.asarray(a, U64)
    m = U64(dt.mask)
    with np.errstate(all="ignore"):
        if op == "ABS":
            r = np.where(dt.is_signed & (to_signed(a, dt) < 0), U64(0) - a, a)
        elif op == "NOT":
            r = ~a
        elif op == "NEG":
            r = U64(0) - a
        elif op == "RELU":
            r = np.where(dt.is_signed & (to_signed(a, dt) < 0), U64(0), a)
        else:  # pragma: no cover
            raise ValueError(op)
    return (r & m).astype(U64), _flags(a.shape)


def int_fma(a, b, c, dt: DataType):
    with np.errstate(all="ignore"):
        r = np.asarray(a, U64) * np.asarray(b, U64) + np.asarray(c, U64)
    return (r & U64(dt.mask)).astype(U64), _flags(np.shape(a))


# ------------------------------------------------------------ dispatchers

def binary(op: str, a, b, dt: DataType):
    if dt.is_integer:
        return int_binary(op, a, b, dt)
    if op in ("MAX", "MIN"):
        return float_minmax(op == "MAX", a, b, dt)
    return float_binary(op, a, b, dt)


def unary(op: str, a, dt: DataType):
    if dt.is_integer:
        return int_unary(op, a, dt)
    if op in ("ABS", "NEG", "RELU"):
        return float_sign_unary(op, a, dt)
    return float_sfu_unary(op, a, dt)


def fma(a, b, c, dt: DataType):
    if dt.is_integer:
        return int_fma(a, b, c, dt)
    return float_fma(a, b, c, dt)


def compare(cmode: str, a, b, dt: DataType):
    """TileCompareElement: boolean result array and flags."""
    a = np.asarray(a, U64)
    b = np.asarray(b, U64)
    if dt.is_integer:
        if dt.is_signed:
            la, lb = to_signed(a, dt), to_signed(b, dt)
        else:
            la, lb = a, b
        less = la < lb
        equal = la == lb
        nan = np.zeros(a.shape, bool)
        nv = nan
    else:
        ca, cb = classify(a, dt), classify(b, dt)
        both_zero = ca["zero"] & cb["zero"]
        equal = both_zero | (a == b)
        less = ~both_zero & (dtypes.order_key(a, dt) < dtypes.order_key(b, dt))
        nan = ca["nan"] | cb["nan"]
        nv = ca["snan"] | cb["snan"]
    res = {
        "EQ": equal, "NE": ~equal, "LT": less, "LE": less | equal,
        "GT": ~less & ~equal, "GE": ~less | equal,
    }[cmode]
    res = np.where(nan, cmode == "NE", res)
    return res, _flags(a.shape, NV=nv)
