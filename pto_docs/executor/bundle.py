"""Bundle state (B.DIM, B.DATR, PE_MASK) and the bundle-text parser.

Defaults (every operation's contract ``defaults``): LB0 supplies the nonzero
ValidCol and is required; omitted LB1 selects ValidRow = 1; omitted LB2
selects Col = ValidCol; an explicitly present zero dimension is illegal.
Omitted B.DATR selects PadValue Null; explicit 00, 01, 10, 11 select Zero,
Max, Min, Null.  PE_MASK 0000 is a strict no-op.  B.DATR also carries
DataType (a name, a five-bit code, or DTYPE_NONE = inherit), RMode (0 operation
default, 1 RNE, 2 RTZ, 3 RTM/RDN, 4 RTP/RUP, 5 RNA, 6 RTO, 7 RHB), Sat,
Canonicalize and Layout (only NORM is executed); a nonzero field an operation
does not accept faults before effects.

Bundle text is the seed syntax, statements separated by ``;`` or newlines::

    BSTART.VEC TMUL, FP16; B.DATR PadValue=Min; B.DIM LB0=2; B.DIM LB1=1;
    B.IOT T0, T1, mask=0001, last, ->T2<128>; BSTOP

Symbolic placeholders from contract examples (``DataType``, ``ValidCol``,
``PE_MASK``, ``SrcLeft``, ``<last>``, ``->DstTile<TSize>``, ``(optional)``)
parse into symbolic values; they can be checked but not executed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import dtypes
from .registry import OPS

PAD_CODES = {"00": "Zero", "01": "Max", "10": "Min", "11": "Null"}
# B.DATR / BSTART five-bit DataType codes (asl/arch/data-types/tile-data-types.asl);
# code 31 is DTYPE_NONE (inherit), 15, 21..23 and 29..30 are reserved.
DATATYPE_CODES = {
    0: "FP64", 1: "FP32", 2: "TF32", 3: "HF32", 4: "FP16", 5: "BF16", 6: "HiF8", 7: "E4M3",
    8: "E5M2", 9: "E3M2", 10: "E2M3", 11: "E2M1X2", 12: "E1M2X2", 13: "E8M0", 14: "HiF4X2",
    16: "S64", 17: "S32", 18: "S16", 19: "S8", 20: "S4X2", 24: "U64", 25: "U32", 26: "U16",
    27: "U8", 28: "U4X2",
}
DTYPE_NONE_CODE = 31
RESERVED_DATATYPE_CODES = frozenset({15, 21, 22, 23, 29, 30})
ASSIGNED_TYPE_NAMES = frozenset(DATATYPE_CODES.values())
# B.DATR RMode: 0 operation default, 1 RNE, 2 RTZ, 3 RTM (RDN), 4 RTP (RUP), 5 RNA, 6 RTO, 7 RHB
RMODE_NAMES = ("Default", "NONE", "None", "RNE", "RTZ", "RTM", "RTP", "RNA", "RTO", "RHB",
               "RDN", "RUP")
# B.DATR Layout: 0 NORM is the only layout the model executes (row-major placement)
LAYOUT_NORM_NAMES = ("NORM", "0")
LAYOUT_ASSIGNED_CODES = frozenset({0, 1, 3, 4, 6, 8, 9, 17, 18, 20, 21, 22, 23, 24, 25, 26, 27,
                                   28, 30})


def resolve_datatype_field(value: str) -> tuple[str, str | None]:
    """B.DATR DataType text -> (kind, type): kind is "type", "inherit", "reserved",
    "unmodelled" (an assigned type the model does not define) or "invalid"."""
    v = value.strip()
    if v in ("DTYPE_NONE", str(DTYPE_NONE_CODE)):
        return "inherit", None
    if re_fullmatch_int(v):
        code = int(v)
        if code in RESERVED_DATATYPE_CODES or code > 31:
            return "reserved", None
        v = DATATYPE_CODES[code]
    if v in dtypes.DATA_TYPES:
        return "type", v
    if v in ASSIGNED_TYPE_NAMES:
        return "unmodelled", v
    return "invalid", None


def re_fullmatch_int(v: str) -> bool:
    return re.fullmatch(r"\d+", v) is not None


def parse_flag_field(value: str) -> bool | None:
    """Sat / Canonicalize text -> bool (None when not 0/1/true/false)."""
    v = value.strip().lower()
    if v in ("0", "false", "off"):
        return False
    if v in ("1", "true", "on"):
        return True
    return None
PAD_NAMES = ("Zero", "Max", "Min", "Null")
CMODES = ("EQ", "NE", "LT", "GT", "LE", "GE")  # codes 0..5; 6 and 7 reserved


@dataclass
class Bundle:
    """Resolved bundle controls for one operation."""

    pad_value: str | None = None  # None: no B.DATR -> Null padding
    pe_mask: str = "0001"
    cmode: str = "EQ"
    dst_data_type: str | None = None
    rounding: str | int | None = None  # B.DATR RMode selector; None = operation default
    saturate: bool = False  # B.DATR Sat
    canonicalize: bool = False  # B.DATR Canonicalize (TCVT only)
    lb0: int | None = None
    lb1: int | None = None
    lb2: int | None = None
    dims_given: bool = False  # True when B.DIM came from bundle text

    @property
    def effective_pad(self) -> str:
        return self.pad_value or "Null"


@dataclass
class Binding:
    kind: str  # B.IOT, B.IOR, B.IOS
    sources: list[str] = field(default_factory=list)
    mask: str | None = None
    last: bool = False
    destination: str | None = None
    tsize: str | None = None


@dataclass
class ParsedBundle:
    engine: str | None = None
    mnemonic: str | None = None
    data_type: str | None = None
    datr: dict[str, str] | None = None
    dims: dict[str, str] = field(default_factory=dict)
    bindings: list[Binding] = field(default_factory=list)
    stopped: bool = False
    problems: list[str] = field(default_factory=list)
    statements: list[str] = field(default_factory=list)


_OPTIONAL = re.compile(r"\s*\(optional\)\s*$", re.I)
_BSTART = re.compile(r"^BSTART\.(\w+)\s+(\w+)\s*(?:,\s*(.+))?$", re.I)


def _split_statements(text: str) -> list[str]:
    parts = re.split(r"[;\n]", text)
    return [p.strip() for p in parts if p.strip()]


def parse_bundle_text(text: str) -> ParsedBundle:
    """Parse bundle text into its statements (no legality judgement beyond syntax)."""
    pb = ParsedBundle()
    for stmt in _split_statements(text):
        pb.statements.append(stmt)
        optional = bool(_OPTIONAL.search(stmt))
        body = _OPTIONAL.sub("", stmt).strip()
        head = body.split(None, 1)[0].upper() if body else ""
        rest = body[len(head):].strip() if body else ""
        if head.startswith("BSTART."):
            m = _BSTART.match(body)
            if not m:
                pb.problems.append(f"malformed BSTART statement: {stmt!r}")
                continue
            if pb.engine is not None:
                pb.problems.append("more than one BSTART")
            pb.engine, pb.mnemonic = m.group(1).upper(), m.group(2).upper()
            pb.data_type = (m.group(3) or "").strip() or None
        elif head == "B.DATR":
            if optional and not rest.replace("PadValue", "").strip(" ,"):
                continue  # template line "B.DATR PadValue (optional)"
            pb.datr = pb.datr or {}
            for item in [x.strip() for x in rest.split(",") if x.strip()]:
                if "=" in item:
                    k, v = (s.strip() for s in item.split("=", 1))
                else:
                    k, v = _guess_datr_field(item), item
                pb.datr[k] = v
        elif head == "B.DIM":
            if optional:
                continue
            for item in [x.strip() for x in rest.split(",") if x.strip()]:
                if "=" not in item:
                    pb.problems.append(f"malformed B.DIM item {item!r}")
                    continue
                k, v = (s.strip() for s in item.split("=", 1))
                k = k.upper()
                if k not in ("LB0", "LB1", "LB2"):
                    pb.problems.append(f"unknown B.DIM field {k}")
                    continue
                if k in pb.dims:
                    pb.problems.append(f"B.DIM {k} given twice")
                pb.dims[k] = v
        elif head in ("B.IOT", "B.IOR", "B.IOS"):
            pb.bindings.append(_parse_binding(head, rest))
        elif head == "BSTOP":
            pb.stopped = True
        else:
            pb.problems.append(f"unknown statement {stmt!r}")
    return pb


def _guess_datr_field(item: str) -> str:
    u = item.strip()
    if u in PAD_NAMES or u in PAD_CODES or u == "PadValue":
        return "PadValue"
    if u.upper() in CMODES or u == "CMode":
        return "CMode"
    if u in dtypes.DATA_TYPES or u in ASSIGNED_TYPE_NAMES or u in ("DataType", "DstDataType",
                                                                      "DTYPE_NONE"):
        return "DataType"
    if u in RMODE_NAMES:
        return "RMode"
    if u in ("NORM",):
        return "Layout"
    return u


def _parse_binding(kind: str, rest: str) -> Binding:
    b = Binding(kind)
    for item in [x.strip() for x in rest.split(",") if x.strip()]:
        low = item.lower()
        if low.startswith("mask="):
            b.mask = item.split("=", 1)[1].strip()
        elif low in ("<last>", "last"):
            b.last = True
        elif item.startswith("->"):
            m = re.match(r"^->\s*([^<\s]+)\s*(?:<\s*([^>]*)\s*>)?$", item)
            if m:
                b.destination, b.tsize = m.group(1), m.group(2)
            else:
                b.destination = item[2:].strip()
        else:
            b.sources.append(item)
    return b


def _is_int(s: str | None) -> bool:
    return s is not None and re.fullmatch(r"\d+", s.strip()) is not None


def check_bundle(text: str, data_type_symbolic_ok: bool = True) -> list[str]:
    """Legality problems the model finds in a contract example or block text."""
    pb = parse_bundle_text(text)
    problems = list(pb.problems)
    if pb.mnemonic is None:
        return problems + ["missing BSTART.<engine> <MNEMONIC>, <DataType>"]
    spec = OPS.get(pb.mnemonic)
    if spec is None:
        return problems + [f"unknown or unmodelled mnemonic {pb.mnemonic}"]
    if pb.engine not in (spec.engine, "TEPL"):
        problems.append(f"{spec.mnemonic} is assembled with BSTART.{spec.engine}, not BSTART.{pb.engine}")
    dt = pb.data_type
    if dt is None:
        problems.append("missing DataType in BSTART")
    elif dt in dtypes.DATA_TYPES:
        if dt not in spec.data_types:
            problems.append(f"unsupported data type {dt} for {spec.mnemonic} "
                            f"(accepted: {', '.join(spec.data_types)})")
    elif not (data_type_symbolic_ok and re.fullmatch(r"[A-Za-z_]\w*", dt)):
        problems.append(f"unknown data type {dt}")
    if pb.datr is not None:
        for k, v in pb.datr.items():
            if k not in spec.datr_fields:
                problems.append(f"B.DATR field {k} is not applicable to {spec.mnemonic}")
            elif k == "PadValue" and v not in PAD_NAMES and v not in PAD_CODES and v != "PadValue":
                problems.append(f"illegal PadValue {v}")
            elif k == "CMode" and v.upper() not in CMODES and v not in ("CMode",) and not (
                    _is_int(v) and int(v) < 6):
                problems.append(f"illegal or reserved CMode {v}")
            elif k == "DataType" and spec.mnemonic == "TCVT":
                kind, _ = resolve_datatype_field(v)
                if kind == "reserved":
                    problems.append(f"reserved DataType code {v}")
                elif kind == "invalid" and not re.fullmatch(r"[A-Za-z_]\w*DataType", v):
                    problems.append(f"unknown destination DataType {v}")
            elif k == "DataType" and v in dtypes.DATA_TYPES and v != "FP32" and v != dt:
                problems.append(f"illegal destination DataType {v} for {spec.mnemonic}")
            elif k == "RMode" and v not in RMODE_NAMES and v != "RMode" and not (
                    _is_int(v) and int(v) < 8):
                problems.append(f"illegal RMode {v}")
            elif k in ("Sat", "Canonicalize") and v != k and parse_flag_field(v) is None:
                problems.append(f"illegal {k} {v} (0 or 1)")
            elif k == "Layout" and v != "Layout" and v not in LAYOUT_NORM_NAMES and not (
                    _is_int(v) and int(v) in LAYOUT_ASSIGNED_CODES) and not re.fullmatch(
                    r"[A-Z][A-Z0-9]*", v):
                problems.append(f"illegal Layout {v}")
    if "LB0" not in pb.dims:
        problems.append("missing B.DIM LB0 (ValidCol is required)")
    for k, v in pb.dims.items():
        if _is_int(v) and int(v) == 0:
            problems.append(f"B.DIM {k}=0: an explicitly present dimension must be nonzero")
    for b in pb.bindings:
        if b.kind in ("B.IOR", "B.IOS"):
            problems.append(f"{b.kind} is illegal for {spec.mnemonic}")
    iots = [b for b in pb.bindings if b.kind == "B.IOT"]
    if len(iots) != len(spec.bindings):
        problems.append(f"{spec.mnemonic} takes {len(spec.bindings)} B.IOT binding(s), found {len(iots)}")
    else:
        for i, (b, n) in enumerate(zip(iots, spec.bindings)):
            final = i == len(iots) - 1
            if len(b.sources) != n:
                problems.append(f"B.IOT #{i + 1} must carry {n} source(s), found {len(b.sources)}")
            if final and (not b.last or b.destination is None):
                problems.append("the final B.IOT must carry <last> and ->DstTile<TSize>")
            if not final and (b.last or b.destination is not None):
                problems.append(f"B.IOT #{i + 1} must not carry <last> or a destination")
    masks = {b.mask for b in iots if b.mask is not None}
    if len(masks) > 1:
        problems.append("all B.IOT bindings must use one PE_MASK")
    for m in masks:
        if re.fullmatch(r"[01]+", m) and len(m) != 4:
            problems.append(f"PE_MASK {m} is not four bits")
    if not pb.stopped:
        problems.append("missing BSTOP")
    return problems
