"""Benchmark: the bilingual site build against plain `mkdocs build` of upstream's own site (not a test).

    PTO_SPEC_CHECKOUT=/path/to/pto-spec python benchmarks/bench_site.py
    python benchmarks/run.py site               # the same, recorded with the other benchmarks

Measured in one run, on one machine, each in a fresh process:
  * baseline: `mkdocs build -q -f docs/mkdocs/mkdocs.yml` of the checkout (copied to a temporary directory
    first, so nothing is written inside the checkout). The baseline and the first builds are measured in
    PTO_DOCS_BENCH_ROUNDS rounds (default 3), each round the three back to back; a ratio is the median of the
    rounds' ratios (the machines are shared: their speed drifts by a third within minutes, so a baseline
    measured once, minutes away from the build it is compared with, is not a fair one);
  * first: `pto-docs build ROOT --site-dir SITE -q` with an empty page cache and an empty user cache
    (XDG_CACHE_HOME: the ASL parse and SEMANTICS-PROSE verdicts a machine keeps), as on a fresh machine
    (target <= 0.7x baseline, issue 10);
  * second: the same again after the last round, nothing changed (target <= 0.15x first, issue 10);
  * the site size (du --apparent-size; target <= 150 MB) and the peak RSS of the build processes (target <= 2 GB);
  * edit one unit: on the copy (built once to fill its cache), append a comment line to one unit's ASL and
    rebuild (the rebuild `mkdocs serve --dirty` does after a save, in a fresh process; target: the changed
    page within 3 s).
Without PTO_SPEC_CHECKOUT only catalog/ is built (no baseline; the ratios are then against the first build).
With PTO_DOCS_BENCH_AVS_RESULTS (a `pto-docs avs --examples --json` file of the same checkout) the first build is
also timed with the worked examples on the pages (target <= 0.7x baseline, issue 13).
With a checkout, each round also times the user's path of issue 32 with every teaching example on (the default):
`pto-docs init` in a copy of the checkout, then plain `mkdocs build` of it with an empty user cache (target <= 1.0x
baseline), and after the last round `mkdocs build --dirty` of it twice (a clean build keeps no page cache: the first
fills it), the second timed, nothing changed (target <= 0.15x baseline).
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
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


def figure(name: str, value: float, unit: str, baseline: float | None, baseline_name: str, target: str,
           ratio: float | None = None) -> dict:
    """One recorded figure; its ratio is ``value / baseline`` unless given (rounds_figure)."""
    if ratio is None:
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


def examples_build(root: Path, results: Path, tmp: Path, name: str = "examples") -> float | None:
    """A first build (empty cache) whose pages carry the worked examples of ``results`` (`pto-docs avs
    --examples --json`): this repository's mkdocs.yml with ``avs_results`` set, like a maintainer's."""
    text = (REPO / "mkdocs.yml").read_text("utf-8").replace("docs_dir: site_src", f"docs_dir: {REPO / 'site_src'}")
    text = text.replace("      spec_root: catalog\n", f"      spec_root: {root}\n      avs_results: {results}\n")
    config = tmp / "mkdocs-examples.yml"
    config.write_text(text, "utf-8")
    for stale in (tmp / f"site-{name}", tmp / f"cache-{name}", tmp / f"xdg-{name}"):
        shutil.rmtree(stale, ignore_errors=True)
    cmd = [sys.executable, "-m", "pto_docs.cli", "build", str(root), "--config-file", str(config), "--site-dir",
           str(tmp / f"site-{name}"), "--cache-dir", str(tmp / f"cache-{name}"), "-q"]
    wall, code, _ = timed(cmd, REPO, fresh_user_cache(tmp, name))
    return wall if code == 0 else None


def upstream_copy(checkout: Path, tmp: Path) -> Path | None:
    config = checkout / "docs" / "mkdocs" / "mkdocs.yml"
    if not config.is_file():
        print(f"no {config}: no baseline")
        return None
    copy = tmp / "upstream"
    shutil.copytree(checkout, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    return copy


def upstream_baseline(copy: Path, tmp: Path) -> float | None:
    shutil.rmtree(tmp / "upstream-site", ignore_errors=True)
    cmd = ["mkdocs", "build", "-q", "-f", "docs/mkdocs/mkdocs.yml", "--site-dir", str(tmp / "upstream-site")]
    wall, code, _ = timed(cmd, copy)
    if code:
        print(f"upstream mkdocs build failed (exit {code}): no baseline")
        return None
    return wall


def init_copy(checkout: Path, tmp: Path) -> Path | None:
    """A copy of the checkout with the mkdocs.yml `pto-docs init` writes (plugin defaults: every example on)."""
    copy = tmp / "init"
    shutil.copytree(checkout, copy, symlinks=True, ignore=shutil.ignore_patterns(".git", "site", "mkdocs.yml"))
    _, code, _ = timed([sys.executable, "-m", "pto_docs.cli", "init", str(copy)], REPO)
    return copy if code == 0 else None


def init_build(copy: Path, tmp: Path, name: str, fresh: bool = True) -> float | None:
    """Wall seconds of plain `mkdocs build` of the `pto-docs init` copy; ``fresh``: empty site and user cache."""
    if fresh:
        for stale in (copy / "site", tmp / f"xdg-{name}"):
            shutil.rmtree(stale, ignore_errors=True)
    cmd = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(copy / "mkdocs.yml")]
    if not fresh:  # (plain `mkdocs build` is a clean build by design: the page cache serves `--dirty`)
        cmd.append("--dirty")
    wall, code, _ = timed(cmd, copy, fresh_user_cache(tmp, name))
    return wall if code == 0 else None


def build_command(root: Path, tmp: Path) -> list[str]:
    """`pto-docs build` of ``root`` into tmp/site with its page cache in tmp/cache."""
    return [sys.executable, "-m", "pto_docs.cli", "build", str(root), "--site-dir", str(tmp / "site"),
            "--cache-dir", str(tmp / "cache"), "-q"]


def first_build(root: Path, tmp: Path, name: str) -> tuple[float, float]:
    """(wall seconds, peak RSS MB) of a build with an empty page cache and an empty user cache."""
    for stale in (tmp / "site", tmp / "cache", tmp / f"xdg-{name}"):
        shutil.rmtree(stale, ignore_errors=True)
    wall, code, peak = timed(build_command(root, tmp), REPO, fresh_user_cache(tmp, name))
    if code:
        raise SystemExit(f"pto-docs build failed (exit {code})")
    return wall, peak


def rounds_figure(name: str, walls: list[float], baselines: list[float] | None, target: str) -> dict:
    """The median wall time, and against the baseline the median of each round's own ratio."""
    if not baselines:
        return figure(name, statistics.median(walls), "s", None, "", target)
    ratios = [w / b for w, b in zip(walls, baselines)]
    item = figure(name, statistics.median(walls), "s", statistics.median(baselines), "baseline", target,
                  ratio=statistics.median(ratios))
    print(f"{'':38s} the rounds' ratios: {', '.join(f'{r:.2f}' for r in ratios)}", flush=True)
    return item


def main() -> list[dict]:
    checkout = os.environ.get("PTO_SPEC_CHECKOUT")
    root = Path(checkout) if checkout else REPO / "catalog"
    rounds = max(1, int(os.environ.get("PTO_DOCS_BENCH_ROUNDS", "3")))
    avs = os.environ.get("PTO_DOCS_BENCH_AVS_RESULTS")
    figures: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="pto-bench-site-") as tmpdir:
        tmp = Path(tmpdir)
        copy = upstream_copy(root, tmp) if checkout else None
        baselines: list[float] = []
        firsts: list[float] = []
        with_examples: list[float] = []
        inits: list[float] = []
        init = init_copy(root, tmp) if checkout else None
        peak1 = 0.0
        for n in range(rounds):  # each round: the baseline, then our two first builds, back to back
            if copy is not None:
                baseline = upstream_baseline(copy, tmp)
                if baseline is None:
                    copy = None
                else:
                    baselines.append(baseline)
            wall, peak = first_build(root, tmp, f"first-{n}")
            firsts.append(wall)
            peak1 = max(peak1, peak)
            if avs and checkout:
                wall = examples_build(root, Path(avs).resolve(), tmp, f"examples-{n}")
                if wall is not None:
                    with_examples.append(wall)
            if init is not None:
                wall = init_build(init, tmp, f"init-{n}")
                if wall is not None:
                    inits.append(wall)
            print(f"round {n + 1} of {rounds}: " + ", ".join(
                f"{label} {values[-1]:.2f} s" for label, values in
                (("upstream", baselines), ("first", firsts), ("with examples", with_examples),
                 ("init + mkdocs build", inits)) if values), flush=True)
        baselines = baselines if len(baselines) == rounds else []
        if baselines:
            figures.append(figure("upstream mkdocs build (baseline)", statistics.median(baselines), "s", statistics.median(baselines),
                                  "baseline", "—"))
        figures.append(rounds_figure(f"pto-docs build, first ({root.name})", firsts, baselines, "<= 0.7x baseline"))
        first = firsts[-1]
        # the last first build's caches: the same build again, nothing changed
        second, code, peak2 = timed(build_command(root, tmp), REPO, fresh_user_cache(tmp, f"first-{rounds - 1}"))
        if code:
            raise SystemExit(f"second pto-docs build failed (exit {code})")
        figures.append(figure(f"pto-docs build, nothing changed ({root.name})", second, "s", first, "first build", "<= 0.15x first"))
        figures.append(figure("site size (apparent)", size_mb(tmp / "site"), "MiB", None, "", "<= 150 MB"))
        figures.append(figure("site size (apparent, decimal)", size_decimal_mb(tmp / "site"), "MB", None, "", "<= 150 MB"))
        figures.append(figure("peak RSS of a build process", max(peak1, peak2), "MB", None, "", "<= 2048 MB"))
        if len(with_examples) == rounds:
            figures.append(rounds_figure(f"pto-docs build, first, with worked examples ({root.name})", with_examples,
                                         baselines, "<= 0.7x baseline"))
        if len(inits) == rounds:
            figures.append(rounds_figure("pto-docs init + mkdocs build, first, every example", inits, baselines,
                                         "<= 1.0x baseline"))
            # a clean `mkdocs build` keeps no page cache: one `--dirty` build fills it, the next is measured
            filled = init_build(init, tmp, f"init-{rounds - 1}", fresh=False)
            again = init_build(init, tmp, f"init-{rounds - 1}", fresh=False) if filled is not None else None
            if again is not None:
                figures.append(figure("pto-docs init + mkdocs build --dirty, no change", again, "s",
                                      statistics.median(baselines) if baselines else inits[-1],
                                      "baseline" if baselines else "first", "<= 0.15x baseline"))
        if copy is not None:
            edit = edited_unit_rebuild(copy, tmp)
            if edit is not None:
                figures.append(figure("rebuild after editing one unit", edit, "s", None, "", "<= 3 s (serve reload)"))
    return figures


if __name__ == "__main__":
    main()
