"""Fixtures for the trace tests: a small spec tree with its own release evidence, written by the tests."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from pto_docs.cli import main
from tests import spec_factory as sf

REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "catalog"
TRANSLATION_PATH = "translations/zh-CN/PTO-TILE-TDEMO.json"
TRACEABILITY = "spec/evidence/release-traceability-readiness.json"
MANIFEST = "spec/release-manifest.json"


def sha_file(root: Path, rel: str) -> str:
    return hashlib.sha256((root / rel).read_bytes()).hexdigest()


def canonical_sha(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()


def write_evidence(root: Path) -> None:
    """Release evidence in the pto-spec layout, computed here independently of pto_docs.trace."""
    units = sorted(str(p.relative_to(root)) for p in (root / "asl").rglob("*.asl"))
    tests = sorted(str(p.relative_to(root)) for p in (root / "tests/asl").rglob("*.asl"))
    test_records = []
    for rel in tests:
        line = next(t for t in (root / rel).read_text().splitlines() if t.startswith("// PTO-TEST: "))
        rec = json.loads(line[len("// PTO-TEST: "):])
        test_records.append({"id": rec["id"], "path": rel, "source": rec["source"], "requirements": rec["requirements"],
                             "kind": rec["kind"], "sha256": sha_file(root, rel)})
    sources = {rel: sha_file(root, rel) for rel in units + tests}
    trace = {"schema": "pto.release-traceability.v2", "sources": sources, "tests": test_records,
             "units": [], "requirements": [],
             "summary": {"unit_count": 2, "documentation_page_count": 2, "mnemonic_count": 1, "requirement_count": 2,
                         "executable_requirement_count": 1, "test_count": 2, "uncovered_unit_count": 0,
                         "uncovered_executable_requirement_count": 0, "status": "closed"}}
    (root / TRACEABILITY).parent.mkdir(parents=True, exist_ok=True)
    (root / TRACEABILITY).write_text(json.dumps(trace, indent=2) + "\n")
    body = (root / sf.UNIT_PATH).read_text().split("// NDF-BEGIN: PTO-TDEMO-CONTRACT-001\n", 1)[1]
    body = body.split("// NDF-END", 1)[0].splitlines()[1:]
    body_text = "\n".join(b[3:] if b.startswith("// ") else b[2:] for b in body).strip()
    expanded = [
        {"id": "PTO-INST-TILE-TDEMO", "sha256": canonical_sha({"id": "PTO-INST-TILE-TDEMO", "status": "accepted", "source": sf.UNIT_PATH,
                                                               "source_sha256": sha_file(root, sf.UNIT_PATH)})},
        {"id": "PTO-TDEMO-CONTRACT-001", "sha256": canonical_sha({"id": "PTO-TDEMO-CONTRACT-001", "status": "accepted",
                                                                  "source": sf.UNIT_PATH, "body": body_text})},
    ]
    inputs = [{"path": rel, "sha256": sha_file(root, rel)} for rel in units + ["specification.toml"]]
    manifest = {"schema_version": 1, "release": "0.1.0", "content_sha256": canonical_sha({i["path"]: i["sha256"] for i in inputs}),
                "canonical_inputs": inputs, "owned_artifacts": [], "release_selection": {"expanded_ndf": expanded}}
    (root / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")


def make_traced_tree(root: Path) -> Path:
    sf.make_tree(root)
    summary = sf.instruction_record()["summary"]
    translation = {"schema": "pto-docs.translation.v1", "locale": "zh-CN", "subject": "PTO-TILE-TDEMO",
                   "strings": [{"pointer": "/summary", "en_sha256": hashlib.sha256(summary.encode()).hexdigest(),
                                "text": "逐元素组合两个演示 tile。"}]}
    sf.write(root, TRANSLATION_PATH, json.dumps(translation, ensure_ascii=False, indent=2) + "\n")
    write_evidence(root)
    return root


@pytest.fixture
def traced(tmp_path) -> Path:
    return make_traced_tree(tmp_path / "spec")


def catalog_complete() -> bool:
    return (CATALOG / "specification.toml").is_file() and (CATALOG / TRACEABILITY).is_file()


@pytest.fixture
def catalog_copy(tmp_path) -> Path:
    if not catalog_complete():
        pytest.skip("the embedded catalog is not complete yet (no release evidence)")
    dest = tmp_path / "catalog"
    shutil.copytree(CATALOG, dest)
    return dest


@pytest.fixture
def run_trace(capsys, monkeypatch, tmp_path):
    """Run `pto-docs trace` in a directory without mkdocs.yml; returns (exit code, stdout, stderr)."""
    cwd = tmp_path / "cwd"
    cwd.mkdir(exist_ok=True)
    monkeypatch.chdir(cwd)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)

    def run(*args: str) -> tuple[int, str, str]:
        code = main(["trace", *map(str, args)])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return code, out, err

    return run


def codes(err: str) -> list[tuple[str, str, str]]:
    """(severity, code, id) of every finding line on stderr."""
    found = []
    for line in err.splitlines():
        head, sep, rest = line.partition("]: ")
        if not sep or "[" not in head:
            continue
        sev, code = head.rsplit(": ", 1)[-1].split("[", 1)
        found.append((sev, code, rest.split(": ", 1)[0]))
    return found
