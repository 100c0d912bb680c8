"""pto-docs diff OLD NEW: two spec trees (catalog copies, the real releases) compared, as JSON, Markdown and a
summary; each claim checked against an independent reading of the records (tests/history/records.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pto_docs.cli import main
from pto_docs.schemas.registry import schema_problems
from tests.history.records import edit_record, instruction_records

REPO = Path(__file__).resolve().parent.parent.parent
SWI = "asl/scalar/agu/SWI.asl"
TADD = "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"


def run_diff(capsys, old, new, *extra) -> tuple[int, str, str]:
    code = main(["diff", str(old), str(new), *map(str, extra)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def independent(old: Path, new: Path) -> tuple[set, set, set]:
    """(added, removed, record changed) mnemonics, from the // PTO-INSTRUCTION: lines read with json and re."""
    a, b = instruction_records(old), instruction_records(new)
    return set(b) - set(a), set(a) - set(b), {m for m in set(a) & set(b) if a[m] != b[m]}


def claimed(doc: dict) -> tuple[set, set, set]:
    ins = doc["instructions"]
    return ({e["mnemonic"] for e in ins["added"]}, {e["mnemonic"] for e in ins["removed"]},
            {c["mnemonic"] for c in ins["changed"] if c["record_changed"]})


@pytest.fixture
def pair(tmp_path) -> tuple[Path, Path]:
    old, new = tmp_path / "old", tmp_path / "new"
    shutil.copytree(REPO / "catalog", old)
    shutil.copytree(REPO / "catalog", new)
    return old, new


def _new_instruction(new: Path) -> None:
    """SWX: a copy of SWI under another mnemonic and id."""
    text = (new / SWI).read_text("utf-8").replace("PTO-SCALAR-SWI", "PTO-SCALAR-SWX").replace("PTO-SWI-", "PTO-SWX-")
    (new / "asl/scalar/agu/SWX.asl").write_text(text.replace('"mnemonic":"SWI"', '"mnemonic":"SWX"'), "utf-8")


def test_catalog_changes_are_named_with_their_aspect_and_both_values(pair, tmp_path, capsys):
    old, new = pair
    (new / TADD).unlink()
    _new_instruction(new)

    def encoding(record):
        record["catalog_records"][0]["encoding"][0]["match"] = "0x00003059"
    edit_record(new / SWI, encoding)
    text = (new / SWI).read_text("utf-8")
    text = text.replace("// AGU parameters of the form", "// Reworded comment: AGU parameters")  # no change
    text = text.replace("    return ScalarAGU_Store;", "  return   ScalarAGU_Store ;")  # whitespace: no change
    text = text.replace("// 4-byte store and retire", "// 8-byte store and retire")  # an NDF clause changes
    (new / SWI).write_text(text.replace("return ScalarOperation_SWI;", "return ScalarOperation_SWD;"), "utf-8")
    code, out, _err = run_diff(capsys, old, new, "--json", tmp_path / "d.json", "--markdown", tmp_path / "d.md")
    assert code == 0
    doc = json.loads((tmp_path / "d.json").read_text("utf-8"))
    assert claimed(doc) == independent(old, new) == ({"SWX"}, {"TADD"}, {"SWI"})
    [swi] = doc["instructions"]["changed"]
    by_aspect = {}
    for change in swi["changes"]:
        by_aspect.setdefault(change["aspect"], []).append(change)
    [enc] = by_aspect["encoding"]
    assert (enc["field"], enc["old"][0]["match"], enc["new"][0]["match"]) == (
        "/catalog_records/0/encoding", "0x00002059", "0x00003059")
    [sem] = by_aspect["semantics"]
    assert "ScalarOperation_SWI" in sem["old"] and "ScalarOperation_SWD" in sem["new"]
    assert "Reworded" not in sem["new"] and "AGU parameters" not in sem["old"]  # comments are no semantics
    assert sem["old"].replace("SWI;", "SWD;") == sem["new"]  # nor is whitespace
    [ndf] = by_aspect["ndf"]
    assert ndf["field"] == "PTO-SWI-ADR-CONTRACT-001" and "4-byte store" in ndf["old"]["body"]
    assert set(by_aspect) == {"encoding", "semantics", "ndf"}
    assert doc["units"]["removed"] == ["PTO-TILE-TADD"] and doc["units"]["added"] == ["PTO-SCALAR-SWX"]
    assert doc["ndf_clauses"] == {"added": ["PTO-SWX-ADR-CONTRACT-001"], "removed": ["PTO-TADD-CONTRACT-001"],
                                  "changed": ["PTO-SWI-ADR-CONTRACT-001"]}
    assert list(schema_problems("diff", doc)) == []
    page = (tmp_path / "d.md").read_text("utf-8")
    assert "## Removed instructions" in page and "`TADD`" in page and "0x00003059" in page
    assert "instructions: 1 added, 1 removed, 1 changed" in out


def test_the_json_is_canonical_and_the_same_every_time(pair, tmp_path, capsys):
    old, new = pair
    (new / TADD).unlink()
    outputs = []
    for name in ("a.json", "b.json"):
        assert run_diff(capsys, old, new, "--json", tmp_path / name)[0] == 0
        outputs.append((tmp_path / name).read_bytes())
    assert outputs[0] == outputs[1]
    doc = json.loads(outputs[0])
    assert outputs[0] == (json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
    assert doc["schema"] == "pto-docs.diff.v1"


def test_json_to_stdout_keeps_the_summary_on_stderr(pair, capsys):
    old, new = pair
    code, out, err = run_diff(capsys, old, new, "--json", "-")
    assert code == 0 and json.loads(out)["instructions"]["changed"] == [] and "instructions: 0 added" in err


def test_unloadable_or_refused_gives_exit_2_and_one_line(pair, tmp_path, capsys, monkeypatch):
    old, new = pair
    monkeypatch.chdir(tmp_path)  # not in a git checkout
    code, _out, err = run_diff(capsys, old, "no-such-tree")
    assert code == 2 and "no-such-tree: error[IO-ROOT]" in err
    code, _out, err = run_diff(capsys, old, new, "--json", new / "d.json")  # a report inside a spec tree
    assert code == 2 and "error[" in err and not (new / "d.json").exists()


# -- the real releases ---------------------------------------------------------------------------------
@pytest.mark.parametrize("before, after, removed, records", [
    ("0.58.1", "0.58.2", {"B.EQ", "B.GE", "B.GEU", "B.LT", "B.LTU", "B.NE", "B.NZ", "B.Z"}, 507),
    ("0.58.2", "0.58.3", set(), 33),
])
def test_real_releases_name_exactly_what_changed(releases, before, after, removed, records, tmp_path, capsys):
    old, new = releases[before], releases[after]
    code, _out, _err = run_diff(capsys, old, new, "--json", tmp_path / "d.json")
    assert code == 0
    doc = json.loads((tmp_path / "d.json").read_text("utf-8"))
    scan = independent(old, new)
    assert claimed(doc) == scan
    assert scan[1] == removed and len(scan[2]) == records  # the measurements
    assert list(schema_problems("diff", doc)) == []


def test_real_0580_to_0581_adds_4_and_removes_13(releases, tmp_path, capsys):
    old, new = releases["0.58.0"], releases["0.58.1"]
    assert run_diff(capsys, old, new, "--json", tmp_path / "d.json")[0] == 0
    doc = json.loads((tmp_path / "d.json").read_text("utf-8"))
    scan = independent(old, new)
    assert claimed(doc) == scan and (len(scan[0]), len(scan[1])) == (4, 13)
