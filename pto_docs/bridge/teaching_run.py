"""Run the teaching scenarios (``teaching``) of every instruction on the spec's ASL model and keep, per unit, the
first one with a visible effect.

A scenario runs as a v2 case (``exec_model.ModelRunner``) under the ``ieee`` profile. It is kept when it ran
(status ok), raised no fault and changed some architectural state that is not bookkeeping (the program counter,
cycle counters, trap-context copies: :data:`BOOKKEEPING`), or for a tile operation wrote a destination element.
A kept scenario with inputs set only in case the instruction reads them (``Scenario.assumed``: a restore's ra) is
run once more without them, and shown so if that run does the very same (FEXIT reads no ra; FRET.RA does).
Results are cached by the digest of their inputs: one sealed entry per model (the digest of the model's units,
the decoders it links and the code that runs them) holding every case's result under the sha256 of its JSON; a
build in either language, and every later build of the same model, reads them instead of running.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..model.catalog import Catalog
from ..store.memo import Memo
from .teaching import NOT_CODE, Scenario, scalar_scenarios
from .teaching_tiles import tile_scenarios

FORMAT = 1
MAX_RUNS = 64  # scenarios run per instruction at most (the first with a visible effect ends the search)
# (a block's own state, _BARG, _Bundle*, is not bookkeeping: it is what BSTART and the B.* descriptors do; a
# restartable command's template, _FrameTemplate.* or _MemoryCopyTemplate.*, is: the trap-preserved copy of its
# operands and progress)
BOOKKEEPING = re.compile(r"^(_PC$|_SystemRegisters\.(cycle|instret|time)|_LastFault$|_LastFaultAddress$|_Trap|_Saved|"
                         r"_CurrentMemoryAgent$|_Retired|_Cycle|_Event|_Memory(Events|Log)|_ArchitecturalInstruction|"
                         r"_[A-Za-z]*Template\.)")


@dataclass(frozen=True)
class Taught:
    """One instruction's executed teaching example: the scenario and what the model did."""

    scenario: Scenario
    result: Mapping
    tried: int  # scenarios run before this one had an effect (0: the first)
    finding: str | None = None  # how the NumPy executor disagrees with the model (teaching_check), if it does
    alias_of: str = ""  # the mnemonic whose example an encoding alias shows


@dataclass(frozen=True)
class Untaught:
    unit_id: str
    mnemonic: str
    reason: str


# faults that say the scenario was wrong for the instruction (placement, decoding, an address), not what it does
SETUP_FAULTS = frozenset({"Fault_None", "Fault_BundleControl", "Fault_IllegalInstruction", "Fault_DataAlignment",
                          "Fault_DataPage", "Fault_InstructionPage", "Fault_TileLegality"})


def own_fault(result: Mapping, reserved: bool = False) -> bool:
    """The scenario ran and raised a fault that is the instruction's own doing (EBREAK's Fault_SoftwareBreakpoint,
    Illegal Instruction of an encoding reserved in PTO: ``reserved``): a fault example, for an instruction with no
    example that completes."""
    fault = result.get("fault")
    return result.get("status") == "ok" and isinstance(fault, str) and fault.startswith("Fault_") \
        and (fault not in SETUP_FAULTS or reserved and fault == "Fault_IllegalInstruction")


HINT = re.compile(r"\bhint\b", re.IGNORECASE)


def is_hint(unit) -> bool:
    """The instruction says it is a hint (PRF: "issues a non-binding ... prefetch hint with no destination effect"):
    an example that completes with no architectural effect is its honest example. Any other instruction's example
    must show an effect (or its own fault)."""
    if unit.surface == "tile":
        return False
    texts = [unit.record.get("summary")] + [r.get("semantic_summary") for r in unit.catalog_records
                                            if isinstance(r, Mapping)]
    return any(isinstance(t, str) and HINT.search(t) for t in texts)


def reserved(scenario: Scenario) -> bool:
    """The scenario's encoding is reserved in PTO (its condition says so)."""
    return "reserved" in scenario.condition.split("+")


def is_bookkeeping(name: str) -> bool:
    return bool(BOOKKEEPING.match(name))


def sequential_pc(change, result: Mapping) -> bool:
    """Whether a ``_PC`` change only steps over the instruction (bookkeeping) rather than branching."""
    try:
        before, after = int(str(change[1]), 16), int(str(change[2]), 16)
    except (TypeError, ValueError, IndexError):
        return True
    word = str((result.get("decoded") or {}).get("word") or "")
    length = max(1, (len(word) - 2) // 2) if word.startswith("0x") else 4
    return after - before == length


def shown_change(change, result: Mapping) -> bool:
    """A change a reader should see: not bookkeeping (a branch's new PC is shown)."""
    name = str(change[0])
    if name == "_PC":
        return not sequential_pc(change, result)
    return not is_bookkeeping(name)


def completed(result: Mapping) -> bool:
    """The scenario ran to its end and raised no fault."""
    return result.get("status") == "ok" and result.get("fault") in (None, "Fault_None")


def visible(result: Mapping) -> bool:
    if not completed(result):
        return False
    return any(shown_change(c, result) for c in result.get("changed", ()))


@functools.cache
def code_digest() -> str:
    from ..model.frozen import code_digest as digest
    package = Path(__file__).parent.parent
    return digest(sorted((package / "asl").glob("*.py"))
                  + [package / "bridge" / name for name in ("teaching.py", "teaching_tiles.py", "teaching_matrix.py",
                                                            "teaching_run.py",
                                                            "exec_model.py", "avs.py")]
                  + sorted((package / "isa").rglob("*.py")))


def model_digest(catalog: Catalog, generated: str | None) -> str:
    from .. import __version__
    digest = hashlib.sha256(f"teaching {FORMAT}\0{__version__}\0{code_digest()}\0".encode())
    for unit in sorted(catalog.units.values(), key=lambda u: u.path):
        digest.update(f"u\0{unit.path}\0{_code_digest(unit.file.sha256, unit.file.text)}\n".encode())
    digest.update(hashlib.sha256((generated or "").encode("utf-8")).digest())
    return digest.hexdigest()


# a unit's metadata lines (its syntax and encodings, which the scenarios and the decoders are made from): kept
_METADATA = re.compile(r"^[ \t]*// ?PTO-[^\n]*", re.M)


def _kept(match: re.Match) -> str:
    text = match.group(0)
    return text if text[0] == '"' else " "


def model_text(text: str) -> str:
    """A unit's text as the model and the scenarios see it: its `// PTO-` metadata lines, then its code without
    comments, trailing spaces and blank lines. An edit of a comment or of blank lines is no change of the teaching
    results' model digest (a save of a unit's comment re-runs no example); an edit of code or metadata is."""
    metadata = _METADATA.findall(text)
    code = NOT_CODE.sub(_kept, _METADATA.sub("", text))  # (strings kept as written, comments one space)
    lines = (line.rstrip() for line in code.split("\n"))
    return "\n".join(metadata) + "\0" + "\n".join(line for line in lines if line)


_CODE_DIGESTS = Memo(__name__, "a unit file's sha256 -> the digest of its model text (a serve session rereads the same units)", limit=20000)


def _code_digest(sha256: str, text: str) -> str:
    found = _CODE_DIGESTS.get(sha256)
    if found is None:
        found = _CODE_DIGESTS[sha256] = hashlib.sha256(model_text(text).encode("utf-8", "surrogatepass")).hexdigest()
    return found


def case_digest(case: Mapping) -> str:
    return hashlib.sha256(json.dumps(case, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def unit_scenarios(catalog: Catalog, assembler, unit) -> list[Scenario]:
    """Every scenario of one instruction, in the order they are tried."""
    if unit.surface == "tile":
        return tile_scenarios(catalog, assembler, unit)
    return scalar_scenarios(assembler, unit)


def compose_all(catalog: Catalog) -> dict[str, list[Scenario]]:
    from ..isa.assembler import Assembler
    assembler = Assembler(catalog)
    return {unit.id: unit_scenarios(catalog, assembler, unit) for unit in catalog.instructions}


def teach(catalog: Catalog, generated: str | None, cache_dir=None, progress=None,
          split: bool = False) -> tuple[dict, dict]:
    """(unit id -> :class:`Taught`, unit id -> :class:`Untaught`) of every instruction of a loaded, error-free tree
    whose ASL model links with ``generated`` (the decoders; None: it needs none). With ``split`` (a first build's
    load worker: a process with no other thread, which ends with the build) the runs are shared with a helper
    forked once the model is linked (teaching_split), and the linked model is frozen out of the garbage
    collector's sight; the examples are the same."""
    from .teaching_keys import scenarios_digest
    digest = model_digest(catalog, generated)
    composed = scenarios_digest(catalog, code_digest())
    # (the scenarios too: a comment above the model's stack pointer constant moves the line a frame page names)
    key = f"{digest}:{composed}"
    held = _TAUGHT.get(key)
    if held is not None:  # (a serving reload after a save that left the model as it was: nothing to compose)
        return dict(held[0]), dict(held[1])
    taught, untaught = _teach(catalog, generated, cache_dir, digest, split, composed)
    if taught or untaught:
        _TAUGHT[key] = (dict(taught), dict(untaught))
    return taught, untaught


# the model digest covers every input of the scenarios (the units' metadata, which the assembler is made from, and
# their code) and of their results (the decoders, the code that composes and runs them): equal digest, equal result
_TAUGHT = Memo(__name__, "a model digest and a scenarios digest -> the taught and untaught instructions of that model (a serving "
               "process reloads the same model after every save of a comment or of prose)", limit=2)


def _teach(catalog: Catalog, generated: str | None, cache_dir, digest: str, split: bool,
           composed: str) -> tuple[dict, dict]:
    from ..store import sealed_folder
    scenarios = _SCENARIOS.get(composed)
    if scenarios is None:  # (a save of code composes nothing again)
        scenarios = _SCENARIOS[composed] = compose_all(catalog)
    cache = sealed_folder(cache_dir)
    entry = f"teaching-{digest[:32]}.json"
    known: dict[str, dict] = {}
    if cache is not None:
        payload = cache.load(entry)
        if payload is not None:
            try:
                loaded = json.loads(payload.decode("utf-8"))
                known = loaded if isinstance(loaded, dict) else {}
            except (UnicodeDecodeError, ValueError):
                known = {}
    from ..asl.runner import run_in_big_stack
    runs = _Runs(catalog, generated, cache_dir, scenarios, known, split)
    try:  # (one thread with a big stack for every run, not one per run)
        taught, untaught, results = run_in_big_stack(_examples, runs)
    except _Unlinkable as exc:
        return {}, {u.id: Untaught(u.id, u.mnemonic or "", str(exc)) for u in catalog.instructions}
    finally:
        runs.close()
    _borrow_for_aliases(catalog, taught, untaught)
    _LAST["model"] = (catalog, generated, scenarios, results, cache_dir)
    if runs.fresh and cache is not None:
        try:
            cache.save(entry, json.dumps(known, separators=(",", ":"), sort_keys=True).encode("utf-8"))
        except OSError:
            pass  # an unwritable cache costs a rerun next time
    return taught, untaught


def _examples(runs: _Runs) -> tuple[dict[str, Taught], dict[str, Untaught], dict[str, dict[str, dict]]]:
    """(taught, untaught, unit id -> its tried scenarios' results by case digest) of every instruction, in order."""
    taught: dict[str, Taught] = {}
    untaught: dict[str, Untaught] = {}
    results: dict[str, dict[str, dict]] = {}
    for index, unit in enumerate(runs.units):
        runs.reach(index)
        found = runs.scenarios.get(unit.id) or []
        if not found:
            results[unit.id] = {}
            untaught[unit.id] = Untaught(unit.id, unit.mnemonic or "", "no scenario could be composed from its syntax")
            continue
        outcome, results[unit.id] = _search(unit, found, runs.result)
        (taught if isinstance(outcome, Taught) else untaught)[unit.id] = outcome
    return taught, untaught, results


def _search(unit, found, result) -> tuple[Taught | Untaught, dict[str, dict]]:
    """One instruction's example: its scenarios tried in order (``result(unit id, case digest, case)`` gives each
    one's result) until one shows an effect; and the results tried, by case digest."""
    used: dict[str, dict] = {}
    last = ""
    faulting = None  # the first scenario that raised the instruction's own fault (a fault example)
    quiet = None  # the first that completed without a fault and changed no architectural state (a hint)
    in_block = False  # a scenario faulted for want of a block: the block-body retries are worth running
    runs = 0
    for tried, scenario in enumerate(found):
        if scenario.in_bundle and not in_block:
            continue
        if runs == MAX_RUNS:
            break
        runs += 1
        case = scenario.case()
        key = case_digest(case)
        got = used[key] = result(unit.id, key, case)
        if visible(got):
            from .teaching_check import disagreement
            if any(scenario.assumed):
                scenario, got = _unassumed(unit, scenario, got, used, result)
            return Taught(scenario, got, tried, disagreement(scenario, got)), used
        if scenario.hint and completed(got):  # a prefetch completed: that it changes nothing is its example
            return Taught(scenario, got, tried), used
        last = last or _why(got)  # the first scenario's reason: the later ones are retries
        if faulting is None and own_fault(got, reserved(scenario)):
            faulting = Taught(scenario, got, tried)
        if quiet is None and completed(got):
            quiet = Taught(scenario, got, tried)
        in_block = in_block or got.get("fault") == "Fault_BundleControl"
    if faulting is not None:
        return faulting, used
    if quiet is not None and is_hint(unit):
        return quiet, used  # no effect to show (PRF): the page says so
    return Untaught(unit.id, unit.mnemonic or "", last or "no visible effect"), used


# what a run did, beside the state it started from (its "before", which an input it did not read is part of)
EFFECT = ("status", "result", "exception", "changed", "truncated", "read", "fault", "status_flags")


def _unassumed(unit, scenario: Scenario, got: Mapping, used: dict, result) -> tuple[Scenario, Mapping]:
    """The scenario without its assumed inputs (a restore's ra, as a call leaves it) when its run without them does
    the very same (FEXIT does not read ra); else as it is (FRET.RA returns through ra: without it, to 0)."""
    bare = scenario.without_assumed()
    case = bare.case()
    key = case_digest(case)
    other = used[key] = result(unit.id, key, case)
    if visible(other) and all(other.get(k) == got.get(k) for k in EFFECT):
        return bare, other
    return scenario, got


class _Unlinkable(Exception):
    """The tree's ASL model cannot be linked (the message says why): no instruction has an example."""


class _Runs:
    """Where a scenario's result comes from: known (the sealed cache, or the helper's share), kept from the model
    taught last, or run here on the model, linked when the first run is needed; with ``split``, a helper forked then
    takes instructions from the end (teaching_split)."""

    def __init__(self, catalog: Catalog, generated, cache_dir, scenarios, known: dict, split: bool) -> None:
        self.catalog, self.generated, self.cache_dir, self.scenarios = catalog, generated, cache_dir, scenarios
        self.units = list(catalog.instructions)
        self.known, self.split = known, split
        self.kept = _Kept(catalog, generated, scenarios)
        self.runner = None
        self.fresh = 0  # results not in the sealed cache (run here, kept or the helper's)
        self.index = 0  # the unit this process is at
        self.share = None  # (teaching_split.Share) while a helper runs
        self.made: dict[str, dict] | None = None  # in the helper: the results it ran

    def reach(self, index: int) -> None:
        """This process goes on to unit ``index``: if the helper has it, the helper's results are taken first."""
        self.index = index
        if self.share is not None and not self.share.claim(index):
            share, self.share = self.share, None
            found = share.collect()
            for key, result in found.items():
                if key not in self.known:
                    self.known[key] = result
                    self.fresh += 1

    def result(self, unit_id: str, key: str, case: dict) -> dict:
        result = self.known.get(key)
        if result is not None:
            return result
        if self.runner is None:  # (also before a kept result is taken: the new model must link)
            self.runner = _runner(self.catalog, self.generated, self.cache_dir, self.scenarios)
            if isinstance(self.runner, str):
                raise _Unlinkable(self.runner)
            if self.split:  # (a load worker, which ends with the build: the model lives as long as it does)
                import gc

                from .teaching_split import fork
                gc.freeze()  # no full collection walks (and, in the helper, copies) the linked model again
                self.share = fork(len(self.units), self.index + 1, self._helper)
        result = self.kept.result(unit_id, key) or _run(self.runner, case)
        self.known[key] = result
        if self.made is not None:
            self.made[key] = result
        self.fresh += 1
        return result

    def _helper(self, share) -> dict[str, dict]:
        """In the forked helper: the results of the scenarios of the units it takes from the end."""
        self.made, self.share = {}, None
        for index in share.from_the_end():
            unit = self.units[index]
            found = self.scenarios.get(unit.id) or []
            if found:
                _search(unit, found, self.result)
        return self.made

    def close(self) -> None:
        if self.share is not None:  # (this process ran every unit itself, or failed: the helper is not waited for)
            share, self.share = self.share, None
            share.close()


_SCENARIOS = Memo(__name__, "the digest of every unit's metadata lines (teaching_keys.scenarios_digest) -> every "
                  "instruction's scenarios", limit=2)
_LAST = Memo(__name__, "the model taught last in this process: (catalog, decoders, scenarios, each instruction's "
             "results by case digest, the cache folder), whose results a reload after a save of code may keep (teaching_keys)", limit=1)


class _Kept:
    """The results of the model taught last that an instruction of this model may keep: those of an instruction
    whose key (teaching_keys: the sources its scenarios can reach) is the same in both models. The keys are made
    only when a scenario would otherwise run (a serving reload after a save of code), never on a first build."""

    def __init__(self, catalog: Catalog, generated: str | None, scenarios) -> None:
        self.catalog, self.generated, self.scenarios = catalog, generated, scenarios
        self.kept: dict[str, dict[str, dict]] | None = None

    def result(self, unit_id: str, key: str) -> dict | None:
        if self.kept is None:
            self.kept = self._match()
        return (self.kept.get(unit_id) or {}).get(key)

    def _match(self) -> dict[str, dict[str, dict]]:
        last = _LAST.get("model")
        if last is None or last[0] is self.catalog:
            return {}
        old = _instruction_keys(*last[:3])
        new = _instruction_keys(self.catalog, self.generated, self.scenarios)
        return {uid: results for uid, results in last[3].items() if uid in new and old.get(uid) == new[uid]}


def prepare_for_a_save() -> None:
    """Serving, while the author edits: make the keys of the model taught last (teaching_keys), which the reload
    after the next save of code compares with the new model's keys (:class:`_Kept`). The first such save of a
    serving process would make them otherwise (0.6 s on pto-spec 0.58.3: each unit's names are read once); later
    ones find them made (the reload before made the keys of the model it taught)."""
    last = _LAST.get("model")
    if last is None:
        return
    catalog, generated, _, _, cache_dir = last
    from ..asl.model import load_model
    from ..store import sealed_folder
    from .avs import PARSED_UNITS, model_units
    # the parsed units too (as exec_model.ModelRunner reads them): a first build whose results all came from the
    # sealed cache linked no model, and the first save of code would read every other unit's parse from the cache
    # before linking; after a build that linked one, every unit is in the memo already. Not in a big-stack thread
    # (asl.runner): that raises the recursion limit and the stack size of every thread of the process while it
    # runs, and the server's request threads run now; a unit nested too deeply for this thread is parsed by the
    # save's link, as before
    try:
        load_model(model_units(catalog), generated, sealed_folder(cache_dir), PARSED_UNITS)
    except RecursionError:
        pass
    _instruction_keys(*last[:3])


def _instruction_keys(catalog: Catalog, generated: str | None, scenarios) -> dict[str, str]:
    from .teaching_keys import instruction_keys
    return instruction_keys(catalog, generated, scenarios, code_digest(),
                            lambda unit: _code_digest(unit.file.sha256, unit.file.text))


def _borrow_for_aliases(catalog: Catalog, taught: dict, untaught: dict) -> None:
    """An encoding alias (``alias_of``: BSTART.VEC of BSTART.TEPL) executes as its target: without an example of its
    own it shows the target's, saying so (``Taught.alias_of``)."""
    for uid in list(untaught):
        unit = catalog.units[uid]
        target_name = unit.record.get("alias_of")
        target = catalog.find_instruction(target_name, unit.surface) if isinstance(target_name, str) else None
        if target is not None and target.id in taught:
            found = taught[target.id]
            taught[uid] = Taught(found.scenario, found.result, found.tried, found.finding, target.mnemonic or "")
            del untaught[uid]


def findings(catalog: Catalog, taught: Mapping[str, Taught]) -> list:
    """One TEACH-NUMPY warning per instruction whose example the NumPy executor computes differently."""
    from ..model.diagnostics import warning
    out = []
    for uid, found in sorted(taught.items()):
        if found.finding and uid in catalog.units:
            unit = catalog.units[uid]
            out.append(warning(unit.path, 1, 1, "TEACH-NUMPY", f"{unit.mnemonic}: the executed example "
                               f"({found.scenario.asm}) disagrees with the NumPy executor: {found.finding}"))
    return out


def _runner(catalog: Catalog, generated, cache_dir, scenarios):
    from ..asl.harness import failure_text
    from .exec_model import ModelRunner
    # (only a tile scenario calls a subprogram: a scalar one is always {"asm": ...}; its scenarios, composed lazily,
    # are not composed here for nothing: most instructions show their first)
    calls = sorted({s.instruction["call"] for uid, found in scenarios.items()
                    if uid in catalog.units and catalog.units[uid].surface == "tile"
                    for s in found if "call" in s.instruction})
    try:
        runner = ModelRunner(catalog, generated, cache_dir, "ieee", tuple(calls))
    except Exception as exc:  # noqa: BLE001 - a model that cannot be linked: no example, said once
        return f"the tree's ASL model cannot be linked: {failure_text(exc)}"
    return runner


def _run(runner, case: dict) -> dict:
    from .case_problem import CaseProblem
    try:
        result = runner.run(case)
    except CaseProblem as exc:
        return {"status": "problem", "message": str(exc)}
    kept = {k: result[k] for k in ("status", "message", "entry", "decoded", "result", "exception", "before",
                                   "changed", "truncated", "read", "fault", "status_flags", "digest")}
    fallbacks = result.get("profile_fallbacks")  # ieee hooks that ran as pto-v0: the page says so
    if fallbacks:
        kept["profile_fallbacks"] = sorted(str(f) for f in fallbacks)
    return kept


def _why(result: Mapping) -> str:
    if result.get("status") != "ok":
        return str(result.get("message") or result.get("status"))[:300]
    if result.get("fault") not in (None, "Fault_None"):
        return f"faults: {result.get('fault')}"
    return "no visible effect"
