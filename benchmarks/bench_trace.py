"""Benchmark: the whole `pto-docs trace` gate run on a spec tree, end to end (not a test).

    python benchmarks/bench_trace.py            # catalog/, plus $PTO_SPEC_CHECKOUT when set
    python benchmarks/run.py trace              # the same, recorded with the other benchmarks

For each tree: the best of 3 fresh-process runs of `pto-docs trace ROOT --json trace.json` (target <= 5 s on
the real 0.58.3 tree, 2 cores), against the floor of any CLI run (interpreter start-up plus imports); then an
in-process breakdown (load, worked examples, report, serialisation, both Markdown pages).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.timing import wall  # noqa: E402


def breakdown(root: Path) -> dict[str, float]:
    from pto_docs.analysis.load import load_catalog
    from pto_docs.bridge.examples import worked_examples
    from pto_docs.trace import build_report, report_bytes, report_markdown
    t0 = time.perf_counter()
    result = load_catalog(root)
    t1 = time.perf_counter()
    examples = worked_examples(result.catalog)
    t2 = time.perf_counter()
    report = build_report(result.catalog, result.tree, examples, diagnostics=result.diagnostics)
    t3 = time.perf_counter()
    report_bytes(report)
    t4 = time.perf_counter()
    report_markdown(report, "en")
    report_markdown(report, "zh-CN")
    t5 = time.perf_counter()
    return {"load": round(t1 - t0, 3), "examples": round(t2 - t1, 3), "report": round(t3 - t2, 3),
            "serialise": round(t4 - t3, 3), "markdown": round(t5 - t4, 3)}


def main() -> list[dict]:
    figures = []
    trees = [("catalog", REPO / "catalog")]
    if os.environ.get("PTO_SPEC_CHECKOUT"):
        trees.append(("pto-spec", Path(os.environ["PTO_SPEC_CHECKOUT"])))
    floor = wall([sys.executable, "-c", "import pto_docs.analysis.load, pto_docs.executor, pto_docs.trace"])
    with tempfile.TemporaryDirectory() as tmp:
        for name, root in trees:
            cmd = [sys.executable, "-m", "pto_docs.cli", "trace", str(root), "--json", str(Path(tmp) / "trace.json")]
            seconds = wall(cmd, cwd=Path(tmp))
            parts = breakdown(root)
            parts["trace_only"] = round(parts["report"] + parts["serialise"] + parts["markdown"], 3)
            figures.append({"benchmark": f"trace {name}", "seconds": round(seconds, 3), "target_seconds": 5.0,
                            "baseline": "python start-up + imports", "baseline_seconds": round(floor, 3),
                            "ratio": round(seconds / floor, 2), "cpus": os.cpu_count(), "breakdown": parts,
                            "command": f"pto-docs trace {root} --json trace.json"})
            print(f"trace {name}: {seconds:.2f} s (target <= 5 s; {seconds / floor:.1f}x start-up+imports {floor:.2f} s); "
                  + ", ".join(f"{k} {v:.2f} s" for k, v in parts.items()))
    return figures


if __name__ == "__main__":
    main()
