"""Hand-built catalog fixtures for the encoding tests: the model's dataclasses, filled in directly."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from pto_docs.model.catalog import Catalog, Release, SourceFile, Unit
from pto_docs.model.frozen import freeze

EMPTY = MappingProxyType({})


def spec_checkout() -> Path | None:
    """The checkout PTO_SPEC_CHECKOUT names, when it holds an asl/ directory (the same rule as tests/conftest.py)."""
    from tests.conftest import real_tree
    return real_tree()


def unit(record: dict, *, kind: str = "instruction") -> Unit:
    path = f"asl/{record['surface']}/{record['mnemonic']}.asl"
    return Unit(
        id=record["id"], kind=kind, surface=record["surface"], mnemonic=record.get("mnemonic"),
        summary="", classification=(), depends_on=(), path=path, line=1, record=freeze(record),
        review=None, states=(), ndf=(), regions=(), file=SourceFile(path, "0" * 64, 0, ""))


def catalog(*units: Unit) -> Catalog:
    from dataclasses import replace

    from pto_docs.analysis.load import forms_index
    by_id = {u.id: u for u in units}
    made = Catalog(
        root="/fixture", release=Release("0.0.0", "release-candidate", "", None, None, None),
        files=EMPTY, units=MappingProxyType(by_id), requirements=EMPTY, tests=EMPTY, adrs=EMPTY,
        json_files=EMPTY, translations=EMPTY, examples=(), specification=EMPTY,
        instruction_by_mnemonic=MappingProxyType({(u.surface, u.mnemonic): u.id for u in units if u.mnemonic}))
    return replace(made, forms_by_mnemonic=forms_index(made))  # (the index load.py makes)


def field(name: str, *pieces: tuple[int, int, int], width: int | None = None, signedness: str = "encoding-defined") -> dict:
    """pieces as (instruction_lsb, value_lsb, width)."""
    ps = [{"instruction_lsb": a, "value_lsb": b, "width": c} for a, b, c in pieces]
    return {"name": name, "width": width if width is not None else sum(p["width"] for p in ps),
            "signedness": signedness, "pieces": ps}


def form(mnemonic: str, words: list[tuple[str, str, int]], fields: list[dict], **extra) -> dict:
    """words as (mask, match, width_bits) in index order."""
    length = sum(w for _m, _x, w in words)
    rec = {
        "form_id": f"{mnemonic.lower().replace('.', '_')}_{length}_000000000000", "mnemonic": mnemonic,
        "asm": extra.pop("asm", mnemonic), "length_bits": length, "encoding_kind": f"L{length}",
        "encoding": [{"index": i, "mask": m, "match": x, "width_bits": w} for i, (m, x, w) in enumerate(words)],
        "fields": fields, "constraints": [], "semantic_family": "CMD", "semantic_group": "g",
        "semantic_handler": "h", "semantic_summary": "s", "status": "accepted",
    }
    rec.update(extra)
    return rec


def form_unit(surface: str, mnemonic: str, *forms: dict, **extra) -> Unit:
    slug = mnemonic.upper().replace(".", "-").replace("_", "-")
    record = {"id": f"PTO-{surface.upper()}-{slug}", "surface": surface, "mnemonic": mnemonic,
              "catalog_records": list(forms), **extra}
    return unit(record)


def tepl_carrier() -> Unit:
    """BSTART.TEPL as 0.58.3 has it: DataType@27 w5, Mode@25 w2, Function@20 w5, mask 0x000fffff."""
    f = form("BSTART.TEPL", [("0x000fffff", "0x00019181", 32)],
             [field("DataType", (27, 0, 5)), field("Mode", (25, 0, 2)), field("Function", (20, 0, 5))],
             asm="BSTART.TEPL Mode, Function, DataType", carrier_mnemonic="BSTART.TEPL",
             canonical_assembly_by_engine={"SFU": "BSTART.SFU", "VEC": "BSTART.VEC"})
    return form_unit("block", "BSTART.TEPL", f)


def tile(mnemonic: str, engine: str, family: str, command: str, function: int, mode: int | None = None,
         selector: str | None = None) -> Unit:
    rec: dict = {"name": mnemonic, "family": family, "command_mnemonic": command, "function": function}
    if mode is not None:
        rec["mode"] = mode
        rec["selector"] = selector if selector is not None else f"0x{(mode << 5) | function:03x}"
    return unit({"id": f"PTO-TILE-{mnemonic}", "surface": "tile", "mnemonic": mnemonic, "engine": engine,
                 "catalog_records": [rec]})
