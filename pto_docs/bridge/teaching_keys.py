"""The key of one instruction's teaching results: the sources its scenarios can reach by name.

A save of a unit's code changes the model digest (teaching_run.model_digest), so every instruction's scenarios
would run again (about 8 s of CPU on pto-spec 0.58.3), although most instructions' runs cannot read the saved unit:
ASL has no imports, and a run that starts from some names reads only the units that declare them, the units that
declare the names *those* mention, and so on (``asl.names.closure``, which errs on the side of more). So each
instruction's results are also kept in the process under the digest of what its scenarios can reach:

- the roots: every name its scenarios' cases write (setup, reads, a called subprogram), the subprograms and
  globals the runner itself calls or reads (:data:`RUNNER_NAMES`), and every name any unit that is not an
  instruction's mentions (the execution machinery the decoded word enters). The state a result shows is only
  what the run wrote (asl/probe.py visits written paths only), compared with the globals' initial values: a
  global the run writes or reads is mentioned by a reached unit, so its declaration (and initialiser) is
  reached too; a global nothing reached mentions is neither shown nor read;
- the digest: the code text (teaching_run.model_text, so comments do not count) of every unit reached, the
  metadata lines and paths of every unit (the assembler, the encoding model and the scenarios are made from
  them), the generated decoders and the pto-docs code that runs the scenarios.

A save keeps the key of every instruction none of whose reached units changed: its results are taken from the
last run instead of running again. The new model is still linked before any result is taken (a model that no
longer links shows that on every page, as a fresh build would).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping

from ..asl.names import WORD, Names, names
from ..asl.names import extend as _extend
from ..model.catalog import Catalog
from ..store.memo import Memo

FORMAT = 1
# what exec_model.ModelRunner calls or reads by name besides the case's own text
RUNNER_NAMES = frozenset({"ExecuteScalarInstruction", "ExecuteCommandInstruction", "ResetProfileState",
                          "NumericStatusFlags", "_LastFault"})
DECODERS = "@decoder@"

_NAMES = Memo(__name__, "(unit path, sha256) -> the ASL names it declares and mentions, its metadata lines",
              limit=8192)
_METADATA = Memo(__name__, "(unit path, sha256) -> its metadata lines (scenarios_digest)", limit=8192)
_WORDS = Memo(__name__, "a line of a teaching case -> the words it mentions", limit=65536)


def _facts(path: str, sha: str, text: str) -> tuple[Names, str]:
    key = (path, sha)
    found = _NAMES.get(key)
    if found is None:
        found = _NAMES[key] = (names(text), _metadata(path, sha, text))
    return found


def _words(line: str) -> frozenset[str]:
    found = _WORDS.get(line)
    if found is None:
        found = _WORDS[line] = frozenset(WORD.findall(line))
    return found


def scenarios_digest(catalog: Catalog, code_digest: str) -> str:
    """sha256 of what composing the scenarios reads (teaching_run.compose_all): every unit's path and metadata
    lines (its record, the assembler's forms and syntax) and the pto-docs code; of the units' code only the few
    facts composing reads (below)."""
    from .teaching_stack import model_stack_pointer
    digest = hashlib.sha256(f"teaching-scenarios {FORMAT}\0{code_digest}\0".encode())
    for unit in sorted(catalog.units.values(), key=lambda u: u.path):
        digest.update(f"m\0{unit.path}\0{_metadata(unit.path, unit.file.sha256, unit.file.text)}\n"
                      .encode("utf-8", "surrogatepass"))
    # and what composing reads of the units' code: the register a frame scenario sets as sp (with its constant's
    # place, which the page names), the subprogram that sets the start pc, the model's copy of ra, and per instruction
    # the access size and the use of the TPC its ASL contract declares
    from ..isa.assembler.spelling import SOURCE_CODE
    from .teaching import contract_facts, pc_writer
    from .teaching_stack import register_mirror
    digest.update(f"sp\0{model_stack_pointer(catalog)!r}\0pc\0{pc_writer(catalog)}\0ra\0"
                  f"{register_mirror(catalog, SOURCE_CODE['ra'])!r}\n".encode("utf-8", "surrogatepass"))
    for unit in catalog.instructions:
        digest.update(f"c\0{unit.id}\0{contract_facts(unit)}\n".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _metadata(path: str, sha: str, text: str) -> str:
    found = _NAMES.get((path, sha))
    if found is not None:
        return found[1]
    found = _METADATA.get((path, sha))
    if found is None:
        found = _METADATA[(path, sha)] = "\n".join(_METADATA_LINE.findall(text)) if "PTO-" in text else ""
    return found


def instruction_keys(catalog: Catalog, generated: str | None, scenarios: Mapping[str, list],
                     code_digest: str, unit_digest) -> dict[str, str]:
    """unit id -> the key of that instruction's results (see the module's docstring). ``unit_digest(unit)``: the
    digest of a unit's code text as the model digest counts it (comments left out). The keys of the last two
    catalogs are kept: a serving reload after a save of code compares the new catalog's keys with those the
    reload before made for the catalog it loaded (0.2-0.3 s each on pto-spec 0.58.3)."""
    held = _KEYS.get(id(catalog))
    if held is not None and held[0] is catalog and held[1] is scenarios and held[2] == (generated, code_digest):
        return held[3]
    keys = _keys(catalog, generated, scenarios, code_digest, unit_digest)
    _KEYS[id(catalog)] = (catalog, scenarios, (generated, code_digest), keys)
    return keys


# (a catalog is never changed once loaded, nor a composed scenarios mapping: teaching_run keeps both as they are)
_KEYS = Memo(__name__, "id(catalog) -> (catalog, scenarios, (decoders, code digest), its instructions' keys)", limit=2)


def _keys(catalog: Catalog, generated: str | None, scenarios: Mapping[str, list], code_digest: str,
          unit_digest) -> dict[str, str]:
    units = sorted(catalog.units.values(), key=lambda u: u.path)
    facts: dict[str, Names] = {}
    metadata: dict[str, str] = {}
    for unit in units:
        facts[unit.path], metadata[unit.path] = _facts(unit.path, unit.file.sha256, unit.file.text)
    generated_sha = hashlib.sha256((generated or "").encode("utf-8", "surrogatepass")).hexdigest()
    if generated:
        facts[DECODERS], _ = _facts(DECODERS, generated_sha, generated)
    machinery = [path for path, unit in ((u.path, u) for u in units) if not unit.is_instruction]
    machinery += [DECODERS] if generated else []
    roots = set(RUNNER_NAMES)
    for path in machinery:
        roots |= facts[path].mentioned
    declaring: dict[str, list[str]] = {}
    for path, found in facts.items():
        for name in found.declared:
            declaring.setdefault(name, []).append(path)
    base_units: set[str] = set(machinery)
    base_names: set[str] = set(roots)
    _extend(facts, declaring, base_units, base_names, roots)
    common = hashlib.sha256(f"teaching-keys {FORMAT}\0{code_digest}\0{generated_sha}\0".encode())
    for unit in units:
        common.update(f"m\0{unit.path}\0{metadata[unit.path]}\n".encode("utf-8", "surrogatepass"))
    code = {unit.path: unit_digest(unit) for unit in units}
    code[DECODERS] = generated_sha
    for path in sorted(base_units):  # (what every instruction reaches: hashed once)
        common.update(f"u\0{path}\0{code.get(path, '')}\n".encode("utf-8", "surrogatepass"))
    keys: dict[str, str] = {}
    for unit in catalog.instructions:
        words: set[str] = set()
        for scenario in scenarios.get(unit.id) or ():
            for line in _case_lines(scenario.case()):
                words |= _words(line)
        reached, seen = set(base_units), set(base_names)
        _extend(facts, declaring, reached, seen, words - seen)
        digest = common.copy()
        digest.update(f"i\0{unit.id}\n".encode("utf-8", "surrogatepass"))
        for path in sorted(reached - base_units):
            digest.update(f"u\0{path}\0{code.get(path, '')}\n".encode("utf-8", "surrogatepass"))
        keys[unit.id] = digest.hexdigest()
    return keys


def _case_lines(case: Mapping) -> list[str]:
    """The ASL text of a case: its setup, reads, and a called subprogram with its arguments."""
    instruction = case.get("instruction") or {}
    parts: list[str] = [*map(str, case.get("setup", ())), *map(str, case.get("read", ()))]
    if "call" in instruction:
        parts.append(str(instruction["call"]))
        parts.extend(map(str, instruction.get("arguments", ())))
    return parts


_METADATA_LINE = re.compile(r"^[ \t]*// ?PTO-[^\n]*", re.M)
