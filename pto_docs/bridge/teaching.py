"""Teaching scenarios: pto-docs' own worked example of every instruction, composed from its syntax and operands.

For a scalar or block instruction a scenario is a line of assembly made from one of its forms' syntaxes
(``isa.assembler``): every source register slot gets a register of its own (``a0``, ``a1``, ...) holding a small,
distinct value (7, 5, 3, 2; FP values for an FP instruction of a ``.fs``/``.fd`` type), a destination slot ``->a4``,
an immediate a mid-range value (negative where the field is signed), a named value its first name, and a register
written inside ``[...]`` an aligned address (0x200) of memory holding recognisable bytes (0x11, 0x22, ...). The
line is assembled and must decode back to the same unit. A frame instruction's syntax (``sp!``) gets a stack of its
own (``teaching_stack``: the stack pointer at an aligned address, a range that avoids it, the slots' memory). For a
tile operation the scenario calls the semantic handler its catalog record names, with small tiles of a few elements
of a named data type.

Each unit gets a few :class:`Scenario` variants (other values, other data types), then fallbacks (every immediate
0, the zero register as first source), then all of them inside each kind of block body (:data:`BUNDLE_PRELUDES`:
standard, conditional, system, a header, ring 2, a saved trap context); a scenario's ``condition`` names what set it
apart, for the page to say why a fault example faulted. The runner (``teaching_run``) runs them in order on the
spec's ASL model and keeps the first with a visible effect; :class:`Scenarios` composes them as it asks.
This module only composes: it runs nothing.
"""

from __future__ import annotations

import dataclasses
import re
import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ..isa.assembler import AsmError, Assembler
from ..isa.assembler.spelling import CONVERSIONS, DEST_NAMES, SOURCE_CODE, SOURCE_NAMES
from ..isa.assembler.syntax import Slot, Syntax
from ..isa.encoding import form_fields
from ..model.catalog import Unit
from ..store.memo import Memo
from . import teaching_stack as stack

CASE_SCHEMA = "pto-docs.case.v2"
SOURCE_REGS = (2, 3, 4, 5, 6, 7)  # a0..a5
DEST_REGS = (6, 7)  # a4, a5
INT_VALUES = ((7, 5, 3, 2, 9, 11), (3, 12, 6, 4, 8, 10), (0xF0, 0xF0, 5, 2, 1, 6))
FP_VALUES = ((1.5, 2.25, -0.5, 4.0), (6.0, 0.75, 3.0, 2.0))
MEMORY_BASE = 0x200
DEST_OLD = 99  # a destination register's value before the example
QUEUE_VALUES = (6, 4, 10, 14)  # pushed on the t/u queue for a fixed t#1.. source (t#1 is 6)
MEMORY_BYTES = tuple((0x11 * (i % 15 + 1) + i // 15) & 0xFF for i in range(32))  # 0x11, 0x22, ... 0xff, 0x12 ...
# the memory of the other value sets: positive 0x7856341278563412 words, then a small 2 (an atomic min/max that
# keeps memory's value with the first still shows an effect with one of these)
MEMORY_BY_VARIANT = (MEMORY_BYTES, (0x12, 0x34, 0x56, 0x78) * 8, (0x02,) + (0,) * 31)
# a register whose contract role says it holds a byte address (DMA's SrcR "destination byte-address source",
# MCOPY's RegSrc1 "absolute GPR containing source byte address") points at a region of its own, aligned and apart
# from the memory operands' 0x200 and the frames' stack below 0x400: a source at 0x300 holding 64 recognisable bytes
# (DMA copies 64), a destination at 0x600 holding the model's reset zeros, so what it writes there shows
ADDRESS_REGIONS = {"source": 0x300, "destination": 0x600}
ADDRESS_SPAN = 64
# (0x11, 0x22 ... 0xff, then 0x12, 0x23 ... 0xef, then 0x13 ...: 0x11 * k + r for r = 0, 1, ..., each below 0x100, so
# 64 distinct bytes and none zero: every byte copied to the destination's zeros shows, at one place only)
ADDRESS_BYTES = (tuple(b for r in range(16) for k in range(1, 16) if (b := 0x11 * k + r) <= 0xFF)[:ADDRESS_SPAN],
                 (0x12, 0x34, 0x56, 0x78) * (ADDRESS_SPAN // 4), (0x02,) + (0,) * (ADDRESS_SPAN - 1))
BYTE_ADDRESS_ROLE = re.compile(r"\bbyte[- ]address\b", re.IGNORECASE)
DESTINATION_ROLE = re.compile(r"\bdestination\b", re.IGNORECASE)
# the blocks an instruction that only runs inside one is run in (as the AVS tests set them up): a standard block's
# body, a conditional block's body (SETC.*), a system block's body, and a block header (B.* descriptors)


def _bundle(kind: str, transfer: str, body: bool) -> tuple[str, ...]:
    return ("SetCurrentACR(0);", "WriteTPC(Zeros{PTO_XLEN} + 0x100);",
            f"BeginBundle(BundleKind_{kind}, BundleTransfer_{transfer}, Zeros{{PTO_XLEN}}, "
            "Zeros{PTO_XLEN} + 0x180, Zeros{PTO_XLEN}, FALSE);") + (("EnterBundleBody();",) if body else ())


BUNDLE_PRELUDES = (_bundle("Standard", "Fallthrough", True), _bundle("Standard", "Conditional", True),
                   _bundle("System", "Fallthrough", True), _bundle("Standard", "Fallthrough", False),
                   # a system block's body entered from access-control ring 2 (ACRC's service request to ring 1)
                   _bundle("System", "Fallthrough", True) + ("SetCurrentACR(2);",),
                   # a system block's body with a saved trap context of ring 0 to return to (ACRE recovers it)
                   ("SetCurrentACR(0);", "WriteTPC(Zeros{PTO_XLEN} + 0x240);", "SaveTrapContext(0, 0);",
                    "ClearFault();") + _bundle("System", "Fallthrough", True)[1:])
# what a prelude says of the state the example starts in, when it is more than "in a block body": the code of the
# condition a fault example names (labels teaching.conditions.*)
PRELUDE_CONDITIONS = ("", "", "", "", "ring_2", "saved_context")
# where an example that is not placed otherwise (a block body, a PC-relative access) starts: the program counter
# of a branch, a jump or a PC-relative result is an address, and its scenarios' immediates (-12 halfwords, -12
# pages of ADDTPC) keep it one from here (from pc 0, J -12 went to 0xffffffffffffffe8)
START_PC = 0x10000
RESERVED = "reserved-in-pto"  # a form's status: the encoding is reserved, every use raises Illegal Instruction
# the fallback value sets tried after the ordinary ones: every free immediate 0 (encoded zero is an assigned value:
# SSRGET 0 reads the first system register, where 12, 5 and 2 are unknown addresses), and the first source register
# the zero register (ASSERT's purpose is the fault it raises on a zero value)
ZERO_IMMEDIATES, ZERO_SOURCE = "zero-immediates", "zero-source"
BUNDLE_PRELUDE = BUNDLE_PRELUDES[0]
TILE_TYPES = ("S32", "FP32", "S16", "FP16", "U8", "U32")
TILE_SHAPE = (2, 4)  # valid rows x columns of every tile a scenario makes
TILE_ROWS = 8  # physical rows (power of two, room for the valid region)


@dataclass(frozen=True)
class Operand:
    """One operand of a scenario as the syntax names it: ``a0`` (register), ``-12`` (immediate), ``T1`` (tile)."""

    name: str  # as written: a0, ->a4, -12, T#1, [a0]
    kind: str  # source | destination | immediate | memory | tile | name
    location: str = ""  # the model state it lives in: _PEGPRs[0][2], _Tiles[1]
    value: str = ""  # what the scenario put there, typed (7, 1.5, 0x200)
    data_type: str = ""  # FP32, S32 ... for a typed value


@dataclass(frozen=True)
class Scenario:
    unit_id: str
    mnemonic: str
    surface: str
    asm: str  # the concrete assembly (scalar/block), or the tile operation's command line
    setup: tuple[str, ...]
    instruction: Mapping  # the v2 case's instruction: {"asm": ...} or {"call": ..., "arguments": [...]}
    reads: tuple[str, ...] = ()
    operands: tuple[Operand, ...] = ()
    data_type: str = ""  # the data type of an FP or tile scenario (of the sources)
    result_type: str = ""  # the FP type of a scalar destination ('' for an integer result)
    variant: int = 0
    tiles: tuple = field(default=())  # (index, role, data type, rows, cols, grid) of each tile it sets up
    in_bundle: bool = False  # run inside a block body (BUNDLE_PRELUDE)
    hint: bool = False  # an operation with no architectural result (a prefetch): a run with no change is its example
    condition: str = ""  # what sets the example apart, the codes of its fault's condition ("zero_source+ring_2")
    # a frame scenario (``sp!``) whose model reads its stack pointer from another register than the one the names
    # call sp: (the model's register, the named sp, the model's constant, its unit's path, line); () otherwise
    stack: tuple = ()
    # the bytes of one memory access (the form's catalog ``agu.size_bytes``; a frame's slot): the page shows the
    # memory it changed as values of this size (0: unknown, shown byte by byte)
    access: int = 0
    # inputs set as a caller would leave them that the instruction may not read (a restore's ra and the model's copy
    # of it, which only a return reads): their setup lines and operand names; the runner shows the scenario without
    # them when it has the same effect without them (teaching_run)
    assumed: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    def without_assumed(self) -> Scenario:
        """This scenario without its :attr:`assumed` inputs."""
        lines, names = self.assumed
        setup = list(self.setup)
        for line in lines:
            if line in setup:
                setup.remove(line)
        return dataclasses.replace(self, setup=tuple(setup), operands=tuple(o for o in self.operands
                                                                            if o.name not in names), assumed=((), ()))

    def case(self) -> dict:
        case = {"schema": CASE_SCHEMA, "profile": "ieee", "setup": list(self.setup),
                "instruction": dict(self.instruction)}
        if self.reads:
            case["read"] = list(self.reads)
        return case


def word(value: int) -> str:
    return f"Zeros{{PTO_XLEN}} + 0x{value & (1 << 64) - 1:x}"


def fp_bits(value: float, data_type: str) -> int:
    if data_type == "FP64":
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if data_type == "FP16":
        return struct.unpack("<H", struct.pack("<e", value))[0]
    return struct.unpack("<I", struct.pack("<f", value))[0]



# FP instructions whose destination is an integer (a comparison's truth, a class, a conversion to integer)
INTEGER_RESULT = re.compile(r"^(feq|fne|flt|fle|fgt|fge|fclass|fcmp|fcvt[amnpz])", re.IGNORECASE)


def _fp_type(syn: Syntax, values: Mapping[str, int]) -> str:
    """The FP type of the sources (FP32/FP64), or '' for integer sources."""
    if syn.suffix_kind == "type":
        return "FP64" if values.get("SrcType", 0) == 0 else "FP32"
    if syn.suffix_kind == "conv" and str(syn.base).lower().startswith("fcvt"):
        return "FP64" if values.get("SrcType", 0) == 0 else "FP32"
    return ""


def _result_type(syn: Syntax, values: Mapping[str, int], source_type: str) -> str:
    """The FP type of the destination, or '' for an integer result."""
    if INTEGER_RESULT.match(str(syn.base)):
        return ""
    if syn.suffix_kind == "conv":
        kinds = CONVERSIONS.get(str(syn.base).lower())
        if kinds is None or kinds[1] != "fp":
            return ""
        return "FP64" if values.get("DstType", 0) == 0 else "FP32"
    return source_type


def _imm_value(slot: Slot, width: int, variant: int) -> int:
    """A mid-range immediate: negative where signed; the encoded field value (bias and sign applied)."""
    if slot.signed:
        want = (-12, 9, 2)[variant % 3]
        low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
        value = max(low, min(high, want if width > 4 else -1))
        return value & ((1 << width) - 1)
    want = (12, 5, 2)[variant % 3] if width > 4 else min(3, (1 << width) - 1)
    value = max(slot.bias, min((1 << width) - 1 + slot.bias, want))
    return value - slot.bias


def _widths(form: Mapping) -> dict[str, int]:
    return {f["name"]: f["width"] or sum(p[2] for p in f["pieces"]) for f in form_fields(form)}


def _steps(form: Mapping) -> dict[str, int]:
    """The step of each field's values: 8 for an offset whose encoding starts at value bit 3 (FENTRY's uimm)."""
    # (capped: a hostile value_lsb of 10**12 must not make a 10**12-bit number; no field is wider than 64 bits)
    return {f["name"]: 1 << min(64, min((p[1] for p in f["pieces"]), default=0)) for f in form_fields(form)}


def _aligned(value: int, step: int, width: int, signed: bool) -> int:
    """``value`` (an encoded field value) rounded away from zero to a multiple of ``step``, kept in range."""
    if step <= 1:
        return value
    if signed and value >> (width - 1) & 1:
        value -= 1 << width
    rounded = -(-abs(value) // step) * step * (1 if value >= 0 else -1)
    limit = (1 << (width - 1 if signed else width)) - 1
    while abs(rounded) > limit:
        rounded -= step if rounded > 0 else -step
    return rounded & ((1 << width) - 1)


class Scenarios(Sequence):
    """A unit's scenarios in the order they are tried, composed as they are asked for: the runner stops at the first
    with a visible effect, so most instructions never compose their fallbacks or block-body retries (on 0.58.3 the
    full lists hold about 15,000 scenarios). Indexing from the end, slicing or ``len`` composes them all."""

    def __init__(self, parts: Iterator[Scenario]):
        self._done: list[Scenario] = []
        self._rest: Iterator[Scenario] | None = parts

    def _upto(self, index: int | None) -> None:
        while self._rest is not None and (index is None or len(self._done) <= index):
            try:
                self._done.append(next(self._rest))
            except StopIteration:
                self._rest = None

    def __iter__(self) -> Iterator[Scenario]:
        i = 0
        while True:
            self._upto(i)
            if i >= len(self._done):
                return
            yield self._done[i]
            i += 1

    def __getitem__(self, index):
        self._upto(index if isinstance(index, int) and index >= 0 else None)
        return self._done[index]

    def __len__(self) -> int:
        self._upto(None)
        return len(self._done)

    def __bool__(self) -> bool:
        self._upto(0)
        return bool(self._done)


def scalar_scenarios(assembler: Assembler, unit: Unit, variants: int = 3) -> Scenarios:
    """Scenarios of a scalar or block instruction: per usable syntax of its forms, ``variants`` value sets and the
    fallbacks, then all of them again inside each kind of block body (composed as the runner asks for them)."""
    return Scenarios(_scalar_scenarios(assembler, unit, variants))


def _scalar_scenarios(assembler: Assembler, unit: Unit, variants: int) -> Iterator[Scenario]:
    out: list[Scenario] = []  # (as composed: the block-body retries put them where their prelude's block is)
    declared, from_pc = contract_facts(unit)  # (declared: for a form whose record gives no size)
    roles = address_roles(unit)  # (once per unit: every value set of every syntax reads them)
    start = pc_writer(assembler.catalog)
    start = (f"{start}({word(START_PC)});",) if start else ()

    def placed(s: Scenario) -> Scenario:  # at START_PC, unless its setup writes the program counter itself
        if not start or any(line.startswith(PC_WRITERS) for line in s.setup):
            return s
        return dataclasses.replace(s, setup=start + s.setup)
    for form in unit.catalog_records:
        if not (isinstance(form, Mapping) and "encoding" in form):
            continue
        shape = _widths(form), _steps(form)  # (once per form: every value set of every syntax reads them)
        for syn in assembler.syntax_of(unit, form):
            if syn.problem:
                continue
            made: list[Scenario] = []
            for variant in range(variants):
                found = _compose(assembler, unit, form, syn, variant, shape=shape, declared=declared, roles=roles)
                if found is not None:
                    made.append(found := _pc_result(found) if from_pc else found)
                    yield placed(found)
            for n, mode in enumerate((ZERO_IMMEDIATES, ZERO_SOURCE)):
                fallback = _compose(assembler, unit, form, syn, 0, mode, shape, declared, roles)
                if fallback is not None and fallback.asm not in {m.asm for m in made}:
                    made.append(dataclasses.replace(_pc_result(fallback) if from_pc else fallback, variant=variants + n))
                    yield placed(made[-1])
            out += made
    # the same again inside a block body, for an instruction that faults outside one (SETC.*, B.* ...)
    stride = variants + 2
    for i, prelude in enumerate(BUNDLE_PRELUDES):
        for s in out:
            yield dataclasses.replace(s, setup=prelude + s.setup, variant=s.variant + stride * (i + 1), in_bundle=True,
                                      condition="+".join(c for c in (s.condition, PRELUDE_CONDITIONS[i]) if c))


def _compose(assembler: Assembler, unit: Unit, form: Mapping, syn: Syntax, variant: int,
             mode: str = "", shape: tuple[dict, dict] | None = None, declared: int = 0,
             roles: Mapping[str, str] | None = None) -> Scenario | None:
    widths, steps = shape or (_widths(form), _steps(form))
    values: dict[str, int] = dict.fromkeys(widths, 0)
    chosen: dict[str, list] = {}  # the values a one-of constraint allows a field (ACRE's rra_type: 0 or 1)
    for c in form.get("constraints") or ():
        if isinstance(c, Mapping) and c.get("operator") == "one-of" and c.get("values"):
            values[c["field"]] = list(c["values"])[min(variant, len(c["values"]) - 1)]
            chosen[c["field"]] = list(c["values"])
    values.update(syn.fixed)
    if syn.suffix_kind == "type":
        values["SrcType"] = 1  # .fs: FP32
    elif syn.suffix_kind in ("enum", "conv") and syn.suffix_codes:
        code = sorted(syn.suffix_codes.values())[0]
        if syn.suffix_kind == "conv":
            values["SrcType"], values["DstType"] = code >> 8, code & 0xFF
        else:
            values[next(iter(syn.suffix_fields.values()))] = code
    sources, dests = iter(SOURCE_REGS), iter(DEST_REGS)
    operands: list[Operand] = []
    memory_regs: dict[int, str] = {}
    frame = any(sl.kind == "lit" and sl.text == "sp!" for sl in _flat(syn.slots))  # saves/restores at sp
    stack_regs, model_sp = stack.stack_registers(assembler.catalog, SOURCE_CODE["sp"]) if frame else ((), None)
    in_memory = False
    for slot in syn.slots:
        if slot == "[":
            in_memory = True
            continue
        if slot == "]":
            in_memory = False
            continue
        if not isinstance(slot, Slot):
            continue
        _fill(slot, values, widths, sources, dests, variant, in_memory, memory_regs, chosen, mode,
              frozenset(stack_regs))
    if mode and not _changed_by(mode, syn, chosen):
        return None
    if frame and mode != ZERO_IMMEDIATES:
        _frame_size(syn, values, widths, chosen, variant)
    for name, step in steps.items():
        if step > 1 and name in values and name not in chosen and isinstance(values[name], int):
            signed = any(isinstance(sl, Slot) and sl.field == name and sl.signed for sl in _flat(syn.slots))
            values[name] = _aligned(values[name], step, widths[name], signed)
    try:
        text = assembler.render(syn, values)
        done = assembler.assemble(text)
    except (AsmError, StopIteration, KeyError):
        return None
    hits = assembler.decoder.decode(done.word, done.length_bits)
    if not hits or hits[0][0] is not unit:
        return None
    fields = dict(done.fields)
    fp = _fp_type(syn, fields)
    result = _result_type(syn, fields, fp)
    setup, operands = _register_setup(syn, fields, fp, variant, memory_regs, result,
                                      address_roles(unit) if roles is None else roles)
    assumed: tuple = ((), ())
    if frame:
        ra_copy = stack.register_mirror(assembler.catalog, SOURCE_CODE["ra"])
        more_setup, more_operands, assumed = _frame_setup(syn, fields, stack_regs, variant, ra_copy)
        setup, operands = more_setup + setup, more_operands + operands
    if mode == ZERO_SOURCE:  # the zero register is an operand too (its 0 is the point of the example)
        operands.insert(0, Operand("zero", "source", "_PEGPRs[0][0]", "0"))
    condition = "+".join(c for c in ("reserved" if form.get("status") == RESERVED else "",
                                     "zero_source" if mode == ZERO_SOURCE else "") if c)
    note = (model_sp.index, SOURCE_CODE["sp"], model_sp.constant, model_sp.path, model_sp.line) if model_sp else ()
    return Scenario(unit.id, unit.mnemonic or "", unit.surface, text, tuple(setup), {"asm": text},
                    operands=tuple(operands), data_type=fp, variant=variant, result_type=result, condition=condition,
                    stack=note, access=stack.SLOT_BYTES if frame else access_size(form) or declared,
                    assumed=assumed)


PC_WRITERS = ("WriteTPC(", "WritePC(")  # the model's subprograms that set the program counter (preferred first)
# (declared with one parameter and no result, as a scenario calls it: another signature would fail every setup)
_PC_WRITER = re.compile(r"^[ \t]*func[ \t]+(WriteTPC|WritePC)[ \t]*\([^,\n]*\)[ \t]*$", re.M)


def pc_writer(catalog) -> str:
    """The subprogram of the model (a unit that is no instruction) a scenario sets its start pc with: WriteTPC, as
    the block preludes do, else WritePC; '' when the model declares neither (the example starts at the model's
    reset pc)."""
    return _PC_WRITERS.of(catalog, lambda: _pc_writer(catalog))


def _pc_writer(catalog) -> str:
    found = {m.group(1) for u in catalog.units.values() if not u.is_instruction and "func" in u.file.text
             for m in _PC_WRITER.finditer(u.file.text)}
    return next((w[:-1] for w in PC_WRITERS if w[:-1] in found), "")


_PC_WRITERS = Memo(__name__, "a catalog -> the subprogram its model sets the pc with (Memo.of)", limit=4)


def access_size(form: Mapping) -> int:
    """The bytes of the form's memory access as its catalog record says (``agu.size_bytes``: 1, 2, 4 or 8); 0 when
    it does not say (an atomic, a block memory command, a form of another family)."""
    agu = form.get("agu")
    size = agu.get("size_bytes") if isinstance(agu, Mapping) else None
    return size if type(size) is int and size in (1, 2, 4, 8) else 0


# an instruction contract's size of its memory access, as the model declares it in the instruction's own unit:
# ``pure func InstructionContractAtomicSizeBytes_LD_ADD() => integer {1,2,4,8} begin return 8; end;`` (Atomic,
# Compare, Load, Store, AGU ...); a comment, a metadata line or a string literal is no declaration
# (a string, a line comment, a block comment; one left open runs to its line's or the text's end, a string's even
# after a lone backslash there: every alternative matches where it starts, so hostile text is linear)
NOT_CODE = re.compile(r'"(?:[^"\\\n]|\\.)*(?:"|\\?$)|//[^\n]*|/\*.*?(?:\*/|\Z)', re.S | re.M)
CONTRACT_SIZE = re.compile(r"\bfunc\s+InstructionContract[A-Za-z]*SizeBytes_([A-Za-z0-9_]+)\s*\(\s*\)"
                           r"[^;]{0,200}?\bbegin\s+return\s+(\d{1,3})\s*;")


def contract_access(text: str, mnemonic: str) -> int:
    """The bytes of an instruction's memory access as its ASL contract declares them (an atomic's record has no
    ``agu``: LD.ADD's ``InstructionContractAtomicSizeBytes_LD_ADD`` returns 8, SWAPW's 4, CASH's compare 2): the one
    size (1, 2, 4 or 8) every such function of this mnemonic returns; 0 when there is none, or sizes that differ
    (DMA's 64-byte copy in 8-byte chunks) -- the page then shows the bytes one by one."""
    own = _contract_name(mnemonic)
    code = NOT_CODE.sub(" ", text)
    sizes = {int(m.group(2)) for m in CONTRACT_SIZE.finditer(code) if m.group(1) == own}
    return sizes.pop() if len(sizes) == 1 and sizes <= {1, 2, 4, 8} else 0


def _contract_name(mnemonic: str) -> str:
    """The mnemonic as the contract's function names spell it (LD.ADD: ``..._LD_ADD``)."""
    return re.sub(r"[^A-Za-z0-9]+", "_", mnemonic)


# an instruction contract's declaration that its result is computed from the instruction's TPC (ADDTPC, SETRET:
# ``pure func InstructionContractUsesTPC_ADDTPC() => boolean begin return TRUE; end;``)
CONTRACT_USES_PC = re.compile(r"\bfunc\s+InstructionContractUsesTPC_([A-Za-z0-9_]+)\s*\(\s*\)"
                              r"[^;]{0,200}?\bbegin\s+return\s+(TRUE|FALSE)\s*;")


def contract_uses_pc(text: str, mnemonic: str) -> bool:
    """Whether an instruction's ASL contract declares that it computes from its TPC (every such function of this
    mnemonic returns TRUE): its register result is then an address (ADDTPC's a4 = 0x4000, not 16384)."""
    if "InstructionContractUsesTPC_" not in text:  # (most units: no stripping of their comments)
        return False
    own = _contract_name(mnemonic)
    said = {m.group(2) for m in CONTRACT_USES_PC.finditer(NOT_CODE.sub(" ", text)) if m.group(1) == own}
    return said == {"TRUE"}


def contract_facts(unit: Unit) -> tuple[int, bool]:
    """(:func:`contract_access`, :func:`contract_uses_pc`) of an instruction unit, made once per unit text (the
    scenarios and teaching_keys.scenarios_digest both read them)."""
    key = (unit.file.sha256, unit.mnemonic or "")
    found = _CONTRACTS.get(key)
    if found is None:
        found = _CONTRACTS[key] = (contract_access(unit.file.text, key[1]), contract_uses_pc(unit.file.text, key[1]))
    return found


_CONTRACTS = Memo(__name__, "(a unit file's sha256, its mnemonic) -> what its ASL contract declares for its example "
                  "(contract_facts)", limit=8192)


def _pc_result(s: Scenario) -> Scenario:
    """A scenario whose untyped destination registers are addresses (a result computed from the TPC)."""
    return dataclasses.replace(s, operands=tuple(
        dataclasses.replace(o, data_type="address") if o.kind == "destination" and not o.data_type else o
        for o in s.operands))


def _changed_by(mode: str, syn: Syntax, chosen) -> bool:
    """Whether a fallback value set changes anything of this syntax (a free immediate, a plain source register)."""
    slots = list(_flat(syn.slots))
    if mode == ZERO_IMMEDIATES:
        return any(s.kind == "imm" and not s.in_memory for s in slots)
    return any(s.kind == "reg" and not s.in_memory for s in slots)


def _fill(slot: Slot, values: dict, widths: dict, sources, dests, variant: int, in_memory: bool,
          memory_regs: dict[int, str], chosen: Mapping[str, list] | None = None, mode: str = "",
          avoid: frozenset = frozenset()) -> None:
    """Fill ``slot``'s fields in ``values``; ``avoid``: the stack pointer registers of a frame syntax (``sp!``),
    which its register range must not name."""
    chosen = chosen or {}
    kind = slot.kind
    if kind == "reg":
        reg = next(sources)
        if mode == ZERO_SOURCE and not (in_memory or slot.in_memory) and reg == SOURCE_REGS[0]:
            reg = 0  # the zero register: the first source reads 0
        values[slot.field] = reg
        if in_memory or slot.in_memory:  # the first is the base; a second register is an index
            memory_regs[reg] = "index" if memory_regs else "base"
        if slot.modifier:
            values[slot.modifier] = slot.modifier_codes.get("", 3)
        if slot.shift:
            values[slot.shift] = 0
    elif kind == "dest":
        values[slot.field] = next(dests)
    elif kind == "imm" and slot.field in widths and slot.field in chosen:  # the usual value where it is allowed
        want = 0 - slot.bias if mode == ZERO_IMMEDIATES else _imm_value(slot, widths[slot.field], variant)
        if want in chosen[slot.field]:
            values[slot.field] = want
    elif kind == "imm" and slot.field in widths:
        if in_memory or slot.in_memory:  # an offset: small, positive, aligned for every access size
            values[slot.field] = min((1, 8)[variant % 2], (1 << widths[slot.field]) - 1) - slot.bias
        else:
            values[slot.field] = 0 - slot.bias if mode == ZERO_IMMEDIATES and slot.bias <= 0 \
                else _imm_value(slot, widths[slot.field], variant)
    elif kind in ("enum", "named") and slot.names:
        names = sorted(set(slot.names.values()))
        values[slot.field] = names[min(variant, len(names) - 1)]
        values.update(slot.sets)
    elif kind == "range" and avoid:  # a frame's range: two registers, neither a stack pointer
        named = next(iter(slot.names.values()), None)  # "[ra ~ RegDstn]": it begins at ra
        values[slot.modifier], values[slot.field] = stack.frame_range(
            named, chosen.get(slot.modifier), chosen.get(slot.field), avoid)
    elif kind == "range":  # (a range of a syntax without sp!)
        # a0 ~ a1; the third value set ra ~ s0 (a range that starts at ra)
        values[slot.modifier], values[slot.field] = (10, 11) if variant % 3 == 2 else (2, 3)
    elif kind == "group-record":
        for part in slot.parts:
            _fill(part, values, widths, sources, dests, variant, in_memory, memory_regs, chosen, mode, avoid)


def _frame_size(syn: Syntax, values: dict, widths: Mapping[str, int], chosen: Mapping, variant: int) -> None:
    """The free immediate of a frame syntax is its frame size in bytes: 8 a register of its range (the second value
    set 16 more, a frame larger than its saved registers)."""
    slots = list(_flat(syn.slots))
    ranges = [s for s in slots if s.kind == "range" and s.modifier in values and s.field in values]
    count = sum(len(stack.range_registers(values[s.modifier], values[s.field])) for s in ranges)
    for s in slots:
        if s.kind == "imm" and not s.in_memory and s.field in widths and s.field not in chosen and count:
            size = 8 * count + (16 if variant % 3 == 1 else 0)
            if size - s.bias < 1 << widths[s.field]:
                values[s.field] = size - s.bias


def _frame_setup(syn: Syntax, fields: Mapping[str, int], stack_regs: Sequence[int],
                 variant: int, ra_copy: str | None = None) -> tuple[list[str], list[Operand], tuple]:
    """The stack of a frame syntax (``sp!``, see teaching_stack): its stack pointer register(s) at an aligned
    address, its range registers' values, and the memory of its slots. A restore whose slot zero is no return
    target (its range does not begin at ra) finds ra an even return target, and the model's copy of ra
    (``ra_copy``: 0.58.3's ``_ReturnAddress``, which FRET.RA returns through) the same, as a call would leave them;
    without them FRET.RA returned to 0. FEXIT reads neither: they are its assumed inputs (the third item: their setup
    lines and operand names, :attr:`Scenario.assumed`), which the runner drops where they change nothing."""
    setup: list[str] = []
    assumed: tuple = ((), ())
    operands: list[Operand] = []
    for reg in stack_regs:
        setup.append(f"WriteGPR({reg}, {word(stack.STACK_BASE)});")
        operands.append(Operand(SOURCE_NAMES[reg], "stack", f"_PEGPRs[0][{reg}]", f"0x{stack.STACK_BASE:x}"))
    slots = list(_flat(syn.slots))
    ranges = [s for s in slots if s.kind == "range" and s.modifier in fields and s.field in fields]
    frames = [fields[s.field] for s in slots if s.kind == "imm" and not s.in_memory and s.field in fields]
    if len(ranges) != 1 or len(frames) != 1:
        return setup, operands, assumed
    slot, frame = ranges[0], frames[0]
    regs = stack.range_registers(fields[slot.modifier], fields[slot.field])
    if not regs or not 0 < frame <= stack.MAX_FRAME:  # (a frame size a form's one-of list forces: no memory for it)
        return setup, operands, assumed
    if str(slot.field).startswith("Dst"):  # a restore: old values in the range, the saved values in the slots
        restores_ra = bool(slot.names) and "ra" in slot.names and regs[:1] == [slot.names["ra"]]
        words = stack.slot_words(len(regs), frame, restores_ra, variant)
        ra = SOURCE_CODE["ra"]
        if not restores_ra and ra_copy and ra not in regs:  # (a range holding ra restores ra itself)
            lines = (f"WriteGPR({ra}, {word(stack.RETURN_TARGET)});", f"{ra_copy} = {word(stack.RETURN_TARGET)};")
            setup += lines
            assumed = (lines, ("ra",))
            operands.append(Operand("ra", "source", f"_PEGPRs[0][{ra}]", f"0x{stack.RETURN_TARGET:x}", "address"))
        for i, reg in enumerate(regs):
            target = restores_ra and i == 0
            setup.append(f"WriteGPR({reg}, {word(DEST_OLD)});")
            operands.append(Operand(DEST_NAMES[reg], "destination", f"_PEGPRs[0][{reg}]",
                                    f"0x{DEST_OLD:x}" if target else str(DEST_OLD), "address" if target else ""))
        setup += stack.memory_setup(words)
        for address, value in sorted(words.items(), reverse=True):  # slot zero first
            operands.append(Operand(f"memory[0x{address:x}]", "slot", "",
                                    f"0x{value:x}" if value == stack.RETURN_TARGET else str(value)))
    else:  # a save: values in the range, recognisable bytes in the frame below the stack pointer
        for reg, value in zip(regs, stack.saved_values(len(regs), variant), strict=True):
            setup.append(f"WriteGPR({reg}, {word(value)});")
            operands.append(Operand(SOURCE_NAMES[reg], "source", f"_PEGPRs[0][{reg}]", str(value)))
        setup += stack.memory_setup({}, stack.STACK_BASE - frame, stack.STACK_BASE, MEMORY_BYTES)
    return setup, operands, assumed


def address_roles(unit: Unit) -> dict[str, str]:
    """The fields whose register the instruction's contract says holds a byte address (an operand's ``role``
    naming a "byte address" or "byte-address"), each 'destination' where the role says so, else 'source'."""
    out: dict[str, str] = {}
    found = unit.contract.get("operands") if isinstance(unit.contract, Mapping) else None
    for operand in found if isinstance(found, Sequence) and not isinstance(found, str) else ():
        if not isinstance(operand, Mapping):
            continue
        name, role = operand.get("field"), operand.get("role")
        if isinstance(name, str) and isinstance(role, str) and BYTE_ADDRESS_ROLE.search(role):
            out[name] = "destination" if DESTINATION_ROLE.search(role) else "source"
    return out


def _address_setup(reg: int, role: str, variant: int, setup: list[str], operands: list[Operand]) -> None:
    """A byte-address register (:data:`ADDRESS_REGIONS`): its region's address; a source's recognisable bytes."""
    at = ADDRESS_REGIONS[role]
    setup.append(f"WriteGPR({reg}, {word(at)});")
    operands.append(Operand(SOURCE_NAMES[reg], f"{role}_address", f"_PEGPRs[0][{reg}]", f"0x{at:x}"))
    if role == "source":
        setup += [f"WriteMemoryByte({word(at + i)}, Zeros{{8}} + 0x{b:02x});"
                  for i, b in enumerate(ADDRESS_BYTES[variant % len(ADDRESS_BYTES)])]


def _register_setup(syn: Syntax, fields: Mapping[str, int], fp: str, variant: int,
                    memory_regs: dict[int, str], result: str = "",
                    addresses: Mapping[str, str] | None = None) -> tuple[list[str], list[Operand]]:
    """``addresses``: the fields that hold a byte address (:func:`address_roles`), as source or destination."""
    addresses = addresses or {}
    setup: list[str] = []
    operands: list[Operand] = []
    ints = INT_VALUES[variant % len(INT_VALUES)]
    floats = FP_VALUES[variant % len(FP_VALUES)]
    n = 0
    memory_done = False
    if ".pcr" in syn.base.lower() or "pcr" in str(syn.form.get("form_id", "")).lower():
        setup.append(f"WritePC({word(MEMORY_BASE)});")  # a PC-relative access: the PC points at the memory
        setup += [f"WriteMemoryByte({word(MEMORY_BASE + i)}, Zeros{{8}} + 0x{b:02x});" for i, b in enumerate(MEMORY_BY_VARIANT[variant % 3])]
        memory_done = True
    for slot in _flat(syn.slots):
        queue = re.fullmatch(r"([tu])#([1-4])", slot.text.strip().lower()) if slot.kind == "lit" else None
        if queue:  # a fixed queue source (c.slli t#1, ...): push values so that entry exists
            hand, depth = queue.group(1), int(queue.group(2))
            for i in range(depth, 0, -1):  # the last push is #1
                value = QUEUE_VALUES[(i - 1) % len(QUEUE_VALUES)]
                setup.append(f"WriteScalarDestination({31 if hand == 't' else 30}, {word(value)});")
            operands.append(Operand(f"{hand}#{depth}", "source", "", str(QUEUE_VALUES[depth - 1])))
            continue
        if slot.kind == "reg" and slot.field in fields:
            reg = fields[slot.field]
            if reg == 0 or reg >= 24:
                continue
            location = f"_PEGPRs[0][{reg}]"
            if slot.field in addresses:
                _address_setup(reg, addresses[slot.field], variant, setup, operands)
                continue
            if memory_regs.get(reg) == "index":
                index = (8, 1)[variant % 2]  # (with no shift: an aligned offset for every access size)
                setup.append(f"WriteGPR({reg}, {word(index)});")
                operands.append(Operand(SOURCE_NAMES[reg], "source", location, str(index)))
                continue
            if reg in memory_regs:
                setup.append(f"WriteGPR({reg}, {word(MEMORY_BASE)});")
                operands.append(Operand(SOURCE_NAMES[reg], "memory", location, f"0x{MEMORY_BASE:x}"))
                if not memory_done:
                    setup += [f"WriteMemoryByte({word(MEMORY_BASE + i)}, Zeros{{8}} + 0x{b:02x});"
                              for i, b in enumerate(MEMORY_BY_VARIANT[variant % 3])]
                    memory_done = True
                continue
            if fp:
                value = floats[n % len(floats)]
                setup.append(f"WriteGPR({reg}, {word(fp_bits(value, fp))});")
                operands.append(Operand(SOURCE_NAMES[reg], "source", location, repr(value), fp))
            else:
                value = ints[n % len(ints)]
                setup.append(f"WriteGPR({reg}, {word(value)});")
                operands.append(Operand(SOURCE_NAMES[reg], "source", location, str(value)))
            n += 1
        elif slot.kind == "dest" and slot.field in fields:
            reg = fields[slot.field]
            if 0 < reg < 24 and not any(o.location == f"_PEGPRs[0][{reg}]" for o in operands):
                # an old value no result of the example is: a write of 0 or of a source's value still shows
                old = fp_bits(DEST_OLD, result) if result else DEST_OLD
                setup.append(f"WriteGPR({reg}, {word(old)});")
                operands.append(Operand(DEST_NAMES[reg], "destination", f"_PEGPRs[0][{reg}]",
                                        repr(float(DEST_OLD)) if result else str(DEST_OLD), result))
    return setup, operands


def _flat(slots):
    for slot in slots:
        if isinstance(slot, Slot):
            if slot.kind == "group-record":
                yield from _flat(slot.parts)
            else:
                yield slot
