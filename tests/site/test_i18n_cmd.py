"""pto-docs i18n status / extract on copies of the sample tree."""

from __future__ import annotations

import io
import json
import shutil

from conftest import SPEC_ROOT

from pto_docs.cli import main


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    import contextlib
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as exc:
            rc = exc.code
    return rc, out.getvalue(), err.getvalue()


def test_status_counts_translated_stale_and_missing(tmp_path):
    root = tmp_path / "tree"
    shutil.copytree(SPEC_ROOT, root)
    rc, out, _ = _run(["i18n", "status", str(root), "--format", "json"])
    assert rc == 0
    before = json.loads(out)
    assert before["total"]["stale"] == 0 and before["total"]["missing"] == 0 and before["total"]["translated"] > 0
    # one translation removed, one English sentence changed
    tsqrt = root / "translations/zh-CN/PTO-TILE-TSQRT.json"
    data = json.loads(tsqrt.read_text("utf-8"))
    dropped = data["strings"].pop(0)
    tsqrt.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    adr = root / "translations/zh-CN/ADR-0035.json"
    adr_data = json.loads(adr.read_text("utf-8"))
    adr_data["strings"][0]["en_sha256"] = "0" * 64
    adr.write_text(json.dumps(adr_data, ensure_ascii=False), "utf-8")
    rc, out, _ = _run(["i18n", "status", str(root)])
    assert rc == 0
    lines = {line.split()[0]: line.split()[1:] for line in out.splitlines()[1:-1]}
    assert lines["PTO-TILE-TSQRT"][1:] == ["0", "1"] and lines["ADR-0035"][1] == "1"
    assert "1 stale, 1 missing" in out.splitlines()[-1]
    assert dropped["pointer"]


def test_extract_writes_a_skeleton_and_never_overwrites(tmp_path):
    root = tmp_path / "tree"
    shutil.copytree(SPEC_ROOT, root)
    (root / "translations/zh-CN/PTO-TILE-TADD.json").unlink()
    rc, out, err = _run(["i18n", "extract", "PTO-TILE-TADD", "PTO-TILE-TMUL", "--spec-root", str(root)])
    assert rc == 1 and "PTO-TILE-TMUL.json exists; not overwritten" in err
    skeleton = json.loads((root / "translations/zh-CN/PTO-TILE-TADD.json").read_text("utf-8"))
    assert skeleton["schema"] == "pto-docs.translation.v1" and skeleton["subject"] == "PTO-TILE-TADD"
    first = skeleton["strings"][0]
    assert first["pointer"] == "/summary" and first["text"] == "" and len(first["en_sha256"]) == 64
    from pto_docs.analysis.load import load_catalog
    from pto_docs.model.frozen import sha256_text
    unit = load_catalog(SPEC_ROOT).catalog.units["PTO-TILE-TADD"]
    assert first["en_sha256"] == sha256_text(unit.summary)
    rc, _, err = _run(["i18n", "extract", "NO-SUCH", "--spec-root", str(root)])
    assert rc == 1 and "neither a unit nor an ADR" in err
