"""SEMANTICS-PROSE: the spec's ASL, run on the interpreter on a witness case, against the rule its prose states.

The real-tree test derives both fixtures from the checkout at test time: the tree as released (signed ARGMIN /
ARGMAX compare the sign-extended MIN/MAX Word with the zero-extended stored element) and a copy whose
``TileReductionStepWithFlags`` compares like with like. The finding must come from running the first and not
the second.
"""

from __future__ import annotations

import shutil

import pytest

from pto_docs.checks import semantics as semantics_check
from pto_docs.checks.semantics import prose_index, reduction_targets, semantics_findings

ARG_REDUCTIONS = {"TROWARGMIN", "TROWARGMAX", "TCOLARGMIN", "TCOLARGMAX"}
# The 0.58.3 selection test of TileReductionStepWithFlags (asl/tile/model/execution/reduction.asl) and a fix:
# both sides of each comparison go through the same typed MIN/MAX, so a stored element compares as its type.
FLAWED = """    let selected =
        result == value && result != accumulator;"""
FIXED = """    let (typed_value, -) = TileProfileBinaryWithFlags(
        binary_operation, data_type, value, value);
    let (typed_accumulator, -) = TileProfileBinaryWithFlags(
        binary_operation, data_type, accumulator, accumulator);
    let selected =
        result == typed_value && result != typed_accumulator;"""
REDUCTION = "asl/tile/model/execution/reduction.asl"


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    monkeypatch.setattr(semantics_check, "_VERDICTS", {})


def test_the_prose_rule_is_the_lowest_index_of_the_extreme():
    assert prose_index((3, -5, 1), "ARGMIN") == 1
    assert prose_index((-3, -1, -5), "ARGMAX") == 1
    assert prose_index((2, 0, 0, 7), "ARGMIN") == 1  # ties keep the lowest index
    assert prose_index((7, 0, 7), "ARGMAX") == 0


def test_the_sample_tree_has_no_index_reduction_and_runs_nothing(catalog_load, monkeypatch, tmp_path):
    def refuse(*args):
        raise AssertionError("the model must not run for a tree without index reductions")
    monkeypatch.setattr(semantics_check, "_run_witnesses", refuse)
    assert reduction_targets(catalog_load.catalog) == []
    assert semantics_findings(catalog_load.catalog, tmp_path) == ()


def _load(root):
    from pto_docs.analysis.load import load_catalog
    return load_catalog(root).catalog


@pytest.mark.realtree
def test_fires_on_the_released_asl_and_not_on_a_fixed_copy(real_tree_root, real_load, tmp_path, monkeypatch):
    released = real_load.catalog
    text = released.units[released.unit_by_path[REDUCTION]].file.text
    if FLAWED not in text:
        pytest.skip(f"{REDUCTION} of this checkout is not the 0.58.3 text the fixture patches")

    findings = semantics_findings(released, tmp_path / "cache")
    assert {f.mnemonic for f in findings} == ARG_REDUCTIONS
    handler_line = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("func ExecuteTileReduction("))
    for f in findings:
        # the signed types the ASL accepts (S64 is tried and rejected with Fault_TileLegality)
        assert [w.data_type for w in f.witnesses] == ["S8", "S16", "S32"]
        for w in f.witnesses:
            assert w.asl == 0 and w.prose == prose_index(w.values, f.operation) == 1 and min(w.values) < 0
        assert (f.handler, f.handler_path, f.handler_line) == ("ExecuteTileReduction", REDUCTION, handler_line)
        unit = released.units[f.unit_id]
        assert f.clause == f"PTO-{f.mnemonic}-CONTRACT-001" and (f.clause_path, f.entry_path) == (unit.path, unit.path)
        assert f"writes index 0; {f.clause} ({unit.path}:{f.clause_line}) states {f.rule}, index 1" in f.message

    # the verdicts are kept in the cache directory, keyed by the model: a second process reads them
    monkeypatch.setattr(semantics_check, "_VERDICTS", {})
    monkeypatch.setattr(semantics_check, "_run_witnesses", lambda *a: pytest.fail("the cached verdicts were not used"))
    assert semantics_findings(released, tmp_path / "cache") == findings
    monkeypatch.undo()
    monkeypatch.setattr(semantics_check, "_VERDICTS", {})

    fixed_root = tmp_path / "fixed"
    shutil.copytree(real_tree_root, fixed_root, symlinks=True, ignore=shutil.ignore_patterns(".git", "site", "tests"))
    (fixed_root / REDUCTION).write_text(text.replace(FLAWED, FIXED), "utf-8")
    fixed = _load(fixed_root)
    assert {t.mnemonic for t in reduction_targets(fixed)} == ARG_REDUCTIONS
    verdicts = semantics_check.verdicts(fixed, tmp_path / "cache")
    assert {(v["mnemonic"], v["data_type"]) for v in verdicts} == {
        (m, t) for m in ARG_REDUCTIONS for t in ("S8", "S16", "S32")}  # the witnesses ran, and agree:
    assert all(v["asl"] == v["prose"] for v in verdicts)
    assert semantics_findings(fixed, tmp_path / "cache") == ()


@pytest.mark.realtree
def test_validate_reports_it(real_tree_root, tmp_path, monkeypatch, capsys):
    from pto_docs.cli import main
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert main(["validate", str(real_tree_root)]) == 0
    lines = [ln for ln in capsys.readouterr().err.splitlines() if "[SEMANTICS-PROSE]" in ln]
    assert len(lines) == 4 and all(": warning[SEMANTICS-PROSE]: " in ln for ln in lines)
    assert any(ln.startswith("asl/tile/reduce-and-expand/row-reduction/TROWARGMIN.asl:1:1: ") for ln in lines)


@pytest.mark.realtree
def test_a_model_that_does_not_link_gives_no_finding_and_no_traceback(real_tree_root, tmp_path):
    root = tmp_path / "broken"
    shutil.copytree(real_tree_root, root, symlinks=True, ignore=shutil.ignore_patterns(".git", "site", "tests"))
    path = root / REDUCTION
    path.write_text(path.read_text("utf-8").replace("func ExecuteTileReduction(", "func ExecuteTileReduction((", 1), "utf-8")
    broken = _load(root)
    assert {t.mnemonic for t in reduction_targets(broken)} == ARG_REDUCTIONS  # the records still name them
    assert semantics_check.verdicts(broken, tmp_path / "cache") == []
    assert semantics_findings(broken, tmp_path / "cache") == ()
    assert not list((tmp_path / "cache").glob("verdicts-*.json"))  # an unlinkable model is not a verdict to keep


@pytest.mark.realtree
def test_the_verdict_key_ignores_units_the_witness_cannot_reach(real_tree_root, tmp_path, monkeypatch):
    """A serving reload after a save of a scalar unit must not rerun the model; a save of a unit the witness
    reaches, or a unit that comes to declare a name it reaches, must."""
    monkeypatch.setattr(semantics_check, "_LAST_KEY", {})
    root = tmp_path / "tree"
    shutil.copytree(real_tree_root, root, symlinks=True, ignore=shutil.ignore_patterns(".git", "site", "tests", "docs"))
    outside = next(p for p in sorted(root.glob("asl/scalar/**/MAX.asl")))
    original = outside.read_text("utf-8")
    key = semantics_check.model_key(_load(root))

    outside.write_text(original + "// an author's note\n", "utf-8")
    assert semantics_check.model_key(_load(root)) == key
    outside.write_text(original + "\nfunc TileReductionStepWithFlags() => integer\nbegin\n    return 0;\nend;\n", "utf-8")
    assert semantics_check.model_key(_load(root)) != key  # a second declaration of a reached name: it links otherwise
    outside.write_text(original, "utf-8")
    assert semantics_check.model_key(_load(root)) == key

    reduction = root / REDUCTION
    reduction.write_text(reduction.read_text("utf-8") + "// an author's note\n", "utf-8")
    assert semantics_check.model_key(_load(root)) != key


@pytest.mark.realtree
def test_the_witness_runs_on_the_units_it_can_reach_with_the_whole_models_results(real_load, monkeypatch):
    """The witness loads only the closure of what it can reach (less than half the units); its results are
    those of the whole model."""
    from pto_docs.bridge.avs import model_units
    monkeypatch.setattr(semantics_check, "_LAST_KEY", {})
    released = real_load.catalog
    targets = reduction_targets(released)
    reached = semantics_check.reached_paths(released)
    everything = [u.path for u in model_units(released)]
    assert 0 < len(reached) < len(everything) / 2
    loaded = []
    from pto_docs.bridge import executor_asl
    original = executor_asl.AslBridge.__init__

    def recording(self, units, *rest, **kw):
        loaded.append(len(units))
        original(self, units, *rest, **kw)
    monkeypatch.setattr(executor_asl.AslBridge, "__init__", recording)
    closed = semantics_check._run_witnesses(released, targets, None)
    monkeypatch.setattr(semantics_check, "reached_paths", lambda c: frozenset(everything) | {semantics_check.DECODERS})
    whole = semantics_check._run_witnesses(released, targets, None)
    assert loaded == [len([p for p in everything if p in reached]), len(everything)]
    assert closed and closed == whole


def test_the_bridge_exports_every_asl_name_it_calls_and_composes():
    """checks/semantics.py roots its witnesses' model at ``executor_asl.ASL_NAMES`` and ``ASL_PREFIXES`` (data,
    not a reading of the bridge's source): every name the bridge calls, sets or composes must be listed there."""
    import ast
    import inspect

    from pto_docs.bridge import executor_asl
    called, composed = set(), set()
    for node in ast.walk(ast.parse(inspect.getsource(executor_asl))):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            function = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if function in {"call", "set_global", "run_in_big_stack"}:
                called.add(node.args[0].value)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, ast.Constant) \
                and isinstance(node.left.value, str):
            composed.add(node.left.value)
    assert {"ConfigureTile", "_BundleDataAttributesPresent", "NumericStatusFlags"} <= called  # the scan finds calls
    assert called - executor_asl.ASL_NAMES == set()
    assert composed - set(executor_asl.ASL_PREFIXES) == set()
    assert semantics_check._bridge_names() == (executor_asl.ASL_NAMES, executor_asl.ASL_PREFIXES)
