"""`pto-docs exec --spec-root TREE` with a v1 case of an operation the NumPy executor lacks: the tree's ASL model
runs it (tests/executor/test_exec_v1_on_model_realtree.py on the real tree), so the tree is read; one neither
has is one diagnostic, exit 2, naming both; a malformed case is refused before the tree is read."""

from __future__ import annotations

import contextlib
import io
import json

from tests.conftest import REPO

CASE = {"tiles": {"0": {"capacity_bytes": 128, "rows": 4, "columns": 4, "valid_rows": 1, "valid_columns": 2,
                        "data_type": "U64", "elements": [[3, 5]]}},
        "execute": {"instruction": "TNOSUCH", "destination": 1, "sources": [0]}}


def exec_(tmp_path, case, *more):
    from pto_docs.cli import main
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case), "utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["exec", str(path), *more])
    return code, out.getvalue(), err.getvalue()


def test_an_operation_neither_the_executor_nor_the_model_has_is_one_diagnostic(tmp_path):
    code, out, err = exec_(tmp_path, CASE, "--spec-root", str(REPO / "catalog"), "--cache-dir", str(tmp_path / "c"))
    assert (code, out) == (2, "")
    assert err.strip().endswith("error[EXEC-SEMANTIC]: unknown or unmodelled instruction TNOSUCH: neither the NumPy "
                                "executor nor the tree's ASL model (InstructionContractExecute_TNOSUCH) has it "
                                "(at /execute/instruction)")
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_such_a_case_reads_the_tree_given_and_a_malformed_one_is_refused_before(tmp_path):
    code, out, err = exec_(tmp_path, CASE, "--spec-root", str(tmp_path / "no-such-tree"))
    assert code == 2 and "no-such-tree" in err and "EXEC-SEMANTIC" not in err and "Traceback" not in err
    bad = {**CASE, "execute": {**CASE["execute"], "sources": "0"}}
    code, out, err = exec_(tmp_path, bad, "--spec-root", str(tmp_path / "no-such-tree"))
    assert code == 2 and "error[EXEC-SCHEMA]" in err and "no-such-tree" not in err
