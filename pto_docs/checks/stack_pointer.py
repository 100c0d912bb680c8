"""STACK-POINTER-NAME: the ASL model's frame stack pointer is a register the register names do not call ``sp``.

A frame instruction's assembly names its stack pointer ``sp!`` (FENTRY, FEXIT, FRET.RA and FRET.STK on 0.58.3), and
the canonical register names (the assembler's spelling, from the spec's "zero, sp, a0..a7, ra, s0..s8, x0..x3")
call R1 ``sp``. The model reads and moves the register its own constant gives (bridge.teaching_stack:
``constant PTO_FRAME_SP_INDEX = 2;`` on 0.58.3, R2, which the names call ``a0``). When the two differ, the
assembly a reader writes (``sp`` set to the stack) is not what the model runs: one warning at the constant, naming
the frame instructions. The teaching examples set both registers and say which one moved.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..model.catalog import Catalog
from ..model.diagnostics import Diagnostic, warning


def stack_pointer_diagnostics(catalog: Catalog) -> list[Diagnostic]:
    from ..bridge.teaching_stack import model_stack_pointer
    from ..isa.assembler.spelling import SOURCE_CODE, SOURCE_NAMES
    frames = sorted({u.mnemonic or u.id for u in catalog.instructions
                     if any(isinstance(a, str) and "sp!" in a for a in _assembly(u.record))})
    if not frames:
        return []
    model = model_stack_pointer(catalog)
    named = SOURCE_CODE["sp"]
    if model is None or model.index == named:
        return []
    called = SOURCE_NAMES[model.index] if 0 <= model.index < len(SOURCE_NAMES) else f"R{model.index}"
    shown = ", ".join(frames[:8]) + (f" and {len(frames) - 8} more" if len(frames) > 8 else "")
    return [warning(model.path, model.line, 1, "STACK-POINTER-NAME",
                    f"the ASL model reads and moves its frame stack pointer in R{model.index} ({model.constant}), "
                    f"which the register names call {called}; they call R{named} sp, the register the assembly of "
                    f"{shown} names with sp!: code that sets sp before a frame instruction is not what the model "
                    "runs")]


def _assembly(record) -> list:
    """The record's assembly lines; none when the field is not a list (the record check reports that)."""
    lines = record.get("assembly") if isinstance(record, Mapping) else None
    return list(lines) if isinstance(lines, (list, tuple)) else []
