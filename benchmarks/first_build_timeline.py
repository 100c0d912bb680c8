"""Benchmark aid: where a first `mkdocs build` of a `pto-docs init` tree spends its wall time (not a test).

    cd TREE && XDG_CACHE_HOME=$(mktemp -d) python /path/to/benchmarks/first_build_timeline.py mkdocs.yml

Runs MkDocs' build in this process with the stages of a first build wrapped (the load worker's tasks, this
process's waits for them, the further language's build) and prints, per event, the seconds since start, the
process and its CPU seconds so far (``os.times``; a forked worker counts from its fork). A wait of this process
whose CPU hardly grows is a core standing idle. Output goes to stderr, one line per event.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
T0 = time.monotonic()


def mark(what: str) -> None:
    t = os.times()
    sys.stderr.write(f"[{time.monotonic() - T0:7.2f}] pid {os.getpid()} {what} (cpu {t.user + t.system:.2f})\n")


def wrap(owner, name: str) -> None:
    original = getattr(owner, name)
    label = f"{getattr(owner, '__name__', owner)}.{name}"

    @functools.wraps(original)
    def timed(*args, **kwargs):
        mark(f"> {label}")
        try:
            return original(*args, **kwargs)
        finally:
            mark(f"< {label}")
    setattr(owner, name, timed)


def main(config_file: str) -> None:
    import mkdocs.commands.build as mkdocs_build
    from mkdocs.config import load_config

    from pto_docs.bridge import teaching_run, teaching_split
    from pto_docs.site import languages, load_helper, rendering
    wrap(teaching_run, "_runner")  # (linking the model for the teaching run)
    wrap(teaching_split, "fork")
    wrap(teaching_split.Share, "collect")  # (the teaching worker waits for its helper's share)
    wrap(teaching_split.Share, "from_the_end")  # (in the helper: its share, from its start)
    wrap(teaching_split, "_payload")  # (in the helper: its share done, its results sent)
    for name in ("_semantics_task", "_teaching_task", "_parts_task"):
        wrap(load_helper, name)
    for name in ("semantics", "teaching", "parts"):
        wrap(load_helper.Helper, name)
    from pto_docs.render import env, id_index, pages
    wrap(id_index, "id_index_json")  # (this process, while the teaching run runs: the search box's id lookup)
    wrap(env, "compile_templates")  # (this process, while the teaching run runs: the page templates)
    wrap(pages.SiteRenderer, "__init__")
    wrap(pages.SiteRenderer, "prepare")  # (every page model, the worker's parts adopted)
    wrap(languages, "_build_language")
    wrap(rendering, "build_state")
    wrap(mkdocs_build, "build")
    config = load_config(config_file=config_file)
    config.plugins.on_startup(command="build", dirty=False)  # (as `mkdocs build` does)
    try:
        mkdocs_build.build(config)
    finally:
        config.plugins.on_shutdown()
    mark("end")  # (the process's exit after this: the wall time /usr/bin/time gives less the last mark)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "mkdocs.yml")
