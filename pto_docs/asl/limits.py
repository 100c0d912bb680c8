"""Bounds on what one ASL evaluation may build, and the text of integers of any size.

ASL from a spec tree is data: a bitvector of 2^34 bits (``Ones{2^34}``), a ``Replicate`` of 2^40 copies or an
integer ``2^(2^40)`` must end the run with a dynamic error when the value is built, not fill the machine's memory
or hang (constant folding at compile time included: the folded call raises, so the expression is left to run
time). The largest value pto-spec 0.58.3 builds is a ``bits(524288)``; the bounds are 32 times that.
"""

from __future__ import annotations

import decimal

from .errors import AslLimitError

MAX_BITS = 1 << 24  # widest bitvector, and most bits of an integer built by <<, ^, Replicate, a literal
MAX_ARRAY = 1 << 24  # most elements of one array
MAX_LITERAL_DIGITS = 100_000  # longest integer literal (decimal or hexadecimal digits)


def check_width(n, what: str = "bitvector") -> None:
    """A dynamic error unless ``0 <= n <= MAX_BITS``."""
    if type(n) is not int:
        raise AslLimitError(f"the width of a {what} is not an integer: {type(n).__name__}")
    if n < 0 or n > MAX_BITS:
        raise AslLimitError(f"a {what} of {_short(n)} bits is beyond the limit of {MAX_BITS:,} bits")


def check_int_bits(bits: int, op: str) -> None:
    if bits > MAX_BITS:
        raise AslLimitError(f"the result of {op} would have about {_short(bits)} bits, beyond the integer limit of "
                       f"{MAX_BITS:,} bits")


def check_array(n) -> None:
    if type(n) is int and n > MAX_ARRAY:
        raise AslLimitError(f"an array of {_short(n)} elements is beyond the limit of {MAX_ARRAY:,}")


def _short(n: int) -> str:
    return int_text(n) if n.bit_length() < 64 else f"2^{n.bit_length() - 1}+"


_CHUNK_DIGITS = 4000  # below Python's default int/str conversion limit (4,300 digits)


def int_text(v: int) -> str:
    """``str(v)`` for an integer of any size (Python refuses more than 4,300 digits by default, and its own
    conversion takes time quadratic in the digits: some 8 minutes for 2^24 bits). Larger integers are split in
    halves of bits and put together as exact decimals (the decimal module multiplies big numbers in less than
    quadratic time): 2^24 bits in about 5 s."""
    if v < 0:
        return "-" + int_text(-v)
    if v.bit_length() < 13_000:
        return str(v)
    exact = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN,
                            traps=[decimal.Inexact, decimal.Rounded, decimal.Overflow])
    powers: dict[int, decimal.Decimal] = {}

    def two_to(k: int) -> decimal.Decimal:
        if k not in powers:
            half = k // 2
            powers[k] = (exact.power(decimal.Decimal(2), k) if k <= _SMALL_BITS
                         else exact.multiply(two_to(half), two_to(k - half)))
        return powers[k]

    def as_decimal(n: int, bits: int) -> decimal.Decimal:
        if bits <= _SMALL_BITS:
            return decimal.Decimal(n)
        low_bits = bits // 2
        high = as_decimal(n >> low_bits, bits - low_bits)
        return exact.add(exact.multiply(high, two_to(low_bits)), as_decimal(n & ((1 << low_bits) - 1), low_bits))

    return format(as_decimal(v, v.bit_length()), "f")


_SMALL_BITS = 4096  # at most 1,234 digits: Python's own conversion


def int_from_text(s: str) -> int:
    """``int(s)`` of a string of decimal digits of any length up to MAX_LITERAL_DIGITS."""
    if len(s) <= _CHUNK_DIGITS:
        return int(s)
    half = len(s) // 2
    return int_from_text(s[:half]) * 10 ** (len(s) - half) + int_from_text(s[half:])
