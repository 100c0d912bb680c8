"""v1 cases (``pto-docs.case.v1``) of the tile operations the NumPy executor lacks (TTRANS, TCONCAT, TGATHER,
TPARTADD/MAX/MIN/MUL) run on a real PTO-ISA/pto-spec checkout's ASL model when a spec tree is given
(``api.run_case(loaded=...)``, ``pto-docs exec --spec-root``), with the v1 result the executor would give. The
expected destinations are computed here with NumPy from the operations' definitions, not copied from a run."""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pytest

pytestmark = pytest.mark.realtree

A = [[1, 2, 3], [4, 5, 6]]


def tile(data_type, rows, columns, elements=None, valid=None, capacity=128):
    valid_rows, valid_columns = valid or (len(elements), len(elements[0]))
    out = {"capacity_bytes": capacity, "rows": rows, "columns": columns, "data_type": data_type,
           "valid_rows": valid_rows, "valid_columns": valid_columns}
    if elements is not None:
        out["elements"] = elements
    return out


def case(mnemonic, tiles, destination, sources):
    return {"tiles": {str(k): v for k, v in tiles.items()},
            "execute": {"instruction": mnemonic, "destination": destination, "sources": sources}}


def grid(result, index):
    t = result["tiles"][str(index)]
    return [row[:t["valid_columns"]] for row in t["values"][:t["valid_rows"]]]


def run(real_load, real_decoders, tmp_path, the_case):
    from pto_docs.api import run_case
    from pto_docs.schemas.registry import validator
    result = run_case(the_case, loaded=real_load, decoders=real_decoders.read_text("utf-8"),
                      cache=tmp_path.parent / "asl-cache")
    validator("result").validate(result)  # the v1 result document, as the NumPy executor's
    return result


def test_ttrans_tconcat_and_tgather_run_on_the_model(real_load, real_decoders, tmp_path):
    result = run(real_load, real_decoders, tmp_path,
                 case("TTRANS", {1: tile("U8", 32, 4, A), 2: tile("U8", 32, 4, valid=(3, 2))}, 2, [1]))
    assert result["status"] == "ok" and "ASL model" in result["message"]
    assert grid(result, 2) == np.array(A).T.tolist() and grid(result, 1) == A
    left, right = [[1, 2], [3, 4]], [[5], [6]]
    result = run(real_load, real_decoders, tmp_path,
                 case("TCONCAT", {1: tile("U8", 32, 4, left), 2: tile("U8", 32, 4, right),
                                  3: tile("U8", 32, 4, valid=(2, 3))}, 3, [1, 2]))
    assert grid(result, 3) == np.concatenate([left, right], axis=1).tolist()
    source, index = [[0, 1], [10, 11], [20, 21]], [[2, 0], [1, 2]]
    result = run(real_load, real_decoders, tmp_path,
                 case("TGATHER", {40: tile("U16", 4, 2, source), 41: tile("U32", 2, 2, index),
                                  42: tile("U16", 2, 2, valid=(2, 2))}, 42, [40, 41]))
    assert grid(result, 42) == np.take_along_axis(np.array(source), np.array(index), axis=0).tolist()


@pytest.mark.parametrize("mnemonic,combine", [("TPARTADD", np.add), ("TPARTMAX", np.maximum),
                                              ("TPARTMIN", np.minimum), ("TPARTMUL", np.multiply)])
def test_partial_operations_combine_where_both_are_valid(real_load, real_decoders, tmp_path, mnemonic, combine):
    wide, narrow = np.array([[1, -2, 7]]), np.array([[3, 4]])
    result = run(real_load, real_decoders, tmp_path,
                 case(mnemonic, {20: tile("S16", 16, 4, valid=(1, 3)), 21: tile("S16", 16, 4, wide.tolist()),
                                 22: tile("S16", 32, 2, narrow.tolist())}, 20, [21, 22]))
    expected = wide.copy()
    expected[:, :2] = combine(wide[:, :2], narrow)  # the union of the valid regions
    assert grid(result, 20) == expected.tolist()


def test_pto_docs_exec_runs_such_a_case_given_a_spec_root_and_refuses_it_without(real_tree_root, real_decoders,
                                                                                tmp_path):
    from pto_docs.cli import main
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case("TTRANS", {1: tile("U8", 32, 4, A), 2: tile("U8", 32, 4, valid=(3, 2))},
                                    2, [1])), "utf-8")

    def exec_(*more):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["exec", str(path), *more])
        return code, out.getvalue(), err.getvalue()
    code, out, err = exec_("--spec-root", str(real_tree_root), "--decoders", str(real_decoders),
                           "--cache-dir", str(tmp_path.parent / "asl-cache"))
    assert code == 0, err
    assert grid(json.loads(out), 2) == np.array(A).T.tolist()
    code, out, err = exec_()  # no tree given: the NumPy executor's answer, as before
    assert code == 2 and "error[EXEC-SEMANTIC]: unknown or unmodelled instruction TTRANS" in err
