"""The AVS harness and `pto-docs avs` glue on a small spec tree written by the test."""

from __future__ import annotations

import io
import json
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

import pto_docs
from pto_docs.asl.cli import main as avs_main
from pto_docs.asl.harness import run_avs

GENERATOR = '''#!/usr/bin/env python3
import sys
assert sys.argv[1:] == ["--kind", "monolithic"], sys.argv
print("constant DECODED = 7;\\n")
print("func ValidateDecoded()\\nbegin\\n    assert DECODED == 7;\\nend;\\n")
'''


def unit(uid: str, deps: list[str], body: str) -> str:
    record = json.dumps({"id": uid, "depends_on": deps})
    return f"// PTO-UNIT: {record}\n{textwrap.dedent(body)}"


def avs_file(tid: str, kind: str, body: str) -> str:
    record = json.dumps({"id": tid, "kind": kind})
    return f"// PTO-TEST: {record}\n{textwrap.dedent(body)}"


@pytest.fixture()
def tree(tmp_path) -> Path:
    root = tmp_path / "spec"
    (root / "asl" / "arch").mkdir(parents=True)
    (root / "tests" / "asl" / "arch").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "scripts" / "generate-asl-decoders").write_text(GENERATOR)
    (root / "asl" / "arch" / "b.asl").write_text(unit("PTO-B", ["PTO-A"], """
        var Counter : integer = BASE;
        func Bump() => integer
        begin
            Counter = Counter + 1;
            return Counter;
        end;
        """))
    (root / "asl" / "arch" / "a.asl").write_text(unit("PTO-A", [], "constant BASE = 10;\n"))
    tests = root / "tests" / "asl" / "arch"
    main = "func main() => integer\nbegin\n{}\n    return 0;\nend;\n"
    (tests / "t1.asl").write_text(avs_file("T-PASS-1", "execution", main.format("    assert Bump() == 11;")))
    (tests / "t2.asl").write_text(avs_file("T-PASS-2", "execution", main.format("    assert Bump() == 11;")))
    (tests / "t3.asl").write_text(avs_file("T-FAIL", "fault", main.format("    let x = Bump();\n    assert x == 99;")))
    (tests / "t4.asl").write_text(avs_file("T-ERROR", "boundary", main.format("    Missing();")))
    (tests / "t5.asl").write_text(avs_file("T-VALIDATE", "decode-positive", main.format("    ValidateDecoded();")))
    return root


def test_statuses_reset_and_messages(tree, tmp_path):
    doc = run_avs(tree, jobs=1, cache_dir=tmp_path / "cache")
    status = {t["id"]: t["status"] for t in doc["tests"]}
    # both T-PASS tests see Counter == 10 first: globals are reset to a fresh run's state before each test
    assert status == {"T-PASS-1": "pass", "T-PASS-2": "pass", "T-FAIL": "fail", "T-ERROR": "error",
                      "T-VALIDATE": "pass"}
    fail = next(t for t in doc["tests"] if t["id"] == "T-FAIL")
    assert fail["message"] == "tests/asl/arch/t3.asl:5:12: assertion failed: x == 99"
    assert doc["summary"] == {"total": 5, "pass": 3, "fail": 1, "error": 1}
    schema = json.loads((Path(pto_docs.__file__).parent / "schemas" / "avs.schema.json").read_text())
    jsonschema.validate(doc, schema)


def test_parallel_run_gives_the_same_statuses(tree, tmp_path):
    serial = run_avs(tree, jobs=1, cache_dir=tmp_path / "cache")
    # a damaged cache is discarded and rebuilt, never fatal
    damaged = sorted((tmp_path / "cache").glob("*.pickle"))
    assert len(damaged) == 2
    for path in damaged:
        path.write_bytes(b"\x80\x05garbage")
    parallel = run_avs(tree, jobs=2, cache_dir=tmp_path / "cache")
    assert [(t["id"], t["status"]) for t in serial["tests"]] == [(t["id"], t["status"]) for t in parallel["tests"]]


def test_cli_exit_codes_json_and_junit(tree, tmp_path, capsys):
    out_json, out_xml = tmp_path / "avs.json", tmp_path / "avs.xml"
    code = avs_main([str(tree), "--json", str(out_json), "--junit", str(out_xml), "--jobs", "1",
                     "--cache-dir", str(tmp_path / "c")])
    assert code == 1
    assert "FAIL T-FAIL" in capsys.readouterr().out
    assert json.loads(out_json.read_text())["schema"] == "pto-docs.avs.v1"
    suite = ET.parse(out_xml).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("5", "1", "1")
    assert avs_main([str(tree), "-k", "T-PASS", "-q", "--jobs", "1", "--cache-dir", str(tmp_path / "c")]) == 0
    assert avs_main([str(tmp_path / "nowhere"), "-q"]) == 2


def test_progress_free_quiet_summary(tree, tmp_path):
    import argparse

    from pto_docs.asl.cli import add_avs_parser, run_avs_command

    parser = argparse.ArgumentParser()
    add_avs_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["avs", str(tree), "-q", "-k", "T-VALIDATE", "--cache-dir", str(tmp_path / "c")])
    stdout, stderr = io.StringIO(), io.StringIO()
    assert run_avs_command(args, stdout, stderr) == 0
    assert stdout.getvalue().startswith("avs (pto-v0): 1 test points, 1 pass, 0 fail, 0 error")
    assert stderr.getvalue() == ""
