"""The ``generated:decoders`` unit of a spec's ASL model, made by pto-docs from its own encoding model.

A pto-spec model depends on ASL that is not in the tree: the decoders of the encoded forms and the per-form
tables the hand-written model looks up (handler, operation, operand fields, AGU metadata, tile dispatch...).
Upstream writes that text with its own generator; pto-docs writes it here from what its loader already read:
the ``catalog_records`` of the ``// PTO-INSTRUCTION:`` units (the same records the ``spec/catalog`` projections
hold, see ``evidence.projections``) and the two tree catalogs that are not projections
(``spec/catalog/system-registers.json``, ``spec/catalog/numeric-profile-applicability.json``).

What this does not make: the ``Validate*`` entry points. Those are generated *test bodies* whose expected
values are computed by upstream's generator; a test point that calls one needs that generator's output
(``pto-docs avs --decoders FILE``) and is reported as an error without it, never as a pass.

The text is compact: every per-form table is one ``case`` over the form index with the forms that share a
result grouped in one ``when``; decoders test masks in a fixed priority order (more fixed bits first, then
form id), which is the order that makes overlapping encodings decode deterministically.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from ..model.catalog import Catalog

HEADER = "// generated:decoders made by pto-docs from the tree's encoding records (no Validate* entry points)."

SYSTEM_REGISTERS = "spec/catalog/system-registers.json"
NUMERIC_APPLICABILITY = "spec/catalog/numeric-profile-applicability.json"

# Facts the model's interface fixes and the records do not carry (names of the model's own enumerations and the
# order of the DATR fields as TileOperationDATRFieldsLegal takes them).
TILE_DECODE_FAMILIES = ("TEPL", "TLSU", "CUBE")
SCALAR_FAMILIES = ("AGU", "ALU", "AMO", "BRU", "FSU", "SYS")
DATR_FIELDS = (("CMode", "c_mode != Zeros{3}"), ("PadValueOrByteId", "pad_value_or_byte_id != Zeros{2}"),
               ("Sat", "saturating"), ("Canonicalize", "canonicalize"), ("DataType", "data_type != Zeros{5}"),
               ("RMode", "rounding_mode != Zeros{3}"), ("Layout", "data_layout != Zeros{5}"))
DATR_PAD_UNIONS = ("pad-value", "histogram-byte-id", "must-zero")
AGU_ACTIONS = ("Load", "LoadPair", "Store", "StorePair", "Prefetch")
AGU_ADDRESS_KINDS = ("Register", "Immediate", "PCRelative", "Compressed")
SIGNEDNESS = {"encoding-defined": "EncodingDefined", "signed": "Signed", "unsigned": "Unsigned"}
ACCESS = {"RO": "ReadOnly", "WO": "WriteOnly", "RW": "ReadWrite"}

# Not in the records (pto-spec keeps these in its generator; see README "pto-docs avs"):
# the numeric-applicability profile ids and the model's rule-set enumeration member each one selects,
NUMERIC_RULE_SETS = {"pto-a2a3-numeric-v1": "NumericApplicabilityRules_A2A3MxRejection"}
# and the tile handlers whose own legality check owns source definedness (the dispatcher does not check it first).
LEGALITY_OWNS_SOURCE_DEFINEDNESS = frozenset({
    "TGATHER", "THISTOGRAM", "TIMG2COL",
    "TGEMV", "TGEMV_ACC", "TGEMV_BIAS", "TGEMV_MX", "TGEMV_MX_ACC", "TGEMV_MX_BIAS",
    "TMATMUL", "TMATMUL_ACC", "TMATMUL_BIAS", "TMATMUL_MX", "TMATMUL_MX_ACC", "TMATMUL_MX_BIAS"})

SOURCE_FIELD = re.compile(r"^Src[A-Z][0-9]?$")  # Reg5 scalar sources: SrcA, SrcL, SrcR, SrcD1, ...
DESTINATION_FIELD = re.compile(r"^RegDst[0-9]?$")  # Reg5 scalar destinations


class DecodersUnavailable(ValueError):
    """The tree's records do not hold what the decoders need (a missing catalog, an unknown value)."""


def ident(value: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", value)


def camel(value: str) -> str:
    """``elementwise-tile-tile`` -> ``ElementwiseTileTile``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_ ]", value) if part)


def bits(value: int, width: int) -> str:
    return f"'{value:0{width}b}'"


def mask_of(part: dict) -> int:
    mask = part.get("mask")
    return int(mask, 16) if isinstance(mask, str) else (1 << part["width_bits"]) - 1


def decode_priority(rows: list[dict]) -> list[tuple[int, dict]]:
    """Forms in the order their masks are tried: more fixed bits first, then form id."""
    return sorted(enumerate(rows), key=lambda p: (-sum(mask_of(e).bit_count() for e in p[1]["encoding"]),
                                                  p[1]["form_id"]))


class Out:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, *lines: str) -> None:
        self.lines.extend(lines)

    def enum(self, name: str, members: Iterable[str]) -> None:
        members = list(members)
        self(f"type {name} of enumeration {{")
        for start in range(0, len(members), 4):
            chunk = members[start:start + 4]
            self("    " + ", ".join(chunk) + ("," if start + 4 < len(members) else ""))
        self("};")

    def table(self, signature: str, subject: str, rows: Iterable[tuple[int, str | None]], default: str | None,
              decl: str = "pure func") -> None:
        """A function whose body is one ``case`` over ``subject``: the rows with the same body share a ``when``
        (a body is ASL statements without the trailing newline); ``default`` is the ``otherwise`` body (None:
        no otherwise, so an index outside the table is unreachable)."""
        groups: dict[str, list[int]] = {}
        for index, body in rows:
            if body is not None:
                groups.setdefault(body, []).append(index)
        self(f"{decl} {signature}", "begin")
        if groups:
            self(f"    case {subject} of")
            for body, indices in sorted(groups.items(), key=lambda item: item[1][0]):
                self(f"        when {patterns(indices)} =>")
                self(*("            " + line for line in body.split("\n")))
            if default is not None:
                self("        otherwise =>", *("            " + line for line in default.split("\n")))
            self("    end;")
        if not groups or default is None:
            self("    " + (default if not groups and default is not None else "unreachable;"))
        self("end;", "")


def patterns(indices: list[int]) -> str:
    """Ascending indices as ``case`` patterns, runs of three or more as a range: ``0..16, 27, 28``."""
    runs: list[list[int]] = []
    for index in indices:
        if runs and index == runs[-1][-1] + 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return ", ".join(f"{run[0]}..{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)) for run in runs)


def ret(value: str) -> str:
    return f"return {value};"


def field_case(fields: list[dict], subject: str, body: Callable[[dict], str], default: str) -> str:
    """An inner ``case`` over an operand-field enumeration (one ``when`` per field of the form)."""
    if not fields:
        return default
    lines = ["case field of"]
    for field in fields:
        lines.append(f"    when {subject}{ident(field['name'])} =>")
        lines.extend("        " + line for line in body(field).split("\n"))
    lines += ["    otherwise =>", "        " + default, "end;"]
    return "\n".join(lines)


def raw_field(field: dict, width: int) -> str:
    lines = [f"var value = Zeros{{{width}}};"]
    for piece in field["pieces"]:
        lines.append(f"value[{piece['value_lsb']} +: {piece['width']}] = "
                     f"instruction[{piece['instruction_lsb']} +: {piece['width']}];")
    lines.append("return value;")
    return "\n".join(lines)


def encoding_test(encoding: list[dict]) -> str:
    return " && ".join(f"(instruction[{part['index'] * 32} +: {part['width_bits']}] AND "
                       f"{bits(mask_of(part), part['width_bits'])}) == "
                       f"{bits(int(part['match'], 16), part['width_bits'])}" for part in encoding)


def projections(catalog: Catalog) -> tuple[list[dict], list[dict], list[dict], list[dict]]:
    """The scalar forms, their family constraints, the command forms and the tile operations, each list in
    catalog-index order (the form numbering the model uses)."""
    from ..evidence.projections import catalog_projections
    documents, problems = catalog_projections(catalog)
    if problems:
        raise DecodersUnavailable("; ".join(problems))
    scalar = documents["spec/catalog/scalar-forms.json"]
    command = documents["spec/catalog/command-forms.json"]
    tile = documents["spec/catalog/tile-operations.json"]
    return (list(scalar.get("forms", [])), list(scalar.get("family_constraints", [])),
            list(command.get("forms", [])), list(tile.get("operations", [])))


def _tree_json(catalog: Catalog, path: str) -> dict:
    from ..model.frozen import thaw
    data = thaw(catalog.json(path))
    if not isinstance(data, dict):
        raise DecodersUnavailable(f"{path} is missing or not a JSON object")
    return data


def generate_decoders(catalog: Catalog) -> str:
    """The ASL text standing for ``generated:decoders`` (no ``Validate*`` entry point), or DecodersUnavailable."""
    scalar, family_constraints, command, tile = projections(catalog)
    registers = _tree_json(catalog, SYSTEM_REGISTERS).get("registers", [])
    rules = _tree_json(catalog, NUMERIC_APPLICABILITY).get("rules", [])
    out = Out()
    out(HEADER)
    try:
        _declarations(out, scalar, command, tile, registers)
        _command(out, command, tile)
        _scalar(out, scalar, family_constraints, registers)
        _tile(out, command, tile, rules)
    except (KeyError, StopIteration, TypeError, ValueError) as exc:
        if isinstance(exc, DecodersUnavailable):
            raise
        raise DecodersUnavailable(f"the encoding records lack what the decoders need: {exc!r}") from exc
    return "\n".join(out.lines) + "\n"


# -- declarations -----------------------------------------------------------------------------------------------

def _declarations(out: Out, scalar, command, tile, registers) -> None:
    out(f"constant PTO_SCALAR_FORM_COUNT = {len(scalar)};",
        f"constant PTO_COMMAND_FORM_COUNT = {len(command)};",
        f"constant PTO_ENCODED_INSTRUCTION_FORM_COUNT = {len(scalar) + len(command)};",
        f"constant PTO_TILE_OPERATION_COUNT = {len(tile)};",
        f"constant PTO_SYSTEM_REGISTER_DEFINITION_COUNT = {len(registers)};",
        f"constant PTO_SCALAR_SEMANTIC_HANDLER_COUNT = {len({r['semantic_handler'] for r in scalar})};",
        f"constant PTO_TILE_SEMANTIC_HANDLER_COUNT = {len({r['semantic_handler'] for r in tile})};",
        "type ScalarFormIndex of integer {0..PTO_SCALAR_FORM_COUNT};",
        "type CommandFormIndex of integer {0..PTO_COMMAND_FORM_COUNT};",
        "type TileOperationIndex of integer {0..PTO_TILE_OPERATION_COUNT};")
    out.enum("TileDecodeFamily", [f"TileDecode_{f}" for f in TILE_DECODE_FAMILIES])
    out.enum("ScalarSemanticFamily", [f"ScalarSemantic_{f}" for f in SCALAR_FAMILIES])
    out.enum("ScalarOperation", [f"ScalarOperation_{ident(r['mnemonic'])}" for r in scalar])
    out.enum("ScalarSemanticHandler", [f"ScalarHandler_{ident(h)}" for h in sorted({r["semantic_handler"] for r in scalar})])
    out.enum("ScalarOperandField", [f"ScalarField_{ident(n)}" for n in sorted({f["name"] for r in scalar for f in r["fields"]})])
    out.enum("ScalarFieldSignedness", [f"ScalarField_{v}" for v in SIGNEDNESS.values()])
    out.enum("ScalarAGUAction", [f"ScalarAGU_{a}" for a in AGU_ACTIONS])
    out.enum("ScalarAGUAddressKind", [f"ScalarAGU_{a}" for a in AGU_ADDRESS_KINDS])
    out.enum("CommandOperation", [f"CommandOperation_{ident(r['form_id'])}" for r in command])
    out.enum("CommandSemanticHandler", [f"CommandHandler_{ident(h)}" for h in sorted({r["semantic_handler"] for r in command})])
    out.enum("CommandOperandField", [f"CommandField_{ident(n)}" for n in sorted({f["name"] for r in command for f in r["fields"]})])
    out.enum("TileOperation", [f"TileOperation_{ident(r['name'])}" for r in tile])
    out.enum("TileSemanticHandler", [f"TileHandler_{ident(h)}" for h in sorted({r["semantic_handler"] for r in tile})])
    out.enum("TileDATRField", [f"TileDATRField_{name}" for name, _ in DATR_FIELDS])
    out.enum("TileDATRPadUnion", [f"TileDATRPadUnion_{camel(u)}" for u in DATR_PAD_UNIONS])
    out.enum("TileOperandField", [f"TileOperand_{ident(n)}" for n in sorted({o["field"] for r in tile for o in r["operands"]})])
    out("")


def _operand_tables(out: Out, prefix: str, rows: list[dict], width: int, count: str) -> None:
    """OperandPresent / OperandWidth / OperandSignedness / Decode<prefix>OperandRaw of ``rows``."""
    form = f"form: integer {{0..{count}-1}}"
    field_type = f"{prefix}OperandField"
    field_prefix = "ScalarField_" if prefix == "Scalar" else f"{prefix}Field_"
    out.table(f"{prefix}OperandPresent({form}, field: {field_type}) => boolean", "form",
              ((i, ret(" || ".join(f"field == {field_prefix}{ident(f['name'])}" for f in r["fields"])))
               for i, r in enumerate(rows) if r["fields"]), "return FALSE;")
    out.table(f"{prefix}OperandWidth({form}, field: {field_type}) => integer {{0..{width}}}", "form",
              ((i, field_case(r["fields"], field_prefix, lambda f: ret(str(f["width"])), "return 0;"))
               for i, r in enumerate(rows) if r["fields"]), "return 0;")
    out.table(f"{prefix}OperandSignedness({form}, field: {field_type}) => ScalarFieldSignedness", "form",
              ((i, field_case(r["fields"], field_prefix, lambda f: ret(f"ScalarField_{SIGNEDNESS[f['signedness']]}"),
                              "return ScalarField_EncodingDefined;"))
               for i, r in enumerate(rows) if r["fields"]), "return ScalarField_EncodingDefined;")
    out.table(f"Decode{prefix}OperandRaw(instruction: bits({width}), {form}, field: {field_type}) => bits({width})",
              "form", ((i, field_case(r["fields"], field_prefix, lambda f: raw_field(f, width), f"return Zeros{{{width}}};"))
                       for i, r in enumerate(rows) if r["fields"]), f"return Zeros{{{width}}};")


def _constraint_tests(prefix: str, row: dict, width: int | None) -> list[str]:
    """The conditions under which the form's operand constraints reject the word (compared at ``width`` bits,
    or at the field's own width when None)."""
    field_prefix = "ScalarField_" if prefix == "Scalar" else f"{prefix}Field_"
    widths = {f["name"]: f["width"] for f in row["fields"]}
    tests = []
    for constraint in row["constraints"]:
        name = constraint["field"]
        w = width or widths[name]
        raw = f"Decode{prefix}OperandRaw(instruction, form, {field_prefix}{ident(name)})"
        value = raw if width else f"{raw}[{w - 1}:0]"
        if constraint["operator"] == "not-equal":
            tests.append(f"{value} == {bits(constraint['value'], w)}")
        elif constraint["operator"] == "one-of":
            tests.append("!(" + " || ".join(f"{value} == {bits(v, w)}" for v in constraint["values"]) + ")")
        else:
            raise DecodersUnavailable(f"{row['form_id']}: unknown operand constraint {constraint['operator']!r}")
    return tests


def _reject_if(tests: list[str]) -> str | None:
    return "\n".join(f"if {t} then return FALSE; end;" for t in tests) + "\nreturn TRUE;" if tests else None


# -- command forms ----------------------------------------------------------------------------------------------

def _command_bundle_kind(row: dict) -> str:
    m = row["mnemonic"]
    if ".FP" in m:
        return "Floating"
    if ".SYS" in m:
        return "System"
    if any(t in m for t in (".MGATHER", ".MSCATTER", ".TLOAD", ".TSTORE", ".TPREFETCH")):
        return "TileMemory"
    if any(t in m for t in (".CUBE", ".TGEMV", ".TMATMUL")):
        return "TileMatrix"
    if any(t in m for t in (".TEPL", ".FIXP", ".TMOV")):
        return "TileElement"
    return "FrameTemplate" if m.startswith("F") else "Standard"


def _command_operation_class(row: dict) -> str:
    if row["semantic_handler"] != "ExecuteBundleStart":
        return "Control"
    m = row["mnemonic"]
    for tokens, kind in (((".TEPL",), "TileElement"), ((".FIXP",), "FixedPoint"),
                         ((".MGATHER", ".MSCATTER", ".TLOAD", ".TSTORE", ".TMOV", ".GMOV", ".TPREFETCH"), "TileMemory"),
                         ((".CUBE", ".TGEMV", ".TMATMUL"), "TileMatrix")):
        if any(t in m for t in tokens):
            return kind
    return "Control"


def _command_transfer(row: dict) -> str:
    asm = row["asm"]
    if "{DIRECT, CALL}" in asm:
        return "Direct"
    for token, kind in (("ICALL", "IndirectCall"), ("CALL", "Call"), ("RET", "Return"), ("COND", "Conditional"),
                        ("IND", "Indirect"), ("DIRECT", "Direct")):
        if token in asm:
            return kind
    return "Fallthrough"


def _tile_selector(op: dict) -> int:
    value = op.get("selector", op.get("function"))
    return int(value, 0) if isinstance(value, str) else value


def _selected_tile_operation(row: dict, tile: list[dict]) -> dict | None:
    """The one tile operation a ``BSTART.<op>`` form selects by itself (None for the carriers that take the
    operation from their operand fields, and for forms that select no tile operation)."""
    if row["semantic_handler"] != "ExecuteBundleStart" or not row["mnemonic"].startswith("BSTART."):
        return None
    ops = [op for op in tile if op["command_mnemonic"] == row["mnemonic"]]
    return ops[0] if len(ops) == 1 else None


def _signed_offset_field(row: dict) -> dict | None:
    fields = [f for f in row["fields"] if f["signedness"] == "signed" and f["name"].startswith("simm")]
    if len(fields) > 1:
        raise DecodersUnavailable(f"{row['form_id']}: more than one signed offset field")
    return fields[0] if fields else None


def _command(out: Out, command: list[dict], tile: list[dict]) -> None:
    count = "PTO_COMMAND_FORM_COUNT"
    form = f"form: integer {{0..{count}-1}}"
    out("pure func DecodeCommandForm(instruction: bits(64), length_bits: integer {16,32,48,64}) => CommandFormIndex",
        "begin", "    case length_bits of")
    ordered = decode_priority(command)
    for length in sorted({r["length_bits"] for r in command}):
        out(f"        when {length} =>")
        for index, row in ordered:
            if row["length_bits"] == length:
                alternatives = [row["encoding"], *(v["encoding"] for v in row.get("encoding_variants", []))]
                test = " || ".join(f"({encoding_test(e)})" for e in alternatives)
                out(f"            if {test} then return {index}; end;")
    out("        otherwise =>", "            return PTO_COMMAND_FORM_COUNT;", "    end;",
        "    return PTO_COMMAND_FORM_COUNT;", "end;", "")
    enum = list(enumerate(command))
    out.table(f"CommandBundleKindOfForm({form}) => BundleKind", "form",
              ((i, ret(f"BundleKind_{_command_bundle_kind(r)}")) for i, r in enum), None)
    out.table(f"CommandBundleOperationClassOfForm({form}) => BundleOperationClass", "form",
              ((i, ret(f"BundleOperation_{_command_operation_class(r)}")) for i, r in enum), None)
    out.table(f"CommandBundleArgumentKindOfForm({form}) => bits(3)", "form", (), "return Zeros{3};")
    selected = {i: _selected_tile_operation(r, tile) for i, r in enum}
    out.table(f"CommandBundleSelectorConstantPresent({form}) => boolean", "form",
              ((i, "return TRUE;") for i, op in selected.items() if op is not None), "return FALSE;")
    out.table(f"CommandBundleSelectorUsesEncodingVariant({form}) => boolean", "form",
              ((i, "return TRUE;") for i, r in enum if r.get("encoding_variants")), "return FALSE;")
    out.table(f"CommandBundleSelectorConstantOfForm(instruction: bits(64), {form}) => bits(10)", "form",
              ((i, "return ZeroExtend{10}(instruction[20 +: 5]);" if command[i].get("encoding_variants")
                else ret(bits(_tile_selector(op), 10))) for i, op in selected.items() if op is not None),
              "return Zeros{10};")
    out.table(f"CommandBundleTransferOfForm({form}) => BundleTransfer", "form",
              ((i, ret(f"BundleTransfer_{_command_transfer(r)}")) for i, r in enum), None)
    offsets = {i: _signed_offset_field(r) for i, r in enum}
    out.table(f"CommandHasSignedOffset({form}) => boolean", "form",
              ((i, ret("TRUE" if f else "FALSE")) for i, f in offsets.items()), None)
    out.table(f"CommandSignedOffsetOfForm(instruction: bits(64), {form}) => Word", "form",
              ((i, ret(f"SignExtend{{PTO_XLEN}}(DecodeCommandOperandRaw(instruction, form, "
                       f"CommandField_{ident(f['name'])})[{f['width'] - 1}:0])") if f else "return Zeros{PTO_XLEN};")
               for i, f in offsets.items()), None)
    out.table(f"CommandOperationOfForm({form}) => CommandOperation", "form",
              ((i, ret(f"CommandOperation_{ident(r['form_id'])}")) for i, r in enum), None)
    out.table(f"CommandHandlerOfForm({form}) => CommandSemanticHandler", "form",
              ((i, ret(f"CommandHandler_{ident(r['semantic_handler'])}")) for i, r in enum), None)
    _operand_tables(out, "Command", command, 64, count)
    out.table(f"CommandFormOperandsLegal(instruction: bits(64), {form}) => boolean", "form",
              ((i, _reject_if(_constraint_tests("Command", r, None))) for i, r in enum), "return TRUE;")


# -- scalar forms -----------------------------------------------------------------------------------------------

def _family_constraint_applies(row: dict, constraint: dict) -> bool:
    selector = constraint["applies_to"]
    return (row["semantic_family"] in selector["semantic_families"]
            and row["semantic_handler"] in selector["semantic_handlers"]
            and set(selector["required_fields"]) <= {f["name"] for f in row["fields"]})


def _scalar(out: Out, scalar: list[dict], family_constraints: list[dict], registers: list[dict]) -> None:
    count = "PTO_SCALAR_FORM_COUNT"
    form = f"form: integer {{0..{count}-1}}"
    out("pure func DecodeScalarForm(instruction: bits(48), length_bits: integer {16,32,48}) => ScalarFormIndex",
        "begin", "    case length_bits of")
    ordered = sorted(enumerate(scalar), key=lambda p: (-mask_of(p[1]["encoding"][0]).bit_count(), p[1]["form_id"]))
    for length in sorted({r["length_bits"] for r in scalar}):
        out(f"        when {length} =>")
        for index, row in ordered:
            if row["length_bits"] == length:
                part = row["encoding"][0]
                out(f"            if (instruction AND {bits(mask_of(part), 48)}) == "
                    f"{bits(int(part['match'], 16), 48)} then return {index}; end;")
    out("        otherwise =>", "            return PTO_SCALAR_FORM_COUNT;", "    end;",
        "    return PTO_SCALAR_FORM_COUNT;", "end;", "")
    enum = list(enumerate(scalar))
    out.table(f"ScalarFamilyOfForm({form}) => ScalarSemanticFamily", "form",
              ((i, ret(f"ScalarSemantic_{r['semantic_family']}")) for i, r in enum), None)
    out.table(f"ScalarOperationOfForm({form}) => ScalarOperation", "form",
              ((i, ret(f"ScalarOperation_{ident(r['mnemonic'])}")) for i, r in enum), None)
    out.table(f"ScalarHandlerOfForm({form}) => ScalarSemanticHandler", "form",
              ((i, ret(f"ScalarHandler_{ident(r['semantic_handler'])}")) for i, r in enum), None)
    agu = [(i, r["agu"]) for i, r in enum if r["semantic_family"] == "AGU"]
    for name, result, value in (
            ("ScalarAGUActionOfForm", "ScalarAGUAction", lambda m: f"ScalarAGU_{m['action']}"),
            ("ScalarAGUAddressKindOfForm", "ScalarAGUAddressKind", lambda m: f"ScalarAGU_{m['address_kind']}"),
            ("ScalarAGUSizeOfForm", "integer {1,2,4,8}", lambda m: str(m["size_bytes"])),
            ("ScalarAGUOffsetScaleOfForm", "integer {0..3}", lambda m: str(m["offset_scale"])),
            ("ScalarAGUUpdateModeOfForm", "AddressUpdateMode", lambda m: f"AddressUpdate_{m['update_mode']}"),
            ("ScalarAGUSignedLoadOfForm", "boolean", lambda m: "TRUE" if m["signed_load"] else "FALSE"),
            ("ScalarAGUPrefetchReturnsAddress", "boolean",
             lambda m: "TRUE" if m["prefetch_returns_address"] else "FALSE")):
        out.table(f"{name}({form}) => {result}", "form", ((i, ret(value(m))) for i, m in agu), None)
    _operand_tables(out, "Scalar", scalar, 48, count)

    def legality(row: dict) -> str | None:
        tests = _constraint_tests("Scalar", row, 48)
        for constraint in family_constraints:
            if not _family_constraint_applies(row, constraint):
                continue
            if constraint["operator"] != "fields-not-equal":
                raise DecodersUnavailable(f"unknown scalar family constraint {constraint['operator']!r}")
            tests.append(f"DecodeScalarOperandRaw(instruction, form, ScalarField_{ident(constraint['left_field'])}) == "
                         f"DecodeScalarOperandRaw(instruction, form, ScalarField_{ident(constraint['right_field'])})")
        return _reject_if(tests)
    out.table(f"ScalarFormOperandsLegal(instruction: bits(48), {form}) => boolean", "form",
              ((i, legality(r)) for i, r in enum), "return TRUE;")

    def registers_legal(row: dict) -> str | None:
        tests = []
        for field in row["fields"]:
            name = field["name"]
            predicate = ("ScalarSourceSelectorLegal" if SOURCE_FIELD.match(name)
                         else "ScalarDestinationSelectorLegal" if DESTINATION_FIELD.match(name) else None)
            if predicate:
                tests.append(f"!{predicate}(UInt(DecodeScalarOperandRaw(instruction, form, "
                             f"ScalarField_{ident(name)})[4:0]) as Reg5Selector)")
        return _reject_if(tests)
    out.table(f"ScalarRegisterOperandsLegal(instruction: bits(48), {form}) => boolean", "form",
              ((i, registers_legal(r)) for i, r in enum), "return TRUE;", decl="readonly func")

    out("pure func SystemRegisterAccessOf(address: SystemRegisterAddress) => SystemRegisterAccess", "begin")
    for row in registers:
        if row["scope"] == "base":
            condition = f"address == {bits(int(row['address'], 0), 24)}"
        elif "fixed_context" in row:
            condition = f"address == {bits((row['fixed_context'] << 12) | int(row['low_index'], 0), 24)}"
        else:
            condition = f"address[23:16] == Zeros{{8}} && address[11:0] == {bits(int(row['low_index'], 0), 12)}"
        out(f"    if {condition} then return SystemRegisterAccess_{ACCESS[row['access']]}; end;")
    out("    return SystemRegisterAccess_Unknown;", "end;", "")


# -- tile operations --------------------------------------------------------------------------------------------

def _tile_code(op: dict) -> int:
    if op["family"] == "TEPL":
        code = (op["mode"] << 5) | op["function"]
        if "selector" in op and int(op["selector"], 0) != code:
            raise DecodersUnavailable(f"{op['name']}: selector {op['selector']} is not mode/function {code:#x}")
        return code
    return op["function"]


def _tile_argument(argument: dict) -> str:
    if set(argument) == {"operand"}:
        return "numeric_control" if argument["operand"] == "numeric_control" else f"operands.{argument['operand']}"
    if set(argument) == {"constant"}:
        return argument["constant"]
    if set(argument) == {"runtime"}:
        return f"{argument['runtime']}()"
    raise DecodersUnavailable(f"unknown tile argument binding {argument!r}")


def _tile(out: Out, command: list[dict], tile: list[dict], rules: list[dict]) -> None:
    count = "PTO_TILE_OPERATION_COUNT"
    operation = f"operation: integer {{0..{count}-1}}"
    enum = list(enumerate(tile))
    out("pure func DecodeTileOperation(family: TileDecodeFamily, code: bits(12)) => TileOperationIndex", "begin",
        "    case family of")
    for family in TILE_DECODE_FAMILIES:
        out(f"        when TileDecode_{family} =>")
        tests = [f"            if code == {bits(_tile_code(op), 12)} then return {i}; end;"
                 for i, op in enum if op["family"] == family]
        out(*(tests or ["            pass;"]))  # (a family of no operation: a statement list is never empty)
    out("    end;", f"    return {count};", "end;", "")
    out.table(f"TileOperationDATRFieldApplicable({operation}, field: TileDATRField) => boolean", "operation",
              ((i, ret(" || ".join(f"field == TileDATRField_{f}" for f in op["datr_contract"]["allowed_nonzero_fields"])))
               for i, op in enum if op["datr_contract"]["allowed_nonzero_fields"]), "return FALSE;")
    out.table(f"TileOperationDATRPadUnion({operation}) => TileDATRPadUnion", "operation",
              ((i, ret(f"TileDATRPadUnion_{camel(op['datr_contract']['pad_union'])}")) for i, op in enum), None)
    out(f"pure func TileOperationDATRFieldsLegal({operation}, c_mode: bits(3), pad_value_or_byte_id: bits(2),",
        "    saturating: boolean, canonicalize: boolean, data_type: bits(5), rounding_mode: bits(3),",
        "    data_layout: bits(5)) => boolean", "begin")
    for name, nonzero in DATR_FIELDS:
        out(f"    if {nonzero} && !TileOperationDATRFieldApplicable(operation, TileDATRField_{name}) then "
            "return FALSE; end;")
    out("    return TRUE;", "end;", "")
    carriers = {}
    for i, row in enumerate(command):
        ops = [op for op in tile if op["command_mnemonic"] == row["mnemonic"]]
        if ops:
            carriers[i] = (row, ops)
    form = "form: integer {0..PTO_COMMAND_FORM_COUNT-1}"
    out.table(f"CommandFormSelectsTileOperation({form}) => boolean", "form",
              ((i, "return TRUE;") for i in carriers), "return FALSE;")

    def family(ops: list[dict]) -> str:
        families = {op["family"] for op in ops}
        if len(families) != 1:
            raise DecodersUnavailable(f"{ops[0]['command_mnemonic']} carries tile operations of several families")
        return families.pop()
    out.table(f"CommandTileFamilyOfForm({form}) => TileDecodeFamily", "form",
              ((i, ret(f"TileDecode_{family(ops)}")) for i, (_, ops) in carriers.items()), None)

    def code(ops: list[dict]) -> str:
        if family(ops) == "TEPL":  # the carrier's Mode and Function fields select the operation
            return ("var code = Zeros{12};\n"
                    "code[6:5] = DecodeCommandOperandRaw(instruction, form, CommandField_Mode)[1:0];\n"
                    "code[4:0] = DecodeCommandOperandRaw(instruction, form, CommandField_Function)[4:0];\n"
                    "return code;")
        if len(ops) != 1:
            raise DecodersUnavailable(f"{ops[0]['command_mnemonic']} carries several tile operations")
        return ret(bits(ops[0]["function"], 12))
    out.table(f"CommandTileCodeOfForm(instruction: bits(64), {form}) => bits(12)", "form",
              ((i, code(ops)) for i, (_, ops) in carriers.items()), None)
    out.table(f"CommandTileDataTypeOfForm(instruction: bits(64), {form}) => bits(5)", "form",
              ((i, "return DecodeCommandOperandRaw(instruction, form, CommandField_DataType)[4:0];")
               for i in carriers), None)
    out.table(f"TileOperationOfIndex({operation}) => TileOperation", "operation",
              ((i, ret(f"TileOperation_{ident(op['name'])}")) for i, op in enum), None)
    out.table(f"TileHandlerOfIndex({operation}) => TileSemanticHandler", "operation",
              ((i, ret(f"TileHandler_{ident(op['semantic_handler'])}")) for i, op in enum), None)
    out.table(f"TileClassOfIndex({operation}) => TileInstructionClass", "operation",
              ((i, ret(f"TileClass_{camel(op['classification'])}")) for i, op in enum), None)
    out.table(f"TileEngineOfIndex({operation}) => TileExecutionEngine", "operation",
              ((i, ret(f"TileEngine_{op['engine']}")) for i, op in enum), None)
    out.table(f"TileOperationUsesTEPLCarrier({operation}) => boolean", "operation",
              ((i, "return TRUE;") for i, op in enum if op["family"] == "TEPL"), "return FALSE;")
    out(f"pure func TileTEPLAliasAcceptsOperation(alias: TileTEPLAssemblyAlias, {operation}) => boolean", "begin",
        "    if !TileOperationUsesTEPLCarrier(operation) then return FALSE; end;",
        "    if alias == TileTEPLAlias_TEPL then return TRUE; end;",
        "    if alias == TileTEPLAlias_VEC then return TileEngineOfIndex(operation) == TileEngine_VEC; end;",
        "    return TileEngineOfIndex(operation) == TileEngine_SFU;", "end;", "",
        f"pure func TileCanonicalTEPLAliasOfIndex({operation}) => TileTEPLAssemblyAlias", "begin",
        "    assert TileOperationUsesTEPLCarrier(operation);",
        "    if TileEngineOfIndex(operation) == TileEngine_VEC then return TileTEPLAlias_VEC; end;",
        "    assert TileEngineOfIndex(operation) == TileEngine_SFU;",
        "    return TileTEPLAlias_SFU;", "end;", "")
    out.table(f"TileOperandPresent({operation}, field: TileOperandField) => boolean", "operation",
              ((i, ret(" || ".join(f"field == TileOperand_{ident(o['field'])}" for o in op["operands"])))
               for i, op in enum if op["operands"]), "return FALSE;")
    index_of = {f"tile:{op['family']}:{op['name']}": i for i, op in enum}
    out(f"pure func TileOperationRejectedByAcceptedApplicabilityRules(rules: NumericApplicabilityRuleSet, "
        f"{operation}) => boolean", "begin")
    for rule in rules:
        if rule.get("disposition") != "unsupported-in-profile" or rule.get("result_rule_id") is not None:
            raise DecodersUnavailable(f"numeric applicability rule {rule.get('operation_key')}: only fail-closed "
                                      "rejections are supported")
        rule_set = NUMERIC_RULE_SETS.get(rule["profile_id"])
        if rule_set is None:
            raise DecodersUnavailable(f"numeric applicability profile {rule['profile_id']!r} has no rule set of the model")
        out(f"    if rules == {rule_set} && operation == {index_of[rule['operation_key']]} then return TRUE; end;")
    out("    return FALSE;", "end;", "")
    _tile_dispatch(out, tile)


def _tile_dispatch(out: Out, tile: list[dict]) -> None:
    reject = lambda fault: ["    " * 4 + f"SetFault({fault}, ReadPC());",  # noqa: E731
                            "    " * 4 + "return (TileExecution_Rejected, Zeros{PTO_XLEN});"]
    out("func ExecuteTileInstructionWithoutTimeWithAcceptedApplicabilityRules(rules: NumericApplicabilityRuleSet,",
        "    family: TileDecodeFamily, code: bits(12), operands: TileInstructionOperands) => (TileExecutionStatus, Word)",
        "begin",
        "    let operation = DecodeTileOperation(family, code);",
        "    if operation == PTO_TILE_OPERATION_COUNT then",
        "        SetFault(Fault_IllegalInstruction, ReadPC());",
        "        return (TileExecution_Rejected, Zeros{PTO_XLEN});",
        "    end;",
        "    let accepted_operation = operation as integer {0..PTO_TILE_OPERATION_COUNT-1};",
        "    if TileOperationRejectedByAcceptedApplicabilityRules(rules, accepted_operation) then",
        "        SetFault(Fault_IllegalInstruction, ReadPC());",
        "        return (TileExecution_Rejected, Zeros{PTO_XLEN});",
        "    end;",
        "    let numeric_control = ResolveTileNumericExecutionControl(accepted_operation, operands);",
        "    case TileOperationOfIndex(accepted_operation) of")
    for op in tile:
        handler = op["semantic_handler"]
        args = ", ".join(_tile_argument(a) for a in op["arguments"])
        out(f"        when TileOperation_{ident(op['name'])} =>")
        if handler not in LEGALITY_OWNS_SOURCE_DEFINEDNESS:
            sources = [o["field"] for o in op["operands"] if o["field"].startswith("source") or o["role"] == "bias"]
            if sources:
                out("            if " + " || ".join(f"!TileSourceContentsDefined(operands.{s})" for s in sources) + " then",
                    *reject("Fault_TileLegality"), "            end;")
        legality = op.get("legality_handler") or f"TileOperandsLegal_{handler}"
        out(f"            if !{legality}({args}) then", *reject("Fault_TileLegality"), "            end;")
        if op.get("result") == "value":
            out(f"            let value = {handler}({args});")
            result = "value"
        else:
            out(f"            {handler}({args});")
            result = "Zeros{PTO_XLEN}"
        out("            if _LastFault != Fault_None then",
            "                return (TileExecution_Rejected, Zeros{PTO_XLEN});",
            "            end;",
            f"            return (TileExecution_Executed, {result});")
    out("    end;", "end;", "",
        "func ExecuteTileInstructionWithoutTime(family: TileDecodeFamily, code: bits(12),",
        "    operands: TileInstructionOperands) => (TileExecutionStatus, Word)", "begin",
        "    return ExecuteTileInstructionWithoutTimeWithAcceptedApplicabilityRules(",
        "        NumericApplicabilityRules_None, family, code, operands);", "end;", "",
        "func ExecuteTileInstruction(family: TileDecodeFamily, code: bits(12),",
        "    operands: TileInstructionOperands) => (TileExecutionStatus, Word)", "begin",
        "    BeginArchitecturalInstructionAttempt();",
        "    return ExecuteTileInstructionWithoutTimeWithAcceptedApplicabilityRules(",
        "        NumericApplicabilityRules_None, family, code, operands);", "end;", "")


def describe(text: str) -> dict[str, Any]:
    """Counts of a generated decoder text (for reports)."""
    return {"lines": text.count("\n"), "functions": len(re.findall(r"^(?:pure |readonly )?func ", text, re.M))}
