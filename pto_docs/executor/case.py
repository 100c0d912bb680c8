"""Case format v1: validation, state construction, run, result and digest."""

from __future__ import annotations

import hashlib
import json
import math
import re
from functools import cache
from pathlib import Path

import numpy as np

from ..schemas.registry import fast_check
from . import bundle as bundle_mod
from . import dtypes, engine, state
from .bundle import Bundle
from .faults import CaseError, TileFault, legality
from .registry import OPS
from .state import Tile, TileFile

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"
CASE_SCHEMA_ID = "pto-docs.case.v1"


@cache
def _schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


@cache
def _validator(name: str):
    import jsonschema
    from referencing import Registry, Resource

    schema = _schema(name)
    resource = Resource.from_contents(schema)
    registry = Registry().with_resource(schema["$id"], resource)
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, registry=registry)


def _pointer(path) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _fast_valid(name: str, instance) -> bool:
    """True when the compiled yes/no check (schema_registry.fast_check) accepts ``instance``; False sends it to
    jsonschema, which decides and words the error."""
    check = fast_check(name.removesuffix(".schema.json"))
    return check is not None and check(instance)


def validate_schema(case) -> None:
    if not isinstance(case, dict):
        raise CaseError("a case must be a JSON/YAML object", "", "EXEC-SCHEMA")
    if _fast_valid("case.schema.json", case):
        return
    errors = sorted(_validator("case.schema.json").iter_errors(case),
                    key=lambda e: (len(list(e.absolute_path)), list(map(str, e.absolute_path))))
    if errors:
        err = max(errors, key=lambda e: len(list(e.absolute_path)))
        raise CaseError(f"schema: {err.message}", _pointer(err.absolute_path), "EXEC-SCHEMA")


def validate_result(result: dict) -> None:
    if not _fast_valid("result.schema.json", result):
        _validator("result.schema.json").validate(result)


# ------------------------------------------------------------ elements

def _element_bits(value, dt: dtypes.DataType, pointer: str) -> tuple[int, bool]:
    """Case element -> (raw bits, defined)."""
    if value is None:
        return 0, False
    if isinstance(value, str):
        if value.startswith("0x"):
            raw = int(value, 16)
            if raw > dt.mask:
                raise CaseError(f"raw bits {value} do not fit {dt.bits}-bit {dt.name}", pointer,
                                "EXEC-VALUE")
            return raw, True
        if dt.is_integer:
            raise CaseError(f"{value!r} is not an integer {dt.name} value", pointer, "EXEC-VALUE")
        if value == "nan":
            return dt.canonical_nan, True
        if not dt.has_inf:
            raise CaseError(f"{dt.name} has no infinity", pointer, "EXEC-VALUE")
        v = math.inf if value == "inf" else -math.inf
        bits, *_ = dtypes.round_to_format(np.array([v]), dt)
        return int(bits[0]), True
    if isinstance(value, bool):
        raise CaseError("booleans are only allowed in predicate tiles", pointer, "EXEC-VALUE")
    if dt.is_integer:
        if isinstance(value, float):
            if not value.is_integer():
                raise CaseError(f"{value} is not an integer", pointer, "EXEC-VALUE")
            value = int(value)
        lo = -(1 << (dt.bits - 1)) if dt.is_signed else 0
        hi = (1 << (dt.bits - 1)) - 1 if dt.is_signed else dt.mask
        if not lo <= value <= hi:
            raise CaseError(f"{value} is outside the {dt.name} range [{lo}, {hi}]", pointer,
                            "EXEC-VALUE")
        return value & dt.mask, True
    if isinstance(value, int) and abs(value) > 2 ** 1023:
        raise CaseError(f"{value} is outside the {dt.name} range", pointer, "EXEC-VALUE")
    bits, nx, of, uf = dtypes.round_to_format(np.array([float(value)]), dt)
    if of[0]:
        raise CaseError(f"{value} overflows {dt.name}", pointer, "EXEC-VALUE")
    return int(bits[0]), True


def _build_tile(index: int, spec: dict, pointer: str) -> Tile:
    kind = spec.get("kind", state.NUMERIC)
    try:
        if kind == state.PREDICATE:
            tile = state.configure_predicate_tile(index, spec["capacity_bytes"], spec["rows"],
                                                  spec["columns"], spec["valid_rows"],
                                                  spec["valid_columns"])
        else:
            tile = state.configure_tile(index, spec["capacity_bytes"], spec["rows"],
                                        spec["columns"], spec["valid_rows"],
                                        spec["valid_columns"], spec["data_type"])
    except ValueError as exc:
        raise CaseError(f"tile {index}: {exc}", pointer, "EXEC-SHAPE") from None
    elements = spec.get("elements")
    if elements is None:
        return tile
    ep = pointer + "/elements"
    if len(elements) != tile.valid_rows:
        raise CaseError(f"tile {index}: elements has {len(elements)} row(s), the valid region has "
                        f"{tile.valid_rows}", ep, "EXEC-SHAPE")
    dt = tile.dt
    for r, row in enumerate(elements):
        if len(row) != tile.valid_columns:
            raise CaseError(f"tile {index}: row {r} has {len(row)} element(s), the valid region "
                            f"has {tile.valid_columns}", f"{ep}/{r}", "EXEC-SHAPE")
        for c, value in enumerate(row):
            p = f"{ep}/{r}/{c}"
            if kind == state.PREDICATE:
                if value is None:
                    continue
                if value not in (0, 1) or isinstance(value, str):
                    raise CaseError("predicate elements are 0, 1, true or false", p, "EXEC-VALUE")
                tile.bits[r, c] = int(bool(value))
                tile.defined[r, c] = True
                continue
            bits, defined = _element_bits(value, dt, p)
            tile.bits[r, c] = bits
            tile.defined[r, c] = defined
    return tile


def build_state(case: dict) -> TileFile:
    tf = TileFile()
    for key in sorted(case["tiles"], key=int):
        tf.tiles[int(key)] = _build_tile(int(key), case["tiles"][key], f"/tiles/{key}")
    used = tf.capacity_in_use()
    if used > state.TILE_CAPACITY_LIMIT_BYTES:
        raise CaseError(f"initial tiles use {used} bytes, more than the "
                        f"{state.TILE_CAPACITY_LIMIT_BYTES}-byte tile capacity", "/tiles",
                        "EXEC-SHAPE")
    return tf


# -------------------------------------------------------------- results

def _value(bits: int, tile: Tile):
    if tile.kind == state.PREDICATE:
        return int(bits)
    dt = tile.dt
    if dt.is_integer:
        if dt.is_signed and bits & dt.sign_bit:
            return int(bits) - (1 << dt.bits)
        return int(bits)
    v = float(dtypes.decode(np.array([bits], np.uint64), dt)[0])
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def tile_result(tile: Tile) -> dict:
    values, bits = [], []
    digits = 1 if tile.kind == state.PREDICATE else max(1, tile.dt.bits // 4)
    for r in range(tile.rows):
        vrow, brow = [], []
        for c in range(tile.columns):
            if tile.defined[r, c]:
                b = int(tile.bits[r, c])
                vrow.append(_value(b, tile))
                brow.append("0x" + format(b, f"0{digits}x"))
            else:
                vrow.append(None)
                brow.append(None)
        values.append(vrow)
        bits.append(brow)
    return {
        "kind": tile.kind,
        "data_type": "PRED" if tile.kind == state.PREDICATE else tile.data_type,
        "rows": tile.rows, "columns": tile.columns,
        "valid_rows": tile.valid_rows, "valid_columns": tile.valid_columns,
        "values": values, "bits": bits,
    }


def canonical_bytes(result: dict) -> bytes:
    body = {k: v for k, v in result.items() if k != "digest"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def _finish(status, fault, message, tf: TileFile, flags) -> dict:
    result = {
        "status": status, "fault": fault, "message": message,
        "tiles": {str(i): tile_result(t) for i, t in sorted(tf.tiles.items())},
        "status_flags": flags.as_dict(),
    }
    result["digest"] = hashlib.sha256(canonical_bytes(result)).hexdigest()
    return result


# ------------------------------------------------------------------ run

def _bundle_from_case(case: dict) -> Bundle:
    b = case.get("bundle", {})
    pad = b.get("pad_value")
    pad = bundle_mod.PAD_CODES.get(pad, pad)
    return Bundle(pad_value=pad, pe_mask=b.get("pe_mask", "0001"), cmode=b.get("cmode", "EQ"),
                  dst_data_type=b.get("data_type"), rounding=b.get("rounding"),
                  saturate=bool(b.get("saturate", False)))


def _check_call(mnemonic: str, n_sources: int, pointer: str):
    spec = OPS.get(mnemonic)
    if spec is None:
        raise CaseError(f"unknown or unmodelled instruction {mnemonic}", pointer, "EXEC-SEMANTIC")
    if n_sources != spec.source_count:
        raise CaseError(f"{mnemonic} takes {spec.source_count} source(s), got {n_sources}",
                        "/execute/sources", "EXEC-SEMANTIC")
    return spec


def run_case(case: dict) -> dict:
    """Validate and run one case; returns the result dict (see module docs)."""
    validate_schema(case)
    tf = build_state(case)
    if "bundle_text" in case:
        call = _call_from_text(case["bundle_text"])
    else:
        ex = case["execute"]
        _check_call(ex["instruction"], len(ex["sources"]), "/execute/instruction")
        call = dict(bundle=_bundle_from_case(case), mnemonic=ex["instruction"],
                    destination=ex["destination"], sources=list(ex["sources"]),
                    dst_capacity=ex.get("destination_capacity_bytes"), bundle_type=None,
                    fault=None)
    b = call["bundle"]
    if b.pe_mask == "0000":
        return _finish("ok", None, "PE_MASK 0000: strict no-op, state unchanged", tf,
                       engine.Flags())
    try:
        if call["fault"]:
            raise call["fault"]
        new, flags, _ = engine.execute(tf, b, call["mnemonic"], call["destination"],
                                       call["sources"], call["dst_capacity"], call["bundle_type"])
    except TileFault as fault:
        return _finish("fault", fault.kind, fault.message, tf, engine.Flags())
    return _finish("ok", None, f"{call['mnemonic']} executed", new, flags)


# ----------------------------------------------------------- bundle text

_TILE_NAME = re.compile(r"^(?:T|t)?(\d{1,2})$")


def _tile_ref(name: str, pointer: str = "/bundle_text") -> int:
    m = _TILE_NAME.match(name.strip())
    if not m or int(m.group(1)) > 63:
        raise CaseError(f"cannot run with symbolic tile operand {name!r}; use T0..T63",
                        pointer, "EXEC-BUNDLE")
    return int(m.group(1))


def _call_from_text(text: str) -> dict:
    """Parse runnable bundle text into a call; architectural problems become a fault."""
    pb = bundle_mod.parse_bundle_text(text)
    ptr = "/bundle_text"
    if pb.problems:
        raise CaseError("bundle text: " + "; ".join(pb.problems), ptr, "EXEC-BUNDLE")
    if pb.mnemonic is None:
        raise CaseError("bundle text has no BSTART", ptr, "EXEC-BUNDLE")
    spec = OPS.get(pb.mnemonic)
    if spec is None:
        raise CaseError(f"unknown or unmodelled instruction {pb.mnemonic}", ptr, "EXEC-BUNDLE")
    if pb.data_type not in dtypes.DATA_TYPES:
        raise CaseError(f"cannot run with data type {pb.data_type!r}", ptr, "EXEC-BUNDLE")
    masks = {b.mask for b in pb.bindings if b.mask is not None}
    for m in masks:
        if not re.fullmatch(r"[01]{4}", m):
            raise CaseError(f"cannot run with PE_MASK {m!r}; give four bits", ptr, "EXEC-BUNDLE")
    b = Bundle(dims_given=True)
    b.pe_mask = sorted(masks)[0] if len(masks) == 1 else "0001"
    fault = None
    if len(masks) > 1:
        fault = legality("all B.IOT bindings must use one PE_MASK")
    dims = {}
    for k, v in pb.dims.items():
        if not re.fullmatch(r"\d+", v):
            raise CaseError(f"cannot run with symbolic B.DIM {k}={v}", ptr, "EXEC-BUNDLE")
        dims[k] = int(v)
    b.lb0, b.lb1, b.lb2 = dims.get("LB0"), dims.get("LB1"), dims.get("LB2")
    if pb.datr is not None:
        b.pad_value = "Zero"  # B.DATR present: encoded zero PadValue selects Zero
        for k, v in pb.datr.items():
            if k not in spec.datr_fields:
                fault = fault or legality(f"B.DATR field {k} is not applicable to {spec.mnemonic}")
            elif k == "PadValue":
                pad = bundle_mod.PAD_CODES.get(v, v)
                if pad not in bundle_mod.PAD_NAMES:
                    raise CaseError(f"illegal PadValue {v!r}", ptr, "EXEC-BUNDLE")
                b.pad_value = pad
            elif k == "CMode":
                cm = v.upper()
                if re.fullmatch(r"\d+", v):
                    if int(v) >= 6:
                        fault = fault or legality(f"reserved CMode {v}")
                        continue
                    cm = bundle_mod.CMODES[int(v)]
                if cm not in bundle_mod.CMODES:
                    raise CaseError(f"illegal CMode {v!r}", ptr, "EXEC-BUNDLE")
                b.cmode = cm
            elif k == "DataType":
                kind, name = bundle_mod.resolve_datatype_field(v)
                if kind == "reserved":
                    fault = fault or legality(f"reserved B.DATR DataType code {v}")
                elif kind == "inherit":
                    b.dst_data_type = None  # DTYPE_NONE: inherit the BSTART type
                elif kind == "type":
                    b.dst_data_type = name
                else:
                    raise CaseError(f"cannot run with B.DATR DataType {v!r}", ptr, "EXEC-BUNDLE")
            elif k == "RMode":
                if re.fullmatch(r"\d+", v):
                    if int(v) > 7:
                        raise CaseError(f"illegal RMode {v!r} (codes 0..7)", ptr, "EXEC-BUNDLE")
                    b.rounding = int(v)
                elif v in bundle_mod.RMODE_NAMES:
                    b.rounding = v
                else:
                    raise CaseError(f"illegal RMode {v!r}", ptr, "EXEC-BUNDLE")
            elif k in ("Sat", "Canonicalize"):
                flag = bundle_mod.parse_flag_field(v)
                if flag is None:
                    raise CaseError(f"illegal {k} {v!r} (0 or 1)", ptr, "EXEC-BUNDLE")
                if k == "Sat":
                    b.saturate = flag
                else:
                    b.canonicalize = flag
            elif k == "Layout":
                if v in bundle_mod.LAYOUT_NORM_NAMES:
                    continue
                if re.fullmatch(r"\d+", v) and int(v) not in bundle_mod.LAYOUT_ASSIGNED_CODES:
                    fault = fault or legality(f"reserved B.DATR Layout code {v}")
                    continue
                raise CaseError(f"cannot run with B.DATR Layout {v!r}: only NORM (row-major "
                                "placement) is modelled", ptr, "EXEC-BUNDLE")
    if b.lb0 is None or any(v == 0 for v in dims.values()):
        fault = fault or legality("missing B.DIM LB0 or a zero dimension")
    if not pb.stopped:
        raise CaseError("bundle text has no BSTOP", ptr, "EXEC-BUNDLE")
    sources: list[int] = []
    destination, tsize = None, None
    iots = [x for x in pb.bindings if x.kind == "B.IOT"]
    for x in pb.bindings:
        if x.kind != "B.IOT":
            fault = fault or legality(f"{x.kind} is illegal for {spec.mnemonic}")
    shape_ok = len(iots) == len(spec.bindings)
    for i, x in enumerate(iots):
        sources += [_tile_ref(s) for s in x.sources]
        final = i == len(iots) - 1
        if shape_ok and (len(x.sources) != spec.bindings[i] or final != (x.destination is not None)
                         or final != x.last):
            shape_ok = False
        if x.destination is not None:
            destination = _tile_ref(x.destination)
            if x.tsize:
                if not re.fullmatch(r"\d+", x.tsize):
                    raise CaseError(f"cannot run with symbolic TSize {x.tsize!r}", ptr,
                                    "EXEC-BUNDLE")
                tsize = int(x.tsize)
    if not shape_ok or destination is None:
        fault = fault or legality(f"malformed B.IOT binding stream for {spec.mnemonic}")
        destination = destination if destination is not None else 0
    if fault is None and pb.data_type not in spec.data_types:
        fault = legality(f"unsupported DataType {pb.data_type} for {spec.mnemonic}")
    return dict(bundle=b, mnemonic=spec.mnemonic, destination=destination, sources=sources,
                dst_capacity=tsize, bundle_type=pb.data_type, fault=fault)
