"""pto-docs trace --previous OLD: removed instructions and changed encodings no ADR or changelog names are
CHANGE-UNDOCUMENTED findings, a warning unless a policy makes them errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pto_docs.cli import main
from tests.history.records import edit_record

REPO = Path(__file__).resolve().parent.parent.parent
SWI = "asl/scalar/agu/SWI.asl"


def _copy_of_swi(root: Path, mnemonic: str) -> Path:
    """A unit that is SWI under another mnemonic, id and NDF id (named by no ADR of catalog/)."""
    text = (root / SWI).read_text("utf-8").replace("PTO-SCALAR-SWI", f"PTO-SCALAR-{mnemonic}")
    text = text.replace("PTO-SWI-", f"PTO-{mnemonic}-").replace('"mnemonic":"SWI"', f'"mnemonic":"{mnemonic}"')
    path = root / f"asl/scalar/agu/{mnemonic}.asl"
    path.write_text(text, "utf-8")
    return path


@pytest.fixture
def releases_pair(tmp_path) -> tuple[Path, Path]:
    """old: catalog/ + SWX + SWY; new: catalog/ + SWX whose encoding's fixed bits changed (SWY removed)."""
    old, new = tmp_path / "old", tmp_path / "new"
    for root in (old, new):
        shutil.copytree(REPO / "catalog", root)
        _copy_of_swi(root, "SWX")
    _copy_of_swi(old, "SWY")

    def match(record):
        record["catalog_records"][0]["encoding"][0]["match"] = "0x00006059"
    edit_record(new / "asl/scalar/agu/SWX.asl", match)
    return old, new


def trace(capsys, new: Path, tmp_path: Path, *extra) -> tuple[int, dict, str]:
    out_json = tmp_path / "report.json"
    code = main(["trace", str(new), "--json", str(out_json), *map(str, extra)])
    _out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, json.loads(out_json.read_text("utf-8")) if out_json.exists() else {}, err


def changes(report: dict) -> list[tuple[str, str]]:
    return sorted((f["id"], f["severity"]) for f in report["findings"] if f["code"] == "CHANGE-UNDOCUMENTED")


def test_removed_and_re_encoded_instructions_nobody_names_are_warnings(releases_pair, tmp_path, capsys):
    old, new = releases_pair
    code, report, err = trace(capsys, new, tmp_path, "--previous", old)
    assert changes(report) == [("SWX", "warning"), ("SWY", "warning")]
    assert "/catalog_records/0/encoding" in next(f["message"] for f in report["findings"] if f["id"] == "SWX")
    assert report["policy"]["CHANGE-UNDOCUMENTED"] == "warning"
    baseline, plain, _ = trace(capsys, new, tmp_path)  # without --previous: no such check, no such policy entry
    assert code == baseline and changes(plain) == [] and "CHANGE-UNDOCUMENTED" not in plain["policy"]


def test_a_policy_makes_them_errors(releases_pair, tmp_path, capsys):
    old, new = releases_pair
    code, report, _ = trace(capsys, new, tmp_path, "--previous", old, "--policy", "CHANGE-UNDOCUMENTED=error")
    assert code == 1 and changes(report) == [("SWX", "error"), ("SWY", "error")]


def test_a_changelog_entry_or_an_adr_names_them(releases_pair, tmp_path, capsys):
    old, new = releases_pair
    (new / "CHANGELOG.md").write_text("# Changes\n\n- SWXY is a different name.\n- SWX: new fixed bits.\n", "utf-8")
    assert changes(trace(capsys, new, tmp_path, "--previous", old)[1]) == [("SWY", "warning")]
    adr = new / "docs/status/decisions/0024-pc-relative-and-unscaled-agu-addressing.md"
    adr.write_text(adr.read_text("utf-8") + "\nThe `SWY` form is withdrawn.\n", "utf-8")
    assert changes(trace(capsys, new, tmp_path, "--previous", old)[1]) == []


def test_a_changelog_that_is_a_link_is_not_read(releases_pair, tmp_path, capsys):
    old, new = releases_pair
    outside = tmp_path / "elsewhere.md"
    outside.write_text("SWX SWY\n", "utf-8")
    (new / "CHANGELOG.md").symlink_to(outside)
    assert changes(trace(capsys, new, tmp_path, "--previous", old)[1]) == [("SWX", "warning"), ("SWY", "warning")]


def test_an_unloadable_previous_release_is_a_usage_error(releases_pair, tmp_path, capsys):
    _old, new = releases_pair
    code, report, err = trace(capsys, new, tmp_path, "--previous", "v0.0.0")
    assert code == 2 and report == {} and "error[" in err and err.count("\n") == 1


def test_the_previous_release_as_a_git_revision_of_the_traced_checkout(releases_pair, tmp_path, capsys):
    from tests.history.gitrepo import annotated_tag, files_of, new_repo
    old, new = releases_pair
    checkout = tmp_path / "checkout"
    repo, shas = new_repo(checkout, [files_of(old)])  # the previous release, committed and tagged
    annotated_tag(repo, "v0.9", shas[0])
    shutil.copytree(new, checkout, dirs_exist_ok=True)  # the work tree: the new release
    code, report, err = trace(capsys, checkout, tmp_path, "--previous", "v0.9")
    assert changes(report) == [("SWX", "warning"), ("SWY", "warning")], err
