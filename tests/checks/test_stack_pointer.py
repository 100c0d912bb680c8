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


def test_a_record_whose_assembly_is_no_list_is_no_frame_instruction_and_no_traceback(tmp_path):
    from types import MappingProxyType, SimpleNamespace
    catalog = _tree(tmp_path / "tree")
    odd = [SimpleNamespace(mnemonic=f"ODD{i}", id=f"PTO-ODD{i}", record=MappingProxyType({"assembly": value}))
           for i, value in enumerate((5, None, "sp!", {"sp!": 1}))]
    frames = SimpleNamespace(instructions=[*catalog.instructions, *odd], units=catalog.units)
    (diag,) = stack_pointer_diagnostics(frames)
    assert "FPOP, FPUSH" in diag.message and "ODD" not in diag.message


def test_a_unit_of_many_stack_pointer_constants_is_read_in_linear_time():
    """Each register's line is counted once, not once per constant naming it (a hostile unit repeating one
    constant: quadratic before; this size took about 8 s)."""
    import time
    from types import SimpleNamespace

    from pto_docs.bridge.teaching_stack import model_stack_pointer
    text = "/*\nReadGPR(X_SP)\n" + "constant X_SP = 2;\n" * 50_000 + "*/\n"
    unit = SimpleNamespace(file=SimpleNamespace(text=text), is_instruction=False, path="asl/m.asl")
    start = time.perf_counter()
    found = model_stack_pointer(SimpleNamespace(units={"u": unit}))
    assert time.perf_counter() - start < 2.0
    assert (found.index, found.constant, found.line) == (2, "X_SP", 3)
