"""Run every benchmark (nox -s bench) and record the figures in benchmarks/results.json.

Each figure is reported with its ratio against a baseline measured in the same run, because the
machines are shared and noisy. Benchmarks never run as tests.
"""

from __future__ import annotations

import datetime
import importlib
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
MODULES = ["benchmarks.bench_executor", "benchmarks.bench_validate", "benchmarks.bench_trace", "benchmarks.bench_site",
           "benchmarks.bench_serve", "benchmarks.bench_avs"]


def main(argv: list[str]) -> int:
    only = set(argv)
    out = REPO / "benchmarks" / "results.json"
    try:
        previous = json.loads(out.read_text("utf-8")).get("benchmarks", {})
    except (OSError, ValueError, AttributeError):
        previous = {}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    identity = {
        "date": datetime.date.today().isoformat(),
        "commit": commit,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "pto_spec_checkout": bool(os.environ.get("PTO_SPEC_CHECKOUT")),
    }
    runs = dict(previous)  # a partial run keeps the other benchmarks' last figures, each with its own identity
    for name in MODULES:
        short = name.rsplit(".", 1)[-1]
        if only and short not in only and short.removeprefix("bench_") not in only:
            continue
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            print(f"{short}: skipped ({exc})")
            continue
        print(f"== {short}")
        runs[short] = {**identity, "command": f"python benchmarks/run.py {short.removeprefix('bench_')}",
                       "figures": module.main()}
    record = {"command": "nox -s bench  (PTO_SPEC_CHECKOUT=<pto-spec 0.58.3 checkout> for real-tree figures)",
              "benchmarks": runs}
    out.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {sum(len(r['figures']) for r in runs.values())} figures in {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
