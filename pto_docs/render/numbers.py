"""Numbers for people: the shortest decimal that rounds back to the same value of the element's data type
(FP32's Min is ``-3.4028235e+38``, not float64's ``-3.4028234663852886e+38``), with the exact bits for a title."""

from __future__ import annotations

from functools import lru_cache

FLOAT_TYPES = frozenset({"FP64", "FP32", "TF32", "HF32", "FP16", "BF16", "E4M3", "E5M2"})


@lru_cache(maxsize=8192)
def _bits(value: float, data_type: str) -> int:
    import numpy as np  # (imported on first use: a build that shows no number never loads them)

    from ..executor.dtypes import get, round_to_format
    bits, *_ = round_to_format(np.array([value], dtype=np.float64), get(data_type))
    return int(bits[0])


@lru_cache(maxsize=8192)
def number_text(value: float, data_type: str) -> str:
    """The shortest ``%g`` text of ``value`` that the data type rounds back to the same bits."""
    if data_type not in FLOAT_TYPES or value != value or value in (float("inf"), float("-inf")):
        return repr(value)
    target = _bits(value, data_type)
    for digits in range(1, 18):
        text = format(value, f".{digits}g")
        if _bits(float(text), data_type) == target:
            break
    else:  # pragma: no cover - float64 round-trips at 17 digits
        text = repr(value)
    return repr(float(text))  # Python's layout of those digits: "10.0", "0.001", "-3.4028235e+38"


def exact_title(value: float, data_type: str, bits: str | None) -> str:
    """What a hover shows: the element's bits and the exact binary value as float64 prints it."""
    if bits is None and data_type in FLOAT_TYPES:
        width = {"FP64": 16, "FP32": 8, "TF32": 8, "HF32": 8, "FP16": 4, "BF16": 4}.get(data_type, 2)
        bits = "0x" + format(_bits(value, data_type), f"0{width}x")
    return f"{bits} = {value!r}" if bits else repr(value)
