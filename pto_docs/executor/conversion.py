"""TCVT element conversion between the sixteen modelled data types.

What the release defines (asl/tile/model/numeric/formats.asl and the TCVT
contract) and what this model follows exactly:

* Integer -> integer (``TileConvertIntegerValue``): the source is sign- or
  zero-extended according to its own type, then truncated to the destination
  width (modulo narrowing).  With saturation the value is clamped to the
  destination range (a negative signed source to an unsigned destination
  gives 0).  No status flag is ever raised for an integer pair.
* Any pair with a floating side goes through the profile hook
  ``TileProfileConvert``.
* Rounding selector (B.DATR RMode): 0 = operation default, then RNE, RTZ,
  RTM (bundle name RDN), RTP (RUP), RNA, RTO, RHB.  The default is RTZ for a
  floating source with an integer destination and RNE otherwise.  Rounding
  happens once at the destination boundary, before saturation.
* ``Sat=1`` clamps an out-of-range finite result to the destination minimum
  or maximum.

The floating profile hook is not fixed by the release for these types (the
reference implementation of ``TileProfileConvert`` only defines E8M0
destinations, which are not modelled, and the draft ADR 0090 leaves
conversion range results open).  The model uses the same named IEEE hardware
profile as the rest of the executor; see :data:`TCVT_PROFILE_NOTES` for every
choice.  The ASL interpreter's ``ieee`` numeric profile binds
``TileProfileConvert`` to the same choices (pto_docs/asl/ieee_convert.py), and
tests/executor/test_agrees_with_asl.py compares the two.  All arithmetic is
exact integer arithmetic on (sign, significand, exponent) triples held in
NumPy arrays.
"""

from __future__ import annotations

import numpy as np

from .dtypes import DataType, classify, decode, to_signed

U64 = np.uint64

# B.DATR RMode codes (ADR 0047 / DecodeBundleRoundingSelection): None is the
# operation default (code 0).
RMODE_CODES = {0: None, 1: "RNE", 2: "RTZ", 3: "RTM", 4: "RTP", 5: "RNA", 6: "RTO", 7: "RHB"}
ROUNDING_MODES = ("RNE", "RTZ", "RTM", "RTP", "RNA", "RTO", "RHB")
# accepted spellings: semantic names, bundle names (RDN/RUP), and the default
RMODE_NAMES = {"Default": None, "NONE": None, "None": None, "RDN": "RTM", "RUP": "RTP",
               **{m: m for m in ROUNDING_MODES}}

TCVT_PROFILE_NOTES: tuple[str, ...] = (
    "Integer to integer follows TileConvertIntegerValue exactly: extend by the source "
    "signedness then truncate (modulo) to the destination width, or clamp when Sat=1; "
    "no status flags.",
    "Default rounding (RMode 0) is RTZ for floating to integer and RNE for every other "
    "pair, as InstructionContractDefaultRounding_TCVT defines; an explicit RMode always "
    "overrides it.",
    "Floating pairs use the named IEEE hardware profile (an executor choice: upstream "
    "TileProfileConvert is a hook): the exact source value is rounded once onto the "
    "destination under the selected mode, with gradual underflow, tininess after "
    "rounding, and IEEE NX/UF/OF.  RTO keeps the truncated result and forces its last "
    "bit to one when inexact; RHB is nearest with halfway cases going to the numerically "
    "greater candidate.",
    "Floating overflow follows IEEE 754 7.4: RNE/RNA/RHB give infinity, RTZ and RTO give "
    "the largest finite value, RTP/RTM give infinity only in their own direction; OF and "
    "NX are raised.  Sat=1 replaces every overflowed finite result by the signed largest "
    "finite value (still OF|NX).  Infinite sources stay infinite when the destination has "
    "an infinity.",
    "E4M3 has no infinity: an 'infinite' overflow result and an infinite source follow the "
    "overflow rule the release gives for E8M0 (canonical NaN 0x7f when Sat=0, the signed "
    "largest finite value 448 when Sat=1, with OF|NX).",
    "NaN sources produce the destination's canonical quiet NaN; only a signalling NaN "
    "raises NV.  Signed zero keeps its sign between floating formats.",
    "Floating to integer: the value is rounded under the selected mode first.  A NaN, an "
    "infinity, or a rounded value outside the destination range is an IEEE 754 invalid "
    "operation: NV is raised (without NX) and the result is saturated to the destination "
    "range, NaN giving 0.  ADR 0090 (draft) leaves the Sat=0 range result open, so the "
    "model's choice coincides with the Sat=1 clamp; the TQUANT and matrix post-process "
    "profiles of the release raise OF|NX instead for infinities and finite overflow, and "
    "wrap without saturation - TCVT may settle differently.",
    "Integer to floating rounds the exact integer under the selected mode; overflow "
    "(only possible into FP16, E4M3, E5M2) follows the floating overflow rule.",
)


# ------------------------------------------------------------- helpers

def resolve_rounding(selector, src: DataType, dst: DataType) -> str:
    """Resolve a case/bundle rounding selector to a semantic mode name."""
    if isinstance(selector, int) and not isinstance(selector, bool):
        mode = RMODE_CODES[selector]
    else:
        mode = RMODE_NAMES[selector] if selector is not None else None
    if mode is None:
        return "RTZ" if (src.is_float and dst.is_integer) else "RNE"
    return mode


def _bit_length(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, U64)
    n = np.zeros(x.shape, np.int64)
    for s in (32, 16, 8, 4, 2, 1):
        big = x >= U64(1 << s)
        x = np.where(big, x >> U64(s), x)
        n = n + np.where(big, s, 0)
    return n + (x != 0)


def _shl(x, n):
    """x << n for n in [0, 64] (0 when n >= 64)."""
    n = np.asarray(n, np.int64)
    return np.where(n >= 64, U64(0), x << np.minimum(n, 63).astype(U64))


def _round_sig(neg, sig, exp, qe, mode: str):
    """Round sig * 2**exp to a multiple of 2**qe under ``mode``.

    Returns (kept, inexact, huge): the rounded value is kept * 2**qe; huge marks
    an exact left shift that does not fit 64 bits (integer destinations only).
    """
    sig = np.asarray(sig, U64)
    shift = np.asarray(qe, np.int64) - np.asarray(exp, np.int64)
    left = shift <= 0
    lsh = np.clip(-shift, 0, 64)
    huge = left & (sig != 0) & (_bit_length(sig) + lsh > 64)
    kept_left = np.where(huge, U64(0), _shl(sig, lsh))

    rs = np.clip(shift, 1, 64)
    far = shift > 64  # every retained bit is dropped and sig < half
    kept_right = np.where(rs >= 64, U64(0), sig >> np.minimum(rs, 63).astype(U64))
    mask = np.where(rs >= 64, ~U64(0), (U64(1) << np.minimum(rs, 63).astype(U64)) - U64(1))
    rem = sig & mask
    half = U64(1) << (rs - 1).astype(U64)
    inexact = ~left & (rem != 0)
    tie = ~left & ~far & (rem == half)
    above = ~left & ~far & (rem > half)
    kept = np.where(left, kept_left, kept_right)
    odd = (kept & U64(1)) == U64(1)
    if mode == "RNE":
        inc = above | (tie & odd)
    elif mode == "RNA":
        inc = above | tie
    elif mode == "RHB":
        inc = above | (tie & ~neg)
    elif mode == "RTP":
        inc = inexact & ~neg
    elif mode == "RTM":
        inc = inexact & neg
    elif mode in ("RTZ", "RTO"):
        inc = np.zeros(kept.shape, bool)
    else:  # pragma: no cover
        raise ValueError(mode)
    kept = kept + inc.astype(U64)
    if mode == "RTO":
        kept = kept | inexact.astype(U64)
    return kept, inexact, huge


def _float_parts(bits, dt: DataType):
    """Finite floating raw bits -> (neg, sig, exp) with value = sig * 2**exp."""
    x = decode(bits, dt)
    neg = np.signbit(x)
    a = np.where(np.isfinite(x), np.abs(x), 0.0)
    f, e = np.frexp(a)
    sig = np.ldexp(f, 53).astype(U64)
    exp = np.where(a == 0, 0, e.astype(np.int64) - 53)
    return neg, sig, exp


def _int_parts(bits, dt: DataType):
    b = np.asarray(bits, U64)
    if dt.is_signed:
        s = to_signed(b, dt)
        neg = s < 0
        mag = np.where(neg, U64(0) - s.view(U64), s.view(U64))
    else:
        neg = np.zeros(b.shape, bool)
        mag = b
    return neg, mag, np.zeros(b.shape, np.int64)


def _encode_float(signed_values, dt: DataType):
    """float64 values already on ``dt``'s grid (or +-inf) -> raw bits."""
    from .dtypes import _FLOAT_VIEW, _UINT

    v = np.asarray(signed_values, np.float64)
    if dt.name == "FP64":
        return v.view(U64).copy()
    with np.errstate(all="ignore"):
        narrow = v.astype(_FLOAT_VIEW[dt.name])
    return narrow.view(_UINT[dt.bits]).astype(U64)


def _flags(shape, **kw):
    out = {k: np.zeros(shape, bool) for k in ("NV", "DZ", "OF", "UF", "NX")}
    for k, v in kw.items():
        out[k] = out[k] | np.broadcast_to(np.asarray(v, bool), shape)
    return out


# ------------------------------------------------------------ to float

def _round_to_float(neg, sig, exp, dst: DataType, mode: str, saturate: bool):
    """Exact value -> (bits, NX, OF, UF) on a floating destination."""
    m, emin = dst.frac_bits, dst.emin
    nz = sig != 0
    E = exp + _bit_length(sig) - 1
    E = np.where(nz, E, emin)
    qe = np.maximum(E, emin) - m
    kept, inexact, _ = _round_sig(neg, sig, exp, qe, mode)
    with np.errstate(over="ignore"):
        mag = np.ldexp(kept.astype(np.float64), qe.astype(np.int32))
    # tininess after rounding: round again with an unbounded exponent range
    ku, _, _ = _round_sig(neg, sig, exp, E - m, mode)
    with np.errstate(over="ignore"):
        mag_u = np.ldexp(ku.astype(np.float64), (E - m).astype(np.int32))
    tiny = nz & (mag_u < 2.0 ** emin)
    over = nz & (mag > dst.max_finite)
    if saturate:
        to_inf = np.zeros(over.shape, bool)
    elif mode in ("RNE", "RNA", "RHB"):
        to_inf = np.ones(over.shape, bool)
    elif mode == "RTP":
        to_inf = ~neg
    elif mode == "RTM":
        to_inf = neg.copy()
    else:  # RTZ, RTO
        to_inf = np.zeros(over.shape, bool)
    val = np.where(over, np.where(to_inf, np.inf, dst.max_finite), mag)
    bits = _encode_float(np.where(neg, -val, val), dst)
    if not dst.has_inf:
        bits = np.where(over & to_inf, U64(dst.canonical_nan), bits)
    nx = inexact | over
    return bits.astype(U64), nx, over, tiny & nx


def _float_to_float(a, src: DataType, dst: DataType, mode: str, saturate: bool):
    c = classify(a, src)
    neg, sig, exp = _float_parts(a, src)
    fin = c["finite"]
    sig = np.where(fin, sig, U64(0))
    bits, nx, of, uf = _round_to_float(neg, sig, exp, dst, mode, saturate)
    nx, of, uf = nx & fin, of & fin, uf & fin
    inf = c["inf"]
    if dst.has_inf:
        inf_bits = U64(((1 << dst.exp_bits) - 1) << (dst.frac_bits + dst.low_zero_bits))
        inf_bits = np.where(neg, inf_bits | U64(dst.sign_bit), inf_bits)
    else:  # E8M0-style overflow rule for a format without infinity
        maxf = _encode_float(np.where(neg, -dst.max_finite, dst.max_finite), dst)
        inf_bits = maxf if saturate else np.full(a.shape, U64(dst.canonical_nan))
        of = of | inf
        nx = nx | inf
    bits = np.where(inf, inf_bits, bits)
    bits = np.where(c["nan"], U64(dst.canonical_nan), bits)
    return bits.astype(U64), _flags(a.shape, NV=c["snan"], OF=of, UF=uf, NX=nx)


def _int_to_float(a, src: DataType, dst: DataType, mode: str, saturate: bool):
    neg, mag, exp = _int_parts(a, src)
    bits, nx, of, uf = _round_to_float(neg, mag, exp, dst, mode, saturate)
    # an integer zero converts to +0
    return bits, _flags(np.shape(a), OF=of, UF=uf, NX=nx)


# ---------------------------------------------------------- to integer

def _int_range(dt: DataType):
    """(largest negative magnitude, largest positive value) as Python ints."""
    if dt.is_signed:
        return 1 << (dt.bits - 1), (1 << (dt.bits - 1)) - 1
    return 0, dt.mask


def _float_to_int(a, src: DataType, dst: DataType, mode: str):
    c = classify(a, src)
    neg, sig, exp = _float_parts(a, src)
    fin = c["finite"]
    sig = np.where(fin, sig, U64(0))
    kept, inexact, huge = _round_sig(neg, sig, exp, np.zeros(np.shape(a), np.int64), mode)
    neg_lim, pos_lim = _int_range(dst)
    in_range = fin & ~huge & np.where(neg, kept <= U64(neg_lim), kept <= U64(pos_lim))
    invalid = ~in_range  # NaN, infinity, or a rounded value outside the range
    endpoint = np.where(neg, U64((-neg_lim) & dst.mask), U64(pos_lim))
    endpoint = np.where(c["nan"], U64(0), endpoint)
    value = np.where(neg, U64(0) - kept, kept) & U64(dst.mask)
    out = np.where(in_range, value, endpoint)
    return out.astype(U64), _flags(np.shape(a), NV=invalid, NX=inexact & in_range)


def _int_to_int(a, src: DataType, dst: DataType, saturate: bool):
    b = np.asarray(a, U64)
    wide = to_signed(b, src).view(U64) if src.is_signed else b  # NormalizeTileInteger(src)
    m = U64(dst.mask)
    if not saturate:
        return (wide & m).astype(U64), _flags(b.shape)
    neg_lim, pos_lim = _int_range(dst)
    maximum = U64(pos_lim)
    minimum = U64((-neg_lim) & dst.mask)
    if src.is_signed:
        s = to_signed(b, src)
        if dst.is_signed:
            out = np.where(s < -neg_lim, minimum,
                           np.where(s > pos_lim, maximum, wide & m))
        else:
            out = np.where(s < 0, minimum, np.where(wide > maximum, maximum, wide & m))
    else:
        out = np.where(b > maximum, maximum, b & m)
    return out.astype(U64), _flags(b.shape)


# ------------------------------------------------------------ dispatch

def convert(a, src: DataType, dst: DataType, rounding=None, saturate: bool = False):
    """Convert raw ``src`` bits to raw ``dst`` bits; returns (bits, flag arrays).

    ``rounding`` is a selector (None / "Default" / a mode name / an RMode code).
    """
    a = np.asarray(a, U64)
    mode = resolve_rounding(rounding, src, dst)
    if src.is_integer and dst.is_integer:
        return _int_to_int(a, src, dst, saturate)
    if src.is_integer:
        return _int_to_float(a, src, dst, mode, saturate)
    if dst.is_integer:
        return _float_to_int(a, src, dst, mode)
    return _float_to_float(a, src, dst, mode, saturate)
