"""The release history of the real 0.58.2 -> 0.58.3 (PTO_SPEC_RELEASES: a directory holding pto-spec-0.58.2 and
pto-spec-0.58.3, unpacked or as .tar.gz; skipped when unset): the changes page names exactly the instructions
added and removed and every instruction whose record changed, checked against a scan of the records made here."""

from __future__ import annotations

import json
import os
import re
import tarfile
from pathlib import Path

import pytest
from history_helpers import cli

MARK = "// PTO-INSTRUCTION: "


def _release(base: Path, version: str, work: Path) -> Path:
    tree = base / f"pto-spec-{version}"
    if tree.is_dir():
        return tree
    archive = base / f"pto-spec-{version}.tar.gz"
    if not archive.is_file():
        pytest.skip(f"PTO_SPEC_RELEASES holds neither {tree.name}/ nor {archive.name}")
    with tarfile.open(archive) as tar:
        tar.extractall(work, filter="data")
    found = [p for p in work.iterdir() if p.is_dir() and (p / "specification.toml").is_file()]
    assert len(found) == 1, found
    return found[0]


def _records(tree: Path) -> dict[str, str]:
    """mnemonic -> its record, canonical JSON (each unit file's first ``// PTO-INSTRUCTION:`` line)."""
    out = {}
    for path in sorted((tree / "asl").rglob("*.asl")):
        for line in path.read_text("utf-8").splitlines():
            if line.startswith(MARK):
                record = json.loads(line[len(MARK):])
                if record.get("mnemonic"):
                    out.setdefault(record["mnemonic"], json.dumps(record, sort_keys=True))
                break
    return out


@pytest.fixture(scope="module")
def real_history(tmp_path_factory):
    base = os.environ.get("PTO_SPEC_RELEASES")
    if not base:
        pytest.skip("PTO_SPEC_RELEASES is not set")
    work = tmp_path_factory.mktemp("releases")
    (work / "a").mkdir()
    (work / "b").mkdir()
    old, new = _release(Path(base), "0.58.2", work / "a"), _release(Path(base), "0.58.3", work / "b")
    site = work / "site"
    cwd = os.getcwd()
    os.chdir(work)  # (no mkdocs.yml here: the configuration shipped with pto-docs)
    try:
        rc, err = cli("build", str(new), "--previous", str(old), "--site-dir", str(site), "-q")
    finally:
        os.chdir(cwd)
    assert rc == 0, err[-3000:]
    return _records(old), _records(new), site


def test_the_changes_page_names_exactly_what_the_records_say(real_history):
    before, after, site = real_history
    page = (site / "changes" / "index.html").read_text("utf-8")

    def listed(section: str) -> set[str]:
        block = re.search(rf'<ul class="pto-changes-{section}">(.*?)</ul>', page, re.S)
        return set(re.findall(r'<code class="pto-id">([^<]+)</code>', block.group(1))) if block else set()
    assert listed("added") == after.keys() - before.keys()
    assert listed("removed") == before.keys() - after.keys()
    changed = set(re.findall(r'<tr id="change-([^"]+)">', page))
    record_changed = {m for m in before.keys() & after.keys() if before[m] != after[m]}
    assert record_changed and record_changed <= changed
    assert changed <= before.keys() & after.keys()
