"""Every check of the tree against the reference executor, the assembler and the ASL model (the diagnostics a
validation adds after the record and reference checks): contract examples and data-type prose
(examples.py), worked example cases, EXAMPLE-ASM, FLAGS-PROSE (flags.py), STACK-POINTER-NAME (stack_pointer.py) and
SEMANTICS-PROSE (semantics.py)."""

from __future__ import annotations

from ..model.catalog import Catalog
from ..model.diagnostics import Diagnostic
from .examples import assembly_diagnostics, check_authored_example, records_key, unit_check


def consistency_diagnostics(catalog: Catalog, memo=None, semantics=None) -> list[Diagnostic]:
    """``memo`` (a load_memo.LoadMemo) answers the checks of unchanged unit and example files: each check reads
    one file's records and the executor only. ``semantics``, when given, is called last for the tree's
    SEMANTICS-PROSE findings (made elsewhere meanwhile: site/load_helper.py) instead of running the model here."""
    from ..executor import supported_instructions
    from ..store.load_memo import NoMemo
    memo = memo if memo is not None else NoMemo()
    supported = supported_instructions()
    diags: list[Diagnostic] = []
    for unit in catalog.instructions:
        if unit.surface == "tile" and unit.mnemonic in supported:
            diags.extend(unit_check(unit, memo))
    for example in catalog.examples:
        diags.extend(memo.get(("example-case", example.path, example.file.sha256),
                              lambda example=example: tuple(check_authored_example(example, supported))))
    if isinstance(memo, NoMemo):
        diags.extend(assembly_diagnostics(catalog))
    else:  # keyed by every unit's record line: all the assembler and the lines it checks read (a save elsewhere reuses it)
        diags.extend(memo.get(("example-asm", records_key(catalog)), lambda: tuple(assembly_diagnostics(catalog))))
    from . import model_checks
    from .flags import flags_prose_diagnostics
    diags.extend(flags_prose_diagnostics(catalog, model_checks.flags(catalog, memo)))
    # (one scan of the model units' constants: no memo needed)
    from .stack_pointer import stack_pointer_diagnostics
    diags.extend(stack_pointer_diagnostics(catalog))
    from .semantics import semantics_prose_diagnostics  # runs the model once per model sha (its cache)
    diags.extend(semantics_prose_diagnostics(catalog, findings=semantics() if semantics is not None else None))
    return diags
