"""SEMANTICS-PROSE: the spec's own ASL, run on a witness case, gives another result than its prose states.

FLAGS-PROSE and DATATYPE-PROSE compare two texts. This check *executes* the normative model: it runs a tiny
case through the tree's ASL on our interpreter (``executor_asl.AslBridge``, ``ieee`` profile) and compares the
result with what the rule the prose states gives, computed independently in Python. The evidence of a finding
is that pair of results, so it names the case, both results, the ASL that computed one (the instruction's
``InstructionContractExecute_<M>`` and the record's ``semantic_handler``, path:line) and the prose that states
the other (the instruction's NDF contract clause, path:line). The interpreter and the NumPy executor follow the
ASL; the finding tells readers where the prose says otherwise.

The code is general on purpose (``SEMANTICS-PROSE``, not ``ARGMIN-PROSE``): a finding is "a witness the model
runs disagrees with the prose's rule", whatever the instruction; each kind of prose rule is one witness family
here. Today there is one family, the index reductions: an instruction whose record calls its handler with
``TileReduction_ARGMIN``/``TileReduction_ARGMAX`` is said (record, NDF clause) to write "the lowest index of the
minimum/maximum". For every signed integer type its ASL accepts, a row (or column) whose winner is negative is
run; in release 0.58.3 ``TileReductionStepWithFlags`` compares the sign-extended MIN/MAX Word with the stored,
zero-extended element, so for S8/S16/S32 the negative winner is never selected.

Cost: linking the model (parse cached by source sha256, ~2 s) plus a few ms a case, paid once per model: the
verdicts are kept in this process and in a JSON file of the cache directory, keyed by the sha256 of every unit
and JSON file of the tree and of the pto-docs code the verdict depends on (interpreter, bridge, this module). A
tree with no such instruction (the ``catalog/`` sample) runs nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..asl.errors import AslLimitError, located
from ..asl.names import Names, closure, names
from ..model.catalog import Catalog, Unit
from ..model.diagnostics import Diagnostic, warning
from ..store.memo import Memo

FORMAT = 2  # 2: a witness over a limit of the interpreter is a verdict {"mnemonic", "limit"}
SIGNED = ("S8", "S16", "S32", "S64")
BITS = {"S8": 8, "S16": 16, "S32": 32, "S64": 64}
INDEX_TYPE = "S32"
CAPACITY = 128
COLUMNS = 8
# A witness per operation: the prose's winner is negative and not first, so "the lowest index of the
# minimum/maximum" is one definite index other than the scan's starting one.
WITNESS = {"ARGMIN": (3, -5, 1), "ARGMAX": (-3, -1, -5)}
RULE = {"ARGMIN": "the lowest index of the minimum", "ARGMAX": "the lowest index of the maximum"}
AXES = {"TileAxis_Row": "row", "TileAxis_Column": "column"}
FUNCTION = re.compile(r"^(?:(?:pure|readonly|impdef|implementation) )*func (\w+)\(", re.MULTILINE)


def prose_index(values, operation: str) -> int:
    """The prose's rule: the lowest index whose value is the minimum (ARGMIN) or maximum (ARGMAX)."""
    best = min(values) if operation == "ARGMIN" else max(values)
    return next(i for i, v in enumerate(values) if v == best)


@dataclass(frozen=True)
class Target:
    """An index-reduction instruction of the tree, as its record states it."""

    mnemonic: str
    unit: Unit
    operation: str  # ARGMIN | ARGMAX
    axis: str  # row | column
    handler: str  # the record's semantic_handler


def reduction_targets(catalog: Catalog) -> list[Target]:
    from ..bridge.executor_asl import bridged_mnemonics
    bridged = set(bridged_mnemonics())
    out = []
    for unit in sorted(catalog.instructions, key=lambda u: (u.mnemonic or "", u.id)):
        if unit.surface != "tile" or unit.mnemonic not in bridged:
            continue
        for rec in unit.record.get("catalog_records", ()) or ():
            if not hasattr(rec, "get"):
                continue
            constants = [a.get("constant") for a in rec.get("arguments", ()) or () if hasattr(a, "get")]
            ops = [c[len("TileReduction_"):] for c in constants if c in ("TileReduction_ARGMIN", "TileReduction_ARGMAX")]
            axes = [AXES[c] for c in constants if c in AXES]
            if ops and axes:
                out.append(Target(unit.mnemonic, unit, ops[0], axes[0], str(rec.get("semantic_handler") or "")))
                break
    return out


def witness_case(target: Target, data_type: str) -> dict:
    """The witness as a pto-docs case: the values along one row (TROW*) or one column (TCOL*), an S32 index
    destination configured as the AVS execution tests configure it."""
    from ..executor import dtypes, state
    values = list(WITNESS[target.operation])
    rows = state.derived_rows(CAPACITY, COLUMNS, dtypes.get(data_type))
    source = {"capacity_bytes": CAPACITY, "rows": rows, "columns": COLUMNS, "data_type": data_type}
    index_rows = state.derived_rows(CAPACITY, 1 if target.axis == "row" else COLUMNS, dtypes.get(INDEX_TYPE))
    if target.axis == "row":
        source.update(valid_rows=1, valid_columns=len(values), elements=[values])
        dest = {"capacity_bytes": CAPACITY, "rows": index_rows, "columns": 1, "valid_rows": 1, "valid_columns": 1}
    else:
        source.update(valid_rows=len(values), valid_columns=1, elements=[[v] for v in values])
        dest = {"capacity_bytes": CAPACITY, "rows": index_rows, "columns": COLUMNS, "valid_rows": 1,
                "valid_columns": 1}
    dest["data_type"] = INDEX_TYPE
    return {"tiles": {"0": source, "1": dest},
            "execute": {"instruction": target.mnemonic, "destination": 1, "sources": [0]}}


# -- running the witnesses (cached by model) ------------------------------------------------------------------

_VERDICTS = Memo(__name__, "the SEMANTICS-PROSE verdicts of a model, by model_key", limit=16)


def model_key(catalog: Catalog) -> str:
    """sha256 of everything a verdict depends on: the pto-docs code that runs the witness and the sources of the
    units the witness can reach by name (``asl_names.closure`` from the target instructions' units and the names
    the bridge calls), in source order, with the generated decoders when the model has them. A save of a unit
    outside that closure (most scalar instructions, say) keeps the key, so serving does not rerun the model. The
    last key is remembered while no unit changes."""
    return _model_closure(catalog)[0]


def reached_paths(catalog: Catalog) -> frozenset[str]:
    """The unit paths (and ``DECODERS``) the witness can reach: all a run of it can read, so the witness runs
    on a model of those units only (:func:`_run_witnesses`)."""
    return _model_closure(catalog)[1]


def _model_closure(catalog: Catalog) -> tuple[str, frozenset[str]]:
    from ..bridge.avs import model_units, needs_decoders
    units = model_units(catalog)
    sha = {u.path: u.file.sha256 for u in catalog.units.values()}
    state = tuple((u.path, sha.get(u.path), u.depends_on) for u in units)
    decoders = _decoder_sha_and_names(catalog) if needs_decoders(catalog) else None
    remembered = _LAST_KEY.get("state")
    if remembered is not None and remembered[0] == (state, decoders and decoders[0]):
        return remembered[1]
    facts = {u.path: _names(u.path, sha.get(u.path), u.text) for u in units}
    if decoders is not None:
        facts[DECODERS] = decoders[1]
    roots: set[str] = set()
    for target in reduction_targets(catalog):
        roots |= facts[target.unit.path].mentioned if target.unit.path in facts else {target.mnemonic}
    literal, prefixes = _bridge_names()
    reached, _names_reached = closure(facts, roots | literal, prefixes)
    key = _digest(units, reached, sha, decoders)
    _LAST_KEY["state"] = ((state, decoders and decoders[0]), (key, frozenset(reached)))
    return key, frozenset(reached)


def _digest(units, reached: frozenset[str], sha: dict, decoders) -> str:
    from ..asl.model import source_order
    by_id = {u.unit_id: u.path for u in units}
    try:
        order = [by_id.get(unit_id, DECODERS) for unit_id in source_order(units)]  # the one non-unit: the decoders
    except ValueError:  # a dependency cycle: the model does not link, no witness runs; any order will do
        order = sorted(by_id.values())
    digest = hashlib.sha256(f"semantics-prose {FORMAT}\n{_code_digest()}\n".encode())
    for path in order:
        if path in reached:
            digest.update(f"u\0{path}\0{decoders[0] if path == DECODERS else sha.get(path)}\n".encode())
    return digest.hexdigest()


_LAST_KEY = Memo(__name__, "the last model_key's inputs and result (model_key)")


DECODERS = "@decoder@"
_NAMES = Memo(__name__, "the ASL names of one unit, by (unit path, sha256) (model_key)")
_DECODERS = Memo(__name__, "the generated decoders of a tree: decoder inputs -> (sha256, names, text)", limit=4)


def _names(path: str, sha: str | None, text: str) -> Names:
    key = (path, sha)
    if sha is None or key not in _NAMES:
        if len(_NAMES) > 8192:
            _NAMES.clear()
        found = names(text)
        if sha is None:
            return found
        _NAMES[key] = found
    return _NAMES[key]


def _decoders(catalog: Catalog) -> tuple[str, Names, str] | None:
    """The generated decoders' sha256, names and text, remembered while every record line and JSON catalog is the
    same (the decoders are made from nothing else); None when the tree's records give none."""
    from ..bridge.avs import generated_decoders
    from ..isa.decoders import DecodersUnavailable
    from .examples import records_key
    inputs = records_key(catalog) + "".join(f"{p}\0{f.file.sha256}" for p, f in sorted(catalog.json_files.items()))
    if inputs not in _DECODERS:
        _DECODERS.clear()  # one tree's decoders at a time
        try:
            text = generated_decoders(catalog)
        except DecodersUnavailable:
            return None
        _DECODERS[inputs] = (hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), names(text), text)
    return _DECODERS[inputs]


def kept_decoders(catalog: Catalog) -> str | None:
    """pto-docs' own generated decoders of the tree (bridge.avs.generated_decoders), made again only when a record
    line or JSON catalog changed (a serving reload after a save of code or prose makes none); None when the
    tree's records give none."""
    found = _decoders(catalog)
    return found[2] if found is not None else None


def _decoder_sha_and_names(catalog: Catalog) -> tuple[str, Names] | None:
    found = _decoders(catalog)
    return found[:2] if found is not None else None


def _bridge_names() -> tuple[frozenset[str], tuple[str, ...]]:
    """The ASL names the bridge (bridge/executor_asl.py) calls or composes, and the prefixes it composes names
    from (``"TileDataType_" + data_type``)."""
    from ..bridge.executor_asl import ASL_NAMES, ASL_PREFIXES
    return ASL_NAMES, ASL_PREFIXES


@functools.cache
def _code_digest() -> str:
    """sha256 of the pto-docs code a verdict depends on: the interpreter, the bridge, the executor, this module."""
    from ..model.frozen import code_digest
    package = Path(__file__).parent.parent
    return code_digest(sorted((package / "asl").glob("*.py")) + [package / "bridge" / "executor_asl.py", Path(__file__)]
                       + sorted((package / "executor").glob("*.py")))


def default_cache_dir() -> Path:
    from ..store.paths import user_cache_root
    return user_cache_root() / "semantics-prose"


def _run_witnesses(catalog: Catalog, targets: list[Target], asl_cache: Path | None) -> list[dict] | None:
    """Each target on each signed type its ASL accepts: ``{"mnemonic", "data_type", "values", "asl", "prose"}``,
    or ``{"mnemonic", "limit"}`` for a witness over a limit of the interpreter; None when the model cannot be
    linked (that is the AVS command's to report). The process may add the AVS workers' memory while it runs them."""
    from ..asl.harness import memory_capped
    with memory_capped():
        return _witnesses(catalog, targets, asl_cache)


def _witnesses(catalog: Catalog, targets: list[Target], asl_cache: Path | None) -> list[dict] | None:
    from ..bridge.avs import generated_decoders, model_units, needs_decoders
    from ..bridge.executor_asl import AslBridge
    try:
        reached = reached_paths(catalog)  # a model of what the witness can reach: less than half the units to load
        generated = None
        if needs_decoders(catalog):  # (made once with the verdict key, model_key)
            found = _decoders(catalog)
            generated = found[2] if found is not None else generated_decoders(catalog)
        bridge = AslBridge([u for u in model_units(catalog) if u.path in reached], generated, asl_cache)
    except AslLimitError as exc:  # the model's global initialisers are over a limit: said at every target
        return [{"mnemonic": t.mnemonic, "limit": f"the model cannot be linked: {located(exc)}"} for t in targets]
    except Exception:  # noqa: BLE001 - an unlinkable model (or its decoders) gives no witness, never a traceback
        return None
    out = []
    for target in targets:
        for data_type in SIGNED:
            try:
                result = bridge.run(witness_case(target, data_type))
            except AslLimitError as exc:  # said once per target (the other types would run as long)
                out.append({"mnemonic": target.mnemonic, "data_type": data_type, "limit": located(exc)})
                break
            except Exception:  # noqa: BLE001 - a case the model cannot run is no witness either way
                continue
            if result["status"] != "ok":  # the ASL does not accept the type (Fault_TileLegality)
                continue
            cell = result["destination"][0][0]
            if cell is None:
                continue
            values = list(WITNESS[target.operation])
            out.append({"mnemonic": target.mnemonic, "data_type": data_type, "values": values,
                        "asl": int(cell), "prose": prose_index(values, target.operation)})
    return out


def verdicts(catalog: Catalog, cache_dir: Path | str | None = "default") -> list[dict]:
    """The witness results of the tree, run once per model (this process, then ``cache_dir``; None: no file)."""
    targets = reduction_targets(catalog)
    if not targets:
        return []
    key = model_key(catalog)
    if key in _VERDICTS:
        return _VERDICTS[key]
    folder = None
    if cache_dir is not None:
        folder = _checked_dir(default_cache_dir() if cache_dir == "default" else Path(cache_dir), catalog)
    path = folder / f"verdicts-{key[:32]}.json" if folder is not None else None
    found = _read(path, key) if path is not None else None
    if found is None:
        asl_cache = folder.parent / "asl" if folder is not None else None
        found = _run_witnesses(catalog, targets, asl_cache)
        if found is None:
            return []
        if path is not None:
            _write(path, key, found)
    if len(_VERDICTS) >= 4:
        _VERDICTS.clear()
    _VERDICTS[key] = found
    return found


def _checked_dir(folder: Path, catalog: Catalog) -> Path | None:
    from ..store.output_guard import OutputRefused, check_cache_dir
    try:
        return check_cache_dir(folder, catalog.root)
    except OutputRefused:
        return None  # never inside the spec tree: run without a file


def _read(path: Path, key: str) -> list[dict] | None:
    """The verdicts kept at ``path``, only when sealed with the user's key (store/seal.py)."""
    from ..store import user_sealer
    sealer = user_sealer()
    payload = sealer.load(path) if sealer is not None else None
    if payload is None:
        return None
    try:
        doc = json.loads(payload)
    except ValueError:
        return None
    if isinstance(doc, dict) and doc.get("key") == key and isinstance(doc.get("verdicts"), list):
        return doc["verdicts"]
    return None


def _write(path: Path, key: str, found: list[dict]) -> None:
    from ..store import user_sealer
    sealer = user_sealer()
    if sealer is None:
        return
    try:
        sealer.save(path, (json.dumps({"key": key, "verdicts": found}, separators=(",", ":")) + "\n").encode())
    except OSError:  # an unwritable cache costs a rerun next time, nothing else
        pass


# -- findings -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Witness:
    data_type: str
    values: tuple[int, ...]
    asl: int  # the index the ASL wrote
    prose: int  # the index the prose's rule gives


@dataclass(frozen=True)
class SemanticsFinding:
    mnemonic: str
    unit_id: str
    path: str  # the instruction's record
    line: int
    operation: str  # ARGMIN | ARGMAX
    axis: str  # row | column
    rule: str  # the prose's rule, e.g. "the lowest index of the minimum"
    witnesses: tuple[Witness, ...]  # the disagreeing cases, one per data type
    entry: str  # InstructionContractExecute_<M>
    entry_path: str
    entry_line: int
    handler: str  # the record's semantic_handler
    handler_path: str
    handler_line: int
    clause: str  # the instruction's NDF contract clause ("" without one)
    clause_path: str
    clause_line: int

    @property
    def types(self) -> str:
        return ", ".join(w.data_type for w in self.witnesses)

    @property
    def message(self) -> str:
        w = self.witnesses[0]
        along = "row" if self.axis == "row" else "column"
        handler = f"{self.handler} ({self.handler_path}:{self.handler_line})" if self.handler_path else self.handler
        prose = (f"{self.clause} ({self.clause_path}:{self.clause_line})" if self.clause
                 else f"the record ({self.path}:{self.line})")
        return (f"{self.mnemonic} of the {along} {list(w.values)} ({self.types}): the ASL, run on the interpreter "
                f"({self.entry} at {self.entry_path}:{self.entry_line}, handler {handler}), writes index {w.asl}; "
                f"{prose} states {self.rule}, index {w.prose}")


def _definitions(catalog: Catalog, wanted: set[str]) -> dict[str, tuple[str, int]]:
    """path:line of the first ``func`` of each ``wanted`` name; only the units that declare one are read
    (their names are remembered by sha256, see model_key)."""
    out: dict[str, tuple[str, int]] = {}
    for unit in sorted(catalog.units.values(), key=lambda u: u.path):
        text = unit.file.text
        if not _names(unit.path, unit.file.sha256, text).declared & wanted:
            continue
        for match in FUNCTION.finditer(text):
            if match.group(1) in wanted:
                out.setdefault(match.group(1), (unit.path, text.count("\n", 0, match.start()) + 1))
    return out


def _clause(unit: Unit):
    contract = [c for c in unit.ndf if c.kind == "contract"]
    return (contract or list(unit.ndf) or [None])[0]


def semantics_findings(catalog: Catalog, cache_dir: Path | str | None = "default") -> tuple[SemanticsFinding, ...]:
    targets = {t.mnemonic: t for t in reduction_targets(catalog)}
    disagreeing: dict[str, list[Witness]] = {}
    for v in verdicts(catalog, cache_dir):
        if v.get("mnemonic") in targets and v.get("asl") != v.get("prose"):
            disagreeing.setdefault(v["mnemonic"], []).append(
                Witness(str(v["data_type"]), tuple(v["values"]), int(v["asl"]), int(v["prose"])))
    if not disagreeing:
        return ()
    where = _definitions(catalog, {f"InstructionContractExecute_{m}" for m in disagreeing} |
                         {targets[m].handler for m in disagreeing})
    out = []
    for mnemonic, witnesses in disagreeing.items():
        t = targets[mnemonic]
        entry = f"InstructionContractExecute_{mnemonic}"
        clause = _clause(t.unit)
        out.append(SemanticsFinding(
            mnemonic, t.unit.id, t.unit.path, t.unit.line, t.operation, t.axis, RULE[t.operation], tuple(witnesses),
            entry, *where.get(entry, ("", 0)), t.handler, *where.get(t.handler, ("", 0)),
            clause.id if clause else "", clause.path if clause else "", clause.line if clause else 0))
    return tuple(sorted(out, key=lambda f: f.mnemonic))


def semantics_prose_diagnostics(catalog: Catalog, cache_dir: Path | str | None = "default",
                                findings: tuple | None = None) -> list[Diagnostic]:
    """The findings as warnings; ``findings`` (already made for this catalog) saves running the model."""
    limits = []
    if findings is None:  # (findings made elsewhere, by a build's helper process: its verdicts are not run here)
        findings = semantics_findings(catalog, cache_dir)
        limits = witness_limit_diagnostics(catalog, cache_dir)
    return [warning(f.path, f.line, 1, "SEMANTICS-PROSE", f.message) for f in findings] + limits


def witness_limit_diagnostics(catalog: Catalog, cache_dir: Path | str | None = "default") -> list[Diagnostic]:
    """A witness that ran over a limit of the interpreter (steps, time, the size of a value): no verdict, and a
    warning at the instruction's record saying why (the run ended with an error, it did not hang)."""
    limited = [v for v in verdicts(catalog, cache_dir) if "limit" in v]
    if not limited:
        return []
    targets = {t.mnemonic: t for t in reduction_targets(catalog)}
    out = []
    for v in limited:
        t = targets.get(v.get("mnemonic"))
        if t is not None:
            on = f" on {v['data_type']}" if v.get("data_type") else ""
            out.append(warning(t.unit.path, t.unit.line, 1, "SEMANTICS-PROSE",
                               f"{t.mnemonic}: the witness{on} could not run on the ASL model, which is over a limit "
                               f"of the interpreter: {v['limit']}"))
    return out
