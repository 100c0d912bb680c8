"""Contract prose and bundle examples checked against the reference executor and the assembler.

Every ``contract.examples`` bundle and the ``block`` composition of an instruction the executor models
is parsed and run through the model's legality; a data-type list in legality prose that disagrees with
the model's accepted set is reported. Every contract example and block line of every instruction (scalar,
block and tile) is also read by the assembler (``pto_docs.isa.assembler``): a line that names another mnemonic, has
the wrong operand count, an operand its form does not have or a value out of range is EXAMPLE-ASM; pseudo-syntax
that describes operands instead of giving them is recognised by the rule of ``Assembler.check_line``.
Warnings here; errors under --strict and in a strict build.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..model.catalog import Catalog, Unit
from ..model.diagnostics import Diagnostic, error, warning

# "DataType is one of A, B, or C." and upstream's other phrasing "DataType is exactly [one of] A, B, or C;"
DATATYPE_SENTENCE = re.compile(r"\bDataType is (?:one of|exactly(?: one of)?) ([A-Z0-9, ]+?(?:,? or [A-Z0-9]+)?)[.;]")
TYPE_TOKEN = re.compile(r"\b[A-Z][A-Z0-9]*\b")


def prose_data_types(sentence: str) -> set[str] | None:
    match = DATATYPE_SENTENCE.search(sentence)
    if not match:
        return None
    return {t for t in TYPE_TOKEN.findall(match.group(1)) if t != "or"}


def unit_check(unit: Unit, memo=None) -> tuple[Diagnostic, ...]:
    """:func:`check_unit` of a tile instruction the executor models, remembered by ``memo`` (a load_memo.LoadMemo)
    while the unit's file is unchanged (it reads that file's records and the executor only)."""
    from ..executor import accepted_data_types, check_bundle
    compute = lambda: tuple(check_unit(unit, accepted_data_types(unit.mnemonic), check_bundle))  # noqa: E731
    return memo.get(("consistency", unit.path, unit.file.sha256), compute) if memo is not None else compute()


def records_key(catalog: Catalog) -> str:
    """sha256 over every unit's id, place and record line (the ``// PTO-...:`` JSON its record was read from)."""
    import hashlib
    digest = hashlib.sha256()
    for unit in sorted(catalog.units.values(), key=lambda u: u.id):
        text = unit.file.text
        line = text.split("\n", unit.line)[unit.line - 1] if unit.line >= 1 else ""
        digest.update(f"{unit.id}\0{unit.path}\0{unit.line}\0{line}\n".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def check_authored_example(example, supported: frozenset[str]) -> list[Diagnostic]:
    """A catalog-authored worked example must be a well-formed case of an instruction the model runs."""
    from ..bridge.examples import run_example_case
    from ..model.frozen import thaw
    if example.instruction not in supported:
        return [warning(example.path, 1, 1, "EXAMPLE-UNSUPPORTED",
                        f"the reference executor does not model {example.instruction}; the example is not shown",
                        "/execute/instruction")]
    _result, problem = run_example_case(thaw(example.case))
    if problem:
        return [error(example.path, 1, 1, "EXAMPLE-CASE", f"worked example is not a valid case: {problem}")]
    return []


SYMBOLIC_TYPE = re.compile(r"unknown data type ([A-Za-z]*DataType)$")
FORMAT_NAME = re.compile(r"unknown data type ([A-Z][A-Z0-9]*)$")


def _example_problems(example: str, check_bundle) -> list[str]:
    """Contract examples may name the data type symbolically (DataType, SrcDataType); anything else must be real."""
    problems = []
    for problem in check_bundle(example, data_type_symbolic_ok=False):
        if SYMBOLIC_TYPE.match(problem):
            continue
        match = FORMAT_NAME.match(problem)
        if match:
            problem = f"data type {match.group(1)} is not one of the 16 types the reference model defines"
        problems.append(problem)
    return problems


def check_unit(unit: Unit, accepted: tuple[str, ...], check_bundle) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    contract = unit.contract
    for index, example in enumerate(contract.get("examples", ())):
        for problem in _example_problems(example, check_bundle):
            diags.append(warning(unit.path, unit.line, 1, "EXAMPLE-ILLEGAL",
                                 f"{unit.mnemonic} contract example is illegal in the reference model: {problem}",
                                 f"/contract/examples/{index}"))
    block = [line for line in unit.record.get("block", ()) if isinstance(line, str)]
    if block:
        text = "; ".join(re.sub(r"\s*\(optional\)\s*$", "", line) for line in block)
        for problem in check_bundle(text, data_type_symbolic_ok=True):
            diags.append(warning(unit.path, unit.line, 1, "BLOCK-ILLEGAL",
                                 f"{unit.mnemonic} block composition is illegal in the reference model: {problem}", "/block"))
    for index, sentence in enumerate(contract.get("legality", ())):
        listed = prose_data_types(sentence) if isinstance(sentence, str) else None
        if listed is None:
            continue
        model = set(accepted)
        if listed != model:
            missing = sorted(model - listed)
            extra = sorted(listed - model)
            parts = []
            if missing:
                parts.append("the model also accepts " + ", ".join(missing))
            if extra:
                parts.append("the model rejects " + ", ".join(extra))
            diags.append(warning(unit.path, unit.line, 1, "DATATYPE-PROSE",
                                 f"{unit.mnemonic} legality lists {len(listed)} data types but the reference model accepts "
                                 f"{len(model)}: {'; '.join(parts)}", f"/contract/legality/{index}"))
    return diags


# -- contract examples and block lines of every instruction, by the assembler --------------------
NOTE = re.compile(r"\s*(\([^()]*\)|\[[A-Z0-9.]+ form\])\s*$")


def split_bundle(line: str) -> list[str]:
    """';'-separated instructions of a bundle line, not splitting inside parentheses (remarks)."""
    out, depth, cur = [], 0, ""
    for ch in line:
        depth += (ch == "(") - (ch == ")")
        if ch == ";" and depth <= 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return [s for s in out if s]


def assembly_lines(catalog: Catalog, unit: Unit, assembler, every: frozenset[str] | None = None
                   ) -> list[tuple[str, str, str, str, str]]:
    """(pointer, segment, verdict, message, owner) for every contract example and block line of one instruction.

    A line with ';' is a bundle: its first instruction must be this instruction's (or, for a carrier or an
    alias, an operation it carries), every other one any instruction of the tree. In a ``block`` list the
    first line is the instruction's and the others are the bundle's. A trailing remark, ``(optional)`` or
    ``[TMOV.S2L.EXTRACT form]``, is not an operand. Verdicts: see ``Assembler.check_line``."""
    own = {unit.id} | assembler.units_written(unit.mnemonic or "")
    target = unit.record.get("alias_of")
    if isinstance(target, str):
        own |= assembler.units_written(target)
    if unit.surface == "tile" and unit.id not in assembler.by_unit:
        from ..isa.encoding import encoding_for  # a CUBE or TLSU operation is written as its own carrier
        enc = encoding_for(catalog, unit)
        own |= assembler.units_written(enc.carrier_mnemonic or "") if enc else set()
    every = every if every is not None else frozenset(u.id for u in catalog.instructions)
    roles = frozenset(w.lower() for o in unit.contract.get("operands", ()) or () if isinstance(o, Mapping)
                      for v in (o.get("field"), o.get("role")) if isinstance(v, str) for w in re.findall(r"[A-Za-z]\w*", v))
    out = []
    entries = [(f"/contract/examples/{i}", e, True) for i, e in enumerate(unit.contract.get("examples", ()))]
    entries += [(f"/block/{i}", b, i == 0) for i, b in enumerate(unit.record.get("block", ()))]
    for pointer, line, first_is_own in entries:
        if not isinstance(line, str):
            continue
        for k, segment in enumerate(split_bundle(line)):
            text = NOTE.sub("", segment)
            mine = k == 0 and first_is_own
            verdict, message = assembler.check_line(text, own if mine else every, mine, roles)
            out.append((pointer, segment, verdict, message, unit.id))
    return out


def assembly_diagnostics(catalog: Catalog, assembler=None) -> list[Diagnostic]:
    """EXAMPLE-ASM: a contract example or block line that names another mnemonic, has the wrong operand count,
    an operand its form does not have or a value out of range (warnings; errors under --strict)."""
    from ..isa.assembler import Assembler
    assembler = assembler or Assembler(catalog)
    diags = []
    units = catalog.instructions
    every = frozenset(u.id for u in units)
    for unit in units:
        for pointer, segment, verdict, message, _owner in assembly_lines(catalog, unit, assembler, every):
            if verdict == "mismatch":
                diags.append(warning(unit.path, unit.line, 1, "EXAMPLE-ASM",
                                     f"{unit.mnemonic} {'block line' if pointer.startswith('/block') else 'contract example'} "
                                     f"{segment!r} does not assemble: {message}", pointer))
    return diags
