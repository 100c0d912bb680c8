"""Benchmark: how long `mkdocs serve --dirty` takes to reload the browser after one unit is saved (not a test).

    PTO_SPEC_CHECKOUT=/path/to/pto-spec python benchmarks/bench_serve.py
    python benchmarks/run.py serve              # the same, recorded with the other benchmarks

The tree (PTO_SPEC_CHECKOUT, else catalog/) is copied to a temporary directory, a copy of this repository's
mkdocs.yml points the plugin at it, and `mkdocs serve --dirty` runs as a subprocess. After the first
"Serving on", one unit (MAX.asl upstream, TMUL.asl in catalog/) gets a comment line appended, and the figure
is the time from that write to the server's next "Reloading browsers" log line: what an author waits for
(target <= 3 s). Repeated RUNS times; each run also checks that both languages serve the edit.

    PTO_DOCS_BENCH_SERVE_EDIT=code python benchmarks/bench_serve.py

saves an edit of code instead: a new top-level constant appended to the unit (``constant PTO_BENCH_EDIT_1 =
1;``, another one each run), which changes the ASL model (the teaching examples' model digest), not only a
comment.

    PTO_DOCS_BENCH_SERVE_WARM=1 python benchmarks/bench_serve.py

first builds the copy once with `mkdocs build` into the same private cache, as an author who built or served
the tree before has a warm user cache: the serving process then takes every example from the sealed cache and
links no ASL model at its first build.
"""

from __future__ import annotations

import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from benchmarks.bench_site import figure  # noqa: E402

RUNS = 3
START_TIMEOUT = 900.0  # the first build of the real tree, both languages, cold cache
RELOAD_TIMEOUT = 120.0
PREFERRED_UNITS = ("MAX.asl", "TMUL.asl")


def serve_config(tmp: Path, root: Path) -> Path:
    """This repository's mkdocs.yml with absolute paths, spec_root at ``root`` and a private cache directory
    (as tests/perf/test_serve_incremental.py serves it)."""
    from tests.mkdocs_config import config_copy
    return config_copy(tmp, root, cache_dir=tmp / "cache")


def pick_unit(root: Path) -> Path:
    units = sorted((root / "asl").rglob("*.asl"))
    for name in PREFERRED_UNITS:
        for unit in units:
            if unit.name == name:
                return unit
    if not units:
        raise SystemExit(f"{root}: no unit under asl/")
    return units[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServeLog:
    """The server's stderr, line by line, each with the monotonic time it arrived."""

    def __init__(self, proc: subprocess.Popen):
        self.lines: queue.Queue = queue.Queue()
        self.tail: list[str] = []
        threading.Thread(target=self._read, args=(proc.stderr,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.put((time.monotonic(), line.rstrip("\n")))
        self.lines.put((time.monotonic(), None))

    def drain(self) -> None:
        while True:
            try:
                self.tail.append(self.lines.get_nowait()[1] or "")
            except queue.Empty:
                return

    def wait_for(self, text: str, timeout: float) -> float:
        """Arrival time of the next line containing ``text``."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                stamp, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise SystemExit(f"no {text!r} within {timeout:.0f} s; last lines:\n" + "\n".join(self.tail[-30:])) from None
            if line is None:
                raise SystemExit("mkdocs serve exited; last lines:\n" + "\n".join(self.tail[-30:]))
            self.tail.append(line)
            if text in line:
                return stamp


def served(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode("utf-8", "replace")


def page_url(root: Path, unit: Path) -> str:
    """The site path of ``unit``'s page (from the catalog's own routes)."""
    from pto_docs.analysis.load import load_catalog
    from pto_docs.render.routes import unit_src, url_of
    catalog = load_catalog(root).catalog
    rel = unit.relative_to(root).as_posix()
    return url_of(unit_src(catalog.units[catalog.unit_by_path[rel]]))


def stop(proc: subprocess.Popen) -> None:
    """Ctrl-C, as an author stops the server: it finishes its background work (page packs, forked language
    builds) before it exits, so nothing writes into the temporary directory while it is removed."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def measure(root: Path, tmp: Path, runs: int = RUNS) -> tuple[float, list[float]]:
    """(seconds to the first "Serving on", the reload seconds of each run)."""
    copy = tmp / "tree"
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    config = serve_config(tmp, copy)
    unit = pick_unit(copy)
    url = page_url(copy, unit)
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if os.environ.get("PTO_DOCS_BENCH_SERVE_WARM"):
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(tmp / "warm")],
                       cwd=tmp, env=env, check=True, stdout=subprocess.DEVNULL)
    cmd = [sys.executable, "-m", "mkdocs", "serve", "--dirty", "-f", str(config), "-a", f"127.0.0.1:{port}"]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    log = ServeLog(proc)
    reloads: list[float] = []
    try:
        serving = log.wait_for("Serving on", START_TIMEOUT) - start
        for run in range(1, runs + 1):
            time.sleep(2.0)  # let the file watcher settle on the current tree
            log.drain()
            marker, shown = f"// serve benchmark edit {run}", f"serve benchmark edit {run}"
            if os.environ.get("PTO_DOCS_BENCH_SERVE_EDIT") == "code":
                marker, shown = f"constant PTO_BENCH_EDIT_{run} = {run};", f"PTO_BENCH_EDIT_{run}"
            written = time.monotonic()
            with unit.open("a", encoding="utf-8") as fh:
                fh.write(marker + "\n")
            detected = log.wait_for("Detected file changes", RELOAD_TIMEOUT) - written
            reloads.append(log.wait_for("Reloading browsers", RELOAD_TIMEOUT) - written)
            print(f"  run {run}: change detected after {detected:.2f} s, browsers reloaded after {reloads[-1]:.2f} s",
                  flush=True)
            for prefix in ("", "zh-CN/"):
                if shown not in served(f"http://127.0.0.1:{port}/{prefix}{url}"):
                    raise SystemExit(f"run {run}: /{prefix}{url} does not show the edit")
    finally:
        stop(proc)
    return serving, reloads


def main() -> list[dict]:
    checkout = os.environ.get("PTO_SPEC_CHECKOUT")
    root = Path(checkout) if checkout else REPO / "catalog"
    with tempfile.TemporaryDirectory(prefix="pto-bench-serve-") as tmpdir:
        serving, reloads = measure(root, Path(tmpdir))
    edit = "an edit of code" if os.environ.get("PTO_DOCS_BENCH_SERVE_EDIT") == "code" else "a comment"
    figures = [figure(f"serve --dirty, first build ({root.name})", serving, "s", None, "", "—")]
    for run, seconds in enumerate(reloads, 1):
        figures.append(figure(f"serve reload after {edit} saved in a unit, run {run}", seconds, "s", None, "",
                              "<= 3 s"))
    return figures


if __name__ == "__main__":
    main()
