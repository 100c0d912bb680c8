"""Shared timing helper of the benchmarks: best wall time of fresh-process runs."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def wall(cmd: list[str], runs: int = 3, cwd: Path = REPO) -> float:
    """Best of ``runs`` wall times of ``cmd`` (the minimum is the least noisy figure on a shared machine)."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        best = min(best, time.perf_counter() - start)
    return best
