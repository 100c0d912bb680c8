"""The AVS harness: run every ``tests/asl/**.asl`` test point's ``main()`` on the assembled model.

Each worker process holds one linked model; before each test the model's globals are restored to the
state a fresh run has after global initialisation. Results follow schema ``pto-docs.avs.v1``.
"""

from __future__ import annotations

import fnmatch
import gc
import io
import json
import os
import re
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass

from .errors import (
    AslAssertionError,
    AslCompileError,
    AslError,
    AslThrow,
    AslUnreachable,
    internal_error,
    located,
)
from .fresh_reset import remember_fresh_reset
from .lexer import AslSyntaxError
from .model import Model, Unit, load_model
from .parent import die_with_parent
from .parser import parse
from .probe import Probe, step_json
from .profiles import bind_profile
from .program import Program
from .runner import run_in_big_stack

SCHEMA = "pto-docs.avs.v1"
TEST_PREFIX = "// PTO-TEST: "
MAX_STEPS = 32  # instruction steps kept per test point (results with steps: run_avs(steps=True))
VALIDATION_CALL = re.compile(r"\b(Validate[A-Za-z0-9_]+)\s*\(\s*\)\s*;")
STATUSES = ("pass", "fail", "error", "needs-decoders")
# parts Session.link_parts keeps per session (a teaching run of pto-spec 0.58.3 links about 1,700 distinct ones)
LINKED_PARTS = 4096


class MissingValidation(AslCompileError):
    """A test point calls a ``Validate*`` entry point the generated text lacks."""


@dataclass(frozen=True)
class TestPoint:
    test_id: str
    path: str
    kind: str
    text: str


def test_record(text: str) -> dict:
    for line in text.splitlines():
        if line.startswith(TEST_PREFIX):
            record = json.loads(line[len(TEST_PREFIX):])
            return record if isinstance(record, dict) else {}
    return {}


def tests_from_sources(sources, pattern: str | None = None) -> list[TestPoint]:
    """Test points from (path, text) pairs (the caller reads the files), selected by ``pattern``."""
    out = []
    for path, text in sorted(sources):
        record = test_record(text)
        point = TestPoint(record.get("id", path), path, record.get("kind", "unknown"), text)
        if pattern is None or _selected(point, pattern):
            out.append(point)
    return out


def _selected(point: TestPoint, pattern: str) -> bool:
    if any(c in pattern for c in "*?["):
        return fnmatch.fnmatch(point.test_id, pattern) or fnmatch.fnmatch(point.path, pattern)
    return pattern in point.test_id or pattern in point.path


class LinkRefused(ValueError):
    """``Session.link`` refused a text: ``reason`` is "other" (it declares something else) or "model" (it
    declares one of the model's subprograms)."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


class Session:
    """One linked model in one process, reused test after test."""

    def __init__(self, model: Model, profile: str = "pto-v0", steps: bool | Iterable[str] = False,
                 validation_hint: str | None = None, time_limit: float | None = None,
                 missing_validation: str = "error"):
        self.model = model
        # why a Validate* entry point the model lacks is missing (said in the error of a test point calling it)
        self.validation_hint = validation_hint
        # the status of a test point that calls one: "error", or "needs-decoders" (the decoders given are known
        # to lack every Validate* entry point: the point is not run rather than failed)
        self.missing_validation = missing_validation
        self.profile = profile
        self.output = io.StringIO()
        self.program = Program(model.decls, self.output)
        if time_limit is not None:
            self.program.time_limit = time_limit
            self.program.renew_budget()
        bind_profile(self.program, profile)
        run_in_big_stack(self.program.initialize)
        remember_fresh_reset(self.program)
        self.base_functions = {k: list(v) for k, v in self.program.functions.items()}
        self.added_names: set[str] = set()
        self.base_globals = dict(self.program.global_index)
        self.parsed_validation: dict[str, list] = {}
        # link_parts' parts seen before: (path, offset, line, text, name) -> its Function (code compiled once)
        self._parts: dict[tuple, object] = {}
        self.probe: Probe | None = None
        if steps:
            self.probe = self._make_probe(() if steps is True else tuple(steps))

    def _make_probe(self, extra: tuple[str, ...]) -> Probe:
        """A probe of the instruction entry points whose baseline is the state ``ResetProfileState`` leaves
        (when the model has it), so a step's "before" is what the test set up."""
        prog = self.program
        probe = Probe(prog, extra=extra)
        probe.limit = MAX_STEPS
        probe.enabled = False
        if "ResetProfileState" in prog.functions:
            try:
                run_in_big_stack(prog.call, "ResetProfileState")
            except (AslError, RecursionError):
                pass
        probe.rebase()
        probe.enabled = True
        prog.reset()
        return probe

    def restore(self):
        """The linked model as it was before the last test point or case: its subprograms, globals and state."""
        prog = self.program
        for name in self.added_names:
            if name in self.base_functions:
                prog.functions[name] = list(self.base_functions[name])
            else:
                prog.functions.pop(name, None)
        self.added_names = set()
        if len(prog.global_index) != len(self.base_globals):
            prog.global_index = dict(self.base_globals)
            del prog.G[len(self.base_globals):]
        prog.reset()
        self.output.seek(0)
        self.output.truncate()

    def link(self, text: str, path: str, names: list[str]) -> None:
        """Add the subprograms ``names`` that ASL ``text`` declares, for the next run (``restore`` takes them away).
        Raises ``AslSyntaxError`` when the text is not ASL and :class:`LinkRefused` when it declares anything but
        exactly those subprograms, in that order, or one of the model's own; nothing is added then."""
        decls = parse(text, path)
        made = [d.name if d.tag == "func" else d.tag for d in decls]
        if made != list(names):
            raise LinkRefused("other", f"the text declares {made}, not {list(names)}")
        added = {d.name for d in decls if d.tag == "func"}
        if added & set(self.base_functions):
            raise LinkRefused("model", "the text declares a subprogram of the model")
        self.added_names = added
        self.program.add(decls)

    def link_parts(self, parts: list[str], path: str, names: list[str]) -> None:
        """``link("".join(parts), path, names)`` where part i declares exactly subprogram ``names[i]`` (every part
        but the last ending with a newline), with each part's declaration parsed and compiled once per session:
        a part seen before at the same place of the text (offset and line, so its positions and messages are
        those of the whole text) declares the same :class:`Function` again, code included. Nothing the parts
        declare is shared between runs but code: ``restore`` takes the subprograms away, and a compiled
        subprogram keeps no state between calls. Parts that are not so (a syntax error, anything declared but
        their one subprogram, one of the model's) are linked as the whole text, with its errors."""
        text = "".join(parts)
        # (a part that names another part's subprogram is linked as the whole text: its compiled call would be bound
        # to the subprogram of the case that compiled it first, not to this case's)
        if len(parts) != len(names) or any(not part.endswith("\n") for part in parts[:-1]) \
                or any(other in part for i, part in enumerate(parts) for j, other in enumerate(names) if i != j):
            self.link(text, path, names)
            return
        found: list = []  # per part: its Function seen before, or its new declaration
        offset = line = 0
        for part, name in zip(parts, names):
            key = (path, offset, line, part, name)
            fn = self._parts.get(key)
            if fn is None:
                try:  # (padded so that every position is that of the whole text: same line, column and offset)
                    decls = parse(" " * (offset - line) + "\n" * line + part, path)
                except AslSyntaxError:
                    decls = None
                if not decls or len(decls) != 1 or decls[0].tag != "func" or decls[0].name != name \
                        or name in self.base_functions:
                    self.link(text, path, names)
                    return
                fn = (key, decls[0])
            found.append(fn)
            offset += len(part)
            line += part.count("\n")
        if len(set(names)) != len(names):
            self.link(text, path, names)
            return
        self.added_names = set(names)
        program = self.program
        for fn in found:
            if type(fn) is tuple:
                key, decl = fn
                program.add([decl])
                fn = program.functions[decl.name][-1]
                self._parts[key] = fn
                while len(self._parts) > LINKED_PARTS:
                    del self._parts[next(iter(self._parts))]
            else:
                program.add_function_again(fn)

    def run(self, point: TestPoint) -> dict:
        started = time.perf_counter()
        status, message = "error", ""
        try:
            self.restore()
            decls = parse(point.text, point.path)
            code = "\n".join(line.split("//", 1)[0] for line in point.text.splitlines())
            helpers = {d.name for d in decls if d.tag == "func"}
            for name in sorted(set(VALIDATION_CALL.findall(code)) - helpers):
                decls = self._validation(name) + decls
            self.added_names = {d.name for d in decls if d.tag == "func"}
            self.program.add(decls)
            new_globals = [d for d in decls if d.tag == "global"]
            if self.probe is not None:
                self.probe.clear()
            result = run_in_big_stack(self._go, new_globals)
            if result == 0:
                status = "pass"
            else:
                status, message = "fail", f"main() returned {result}"
        except AslAssertionError as exc:
            status, message = "fail", f"{exc.loc}: assertion failed: {exc.text}"
        except AslUnreachable as exc:
            status, message = "fail", str(exc)
        except MissingValidation as exc:
            status, message = self.missing_validation, f"AslCompileError: {located(exc)}"
        except (AslError, AslCompileError, AslSyntaxError, AslThrow) as exc:
            message = f"{type(exc).__name__}: {located(exc)}"
        except RecursionError:
            message = "RecursionError: ASL call chain too deep"
        except MemoryError:
            message = "MemoryError: the test point needs more memory than a worker may use"
        except Exception as exc:  # noqa: BLE001 - the last-resort net: an interpreter failure, located
            message = f"AslError: {internal_error(exc)}"
        out = {"id": point.test_id, "path": point.path, "kind": point.kind, "status": status,
               "message": message, "seconds": round(time.perf_counter() - started, 4)}
        if self.probe is not None:
            out["steps"] = [step_json(step) for step in self.probe.steps]
            self.probe.clear()
        return out

    def _go(self, new_globals):
        if new_globals:
            for d in new_globals:
                self.program.initialize_one(d)
        return self.program.call("main")

    def _validation(self, name: str) -> list:
        """The declarations of validation entry point ``name`` and of those it calls. Kept by the session only
        when the model has no cache to read them back from: a session keeps the syntax nodes it holds in the
        garbage collector's sight (they are never untracked, as plain tuples are), and with pto-spec's 1,153
        entry points held, the workers' full collections took twice as long as reading each again."""
        decls = self.parsed_validation.get(name)
        if decls is not None:
            return decls
        decls = self.model.validation_decls(name)
        if decls is None:
            hint = f": {self.validation_hint}" if self.validation_hint else ""
            raise MissingValidation(f"unknown validation entry point {name}{hint}")
        text = self.model.validation[name]
        for dep in sorted(set(VALIDATION_CALL.findall(text)) - {name}):
            decls = self._validation(dep) + decls
        if self.model.cache is None:
            self.parsed_validation[name] = decls
        return decls


_SESSION: Session | None = None


# Address space one worker may add to what it inherited from the process that forked it: a test whose ASL
# builds a huge value ends as a MemoryError (an error result), not as the machine's out-of-memory killer. The
# whole pto-spec model needs about 0.5 GB.
WORKER_MEMORY = 6 * 1024**3


def _start_worker(parent: int) -> None:
    """Pool initializer: cap the worker's memory, end it when ``parent`` ends, and freeze what it inherited.

    Everything the fork shared (the linked model, the session, whatever the parent process held) lives as long
    as the worker does. ``gc.freeze`` takes it out of the garbage collector's sight: a full collection no longer
    walks it, and so no longer writes to each of its objects' headers (which made the kernel copy every page
    the fork shared). The cyclic garbage of each test point, made after this, is collected as usual."""
    _cap_memory()
    die_with_parent(parent)
    gc.freeze()


def _cap_memory() -> None:
    """Cap the worker's address space at what it inherited plus WORKER_MEMORY (never above the hard limit).
    A cap of WORKER_MEMORY in all was too tight for a worker forked from a large process (a site build with
    ``avs_examples: run``, a test runner that holds the real tree's model): each test point's big-stack thread
    failed to start ("can't start new thread") as soon as the parent held about 5 GB of address space."""
    import resource
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = address_space_in_use() + WORKER_MEMORY
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


@contextmanager
def memory_capped():
    """This process's address space capped at what it uses now plus WORKER_MEMORY while the block runs (never
    above a lower limit it already has): a model whose global initialisers build a huge value, or a point run
    in this process (``jobs=1``), ends as a MemoryError, not as the machine's out-of-memory killer."""
    import resource
    in_use = address_space_in_use()
    if not in_use:  # not known here (no /proc): no cap rather than one below what the process holds
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = in_use + WORKER_MEMORY
    for other in (soft, hard):
        if other != resource.RLIM_INFINITY:
            limit = min(limit, other)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        limit = None
    try:
        yield
    finally:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def failure_text(exc: BaseException) -> str:
    """What went wrong, as one line: an ASL error with its position, a limit, or the last-resort net's text."""
    if isinstance(exc, AslSyntaxError):
        return str(exc)
    if isinstance(exc, (AslError, AslCompileError, AslThrow)):
        return f"{type(exc).__name__}: {located(exc)}"
    if isinstance(exc, RecursionError):
        return "RecursionError: ASL call chain, or an expression's chain of operators, too deep"
    if isinstance(exc, MemoryError):
        return f"MemoryError: needs more memory than the limit (WORKER_MEMORY, {WORKER_MEMORY >> 30} GiB more)"
    return f"AslError: {internal_error(exc)}"


def address_space_in_use() -> int:
    """This process's virtual address space in bytes (Linux: /proc/self/statm); 0 where it cannot be read."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _worker_run(point: TestPoint) -> dict:
    return _SESSION.run(point)


def _cost(point: TestPoint, model: Model) -> int:
    code = "\n".join(line.split("//", 1)[0] for line in point.text.splitlines())
    calls = VALIDATION_CALL.findall(code)
    return len(point.text) + sum(len(model.validation.get(name, "")) for name in calls)


def summarize(tests: list[dict]) -> dict:
    summary = {"total": len(tests), "pass": 0, "fail": 0, "error": 0, "needs-decoders": 0}
    for t in tests:
        summary[t["status"]] += 1
    return summary


def run_avs(units: list[Unit], points: list[TestPoint], generated: str | None = None, jobs: int | None = None,
            cache_dir=None, progress=None, profile: str = "pto-v0", steps: bool | Iterable[str] = False,
            validation_hint: str | None = None, time_limit: float | None = None,
            missing_validation: str = "error") -> dict:
    """Run ``points`` on the model of ``units`` (+ the ``generated`` decoder ASL); the ``pto-docs.avs.v1``
    document. Worker processes may use WORKER_MEMORY bytes of address space beyond what they inherited. With
    ``steps`` every result also lists the instruction steps the test executed (``probe.Step``: state before,
    changes); ``steps`` may name further entry points to watch besides ``probe.ENTRY_PREFIXES`` (e.g. the
    subprograms named after instructions). ``validation_hint`` is added to the error of a test point that calls a ``Validate*`` entry
    point the generated text lacks (e.g. how to get the generator output that has it), and such a point gets the
    status ``missing_validation`` ("error", or "needs-decoders": not run, for lack of the generator's output).
    Each point may take ``time_limit`` seconds (default program.TIME_LIMIT) and program.STEP_BUDGET steps; this process may add
    WORKER_MEMORY bytes of address space while it runs them (memory_capped). A model that cannot be linked (a
    syntax error, a global initialiser over a limit) makes every point an error that says why."""
    with memory_capped():
        return _run_avs(units, points, generated, jobs, cache_dir, progress, profile, steps, validation_hint,
                        time_limit, missing_validation)


def _run_avs(units, points, generated, jobs, cache_dir, progress, profile, steps, validation_hint, time_limit,
             missing_validation="error"):
    global _SESSION
    try:
        model = load_model(units, generated, cache_dir)
        _SESSION = Session(model, profile, steps, validation_hint, time_limit, missing_validation)
    except Exception as exc:  # noqa: BLE001 - a model that cannot be linked: every point is an error saying why
        _SESSION = None
        message = "the model cannot be linked: " + failure_text(exc)
        results = [{"id": p.test_id, "path": p.path, "kind": p.kind, "status": "error", "message": message,
                    "seconds": 0.0} for p in sorted(points, key=lambda p: p.test_id)]
        return {"schema": SCHEMA, "profile": profile, "tests": results, "summary": summarize(results)}
    jobs = jobs or os.cpu_count() or 1
    results: list[dict] = []
    if jobs <= 1 or len(points) <= 1:
        for point in points:
            results.append(_SESSION.run(point))
            if progress:
                progress(results[-1], len(results), len(points))
    else:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        # Longest first (estimated by the size of the generated validation code a test calls), each test
        # its own task: the slow generated-validation points do not end up queued behind each other.
        ordered = sorted(points, key=lambda p: -_cost(p, model))
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_start_worker,
                                 initargs=(os.getpid(),)) as pool:
            futures = [pool.submit(_worker_run, point) for point in ordered]
            for future in as_completed(futures):
                result = future.result()
                results.append(result)
                if progress:
                    progress(result, len(results), len(points))
    results.sort(key=lambda r: r["id"])
    return {"schema": SCHEMA, "profile": profile, "tests": results, "summary": summarize(results)}
