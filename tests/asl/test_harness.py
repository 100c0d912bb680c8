"""The AVS harness and `pto-docs avs` glue on a small spec tree written by the test."""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

import pto_docs

# What a spec's decoder generator writes: declarations, then Validate* entry points.
GENERATED = "constant DECODED = 7;\n\nfunc ValidateDecoded()\nbegin\n    assert DECODED == 7;\nend;\n"


def unit(uid: str, deps: list[str], body: str) -> str:
    record = json.dumps({"id": uid, "depends_on": deps})
    return f"// PTO-UNIT: {record}\n{textwrap.dedent(body)}"


def avs_file(tid: str, kind: str, body: str) -> str:
    record = json.dumps({"id": tid, "kind": kind})
    return f"// PTO-TEST: {record}\n{textwrap.dedent(body)}"


MAIN = "func main() => integer\nbegin\n{}\n    return 0;\nend;\n"
UNITS = {
    "asl/arch/b.asl": unit("PTO-B", ["PTO-A", "generated:decoders"], """
        var Counter : integer = BASE;
        func Bump() => integer
        begin
            Counter = Counter + 1;
            return Counter;
        end;
        """),
    "asl/arch/a.asl": unit("PTO-A", [], "constant BASE = 10;\n"),
}
TESTS = {
    "tests/asl/arch/t1.asl": avs_file("T-PASS-1", "execution", MAIN.format("    assert Bump() == 11;")),
    "tests/asl/arch/t2.asl": avs_file("T-PASS-2", "execution", MAIN.format("    assert Bump() == 11;")),
    "tests/asl/arch/t3.asl": avs_file("T-FAIL", "fault", MAIN.format("    let x = Bump();\n    assert x == 99;")),
    "tests/asl/arch/t4.asl": avs_file("T-ERROR", "boundary", MAIN.format("    Missing();")),
    "tests/asl/arch/t5.asl": avs_file("T-VALIDATE", "decode-positive", MAIN.format("    ValidateDecoded();")),
    "tests/asl/arch/t6.asl": avs_file("T-ENDLESS", "ordering",
                                      MAIN.format("    var n : integer = 0;\n    while TRUE do\n        n = n + 1;\n    end;")),
}


def run_avs(pattern=None, **options):
    from pto_docs.asl.harness import run_avs as run
    from pto_docs.asl.harness import tests_from_sources
    from pto_docs.asl.model import units_from_sources
    return run(units_from_sources(UNITS.items()), tests_from_sources(TESTS.items(), pattern), GENERATED, **options)


@pytest.fixture(autouse=True)
def small_step_budget(monkeypatch):
    from pto_docs.asl import program
    monkeypatch.setattr(program, "STEP_BUDGET", 20_000)  # the endless loop ends quickly


def test_statuses_reset_and_messages(tree, tmp_path):
    doc = run_avs(jobs=1, cache_dir=tmp_path / "cache")
    status = {t["id"]: t["status"] for t in doc["tests"]}
    # both T-PASS tests see Counter == 10 first: globals are reset to a fresh run's state before each test
    assert status == {"T-PASS-1": "pass", "T-PASS-2": "pass", "T-FAIL": "fail", "T-ERROR": "error",
                      "T-VALIDATE": "pass", "T-ENDLESS": "error"}
    fail = next(t for t in doc["tests"] if t["id"] == "T-FAIL")
    assert fail["message"] == "tests/asl/arch/t3.asl:5:12: assertion failed: x == 99"
    endless = next(t for t in doc["tests"] if t["id"] == "T-ENDLESS")
    assert "tests/asl/arch/t6.asl:" in endless["message"] and "step budget exhausted" in endless["message"]
    assert doc["summary"] == {"total": 6, "pass": 3, "fail": 1, "error": 2, "needs-decoders": 0}
    schema = json.loads((Path(pto_docs.__file__).parent / "schemas" / "avs.schema.json").read_text())
    jsonschema.validate(doc, schema)


def test_parallel_run_gives_the_same_statuses(tree, tmp_path):
    from pto_docs.store import sealed_folder
    serial = run_avs(jobs=1, cache_dir=sealed_folder(tmp_path / "cache"))
    # a damaged cache is discarded and rebuilt, never fatal
    damaged = sorted((tmp_path / "cache" / "units").glob("*.pickle"))
    assert len(damaged) == len(UNITS) + 1  # each unit and the generated decoder text
    for path in damaged:
        path.write_bytes(b"\x80\x05garbage")
    parallel = run_avs(jobs=2, cache_dir=sealed_folder(tmp_path / "cache"))
    assert [(t["id"], t["status"]) for t in serial["tests"]] == [(t["id"], t["status"]) for t in parallel["tests"]]


def test_without_the_generated_text_a_model_that_needs_it_is_refused():
    from pto_docs.asl.model import GeneratedAslMissing, load_model, units_from_sources
    with pytest.raises(GeneratedAslMissing):
        load_model(units_from_sources(UNITS.items()), None)


def test_the_junit_document_counts_what_the_run_found(tmp_path):
    from pto_docs.asl.report import junit_xml
    doc = run_avs(jobs=1)
    suite = ET.fromstring(junit_xml(doc)).find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("6", "1", "2")
    failed = [case.get("name") for case in suite if case.find("failure") is not None]
    assert failed == ["T-FAIL"]


def test_running_asl_leaves_the_recursion_limit_as_it_found_it():
    """The big-stack thread raises the process's recursion limit only while it runs (a higher limit on the main
    thread's ordinary stack would turn a deeply nested input into a crash instead of a RecursionError)."""
    import sys
    before = sys.getrecursionlimit()
    run_avs(jobs=1)
    assert sys.getrecursionlimit() == before


# a container made by the test process just before it forks a pool worker (test_a_pool_worker_freezes_...)
_INHERITED: list = []


def _inherited_is_collectable() -> bool:
    return any(obj is _INHERITED for obj in __import__("gc").get_objects())


def test_a_pool_worker_freezes_what_it_inherited():
    """harness._start_worker: what the fork shared is out of the collector's sight in the worker (gc.freeze);
    the parent's own objects are not frozen by it."""
    import gc
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    from pto_docs.asl import harness
    _INHERITED[:] = [[]]
    assert _inherited_is_collectable()
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(1, mp_context=context, initializer=harness._start_worker, initargs=(os.getpid(),)) as pool:
        assert pool.submit(_inherited_is_collectable).result() is False
    with ProcessPoolExecutor(1, mp_context=context) as pool:  # the same without the initializer: still tracked
        assert pool.submit(_inherited_is_collectable).result() is True
    assert _inherited_is_collectable() and gc.isenabled()


HOLDS_ADDRESS_SPACE = """
import mmap, sys
from pto_docs.asl.harness import run_avs, tests_from_sources
from pto_docs.asl.model import units_from_sources
from tests.asl.test_harness import GENERATED, TESTS, UNITS
try:
    held = mmap.mmap(-1, 7 << 30)  # reserved and never touched: address space, not memory
except (OSError, ValueError, OverflowError):
    print("SKIP"); sys.exit(0)
points = tests_from_sources([(p, t) for p, t in TESTS.items() if "ENDLESS" not in t])
doc = run_avs(units_from_sources(UNITS.items()), points, GENERATED, jobs=2)
print(sorted({t["message"] for t in doc["tests"] if t["status"] == "error"}))
"""


def test_pool_workers_of_a_process_holding_7_gb_of_address_space_run_every_point():
    """A worker's address-space cap is what it inherited plus WORKER_MEMORY: capped at WORKER_MEMORY in all, the
    workers of a large parent (a site build with ``avs_examples: run``, a test runner holding the real tree's
    model) could not start a test point's big-stack thread (errors "can't start new thread")."""
    import subprocess
    import sys
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", HOLDS_ADDRESS_SPACE], cwd=repo, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    if done.stdout.strip() == "SKIP":
        pytest.skip("this machine does not reserve 7 GB of address space")
    # the one error is the point that calls a missing subprogram, as in a process of ordinary size
    assert done.stdout.strip() == str(["AslCompileError: tests/asl/arch/t4.asl:2:1: in main: call of unknown "
                                       "subprogram Missing"]), done.stdout


def test_a_pool_worker_may_grow_by_worker_memory_beyond_what_it_inherited():
    import subprocess
    import sys
    code = ("import resource; from pto_docs.asl import harness; before = harness.address_space_in_use(); "
            "harness._cap_memory(); print(before, resource.getrlimit(resource.RLIMIT_AS)[0], harness.WORKER_MEMORY)")
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, timeout=60)
    before, soft, budget = map(int, done.stdout.split())
    assert before > 0 and 0 <= soft - (before + budget) < 64 << 20, (before, soft, budget)


def test_a_validation_entry_point_is_parsed_once_per_text_and_a_damaged_copy_is_parsed_again(tmp_path, monkeypatch):
    """Model.validation_decls keeps each parsed Validate* function in a file of its own (cache_dir/validation),
    named by its text: a later run reads it instead of parsing; a damaged file is parsed again and replaced."""
    from pto_docs.asl import model as model_module
    from pto_docs.store import sealed_folder
    cache = tmp_path / "cache"
    first = run_avs(jobs=1, cache_dir=sealed_folder(cache))
    (kept,) = sorted((cache / "validation").glob("*.pickle"))
    parsed: list[str] = []
    real_parse = model_module.parse
    monkeypatch.setattr(model_module, "parse", lambda text, path: parsed.append(path) or real_parse(text, path))
    again = run_avs(jobs=1, cache_dir=sealed_folder(cache))
    assert parsed == [] and _statuses(again) == _statuses(first)
    kept.write_bytes(b"\x80\x05damaged")
    after_damage = run_avs(jobs=1, cache_dir=sealed_folder(cache))
    assert parsed == ["@validation@/ValidateDecoded"] and _statuses(after_damage) == _statuses(first)
    text = model_module.split_validation(GENERATED)["ValidateDecoded"]
    entry = kept.relative_to(cache).as_posix()
    assert model_module._read_pickle(sealed_folder(cache), entry) == real_parse(text, "@validation@/ValidateDecoded")


def _statuses(doc):
    return [(t["id"], t["status"], t["message"]) for t in doc["tests"]]
