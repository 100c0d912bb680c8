"""Tile data types: widths, value classes, raw-bit codecs and rounding.

Every tile element is stored as raw bits in a ``numpy.uint64`` carrier that
holds only the element's architectural width (upper bits are zero).  Floating
formats are decoded to ``float64`` for arithmetic and re-encoded with
round-to-nearest-even through :func:`round_to_format`, which also reports the
IEEE-style inexact, overflow and (after-rounding) underflow conditions.

TF32 and HF32 are 32-bit carriers of an FP32-layout value whose low 13
(TF32: 10 fraction bits) or 12 (HF32: 11 fraction bits) bits must be zero;
they are rounded here by hand onto that reduced grid.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

__all__ = [
    "DataType",
    "DATA_TYPES",
    "ALL_TYPE_NAMES",
    "get",
    "round_to_format",
]


@dataclass(frozen=True)
class DataType:
    name: str
    bits: int
    kind: str  # "float", "signed", "unsigned"
    exp_bits: int = 0
    frac_bits: int = 0
    low_zero_bits: int = 0  # TF32/HF32: required zero bits below the fraction
    has_inf: bool = True
    fn_nan: bool = False  # E4M3 (OFP8 "fn"): only S.1111.111 is NaN, no infinity
    canonical_nan: int = 0
    pad_max: int = 0
    pad_min: int = 0

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_integer(self) -> bool:
        return self.kind != "float"

    @property
    def is_signed(self) -> bool:
        return self.kind == "signed"

    @property
    def mask(self) -> int:
        return (1 << self.bits) - 1

    @property
    def sign_bit(self) -> int:
        return 1 << (self.bits - 1)

    @property
    def bias(self) -> int:
        return (1 << (self.exp_bits - 1)) - 1

    @property
    def emin(self) -> int:
        return 1 - self.bias

    @property
    def max_finite(self) -> float:
        if self.fn_nan:
            # largest exponent field is usable; top mantissa pattern is NaN
            emax = (1 << self.exp_bits) - 1 - self.bias
            frac = (1 << self.frac_bits) - 2
        else:
            emax = (1 << self.exp_bits) - 2 - self.bias
            frac = (1 << self.frac_bits) - 1
        return float((1 + frac / (1 << self.frac_bits)) * 2.0 ** emax)

    @property
    def one_bits(self) -> int:
        return _ONE[self.name]


def _f(name, bits, e, m, nan, pmax, pmin, low=0, has_inf=True, fn=False):
    return DataType(name, bits, "float", e, m, low, has_inf, fn, nan, pmax, pmin)


def _i(name, bits, signed):
    if signed:
        return DataType(name, bits, "signed", pad_max=(1 << (bits - 1)) - 1, pad_min=1 << (bits - 1))
    return DataType(name, bits, "unsigned", pad_max=(1 << bits) - 1, pad_min=0)


DATA_TYPES: dict[str, DataType] = {
    t.name: t
    for t in [
        _f("FP64", 64, 11, 52, 0x7FF8000000000000, 0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF),
        _f("FP32", 32, 8, 23, 0x7FC00000, 0x7F7FFFFF, 0xFF7FFFFF),
        _f("TF32", 32, 8, 10, 0x7FC00000, 0x7F7FE000, 0xFF7FE000, low=13),
        _f("HF32", 32, 8, 11, 0x7FC00000, 0x7F7FF000, 0xFF7FF000, low=12),
        _f("FP16", 16, 5, 10, 0x7E00, 0x7BFF, 0xFBFF),
        _f("BF16", 16, 8, 7, 0x7FC0, 0x7F7F, 0xFF7F),
        _f("E4M3", 8, 4, 3, 0x7F, 0x7E, 0xFE, has_inf=False, fn=True),
        _f("E5M2", 8, 5, 2, 0x7E, 0x7B, 0xFB),
        _i("S64", 64, True),
        _i("S32", 32, True),
        _i("S16", 16, True),
        _i("S8", 8, True),
        _i("U64", 64, False),
        _i("U32", 32, False),
        _i("U16", 16, False),
        _i("U8", 8, False),
    ]
}

ALL_TYPE_NAMES: tuple[str, ...] = tuple(DATA_TYPES)

_ONE = {
    "FP64": 0x3FF0000000000000, "FP32": 0x3F800000, "TF32": 0x3F800000, "HF32": 0x3F800000,
    "FP16": 0x3C00, "BF16": 0x3F80, "E4M3": 0x38, "E5M2": 0x3C,
    **{n: 1 for n in ("S64", "S32", "S16", "S8", "U64", "U32", "U16", "U8")},
}

_UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_FLOAT_VIEW = {
    "FP64": np.float64, "FP32": np.float32, "TF32": np.float32, "HF32": np.float32,
    "FP16": np.float16, "BF16": ml_dtypes.bfloat16,
    "E4M3": ml_dtypes.float8_e4m3fn, "E5M2": ml_dtypes.float8_e5m2,
}


def get(name: str) -> DataType:
    return DATA_TYPES[name]


# ---------------------------------------------------------------- integers

def to_signed(bits: np.ndarray, dt: DataType) -> np.ndarray:
    """Interpret width-masked raw bits as two's-complement int64."""
    b = np.asarray(bits, dtype=np.uint64)
    if dt.bits == 64:
        return b.view(np.int64)
    shift = np.uint64(64 - dt.bits)
    return ((b << shift).view(np.int64)) >> np.int64(64 - dt.bits)


def mask_bits(values: np.ndarray, dt: DataType) -> np.ndarray:
    v = np.asarray(values).astype(np.uint64) if np.asarray(values).dtype != np.uint64 else np.asarray(values)
    if dt.bits == 64:
        return v
    return v & np.uint64(dt.mask)


# ------------------------------------------------------------------ floats

def decode(bits: np.ndarray, dt: DataType) -> np.ndarray:
    """Raw bits (uint64 carrier) -> float64 values (exact)."""
    b = np.asarray(bits, dtype=np.uint64)
    narrow = b.astype(_UINT[dt.bits])
    with np.errstate(invalid="ignore"):
        return narrow.view(_FLOAT_VIEW[dt.name]).astype(np.float64)


def classify(bits: np.ndarray, dt: DataType) -> dict[str, np.ndarray]:
    """Bit-exact value classes of a floating format (vectorised)."""
    b = np.asarray(bits, dtype=np.uint64)
    fbits = dt.frac_bits + dt.low_zero_bits
    exp = (b >> np.uint64(fbits)) & np.uint64((1 << dt.exp_bits) - 1)
    frac = b & np.uint64((1 << fbits) - 1)
    top = exp == np.uint64((1 << dt.exp_bits) - 1)
    neg = (b & np.uint64(dt.sign_bit)) != 0
    if dt.fn_nan:
        nan = top & (frac == np.uint64((1 << fbits) - 1))
        snan = np.zeros(b.shape, bool)
        inf = np.zeros(b.shape, bool)
    else:
        nan = top & (frac != 0)
        quiet = (frac >> np.uint64(fbits - 1)) & np.uint64(1)
        snan = nan & (quiet == 0)
        inf = top & (frac == 0)
    zero = (exp == 0) & (frac == 0)
    return {"nan": nan, "snan": snan, "inf": inf, "zero": zero, "neg": neg,
            "finite": ~(nan | inf)}


def encoding_valid(bits: np.ndarray, dt: DataType) -> np.ndarray:
    b = np.asarray(bits, dtype=np.uint64)
    if dt.low_zero_bits:
        return (b & np.uint64((1 << dt.low_zero_bits) - 1)) == 0
    return np.ones(b.shape, bool)


def round_to_format(values: np.ndarray, dt: DataType, inexact_in=None, overflow_in=None):
    """Round float64 values onto ``dt`` with round-to-nearest-even.

    Returns ``(bits, nx, of, uf)``.  ``inexact_in`` marks elements whose
    float64 value already carries a rounding error (it is ORed into NX and
    used for underflow).  NaN inputs become the canonical quiet NaN without
    flags; infinities are exact.  Overflow produces infinity, or the canonical
    NaN for a format without infinity (E4M3, non-saturating).
    """
    v = np.asarray(values, dtype=np.float64)
    shape = v.shape
    if inexact_in is None:
        inexact_in = np.zeros(shape, bool)
    nan = np.isnan(v)
    inf = np.isinf(v)
    ovin = inf if overflow_in is None else (np.asarray(overflow_in, bool) & inf)
    if overflow_in is None:
        ovin = np.zeros(shape, bool)
    fin = ~(nan | inf)
    sign = np.signbit(v)
    a = np.where(fin, np.abs(v), 0.0)

    if dt.name == "FP64":
        r = np.where(fin, a, 0.0)
        nx = (inexact_in & fin) | ovin
        # an inexact zero result came from a nonzero exact value: it is tiny too
        tiny = fin & (r < 2.0 ** -1022) & ((r != 0) | nx)
        uf = tiny & nx
        of = ovin
        out = np.where(sign, -r, r)
        out = np.where(inf, v, out)
        bits = out.view(np.uint64).copy()
        bits = np.where(nan, np.uint64(dt.canonical_nan), bits)
        return bits.astype(np.uint64), nx, of, uf

    m = dt.frac_bits
    with np.errstate(all="ignore"):
        _, e2 = np.frexp(a)  # a = f * 2**e2, f in [0.5, 1)
        e = e2.astype(np.int64) - 1  # unbiased exponent of a
        e_eff = np.maximum(e, dt.emin)
        q = np.ldexp(1.0, (e_eff - m).astype(np.int32))
        n = a / q  # exact: power-of-two scaling within float64 range
        rn = np.rint(n)  # ties to even
        r = rn * q
        inexact = (rn != n) | inexact_in
        # tininess after rounding: round with unbounded exponent range
        qu = np.ldexp(1.0, (e - m).astype(np.int32))
        ru = np.rint(a / qu) * qu
    # tiny: below the normal range after rounding with unbounded exponent; far below it (where ``qu``
    # itself underflows float64, e.g. exp(-740) onto BF16) it is tiny whatever the rounding; an inexact
    # zero (exp(-748): the float64 computation already flushed a nonzero exact value) is tiny too
    tiny = fin & (((a != 0) & ((ru < 2.0 ** dt.emin) | (e < dt.emin - 1))) | ((a == 0) & inexact_in))
    over = fin & (r > dt.max_finite)
    nx = (fin & (inexact | over)) | ovin
    of = over | ovin
    uf = tiny & nx
    r = np.where(over, np.inf, r)
    out = np.where(sign, -r, r)
    out = np.where(fin, out, np.where(inf, v, 0.0))
    carrier = _FLOAT_VIEW[dt.name]
    with np.errstate(all="ignore"):
        narrow = out.astype(carrier)
    bits = narrow.view(_UINT[dt.bits]).astype(np.uint64)
    nan_out = nan | ((over | inf) & (not dt.has_inf))
    bits = np.where(nan_out, np.uint64(dt.canonical_nan), bits)
    return bits.astype(np.uint64), nx, of, uf


# ------------------------------------------------------- ordering helpers

def order_key(bits: np.ndarray, dt: DataType) -> np.ndarray:
    """Monotone unsigned key of a floating encoding (NaNs excluded)."""
    b = np.asarray(bits, dtype=np.uint64)
    sign = np.uint64(dt.sign_bit)
    m = np.uint64(dt.mask)
    return np.where((b & sign) != 0, (~b) & m, b | sign)


def format_bits(value: int, dt: DataType) -> str:
    digits = max(1, dt.bits // 4)
    return "0x" + format(int(value), f"0{digits}x")
