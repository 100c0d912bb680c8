"""Worked examples from the spec's own AVS test points, as pto-docs' ASL interpreter ran them.

``pto-docs avs --examples`` records every instruction a test point executes (``pto_docs.asl.probe``): the
entry point and its arguments, the state the test set up, and the state the call changed. This module
gives each instruction page its examples:

* an encoded word (``ExecuteScalarInstruction`` / ``ExecuteCommandInstruction``) is decoded by pto-docs'
  own encoding model (the catalog records' mask/match words and field pieces), so a step belongs to the
  mnemonic it decodes to, whichever test ran it;
* ``InstructionContractExecute_<M>`` belongs to ``M``;
* any other entry point (``ExecuteBundleTileOperation``, ``ExecuteTileExpand``, ...) belongs to the tile
  instruction that owns the test.

Per instruction: the first step of an ``execution`` test and the first faulting step of a ``fault`` test of
its own unit, else of another kind or of another unit's test. Each example has a digest (sha256 of its
canonical JSON) that the traceability report lists and the review lock can pin.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass

from ..isa.decode import Decoder
from ..model.catalog import Catalog, asl_name

WORD_ENTRIES = ("ExecuteScalarInstruction", "ExecuteCommandInstruction")
CONTRACT_ENTRY = "InstructionContractExecute_"
KIND_ORDER = {"execution": 0, "fault": 1}
PER_PAGE = 2
RICH_ROOTS = 8  # a step that changes more of the state's top-level variables shows more: preferred, up to this many


@dataclass(frozen=True)
class Decoded:
    form_id: str
    mnemonic: str
    asm: str
    length_bits: int
    word: int
    fields: tuple[tuple[str, int], ...]

    @property
    def hex(self) -> str:
        return f"0x{self.word:0{max(1, self.length_bits // 4)}x}"


@dataclass(frozen=True)
class AvsExample:
    unit_id: str
    mnemonic: str
    test_id: str
    test_path: str
    kind: str
    status: str  # the test's AVS status on the current tree: pass | fail | error | stale
    profile: str
    step_index: int
    step: Mapping
    sequence: tuple[str, ...]  # every step of the test, as "Function(args) -> MNEMONIC"
    decoded: Decoded | None
    own: bool  # the test belongs to this instruction's unit
    digest: str

    @property
    def faulted(self) -> bool:
        return _faulted(self.step)


def _int(text: str) -> int | None:
    try:
        return int(text, 16) if text.startswith("0x") else int(text)
    except (TypeError, ValueError):
        return None


def _faulted(step: Mapping) -> bool:
    result = step.get("result") or ""
    return bool(step.get("exception")) or "Fault" in result or result == "FALSE" or any(
        c[0] == "_LastFault" for c in step.get("changed", ()))


def digest(step: Mapping, decoded: Decoded | None) -> str:
    body = {"step": step, "decoded": None if decoded is None else [decoded.form_id, decoded.hex, list(decoded.fields)]}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Owners:
    """Which instruction units a recorded step belongs to."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self.decoder = Decoder(catalog)
        self.by_stem = {asl_name(u.mnemonic): u.id for u in catalog.instructions if u.mnemonic}
        commands: dict[str, set[str]] = {}
        for unit in catalog.instructions:
            for rec in unit.catalog_records:
                if isinstance(rec, Mapping) and isinstance(rec.get("command_mnemonic"), str):
                    commands.setdefault(rec["command_mnemonic"], set()).add(unit.id)
        # a command mnemonic that starts exactly one tile operation (every family but TEPL's shared carrier)
        self.tile_by_command = {m: next(iter(ids)) for m, ids in commands.items() if len(ids) == 1}

    def of(self, step: Mapping, last_command: Decoded | None):
        """(unit ids, Decoded or None); ids None: the step belongs to the test's own tile instruction."""
        function = step.get("function", "")
        args = step.get("arguments") or []
        if function in WORD_ENTRIES and len(args) >= 2:
            word, length = _int(args[0]), _int(args[1])
            matches = self.decoder.decode(word, length) if word is not None and length is not None else []
            if not matches:
                return set(), None
            unit, rec = matches[0]
            decoded = Decoded(str(rec.get("form_id", "")), str(rec.get("mnemonic", unit.mnemonic)),
                              str(rec.get("asm", "")), length, word, self.decoder.fields(rec, word))
            return {u.id for u, _ in matches}, decoded
        if function.startswith(CONTRACT_ENTRY):
            uid = self.by_stem.get(function[len(CONTRACT_ENTRY):])
            return ({uid} if uid else set()), None
        if function in self.by_stem:
            return {self.by_stem[function]}, None
        if function == "ExecuteBundleTileOperation" and last_command is not None:
            uid = self.tile_by_command.get(last_command.mnemonic)
            if uid:
                return {uid}, None
        return None, None


def examples_by_unit(catalog: Catalog, doc: Mapping | None, statuses: Mapping) -> dict[str, list[AvsExample]]:
    """Instruction unit id -> its worked examples (at most PER_PAGE), from an AVS document run with --examples."""
    if not doc:
        return {}
    owners = _Owners(catalog)
    profile = doc.get("profile", "")
    candidates: dict[str, list[tuple]] = {}
    for result in doc.get("tests", ()):
        steps = result.get("steps")
        test = catalog.tests.get(result.get("id"))
        if not steps or test is None or not any("changed" in step for step in steps):
            continue  # (no step kept as an example: nothing to own or describe)
        status = getattr(statuses.get(test.id), "status", result.get("status", ""))
        owner = catalog.unit_for_path(test.source)
        owner_tile = owner is not None and owner.is_instruction and owner.surface == "tile"
        owned, last_command = [], None
        for step in steps:
            ids, decoded = owners.of(step, last_command)
            if decoded is not None and decoded.mnemonic.startswith("BSTART"):
                last_command = decoded
            if ids is None:
                ids = {owner.id} if owner_tile else set()
            owned.append((ids, decoded))
        sequence = tuple(_describe(step, decoded) for step, (_ids, decoded) in zip(steps, owned))
        for i, (step, (ids, decoded)) in enumerate(zip(steps, owned)):
            if "changed" not in step:  # pruned by pto-docs avs --examples: not an example
                continue
            faulted = _faulted(step)
            if test.kind == "fault" and not faulted:
                continue  # a step of a fault test that did not fault is not shown as the fault example
            richness = min(len({_root(change[0]) for change in step["changed"]}), RICH_ROOTS)
            for uid in sorted(ids):
                unit = catalog.units.get(uid)
                if unit is None:
                    continue
                own = owner is not None and owner.id == uid
                rank = (0 if status == "pass" else 1, 0 if own else 1, KIND_ORDER.get(test.kind, 2),
                        0 if (test.kind == "fault") == faulted else 1, -richness, test.id, i)
                candidates.setdefault(uid, []).append((rank, (uid, unit.mnemonic or "", test.id, test.path, test.kind,
                                                              status, profile, i, step, sequence, decoded, own)))
    _borrow_for_aliases(catalog, candidates)
    out: dict[str, list[AvsExample]] = {}
    for uid, found in candidates.items():
        found.sort(key=lambda pair: pair[0])
        chosen, kinds = [], set()
        for _rank, fields in found:
            example = AvsExample(*fields, digest=digest(fields[8], fields[10]))
            key = example.kind if example.kind in KIND_ORDER else "other"
            if key in kinds or (key == "other" and chosen):
                continue
            kinds.add(key)
            chosen.append(example)
            if len(chosen) == PER_PAGE:
                break
        out[uid] = chosen
    return out


def prune_to_examples(catalog: Catalog, doc: dict) -> dict:
    """``doc`` with the state (``before``/``changed``) kept only on the steps that are some instruction's worked
    example; every other step keeps its entry point, arguments and result (the instruction sequence pages show).
    Selection is the same as on the pages, so the pages and the report read a small file."""
    from ..trace.avs_status import avs_statuses
    chosen = {(e.test_id, e.step_index) for found in examples_by_unit(catalog, doc, avs_statuses(catalog, doc)).values()
              for e in found}
    for result in doc.get("tests", ()):
        for i, step in enumerate(result.get("steps") or ()):
            if (result["id"], i) not in chosen:
                step.pop("before", None)
                step.pop("changed", None)
    return doc


def _borrow_for_aliases(catalog: Catalog, candidates: dict[str, list[tuple]]) -> None:
    """An encoding alias (``alias_of``: BSTART.VEC of BSTART.TEPL) executes as its target: without examples of
    its own it shows the target's, preferring tests of a tile operation on the alias's engine."""
    for unit in catalog.instructions:
        target_name = unit.record.get("alias_of")
        if unit.id in candidates or not isinstance(target_name, str):
            continue
        target = catalog.find_instruction(target_name, unit.surface)
        if target is None or target.id not in candidates:
            continue
        engine = unit.record.get("alias_engine")
        borrowed = []
        for rank, fields in candidates[target.id]:
            test = catalog.tests.get(fields[2])
            owner = catalog.unit_for_path(test.source) if test is not None else None
            on_engine = owner is not None and engine is not None and owner.engine == engine
            borrowed.append(((0 if on_engine else 1, *rank), (unit.id, *fields[1:11], False)))
        candidates[unit.id] = borrowed


def _root(name: str) -> str:
    """The global variable a state path starts with (``_Tiles[2].payload[0..3]`` -> ``_Tiles``)."""
    for i, ch in enumerate(name):
        if ch in "[.":
            return name[:i]
    return name


def _describe(step: Mapping, decoded: Decoded | None) -> str:
    call = f"{step.get('function')}({', '.join(step.get('arguments') or ())})"
    if decoded is not None:
        call += f" = {decoded.mnemonic}"
    return call


def report_examples(catalog: Catalog, doc: Mapping | None) -> dict[str, list[AvsExample]] | None:
    """What ``trace.build_report`` and ``trace.stamp_document`` take as ``avs_examples``: every instruction's worked
    examples of an AVS document recorded with ``--examples`` (None when it was recorded without)."""
    if doc is None or not any("steps" in r for r in doc.get("tests", ())):
        return None
    from ..trace.avs_status import avs_statuses
    return examples_by_unit(catalog, doc, avs_statuses(catalog, doc))
