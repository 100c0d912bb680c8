"""Benchmark (not a test): executor throughput vs a per-element Python loop.

Measures elements per second of TADD and TSQRT on 64x64 FP32 tiles through
the vectorised model (the full operation: preflight, snapshot, compute,
padding, publication), against a per-element Python loop that applies the
same model element semantics (the executor's own numeric functions) to one
element at a time.  The loop result is checked against the vectorised one.  Run: ``python benchmarks/bench_executor.py``.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pto_docs.executor import dtypes, engine, numeric, state  # noqa: E402
from pto_docs.executor.bundle import Bundle  # noqa: E402

N = 64


def _tilefile(seed: int):
    rng = np.random.default_rng(seed)
    tf = state.TileFile()
    for i in range(2):
        t = state.configure_tile(i, 16384, N, N, N, N, "FP32")
        vals = (rng.standard_normal((N, N)) * 100).astype(np.float32)
        t.bits[:] = vals.view(np.uint32).astype(np.uint64)
        t.defined[:] = True
        tf.tiles[i] = t
    return tf


def loop_elementwise(fn, *bit_lists):
    """Per-element loop: the same model element function applied to one element at a time."""
    out, flags = [], {}
    for elems in zip(*bit_lists):
        bits, f = fn(*(np.array([e], np.uint64) for e in elems))
        out.append(int(bits[0]))
        for k, v in f.items():
            flags[k] = flags.get(k, False) or bool(v[0])
    return out, flags


def _time(fn, repeat=5):
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> list[dict]:
    tf = _tilefile(1)
    bundle = Bundle(pad_value="Zero")
    a = [int(x) for x in tf.tiles[0].bits.ravel()]
    b = [int(x) for x in tf.tiles[1].bits.ravel()]
    elems = N * N
    fp32 = dtypes.get("FP32")
    figures = []
    for name, vec, loop in [
        ("TADD", lambda: engine.execute(tf, bundle, "TADD", 2, [0, 1]),
         lambda: loop_elementwise(lambda x, y: numeric.binary("ADD", x, y, fp32), a, b)),
        ("TSQRT", lambda: engine.execute(tf, bundle, "TSQRT", 2, [0]),
         lambda: loop_elementwise(lambda x: numeric.unary("SQRT", x, fp32), a)),
    ]:
        tv, tl = _time(vec), _time(loop, 1)
        new_state, _, _ = vec()
        loop_bits, _ = loop()
        assert [int(x) for x in new_state.tiles[2].bits.ravel()] == loop_bits, name
        fig = {"instruction": name, "shape": f"{N}x{N}", "data_type": "FP32",
               "vectorised_elem_per_s": elems / tv, "loop_elem_per_s": elems / tl,
               "ratio": tl / tv}
        figures.append(fig)
        print(f"executor {name} {N}x{N} FP32: {fig['vectorised_elem_per_s']:.1e} elem/s vectorised, "
              f"{fig['loop_elem_per_s']:.1e} elem/s loop, ratio {fig['ratio']:.0f}x")
    return figures


if __name__ == "__main__":
    main()
