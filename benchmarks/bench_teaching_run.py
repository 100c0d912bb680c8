"""Benchmark aid: the teaching run of a tree alone, run by one process and shared with a forked helper (not a test).

    python benchmarks/bench_teaching_run.py TREE [ROUNDS]

Each round runs, in a fresh process each (nothing taught before, no sealed cache), ``teaching_run.teach`` of TREE
alone and with ``split`` (bridge/teaching_split.py), alternating which goes first, and prints the wall time and
the CPU time of the process and of its helper (``os.times``; the helper is reaped, so it counts as a child), then
whether both made the same examples.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def one(tree: str, split: bool, out: str) -> None:
    sys.path.insert(0, str(REPO))
    from pto_docs.api import load_catalog
    from pto_docs.bridge import teaching_run
    from pto_docs.bridge.avs import generated_decoders, needs_decoders
    catalog = load_catalog(tree).catalog
    generated = generated_decoders(catalog) if needs_decoders(catalog) else None
    before, wall = os.times(), time.perf_counter()
    taught, untaught = teaching_run.teach(catalog, generated, None, split=split)
    after = os.times()
    cpu = after.user + after.system - before.user - before.system
    helper = after.children_user + after.children_system - before.children_user - before.children_system
    print(f"{'split' if split else 'alone'}: wall {time.perf_counter() - wall:.2f} s, CPU {cpu:.2f} s here "
          f"+ {helper:.2f} s helper; {len(taught)} taught, {len(untaught)} not", flush=True)
    examples = {k: [repr(v.scenario), v.result, v.tried, v.finding, v.alias_of] for k, v in taught.items()}
    Path(out).write_text(json.dumps([examples, {k: v.reason for k, v in untaught.items()}], sort_keys=True), "utf-8")


def main(tree: str, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(rounds):
            outputs = {}
            for split in ((False, True) if n % 2 == 0 else (True, False)):
                outputs[split] = Path(tmp) / f"{split}.json"
                subprocess.run([sys.executable, __file__, "--one", tree, str(split), str(outputs[split])], check=True)
            same = outputs[False].read_bytes() == outputs[True].read_bytes()
            print(f"round {n + 1}: the same examples: {same}", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "--one":
        one(sys.argv[2], sys.argv[3] == "True", sys.argv[4])
    else:
        main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2)
