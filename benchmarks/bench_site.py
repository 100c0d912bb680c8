"""Benchmark: the bilingual site build against plain `mkdocs build` of upstream's own site (not a test).

    PTO_SPEC_CHECKOUT=/path/to/pto-spec python benchmarks/bench_site.py
    python benchmarks/run.py site               # the same, recorded with the other benchmarks

Measured in one run, on one machine, each in a fresh process:
  * baseline: `mkdocs build -q -f docs/mkdocs/mkdocs.yml` of the checkout (copied to a temporary directory
    first, so nothing is written inside the checkout);
  * first: `pto-docs build ROOT --site-dir SITE -q` with an empty page cache and an empty user cache
    (XDG_CACHE_HOME: the ASL parse and SEMANTICS-PROSE verdicts a machine keeps), as on a fresh machine
    (target <= 1.0x baseline, stretch 0.5x);
  * second: the same again, nothing changed (target <= 0.3x first);
  * the site size (du --apparent-size; target <= 150 MB) and the peak RSS of the build processes (target <= 2 GB);
  * edit one unit: on the copy (built once to fill its cache), append a comment line to one unit's ASL and
    rebuild (the rebuild `mkdocs serve --dirty` does after a save, in a fresh process; target: the changed
    page within 3 s).
Without PTO_SPEC_CHECKOUT only catalog/ is built (no baseline; the ratios are then against the first build).
With PTO_DOCS_BENCH_AVS_RESULTS (a `pto-docs avs --examples --json` file of the same checkout) the first build is
also timed with the worked examples on the pages (target <= 0.7x baseline, issue 13).
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MB = 1024 * 1024


def timed(cmd: list[str], cwd: Path, env: dict | None = None) -> tuple[float, int, float]:
    """(wall seconds, exit status, peak RSS in MB of the command and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False,
                          env=env)
    wall = time.perf_counter() - start
    if proc.returncode:
        sys.stderr.write(proc.stderr[-4000:])
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux: the max over all children so far
    return wall, proc.returncode, max(peak, before) / 1024


def size_mb(path: Path) -> float:
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    return total / MB


def figure(name: str, value: float, unit: str, baseline: float | None, baseline_name: str, target: str) -> dict:
    ratio = value / baseline if baseline else None
    line = f"{name:38s} {value:10.2f} {unit}"
    if ratio is not None:
        line += f"   {ratio:6.2f}x {baseline_name}"
    line += f"   (target {target})"
    print(line, flush=True)
    return {"name": name, "value": round(value, 3), "unit": unit, "baseline": baseline_name if ratio else None,
            "ratio": round(ratio, 3) if ratio is not None else None, "target": target}


def size_decimal_mb(path: Path) -> float:
    return size_mb(path) * MB / 1e6


def edited_unit_rebuild(copy: Path, tmp: Path) -> float | None:
    """Seconds to rebuild after appending a comment to one unit of ``copy`` (its cache filled first)."""
    units = sorted((copy / "asl").rglob("*.asl")) if (copy / "asl").is_dir() else []
    preferred = [u for u in units if u.name == "MAX.asl"]
    if not units:
        return None
    unit = (preferred or units)[0]
    site, cache = tmp / "edit-site", tmp / "edit-cache"
    cmd = [sys.executable, "-m", "pto_docs.cli", "build", str(copy), "--site-dir", str(site), "--cache-dir", str(cache),
           "-q", "--no-strict"]
    _, code, _ = timed(cmd, REPO)
    if code:
        return None
    unit.write_text(unit.read_text("utf-8") + "// benchmark edit\n", "utf-8")
    wall, code, _ = timed(cmd, REPO)
    return wall if code == 0 else None


def fresh_user_cache(tmp: Path, name: str) -> dict:
    """The environment of a build on a machine that has never run pto-docs: an empty XDG_CACHE_HOME."""
    folder = tmp / f"xdg-{name}"
    folder.mkdir(exist_ok=True)
    return {**os.environ, "XDG_CACHE_HOME": str(folder)}


def examples_build(root: Path, results: Path, tmp: Path) -> float | None:
    """A first build (empty cache) whose pages carry the worked examples of ``results`` (`pto-docs avs
    --examples --json`): this repository's mkdocs.yml with ``avs_results`` set, like a maintainer's."""
    text = (REPO / "mkdocs.yml").read_text("utf-8").replace("docs_dir: site_src", f"docs_dir: {REPO / 'site_src'}")
    text = text.replace("      spec_root: catalog\n", f"      spec_root: {root}\n      avs_results: {results}\n")
    config = tmp / "mkdocs-examples.yml"
    config.write_text(text, "utf-8")
    cmd = [sys.executable, "-m", "pto_docs.cli", "build", str(root), "--config-file", str(config), "--site-dir",
           str(tmp / "site-examples"), "--cache-dir", str(tmp / "cache-examples"), "-q"]
    wall, code, _ = timed(cmd, REPO, fresh_user_cache(tmp, "examples"))
    return wall if code == 0 else None


def upstream_baseline(checkout: Path, tmp: Path) -> float | None:
    config = checkout / "docs" / "mkdocs" / "mkdocs.yml"
    if not config.is_file():
        print(f"no {config}: no baseline")
        return None
    copy = tmp / "upstream"
    shutil.copytree(checkout, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    cmd = ["mkdocs", "build", "-q", "-f", "docs/mkdocs/mkdocs.yml", "--site-dir", str(tmp / "upstream-site")]
    wall, code, _ = timed(cmd, copy)
    if code:
        print(f"upstream mkdocs build failed (exit {code}): no baseline")
        return None
    return wall


def main() -> list[dict]:
    checkout = os.environ.get("PTO_SPEC_CHECKOUT")
    root = Path(checkout) if checkout else REPO / "catalog"
    figures: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="pto-bench-site-") as tmpdir:
        tmp = Path(tmpdir)
        baseline = upstream_baseline(root, tmp) if checkout else None
        if baseline is not None:
            figures.append(figure("upstream mkdocs build (baseline)", baseline, "s", baseline, "baseline", "—"))
        site = tmp / "site"
        cache = tmp / "cache"
        cmd = [sys.executable, "-m", "pto_docs.cli", "build", str(root), "--site-dir", str(site),
               "--cache-dir", str(cache), "-q"]
        machine = fresh_user_cache(tmp, "first")  # the second build finds what the first kept there
        first, code, peak1 = timed(cmd, REPO, machine)
        if code:
            raise SystemExit(f"pto-docs build failed (exit {code})")
        ref = baseline or first
        ref_name = "baseline" if baseline else "first build"
        figures.append(figure(f"pto-docs build, first ({root.name})", first, "s", ref, ref_name, "<= 1.0x baseline, stretch 0.5x"))
        second, code, peak2 = timed(cmd, REPO, machine)
        if code:
            raise SystemExit(f"second pto-docs build failed (exit {code})")
        figures.append(figure(f"pto-docs build, nothing changed ({root.name})", second, "s", first, "first build", "<= 0.3x first"))
        figures.append(figure("site size (apparent)", size_mb(site), "MiB", None, "", "<= 150 MB"))
        figures.append(figure("site size (apparent, decimal)", size_decimal_mb(site), "MB", None, "", "<= 150 MB"))
        figures.append(figure("peak RSS of a build process", max(peak1, peak2), "MB", None, "", "<= 2048 MB"))
        avs = os.environ.get("PTO_DOCS_BENCH_AVS_RESULTS")
        if avs and checkout:
            with_examples = examples_build(root, Path(avs).resolve(), tmp)
            if with_examples is not None:
                figures.append(figure(f"pto-docs build, first, with worked examples ({root.name})", with_examples,
                                      "s", ref, ref_name, "<= 0.7x baseline"))
        if (tmp / "upstream").is_dir():
            edit = edited_unit_rebuild(tmp / "upstream", tmp)
            if edit is not None:
                figures.append(figure("rebuild after editing one unit", edit, "s", None, "", "<= 3 s (serve reload)"))
    return figures


if __name__ == "__main__":
    main()
