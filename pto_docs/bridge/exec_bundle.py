"""``pto-docs exec`` of bundle text: several ``;``-separated instructions of a v2 case, run in order.

``"instruction": {"asm": "BSTART.VEC TPARTADD, S16; B.DIM zero, 3, ->LB0; B.IOT M#1, M#2, mask=0001, last, ->T<1>;
BSTOP"}`` is written the way contract ``block`` lines are: a carrier line, the bundle's ``B.*`` commands, its stop
(or any run of scalar instructions). Each instruction is assembled by ``pto_docs.isa.assembler`` and decoded by our
encoding model; then, after the case's setup, each word is handed to its surface's entry point
(``ExecuteCommandInstruction`` for block and tile carrier words, ``ExecuteScalarInstruction`` for scalar ones),
one call after another, as the spec's AVS bundle tests drive a bundle. The first instruction that faults (its
call raises, its status is ``*_Rejected``/``*_Faulted``, or ``_LastFault`` is not ``Fault_None`` after it) ends
the run: the later ones are listed as not executed.

The result lists every instruction (its text, word, decoded form and fields, entry point, result, ``_LastFault``
after it and the state it changed), then the state of the whole bundle: the state before the first instruction,
every leaf the bundle changed (first value before, last value after), the state after it with the changed
parts marked, ``_LastFault``, ``NumericStatusFlags``, the reads and a digest.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from ..asl.errors import AslCompileError, AslError, AslLimitError, internal_error, located
from ..asl.probe import Step, after_json, step_json
from ..asl.values import BV
from .case_problem import CaseProblem

FAULT_STATUS = re.compile(r"_(?:Rejected|Faulted)$")
MAX_INSTRUCTIONS = 64


def split_text(text: str) -> list[str]:
    """The instructions of ``;``-separated assembly text; a trailing ``;`` ends the text, an empty one between
    two ``;`` is a problem of the case (``CaseProblem``)."""
    parts = [p.strip() for p in text.split(";")]
    if parts and not parts[-1]:
        parts.pop()
    for i, part in enumerate(parts):
        if not part:
            raise CaseProblem(f"instruction {i + 1} of the bundle text is empty (two ';' in a row)", "/instruction/asm")
    if len(parts) > MAX_INSTRUCTIONS:
        raise CaseProblem(f"the bundle text has {len(parts)} instructions; at most {MAX_INSTRUCTIONS} run in one case",
                          "/instruction/asm")
    return parts


def _where(position: int, total: int, text: str) -> str:
    return f"instruction {position} of {total} ({text!r}): "


def prepare(runner, parts: list[str], entry: str | None) -> list[dict]:
    """Every instruction assembled and decoded before any runs: a problem names the instruction's position."""
    from ..isa.assembler import AsmError
    if entry:
        raise CaseProblem("instruction.entry names one entry point; a bundle's instructions each run on their "
                          "surface's entry point (leave entry out)", "/instruction/entry")
    assembler = runner.assembler()
    out = []
    for i, text in enumerate(parts, 1):
        where = _where(i, len(parts), text)
        try:
            done = assembler.assemble(text)
        except AsmError as exc:
            raise CaseProblem(f"{where}does not assemble: {exc}", "/instruction/asm") from None
        word, length = done.word, done.length_bits
        chosen, width, decoded = runner.decode_word(word, length, None, "/instruction/asm", where)
        decoded.update({"position": i, "asm_text": text, "word": f"0x{word:0{max(1, length // 4)}x}",
                        "length_bits": length, "entry": chosen})
        out.append({"decoded": decoded, "call": (chosen, BV(word, width), length)})
    return out


def run(runner, case: Mapping, prepared: list[dict]) -> dict[str, Any]:
    """Run the prepared instructions after the case's setup (``runner``: an ``exec_model.ModelRunner``)."""
    program, probe = runner.program, runner.session.probe
    runner.begin(case, [])
    before, truncated = probe.snapshot()
    probe.limit = max(probe.limit, len(prepared) + 1)
    listed, status, message, fault_at = [], "ok", "", None
    fallbacks: set[str] = set()  # ieee hooks an instruction of the bundle ran as pto-v0 (probe.Step.fallbacks)
    for item in prepared:
        row = dict(item["decoded"], executed=False)
        listed.append(row)
        if fault_at is not None or status != "ok":
            continue
        count = len(probe.steps)
        entry, word, length = item["call"]
        try:
            program.call(entry, word, length)
        except AslCompileError as exc:
            raise CaseProblem(f"{_where(row['position'], len(prepared), row['asm_text'])}cannot run: {exc}",
                              "/instruction/asm") from None
        except AslLimitError as exc:
            raise CaseProblem(f"{_where(row['position'], len(prepared), row['asm_text'])}is over a limit: "
                              f"{located(exc)}", "/instruction/asm") from None
        except (AslError, RecursionError) as exc:
            status, message = "exception", f"instruction {row['position']}: {type(exc).__name__}: {located(exc)}"
            fault_at = row["position"]
        except MemoryError:
            raise CaseProblem("the bundle needs more memory than this process can have", "/instruction") from None
        except Exception as exc:  # noqa: BLE001 - the last-resort net: located, not a traceback
            raise CaseProblem(f"{_where(row['position'], len(prepared), row['asm_text'])}cannot run: "
                              f"{internal_error(exc)}", "/instruction/asm") from None
        step = step_json(probe.steps[-1]) if len(probe.steps) > count else None
        fault = runner.global_text("_LastFault")
        row.update(executed=True, result=step["result"] if step else None,
                   exception=step["exception"] if step else "", fault=fault,
                   changed=step["changed"] if step else [])
        fallbacks.update(step.get("profile_fallbacks", ()) if step else ())
        if fault_at is None and (FAULT_STATUS.search(row["result"] or "") or fault not in (None, "Fault_None")):
            fault_at = row["position"]
    changes, more = probe.changes_since(before)
    whole = step_json(Step("bundle", [], before=before, changed=changes, truncated=truncated or more))
    after, after_truncated = probe.snapshot()
    values = runner.read(case) if status == "ok" else {}
    result = {
        "schema": runner.result_schema, "profile": runner.profile, "status": status, "message": message,
        "bundle": listed, "fault_at": fault_at,
        "before": whole["before"], "changed": whole["changed"],
        "after": after_json(after, {b.path for b, _a in changes}),
        "truncated": whole["truncated"] or after_truncated,
        "profile_fallbacks": sorted(fallbacks),
        "read": values, "fault": runner.global_text("_LastFault"), "status_flags": runner.flags(),
    }
    result["digest"] = hashlib.sha256(json.dumps(result, sort_keys=True, separators=(",", ":"),
                                                 ensure_ascii=False).encode("utf-8")).hexdigest()
    return result
