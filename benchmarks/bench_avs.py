"""Benchmark: the ASL interpreter on a pto-spec checkout (PTO_SPEC_CHECKOUT), not a test.

Figures: cold model parse (lexing + parsing every unit and the generated decoder), cached parse (unpickle),
and the whole `pto-docs avs` run with per-kind medians, against the issue's 5-minute target.

    PTO_SPEC_CHECKOUT=/path/to/pto-spec python benchmarks/bench_avs.py [--sample N]
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
sys.path.insert(0, str(REPO))

from pto_docs.analysis.load import load_catalog  # noqa: E402
from pto_docs.asl.model import load_model  # noqa: E402
from pto_docs.asl.report import kind_medians  # noqa: E402
from pto_docs.bridge.avs import avs_inputs  # noqa: E402
from pto_docs.store import sealed_folder  # noqa: E402


def decoders_file(root: Path, scratch: Path) -> Path:
    """$PTO_DOCS_AVS_DECODERS, else the checkout's own generator run here once (a developer's benchmark on the
    acceptance corpus; pto-docs itself never runs a script of the tree)."""
    given = os.environ.get("PTO_DOCS_AVS_DECODERS")
    if given:
        return Path(given)
    out = scratch / "decoders.asl"
    with out.open("w", encoding="utf-8") as handle:
        subprocess.run([sys.executable, "scripts/generate-asl-decoders", "--kind", "monolithic"], cwd=root,
                       stdout=handle, check=True)
    return out


def _parse_figures(root: Path, decoders: Path) -> dict:
    units = avs_inputs(load_catalog(root).catalog).units
    generated = decoders.read_text("utf-8")
    with tempfile.TemporaryDirectory() as folder:
        cache = sealed_folder(Path(folder))  # the user's key seals the entries, as pto-docs' own runs do
        start = time.perf_counter()
        load_model(units, generated, cache)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        load_model(units, generated, cache)
        cached = time.perf_counter() - start
    return {"parse_cold_seconds": round(cold, 2), "parse_cached_seconds": round(cached, 2)}


LARK_TERMINALS = r"""
start: tok*
tok: HEX | REAL | INT | BITS | MASK | STR | ID | OP
HEX: /0x[0-9A-Fa-f_]+/
REAL: /[0-9][0-9_]*\.[0-9][0-9_]*/
INT: /[0-9][0-9_]*/
BITS: /'[01 ]*'/
MASK: /'[01x ]*'/
STR: /"(?:[^"\\\n]|\\.)*"/
ID: /[A-Za-z_][A-Za-z0-9_]*/
OP: /\+:|\*:|::|\+\+|\.\.|==>|<=>|<=|>=|==|!=|&&|\|\||=>|<<|>>|\[\[|\]\]|[-+*\/^!=<>(){}\[\],.:;]/
COMMENT: /\/\/[^\n]*/
%import common.WS
%ignore WS
%ignore COMMENT
"""


def _parser_choice(root: Path) -> dict:
    """Our whole parse of every unit and test file against Lark LALR's lexer alone on the same text."""
    from pto_docs.asl.parser import parse

    texts = [p.read_text("utf-8") for p in sorted((root / "asl").rglob("*.asl"))]
    texts += [p.read_text("utf-8") for p in sorted((root / "tests" / "asl").rglob("*.asl"))]
    start = time.perf_counter()
    for text in texts:
        parse(text)
    ours = time.perf_counter() - start
    figures = {"parse_all_files_seconds": round(ours, 2), "lines": sum(t.count("\n") for t in texts)}
    try:
        from lark import Lark
    except ImportError:
        return figures
    lexer = Lark(LARK_TERMINALS, parser="lalr")
    start = time.perf_counter()
    for text in texts:
        for _ in lexer.lex(text):
            pass
    figures["lark_lexer_only_seconds"] = round(time.perf_counter() - start, 2)
    return figures


def main(argv: list[str] | None = None) -> list[dict]:
    argv = sys.argv[1:] if argv is None else argv
    root = os.environ.get("PTO_SPEC_CHECKOUT")
    if not root:
        print("bench_avs: PTO_SPEC_CHECKOUT is not set; skipped")
        return []
    root_path = Path(root)
    scratch = Path(tempfile.mkdtemp(prefix="bench-avs-"))
    decoders = decoders_file(root_path, scratch)
    figures = _parse_figures(root_path, decoders)
    figures.update(_parser_choice(root_path))
    print(f"parse of {figures['lines']} lines of units and tests: ours {figures['parse_all_files_seconds']} s; "
          f"Lark LALR lexer alone {figures.get('lark_lexer_only_seconds', 'n/a')} s")
    print(f"model parse: cold {figures['parse_cold_seconds']} s, cached {figures['parse_cached_seconds']} s"
          " (cold: parses units and the generated decoders; cached: hashes the texts and unpickles)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "avs.json"
        cmd = [sys.executable, "-m", "pto_docs.cli", "avs", str(root_path), "--json", str(out), "-q",
               "--decoders", str(decoders), "--cache-dir", str(Path(tmp) / "cache")]
        if "--sample" in argv:
            cmd += ["-k", argv[argv.index("--sample") + 1]]
        start = time.perf_counter()
        subprocess.run(cmd, cwd=REPO, check=False, env={**os.environ, "PYTHONPATH": str(REPO)})
        seconds = time.perf_counter() - start
        doc = json.loads(out.read_text("utf-8"))
    s = doc["summary"]
    medians = kind_medians(doc)
    print(f"avs: {s['total']} test points: {s['pass']} pass, {s['fail']} fail, {s['error']} error in "
          f"{seconds:.1f} s on {os.cpu_count()} cores (target <= 300 s; ratio {seconds / 300:.2f})")
    print("median seconds per kind: " + ", ".join(f"{k} {v:.3f}" for k, v in medians.items()))
    return [{"benchmark": "avs pto-spec", "seconds": round(seconds, 1), "target_seconds": 300.0,
             "ratio": round(seconds / 300, 2), **figures, "summary": s, "kind_medians": medians}]


if __name__ == "__main__":
    main()
