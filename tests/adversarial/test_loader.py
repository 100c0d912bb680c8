"""Bad input to the loader: a positioned diagnostic and the right exit code, never a traceback, a hang or unbounded
memory, and nothing in the tree changed (issue 11, "Tracebacks, hangs and unbounded memory")."""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path

import pytest

from .conftest import run_capped, run_cli, run_main, snapshot

DIAG = re.compile(r"^(?P<path>[^\n]+?)(?::(?P<line>\d+):(?P<col>\d+))?: (?:error|warning)\[(?P<code>[A-Z0-9-]+)\]: ")


def validate(tree: Path, *extra: str, skip: tuple[str, ...] = ()) -> tuple[int, list[str]]:
    """validate the tree; assert nothing in it changed; the diagnostic lines of stderr."""
    before = snapshot(tree, skip)
    code, _out, err = run_main("validate", str(tree), *extra)
    assert snapshot(tree, skip) == before
    return code, err.splitlines()


def has(lines: list[str], code: str, path: str, line: int | None = None, col: int | None = None) -> bool:
    for text in lines:
        m = DIAG.match(text)
        if m and m["code"] == code and m["path"] == path and (line is None or int(m["line"] or 0) == line) \
                and (col is None or int(m["col"] or 0) == col):
            return True
    return False


def test_a_symlink_loop_is_a_diagnostic(tree):
    (tree / "asl/tile/l1.asl").symlink_to("l2.asl")
    (tree / "asl/tile/l2.asl").symlink_to("l1.asl")
    code, lines = validate(tree)
    assert code == 1 and has(lines, "SYMLINK-LOOP", "asl/tile/l1.asl") and has(lines, "SYMLINK-LOOP", "asl/tile/l2.asl")
    code, _out, err = run_main("trace", str(tree))
    assert code == 1 and "SYMLINK-LOOP" in err


def test_deep_yaml_is_a_diagnostic(tree):
    (tree / "examples/TMUL/deep.yaml").write_text("a: " + "[" * 10000 + "]" * 10000 + "\n", "utf-8")
    code, lines = validate(tree)
    assert code == 1 and has(lines, "YAML-SYNTAX", "examples/TMUL/deep.yaml", 1)


def test_a_yaml_alias_bomb_is_refused(tree):
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 12)]
    (tree / "examples/TMUL/bomb.yaml").write_text("\n".join(levels) + "\n", "utf-8")
    before = snapshot(tree)
    code, _out, err = run_capped("validate", str(tree))
    assert snapshot(tree) == before
    lines = err.splitlines()
    assert code == 1 and "Traceback" not in err
    assert has(lines, "YAML-SYNTAX", "examples/TMUL/bomb.yaml", 2) and any("alias" in line for line in lines)


def test_deep_toml_is_a_diagnostic(tree):
    (tree / "specification.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", "utf-8")
    code, lines = validate(tree)
    assert code == 1 and has(lines, "TOML-SYNTAX", "specification.toml")


def test_toml_syntax_errors_carry_line_and_column(tree):
    text = (tree / "specification.toml").read_text("utf-8")
    (tree / "specification.toml").write_text(text + "\n[release\n", "utf-8")
    line = text.count("\n") + 2
    code, lines = validate(tree)
    assert code == 1 and has(lines, "TOML-SYNTAX", "specification.toml", line, 9), lines


@pytest.mark.parametrize("how", ["missing", "directory", "bom", "wrong-type", "no-release", "bad-status"])
def test_a_bad_specification_toml_is_a_diagnostic(tree, how):
    spec = tree / "specification.toml"
    text = spec.read_text("utf-8")
    if how == "missing":
        spec.unlink()
    elif how == "directory":
        spec.unlink()
        spec.mkdir()
    elif how == "bom":
        spec.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    elif how == "wrong-type":
        spec.write_text(text.replace('architecture_version = "0.58.5"', "architecture_version = 58"), "utf-8")
    elif how == "no-release":
        spec.write_text(text.replace("[release]", "[released]"), "utf-8")
    else:
        spec.write_text(text.replace('release_status = "release-candidate"', 'release_status = "shipped"'), "utf-8")
    code, lines = validate(tree)
    assert code == 1 and has(lines, "SPEC-TOML", "specification.toml"), lines


def test_a_key_given_twice_is_an_error_with_its_position(tree):
    adr = next(p for p in sorted((tree / "docs/status/decisions").glob("0*.md")) if not p.name.startswith("0000"))
    lines = adr.read_text("utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.strip().startswith('"status"'))
    lines.insert(at + 1, '  "status": "accepted",')
    adr.write_text("\n".join(lines), "utf-8")
    code, found = validate(tree)
    rel = adr.relative_to(tree).as_posix()
    assert code == 1 and has(found, "JSON-SYNTAX", rel, at + 2, 3), found


def test_a_key_given_twice_in_a_record_names_its_column(tree):
    unit = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    text = unit.read_text("utf-8")
    record = next(line for line in text.split("\n") if line.startswith("// PTO-INSTRUCTION:"))
    twice = record.replace('"id":', '"id": "X", "id":', 1)
    unit.write_text(text.replace(record, twice), "utf-8")
    number = text.split("\n").index(record) + 1
    code, found = validate(tree)
    col = twice.index('"id":', twice.index('"id":') + 1) + 1
    assert code == 1 and has(found, "JSON-SYNTAX", "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl", number, col), found


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e999", "-2E400"])
def test_non_finite_numbers_in_evidence_are_rejected_and_never_reach_the_report(tree, tmp_path, constant):
    evidence = tree / "spec/evidence/adr-index.json"
    text = evidence.read_text("utf-8")
    evidence.write_text(text.replace("{", '{"x": ' + constant + ", ", 1), "utf-8")
    code, found = validate(tree)
    assert code == 1 and has(found, "JSON-SYNTAX", "spec/evidence/adr-index.json", 1), found
    out = tmp_path / "report.json"
    code, _out, err = run_main("trace", str(tree), "--json", str(out))
    assert code == 1
    json.loads(out.read_text("utf-8"), parse_constant=lambda c: pytest.fail(f"bare {c} in the report"))


def test_a_file_name_with_a_newline_stays_on_one_line(tree):
    (tree / "asl/tile/bad\nname\x1b[31m.asl").write_text("// no record\n", "utf-8")
    code, found = validate(tree)
    assert code == 1
    assert has(found, "UNIT-RECORD-MISSING", "asl/tile/bad\\nname\\x1b[31m.asl", 1, 1), found
    assert not any(line.startswith("name") for line in found)


def test_trace_findings_carry_line_and_column_and_no_nested_diagnostic(tree):
    unit = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    text = unit.read_text("utf-8")
    record = next(line for line in text.split("\n") if line.startswith("// PTO-INSTRUCTION:"))
    unit.write_text(text.replace(record, record.replace('"id":', '"id" "oops",', 1)), "utf-8")
    code, _out, err = run_main("trace", str(tree))
    assert code == 1
    finding = next(line for line in err.splitlines() if "JSON-SYNTAX" in line)
    assert re.match(r"asl/tile/elementwise-tile-tile/arithmetic/TMUL\.asl:\d+:\d+: error\[load-error\]: JSON-SYNTAX: ",
                    finding), finding
    assert finding.count("error[") == 1


def test_non_utf8_bytes_and_huge_lines_are_diagnostics(tree):
    (tree / "asl/tile/latin1.asl").write_bytes(b"// PTO-UNIT: {\"id\": \"caf\xe9\"}\n")
    unit = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    unit.write_text(unit.read_text("utf-8") + '// PTO-STATE: {"id": "' + "x" * 300_000 + '"}\n', "utf-8")
    (tree / "asl/tile/long.asl").write_text("// " + "y" * 2_000_000 + "\n", "utf-8")
    code, found = validate(tree)
    assert code == 1
    assert has(found, "ENCODING", "asl/tile/latin1.asl", 1, 25)
    assert has(found, "RECORD-TOO-LONG", "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl")
    assert has(found, "UNIT-RECORD-MISSING", "asl/tile/long.asl")


def test_a_fifo_in_the_tree_is_a_diagnostic_not_a_hang(tree):
    os.mkfifo(tree / "asl/tile/pipe.asl")
    before = snapshot(tree)
    code, _out, err = run_cli("validate", str(tree), timeout=300)  # a separate process: a regression cannot block
    assert snapshot(tree) == before
    assert code == 2 and has(err.splitlines(), "IO-READ", "asl/tile/pipe.asl")  # an I/O problem: exit 2


def test_a_huge_file_is_refused_unread(tree):
    huge = tree / "asl/tile/huge.asl"
    with open(huge, "wb") as fh:
        fh.truncate(20 << 30)  # 20 GiB, sparse: reading it would exhaust memory
    before = snapshot(tree, skip=("asl/tile/huge.asl",))
    code, _out, err = run_capped("validate", str(tree))
    assert snapshot(tree, skip=("asl/tile/huge.asl",)) == before
    assert code == 1 and "Traceback" not in err and has(err.splitlines(), "FILE-TOO-LARGE", "asl/tile/huge.asl")
    assert huge.stat().st_size == 20 << 30


def test_an_unreadable_file_is_a_diagnostic(tree, monkeypatch):
    """Mode 0 for a user; for root (CI, who reads any mode), opening the file answers what the kernel answers a
    user (EACCES)."""
    target = tree / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    if os.geteuid() == 0:
        real_open = os.open

        def denied(path, flags, *args, **kwargs):
            if os.fspath(path) == str(target):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
            return real_open(path, flags, *args, **kwargs)
        monkeypatch.setattr(os, "open", denied)
    target.chmod(0)
    code, found = validate(tree)
    target.chmod(0o644)
    assert code == 2 and has(found, "IO-READ", "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl")
