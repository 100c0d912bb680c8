"""Shared helpers for executor tests: case builders and an exact oracle."""

from __future__ import annotations

from fractions import Fraction

from pto_docs.executor import run_case

# a small valid case: TMUL of two U64 tiles (the CLI and api tests run it)
BRIEF_CASE = {
    "tiles": {"0": {"capacity_bytes": 128, "rows": 4, "columns": 4, "valid_rows": 1,
                    "valid_columns": 2, "data_type": "U64", "elements": [[3, 5]]},
              "1": {"capacity_bytes": 128, "rows": 4, "columns": 4, "valid_rows": 1,
                    "valid_columns": 2, "data_type": "U64", "elements": [[4, "0x10"]]}},
    "bundle": {"pad_value": "Min", "pe_mask": "0001"},
    "execute": {"instruction": "TMUL", "destination": 2, "sources": [0, 1]},
}

# (exp_bits, frac_bits, low_zero_bits, has_inf, total_bits)
FORMATS = {
    "FP64": (11, 52, 0, True, 64), "FP32": (8, 23, 0, True, 32), "TF32": (8, 10, 13, True, 32),
    "HF32": (8, 11, 12, True, 32), "FP16": (5, 10, 0, True, 16), "BF16": (8, 7, 0, True, 16),
    "E4M3": (4, 3, 0, False, 8), "E5M2": (5, 2, 0, True, 8),
}
CANON_NAN = {"FP64": 0x7FF8000000000000, "FP32": 0x7FC00000, "TF32": 0x7FC00000,
             "HF32": 0x7FC00000, "FP16": 0x7E00, "BF16": 0x7FC0, "E4M3": 0x7F, "E5M2": 0x7E}


def tile(dt, elements, capacity=128, columns=8, rows=None):
    bits = {"FP64": 64, "S64": 64, "U64": 64, "FP32": 32, "TF32": 32, "HF32": 32, "S32": 32,
            "U32": 32, "FP16": 16, "BF16": 16, "S16": 16, "U16": 16}.get(dt, 8)
    t = {"capacity_bytes": capacity, "rows": rows or capacity * 8 // (columns * bits),
         "columns": columns, "data_type": dt, "valid_rows": len(elements),
         "valid_columns": len(elements[0]) if elements else 0}
    if elements:
        t["elements"] = elements
    return t


def run(instr, tiles, sources, destination, **bundle):
    case = {"tiles": {str(k): v for k, v in tiles.items()},
            "execute": {"instruction": instr, "destination": destination, "sources": sources}}
    if "capacity" in bundle:
        case["execute"]["destination_capacity_bytes"] = bundle.pop("capacity")
    if bundle:
        case["bundle"] = bundle
    return run_case(case)


def valid(result, index, key="values"):
    t = result["tiles"][str(index)]
    return [row[:t["valid_columns"]] for row in t[key][:t["valid_rows"]]]


def decode_bits(raw: int, dt: str):
    """Independent decoder: raw bits -> Fraction, or 'nan'/'inf'/'-inf'."""
    e, m, low, has_inf, total = FORMATS[dt]
    sign = -1 if raw >> (total - 1) & 1 else 1
    frac = (raw >> low) & ((1 << m) - 1)
    exp = (raw >> (low + m)) & ((1 << e) - 1)
    bias = (1 << (e - 1)) - 1
    if not has_inf:  # E4M3: S.1111.111 is NaN
        if exp == (1 << e) - 1 and frac == (1 << m) - 1:
            return "nan"
    elif exp == (1 << e) - 1:
        return "nan" if frac else ("inf" if sign > 0 else "-inf")
    if exp == 0:
        return sign * Fraction(frac, 1 << m) * Fraction(2) ** (1 - bias)
    return sign * (1 + Fraction(frac, 1 << m)) * Fraction(2) ** (exp - bias)


def oracle_round(q: Fraction, dt: str, negative_zero=False):
    """Exact RNE rounding of a rational onto ``dt``: (bits, inexact, overflow, tiny)."""
    e, m, low, has_inf, total = FORMATS[dt]
    bias = (1 << (e - 1)) - 1
    emin = 1 - bias
    sign = 1 if (q < 0 or (q == 0 and negative_zero)) else 0
    a = abs(q)
    if a == 0:
        return (sign << (total - 1)), False, False, False
    # exponent E with 2**E <= a < 2**(E+1)
    E = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** E > a:
        E -= 1
    elif Fraction(2) ** (E + 1) <= a:
        E += 1
    def rne(x: Fraction) -> int:
        n, r = divmod(x.numerator, x.denominator)
        twice = 2 * r
        if twice > x.denominator or (twice == x.denominator and n % 2 == 1):
            n += 1
        return n
    tiny_unbounded = rne(a / Fraction(2) ** (E - m)) * Fraction(2) ** (E - m) < Fraction(2) ** emin
    Eq = max(E, emin)
    quantum = Fraction(2) ** (Eq - m)
    n = rne(a / quantum)
    inexact = n * quantum != a
    value = n * quantum
    if has_inf:
        emax = (1 << e) - 2 - bias
        maxf = (2 - Fraction(1, 1 << m)) * Fraction(2) ** emax
    else:
        emax = (1 << e) - 1 - bias
        maxf = (2 - Fraction(2, 1 << m)) * Fraction(2) ** emax
    if value > maxf:
        if not has_inf:
            return CANON_NAN[dt], True, True, False
        return (sign << (total - 1)) | (((1 << e) - 1) << (m + low)), True, True, False
    # encode value
    if value < Fraction(2) ** emin:
        exp_field, frac_field = 0, int(value / Fraction(2) ** (emin - m))
    else:
        E2 = E if n < (1 << (m + 1)) or E < emin else E + 1
        E2 = max(E2, emin)
        if value >= Fraction(2) ** (E2 + 1):
            E2 += 1
        exp_field = E2 + bias
        frac_field = int(value / Fraction(2) ** (E2 - m)) - (1 << m)
    bits = (sign << (total - 1)) | (exp_field << (m + low)) | (frac_field << low)
    return bits, inexact, False, tiny_unbounded and inexact
