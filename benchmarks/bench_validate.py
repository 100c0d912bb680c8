"""Benchmark: the whole `pto-docs validate` run on a spec tree (not a test)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.timing import wall  # noqa: E402


def main() -> list[dict]:
    figures = []
    trees = [("catalog", REPO / "catalog")]
    if os.environ.get("PTO_SPEC_CHECKOUT"):
        trees.append(("pto-spec", Path(os.environ["PTO_SPEC_CHECKOUT"])))
    # Baseline in the same run: interpreter start-up plus importing the package (the floor of any CLI run).
    floor = wall([sys.executable, "-c", "import pto_docs.analysis.load, pto_docs.executor"])
    for name, root in trees:
        seconds = wall([sys.executable, "-m", "pto_docs.cli", "validate", str(root)])
        figures.append({"benchmark": f"validate {name}", "seconds": round(seconds, 3), "target_seconds": 5.0,
                        "baseline": "python start-up + imports", "baseline_seconds": round(floor, 3),
                        "ratio": round(seconds / floor, 2)})
        print(f"validate {name}: {seconds:.2f} s (target <= 5 s; {seconds / floor:.1f}x start-up+imports {floor:.2f} s)")
    return figures


if __name__ == "__main__":
    main()
