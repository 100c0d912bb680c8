"""Benchmark: the CPU time of a `mkdocs serve --dirty` rebuild after a save of one unit (not a test).

    PTO_SPEC_CHECKOUT=/path/to/pto-spec python benchmarks/bench_serve_cpu.py [WORKDIR]

The wall time of a reload (bench_serve.py) follows the machine's load; its CPU time much less, so on a shared
machine this is the figure to compare old and new code by (run both at the same time, each with its own
PYTHONPATH). The tree (PTO_SPEC_CHECKOUT, else catalog/) is copied to WORKDIR (default: a temporary directory) and
MkDocs' serve rebuild is driven in this process as tests/perf/test_serve_incremental.py drives it: a first
build, then three rounds of a comment appended to one unit (MAX.asl upstream, TMUL.asl in catalog/) and of a
new constant appended to it (an edit of code), each rebuilt. Printed per save: the rebuild's wall time and the
CPU time of this process and its reaped children (the zh-CN language worker) from the save until 4 s after the
rebuild (its background work: page packs, the workers reaped).

    PTO_DOCS_BENCH_PROFILE=DIR python benchmarks/bench_serve_cpu.py

also profiles each rebuild after a save (cProfile, this process only: not the zh-CN worker) into
DIR/<comment|code>-<n>.prof (read with ``python -m pstats``).
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main(work: Path) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from benchmarks.bench_serve import pick_unit
    from tests.mkdocs_config import config_copy
    checkout = os.environ.get("PTO_SPEC_CHECKOUT")
    root = Path(checkout) if checkout else REPO / "catalog"
    copy = work / "tree"
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    config_file = config_copy(work, copy, cache_dir=work / "cache")
    logging.getLogger("mkdocs").setLevel(logging.WARNING)

    def rebuild() -> None:
        config = load_config(config_file=str(config_file), site_dir=str(work / "site"))
        config.plugins.on_startup(command="serve", dirty=True)
        config.site_url = "http://127.0.0.1:8000/"
        build(config, serve_url=config.site_url, dirty=True)
    profile_dir = os.environ.get("PTO_DOCS_BENCH_PROFILE")
    start = time.monotonic()
    rebuild()
    print(f"first build {time.monotonic() - start:.2f} s", flush=True)
    unit = pick_unit(copy)
    for n in range(1, 4):
        for kind in ("comment", "code"):
            time.sleep(3)
            line = f"// comment {n}\n" if kind == "comment" else f"constant PTO_BENCH_EDIT_{n} = {n};\n"
            unit.write_text(unit.read_text("utf-8") + line, "utf-8")
            before, start = cpu(), time.monotonic()
            if profile_dir:
                import cProfile
                with cProfile.Profile() as prof:
                    rebuild()
                prof.dump_stats(str(Path(profile_dir) / f"{kind}-{n}.prof"))
            else:
                rebuild()
            wall = time.monotonic() - start
            time.sleep(4)
            print(f"{kind} saved, run {n}: rebuild {wall:.2f} s wall, {cpu() - before:.2f} s CPU with its "
                  "background work", flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(Path(sys.argv[1]))
    else:
        with tempfile.TemporaryDirectory(prefix="pto-bench-serve-cpu-") as tmp:
            main(Path(tmp))
