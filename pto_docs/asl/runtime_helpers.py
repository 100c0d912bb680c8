"""Helpers that generated code calls for operations with ASL-specific checks."""

from __future__ import annotations

from fractions import Fraction

from .errors import AslAssertionError, AslError, AslThrow, AslUnreachable
from .limits import MAX_BITS, check_array, check_width
from .operators import checked_product, concat, div, divrm, mod, power, rdiv, shl, shr, strcat
from .stdlib import PRIMITIVES
from .values import BV, copy_value, format_value, least_magnitude_member


def _cp(v):
    return copy_value(v) if type(v) in (dict, list) else v


def _ag(arr, i):
    if i < 0:
        raise AslError(f"array index {i} out of range 0..{len(arr) - 1}")
    try:
        return arr[i]
    except IndexError:
        raise AslError(f"array index {i} out of range 0..{len(arr) - 1}") from None


def _ix(arr, i):
    if i < 0 or i >= len(arr):
        raise AslError(f"array index {i} out of range 0..{len(arr) - 1}")
    return arr, i


def _ixc(arr, i):
    """A checked index into ``arr`` for an assignment."""
    if i < 0 or i >= len(arr):
        raise AslError(f"array index {i} out of range 0..{len(arr) - 1}")
    return i


def _sl(v, lo, w):
    if type(v) is BV:
        if lo < 0 or w < 0 or lo + w > v.width:
            raise AslError(f"slice [{lo}+:{w}] out of range of a {v.width}-bit value")
        return BV((v.val >> lo) & ((1 << w) - 1), w)
    if lo < 0 or w < 0:
        raise AslError(f"slice [{lo}+:{w}] of an integer")
    if w > 64:
        check_width(w)
    return BV((v >> lo) & ((1 << w) - 1), w)


def _slices(v, parts):
    out, total = 0, 0
    for lo, w in parts:
        out = (out << w) | _sl(v, lo, w).val
        total += w
    return BV(out, total)


def _setslices(old, parts, v):
    val, low = old.val, v.val
    for lo, w in reversed(parts):
        if lo < 0 or w < 0 or lo + w > old.width:
            raise AslError(f"slice [{lo}+:{w}] out of range of a {old.width}-bit value")
        mask = ((1 << w) - 1) << lo
        val = (val & ~mask) | ((low << lo) & mask)
        low >>= w
    return BV(val, old.width)


def _setslices_disjoint(old, parts, v):
    """``x[s1, s2, ...] = v``: as _setslices, after checking that no two slices overlap (ASLRef's dynamic
    error)."""
    seen = 0
    for lo, w in parts:
        if lo >= 0 and w >= 0 and lo + w <= old.width:  # (out of range: _setslices says so)
            mask = ((1 << w) - 1) << lo
            if seen & mask:
                text = ", ".join(f"{a}+:{b}" for a, b in parts)
                raise AslError(f"overlapping slices {text} in one assignment")
            seen |= mask
    return _setslices(old, parts, v)


def _getfields(rec, names):
    out = rec[names[0]]
    for n in names[1:]:
        out = concat(out, rec[n])
    return out


def _setfields(rec, names, v):
    low = v.val
    for n in reversed(names):
        w = rec[n].width
        rec[n] = BV(low & ((1 << w) - 1), w)
        low >>= w


def _rng(v, lo, hi, loc):
    if lo <= v <= hi:
        return v
    raise AslError(f"{loc}: value {v} is not in {{{lo}..{hi}}}")


def _ranges(v, ranges, loc):
    for lo, hi in ranges:
        if lo <= v <= hi:
            return v
    raise AslError(f"{loc}: value {v} does not satisfy the constraint {ranges}")


def _width(v, w, loc):
    if v.width != w:
        raise AslError(f"{loc}: a {v.width}-bit value is not bits({w})")
    return v


def _intbase(ranges):
    best = least_magnitude_member(ranges)
    if best is None:
        raise AslError("empty integer constraint has no base value")
    return best


def _bv0(w):
    check_width(w)
    return BV(0, w)


def _arr(n, make):
    check_array(n)
    first = make()
    if type(first) in (dict, list):
        return [first] + [copy_value(first) for _ in range(n - 1)]
    return [first] * n


def _mul(a, b):
    v = a * b
    if type(v) is int and v.bit_length() <= MAX_BITS:
        return v
    return checked_product(v)


def _eq(a, b):
    return a == b


HELPERS = {
    "_cp": _cp, "_ag": _ag, "_ix": _ix, "_ixc": _ixc, "_sl": _sl, "_slices": _slices, "_setslices": _setslices,
    "_setslices_disjoint": _setslices_disjoint,
    "_getfields": _getfields, "_setfields": _setfields, "_rng": _rng, "_ranges": _ranges, "_width": _width,
    "_intbase": _intbase, "_arr": _arr, "_bv0": _bv0, "_mul": _mul, "_eq": _eq, "_div": div, "_divrm": divrm,
    "_mod": mod, "_rdiv": rdiv, "_cat": concat, "_strcat": strcat, "_pow": power, "_shl": shl, "_shr": shr,
    "_fmt": format_value,
    "P": PRIMITIVES, "BV": BV, "Fraction": Fraction, "AslError": AslError, "AslThrow": AslThrow,
    "AslAssertionError": AslAssertionError, "AslUnreachable": AslUnreachable,
}
