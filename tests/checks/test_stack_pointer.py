"""STACK-POINTER-NAME (checks/stack_pointer.py): the model's frame stack pointer constant names a register the
register names do not call sp. Fixtures: a copy of catalog/ with two frame instructions and a model unit of our own
(tests/bridge/test_teaching_stack.py), the model's stack pointer R5 (a3) or R1 (sp)."""

from __future__ import annotations

from pto_docs.checks.stack_pointer import stack_pointer_diagnostics
from tests.bridge.test_teaching_stack import MODEL_SP, MODEL_UNIT, _tree


def test_a_model_stack_pointer_the_names_do_not_call_sp_is_a_warning_at_its_constant(tmp_path):
    (diag,) = stack_pointer_diagnostics(_tree(tmp_path / "tree"))
    assert (diag.code, diag.path, diag.line, diag.is_error) == ("STACK-POINTER-NAME", "asl/block/model/frames.asl", 3,
                                                                False)
    assert "R5 (SAMPLE_FRAME_SP_INDEX)" in diag.message and "call a3" in diag.message
    assert "R1 sp" in diag.message and "FPOP, FPUSH" in diag.message


def test_no_warning_where_the_model_moves_sp_or_reads_no_constant_or_no_instruction_writes_sp(tmp_path, catalog_load):
    assert stack_pointer_diagnostics(_tree(tmp_path / "a", MODEL_UNIT.replace(f"= {MODEL_SP};", "= 1;"))) == []
    assert stack_pointer_diagnostics(_tree(tmp_path / "b", model=None)) == []
    assert stack_pointer_diagnostics(catalog_load.catalog) == []  # (no frame instruction)


def test_validate_reports_it(tmp_path, capsys):
    from pto_docs.cli import main
    root = tmp_path / "tree"
    _tree(root)
    main(["validate", str(root)])
    assert "asl/block/model/frames.asl:3:1: warning[STACK-POINTER-NAME]" in capsys.readouterr().err
