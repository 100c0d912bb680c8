"""Where the catalog meets the ASL interpreter: the AVS inputs from the one loaded tree, and the run.

``pto_docs.asl`` is a library of its own; this module hands it the unit and test texts that the loader
read, and adds to each result the sha256 of the test file it ran, so a report can tell a result that
still describes the tree from one that no longer does."""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..asl.harness import TestPoint as AslTestPoint
from ..asl.harness import _selected, run_avs
from ..asl.model import DECODER_NODE
from ..asl.model import Unit as AslUnit
from ..model.catalog import Catalog, asl_name
from ..store.memo import Memo

# (a unit's declarations are what parse(text, path) makes: equal key, equal tree; 2,048: 0.58.3's 840 units twice
# over, so a serving process keeps every unit of its model through a thousand saves)
PARSED_UNITS = Memo(__name__, "the parsed declarations of one ASL unit, by the sha256 of (parser, path, text): a "
                    "serving process links the model again after a save of code parsing the saved unit only "
                    "(asl.model.model_from_sources)", limit=2048)


@dataclass(frozen=True)
class AvsInputs:
    units: list[AslUnit]
    points: list[AslTestPoint]
    sha256: dict[str, str]  # test id -> sha256 of its file

    @property
    def needs_decoders(self) -> bool:
        return any(DECODER_NODE in u.depends_on for u in self.units)


def model_units(catalog: Catalog) -> list[AslUnit]:
    """The interpreter's view of the tree's ASL units (texts as the loader read them), by path."""
    return [AslUnit(u.id, u.path, tuple(u.depends_on), u.file.text)
            for u in sorted(catalog.units.values(), key=lambda u: u.path)]


def needs_decoders(catalog: Catalog) -> bool:
    """Whether the tree's ASL model depends on ``generated:decoders`` (given with --decoders / avs_decoders, or
    made by ``generated_decoders``)."""
    return any(DECODER_NODE in u.depends_on for u in catalog.units.values())


def avs_inputs(catalog: Catalog, pattern: str | None = None, kinds: Iterable[str] | None = None) -> AvsInputs:
    """The model's units and the test points to run: those matching ``pattern`` (``-k``), of ``kinds``
    (``--kind``) when given."""
    units = model_units(catalog)
    chosen = sorted(catalog.tests.values(), key=lambda t: t.path)
    if kinds is not None:
        wanted = set(kinds)
        chosen = [t for t in chosen if t.kind in wanted]
    points = [AslTestPoint(t.id, t.path, t.kind, t.file.text) for t in chosen]
    if pattern is not None:
        points = [p for p in points if _selected(p, pattern)]
    return AvsInputs(units, points, {t.id: t.file.sha256 for t in catalog.tests.values()})


def instruction_entry_names(catalog: Catalog) -> list[str]:
    """The subprograms named after an instruction (``TMATMUL``, ``TTRANS``): tests call a tile operation's
    semantics by that name, so ``--examples`` watches them as instruction entry points."""
    return sorted({asl_name(u.mnemonic) for u in catalog.instructions if u.mnemonic})


OWN_DECODERS_HINT = ("needs the Validate* entry points of the spec's own decoder generator (generated test bodies "
                     "with their expected values, which pto-docs does not make): give --decoders FILE")


def generated_decoders(catalog: Catalog) -> str:
    """pto-docs' own ``generated:decoders`` text of the tree (``avs_decoders.generate_decoders``): the decoders
    and per-form tables, without upstream's ``Validate*`` entry points. Raises avs_decoders.DecodersUnavailable."""
    from ..isa.decoders import generate_decoders
    return generate_decoders(catalog)


def is_own_decoders(generated: str | None) -> bool:
    from ..isa.decoders import HEADER
    return generated is not None and generated.startswith(HEADER)


def run_avs_on_catalog(inputs: AvsInputs, generated: str | None, **options) -> dict:
    if is_own_decoders(generated):
        options.setdefault("validation_hint", OWN_DECODERS_HINT)
        options.setdefault("missing_validation", "needs-decoders")
    from ..store import sealed_folder
    options["cache_dir"] = sealed_folder(options.get("cache_dir"))  # parsed models only under the user's key
    doc = run_avs(inputs.units, inputs.points, generated, **options)
    for result in doc["tests"]:
        result["sha256"] = inputs.sha256.get(result["id"], "")
    return doc


def run_tree_avs(catalog: Catalog, generated: str | None, *, cache_dir=None, pattern: str | None = None,
                 kinds: Iterable[str] | None = None, profile: str = "pto-v0", examples: bool = False,
                 jobs: int | None = None, progress=None) -> dict:
    """The one AVS run of a loaded tree, for ``pto-docs avs`` and the build's ``avs_examples: run``: the test points
    selected by ``pattern`` (``-k``) and ``kinds`` (``--kind``) on the model linked with ``generated`` (the
    decoders; None: the model needs none). With ``examples`` every instruction step is recorded and the document
    is pruned to the worked examples (:func:`avs_examples.prune_to_examples`).

    The one cache rule: ``cache_dir`` (a folder the caller checked, sealed under the user's key: no key, no cache)
    holds the parsed models, and the pruned document of an ``examples`` run of every point, under the sha256 of
    everything it depends on (the unit and test files, the decoders, the profile, the code that runs and prunes
    them: :func:`examples_code_digest`), so every later run with the same inputs (either shell, either language)
    reads the same run."""
    from ..store import sealed_folder
    from .avs_examples import prune_to_examples
    cache = sealed_folder(cache_dir)
    entry = _examples_entry(catalog, generated, profile) \
        if examples and pattern is None and kinds is None and cache is not None else None
    if entry is not None:
        payload = cache.load(entry)
        if payload is not None:
            from ..trace.avs_status import AvsResultsError, read_avs_results
            try:
                return read_avs_results(Path(str(cache_dir)) / entry, payload)
            except AvsResultsError:
                pass  # an entry of ours that is no longer a results document is run again and replaced
    steps = (instruction_entry_names(catalog) or True) if examples else False
    doc = run_avs_on_catalog(avs_inputs(catalog, pattern, kinds), generated, jobs=jobs, cache_dir=cache,
                             progress=progress, profile=profile, steps=steps)
    doc = {"schema": doc["schema"], "profile": doc["profile"],
           "selection": {"kinds": sorted(set(kinds)) if kinds is not None else None, "pattern": pattern},
           **{k: v for k, v in doc.items() if k not in ("schema", "profile")}}
    if examples:
        prune_to_examples(catalog, doc)
    if entry is not None:
        import json
        try:
            cache.save(entry, (json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8"))
        except OSError:
            pass  # an unwritable cache costs a rerun next time, nothing else
    return doc


def _examples_entry(catalog: Catalog, generated: str | None, profile: str) -> str:
    """The cache entry of an examples run of every point of the tree: named by the sha256 of its inputs."""
    from .. import __version__
    digest = hashlib.sha256(f"{__version__}\0{examples_code_digest()}\0{profile}\0".encode())
    for unit in sorted(catalog.units.values(), key=lambda u: u.path):
        digest.update(f"u\0{unit.path}\0{unit.file.sha256}\n".encode())
    for test in sorted(catalog.tests.values(), key=lambda t: t.path):
        digest.update(f"t\0{test.path}\0{test.file.sha256}\n".encode())
    digest.update(hashlib.sha256((generated or "").encode("utf-8")).digest())
    return f"avs-examples-{digest.hexdigest()[:32]}.json"


@functools.cache
def examples_code_digest() -> str:
    """sha256 of the pto-docs code a cached examples run depends on: the interpreter and its probe (asl/), this
    module, the decoders it may make (isa/decoders.py), the decoding of words (isa/decode.py, isa/encoding.py), the
    pruning (avs_examples.py) and the statuses it reads
    (trace/avs_status.py). The version number alone stays the same from one commit to the next: a results file
    an older interpreter made must not be read as this one's."""
    from ..model.frozen import code_digest
    package = Path(__file__).parent.parent
    return code_digest(sorted((package / "asl").glob("*.py"))
                       + [package / name for name in ("bridge/avs.py", "isa/decoders.py", "isa/decode.py",
                                                      "isa/encoding.py", "bridge/avs_examples.py")]
                       + [package / "trace" / "avs_status.py"])


LINK_FAILURE = "the model cannot be linked: "
_POSITION = re.compile(r"(?:[A-Za-z]+: )?([^\s:][^:]*):(\d+):(\d+): (?:error\[[A-Z-]+\]: )?(.*)", re.DOTALL)


def model_link_diagnostics(doc: dict | None) -> list:
    """One error when the AVS run could not link the tree's ASL model (``asl.harness``: every point is an error
    saying why: a syntax error, a global initialiser over a limit of the interpreter), at the position it names."""
    from ..model.diagnostics import error
    for test in (doc or {}).get("tests", ()):
        message = str(test.get("message", ""))
        if test.get("status") == "error" and message.startswith(LINK_FAILURE):
            why = message[len(LINK_FAILURE):]
            m = _POSITION.match(why)
            path, line, col, text = (m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)) if m else \
                (str(test.get("path", ".")), 1, 1, why)
            return [error(path, line, col, "AVS-ERROR", f"the ASL model cannot be linked, so no AVS test point runs: "
                                                        f"{text}")]
    return []
