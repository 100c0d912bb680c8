"""More of ASLRef's standard library: logarithms and powers of two, alignment, rotations and shifts with carry,
parity, ``Extend``, the non-zero variants of the set-bit searches. Each checks its argument as ASLRef's
``assert`` does (a dynamic error). Same calling convention as ``stdlib.py``: ``(params, args)``.
"""

from __future__ import annotations

from .errors import AslError
from .limits import check_width
from .values import BV


def _need(ok: bool, name: str, what: str):
    if not ok:
        raise AslError(f"{name}: {what}")


def floor_log2(params, args):
    x = args[0]
    _need(type(x) is int and x > 0, "FloorLog2", f"expected a positive integer, got {x}")
    return x.bit_length() - 1


def ceil_log2(params, args):
    x = args[0]
    _need(type(x) is int and x > 0, "CeilLog2", f"expected a positive integer, got {x}")
    return (x - 1).bit_length()


def floor_pow2(params, args):
    x = args[0]
    _need(x > 0, "FloorPow2", f"expected a positive integer, got {x}")
    return 1 << (x.bit_length() - 1)


def ceil_pow2(params, args):
    x = args[0]
    _need(x >= 0, "CeilPow2", f"expected a non-negative integer, got {x}")
    return 1 if x <= 1 else 1 << (x - 1).bit_length()


def is_pow2(params, args):
    x = args[0]
    return x > 0 and x & (x - 1) == 0


def is_even(params, args):
    return args[0] % 2 == 0


def is_odd(params, args):
    return args[0] % 2 == 1


def _size(name, size):
    _need(size > 0, name, f"expected a positive size, got {size}")
    return size


def _p2(name, p2):
    _need(p2 >= 0, name, f"expected a non-negative power, got {p2}")
    return 1 << p2


def _down(x, size):
    if type(x) is BV:
        return BV((x.val // size * size) & ((1 << x.width) - 1), x.width)
    return x // size * size


def _up(x, size):
    if type(x) is BV:
        return BV(((x.val + size - 1) // size * size) & ((1 << x.width) - 1), x.width)
    return (x + size - 1) // size * size


def _natural(name, x):
    _need(type(x) is BV or x >= 0, name, f"expected a non-negative integer, got {x}")
    return x


def align_down_size(params, args):
    return _down(_natural("AlignDownSize", args[0]), _size("AlignDownSize", args[1]))


def align_up_size(params, args):
    return _up(_natural("AlignUpSize", args[0]), _size("AlignUpSize", args[1]))


def align_down_p2(params, args):
    return _down(_natural("AlignDownP2", args[0]), _p2("AlignDownP2", args[1]))


def align_up_p2(params, args):
    return _up(_natural("AlignUpP2", args[0]), _p2("AlignUpP2", args[1]))


def _value(x):
    return x.val if type(x) is BV else x


def is_aligned_size(params, args):
    return _value(args[0]) % _size("IsAlignedSize", args[1]) == 0


def is_aligned_p2(params, args):
    return _value(args[0]) % _p2("IsAlignedP2", args[1]) == 0


def _rotate_right(x: BV, m: int) -> BV:
    n = x.width
    if n == 0:
        return x
    m %= n
    mask = (1 << n) - 1
    return BV(((x.val >> m) | (x.val << (n - m))) & mask, n)


def rol(params, args):
    x, shift = args
    _need(shift >= 0, "ROL", f"negative shift {shift}")
    return x if x.width == 0 else _rotate_right(x, x.width - shift % x.width)


def ror_c(params, args):
    x, shift = args
    _need(shift != 0, "ROR_C", "zero shift")
    if x.width == 0:
        return x, BV(0, 1)
    result = _rotate_right(x, shift % x.width)
    return result, BV(result.val >> (x.width - 1), 1)


def rol_c(params, args):
    x, shift = args
    _need(shift != 0, "ROL_C", "zero shift")
    if x.width == 0:
        return x, BV(0, 1)
    result = _rotate_right(x, x.width - shift % x.width)
    return result, BV(result.val & 1, 1)


def lsl_c(params, args):
    x, shift = args
    _need(shift > 0, "LSL_C", f"shift {shift} is not positive")
    if shift > x.width:  # every bit shifted out, the carry too: no need to build a value of `shift` bits
        return BV(0, x.width), BV(0, 1)
    extended = x.val << shift
    return BV(extended & ((1 << x.width) - 1), x.width), BV((extended >> x.width) & 1, 1)


def _shift_right_c(name, x, shift, signed):
    _need(shift > 0, name, f"shift {shift} is not positive")
    v = x.val
    if signed and x.width and v >> (x.width - 1):
        v -= 1 << x.width
    return BV((v >> shift) & ((1 << x.width) - 1), x.width), BV((v >> (shift - 1)) & 1, 1)


def lsr_c(params, args):
    return _shift_right_c("LSR_C", args[0], args[1], False)


def asr_c(params, args):
    return _shift_right_c("ASR_C", args[0], args[1], True)


def highest_set_bit_nz(params, args):
    x = args[0]
    _need(x.val != 0, "HighestSetBitNZ", "the argument is zero")
    return x.val.bit_length() - 1


def lowest_set_bit_nz(params, args):
    x = args[0]
    _need(x.val != 0, "LowestSetBitNZ", "the argument is zero")
    return (x.val & -x.val).bit_length() - 1


def count_leading_sign_bits(params, args):
    x = args[0]
    n = x.width
    if n <= 1:
        return 0
    diff = ((x.val >> 1) ^ x.val) & ((1 << (n - 1)) - 1)
    return (n - 1) - diff.bit_length()


def extend(params, args):
    x, unsigned = args[0], args[1]
    n = params[0] if params else args[2]
    _need(n >= x.width, "Extend", f"to {n} bits of a {x.width}-bit value")
    check_width(n)
    v = x.val
    if not unsigned and x.width and v >> (x.width - 1):
        v |= ((1 << n) - 1) ^ ((1 << x.width) - 1)
    return BV(v, n)


MORE_PRIMITIVES = {
    "FloorLog2": floor_log2, "CeilLog2": ceil_log2, "FloorPow2": floor_pow2, "CeilPow2": ceil_pow2,
    "IsPow2": is_pow2, "IsEven": is_even, "IsOdd": is_odd, "AlignDownSize": align_down_size,
    "AlignUpSize": align_up_size, "AlignDownP2": align_down_p2, "AlignUpP2": align_up_p2,
    "IsAlignedSize": is_aligned_size, "IsAlignedP2": is_aligned_p2, "ROL": rol, "ROR_C": ror_c, "ROL_C": rol_c,
    "LSL_C": lsl_c, "LSR_C": lsr_c, "ASR_C": asr_c, "HighestSetBitNZ": highest_set_bit_nz,
    "LowestSetBitNZ": lowest_set_bit_nz, "CountLeadingSignBits": count_leading_sign_bits, "Extend": extend,
}
