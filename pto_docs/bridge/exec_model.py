"""``pto-docs exec`` for a case of format v2: any instruction, run on the spec's own ASL model.

A v2 case (schema ``pto-docs.case.v2``, ``pto_docs/schemas/case-v2.schema.json``) names the architectural state
the way the ASL does and the instruction by its encoded word or by the subprogram that is its semantics::

    {"schema": "pto-docs.case.v2", "profile": "ieee",
     "setup": ["WriteGPR(2, Zeros{PTO_XLEN} + 512);", "WriteGPR(4, Zeros{PTO_XLEN} + 0x11223344);"],
     "instruction": {"word": "0x00412059", "length_bits": 32}}

or, the same instruction as assembly text, ``"instruction": {"asm": "..."}`` (``pto_docs.isa.assembler`` turns it into
the word, which then runs exactly like a given word; the result's ``decoded`` adds ``asm_text`` and ``word``).
``asm`` may also be bundle text, several ``;``-separated instructions run in order (``pto_docs.bridge.exec_bundle``).

``read`` (optional) lists ASL expressions evaluated after the instruction (``"ReadTileElement(2, 0, 1)"``), shown
as ASLRef prints them. ``setup`` is ASL statements run after ``ResetProfileState()`` (the setters the AVS tests use: registers,
memory, tiles, bundle state); the instruction is then executed once while a probe (``asl.probe``) records the
state before it and every change it makes. A word is decoded by pto-docs' own encoding model (its form, fields
and surface choose ``ExecuteScalarInstruction`` or ``ExecuteCommandInstruction``); ``{"call": "TTRANS",
"arguments": ["3", "1"]}`` calls a subprogram with ASL argument expressions. The case is data for the
interpreter: it runs nothing on the host, within the interpreter's limits (steps, CPU time, sizes: asl/limits.py);
its setup lines and read expressions are statements and expressions only (one that ends the subprogram it runs
in, to declare subprograms of its own, is refused).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from ..asl.errors import AslCompileError, AslError, AslLimitError, internal_error, located
from ..asl.harness import LinkRefused, Session
from ..asl.lexer import AslSyntaxError
from ..asl.model import load_model
from ..asl.probe import step_json
from ..asl.runner import run_in_big_stack
from ..model.catalog import Catalog
from ..runtime.gc_pause import full_collections_paused
from . import exec_bundle
from .avs_examples import Decoder
from .case_problem import CaseProblem

SCHEMA = "pto-docs.case.v2"
RESULT_SCHEMA = "pto-docs.exec-result.v2"
ENTRY_BY_SURFACE = {"scalar": "ExecuteScalarInstruction", "block": "ExecuteCommandInstruction"}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
FLAG_NAMES = ("NV", "DZ", "OF", "UF", "NX")


def is_v2(case: Mapping) -> bool:
    return case.get("schema") == SCHEMA


def check_case(case: Mapping) -> None:
    from ..schemas.registry import validator
    errors = sorted(validator("case-v2").iter_errors(case), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        raise CaseProblem(e.message, "/" + "/".join(str(p) for p in e.absolute_path))


class ModelRunner:
    """One linked model of a spec tree (its units + the generated decoders), reused case after case."""

    def __init__(self, catalog: Catalog, generated: str | None, cache_dir=None, profile: str = "ieee",
                 calls: tuple[str, ...] = ()):
        """``calls``: the subprograms the cases will call by name, watched like the instruction entry points (so
        a case that calls, say, ``ExecuteTilePartial`` or a helper still gets its state before and after)."""
        from ..store import sealed_folder
        from .avs import PARSED_UNITS, instruction_entry_names, model_units
        self.catalog = catalog
        self.profile = profile
        with full_collections_paused():  # a linked model: a large structure that lives on (gc_pause.py)
            model = load_model(model_units(catalog), generated, sealed_folder(cache_dir), PARSED_UNITS)
            self.session = Session(model, profile, [*instruction_entry_names(catalog), *calls] or True)
        self.program = self.session.program
        self.decoder = Decoder(catalog)
        self._assembler = None

    def run(self, case: Mapping) -> dict[str, Any]:
        return run_in_big_stack(self._run, case)

    def _entry(self, instruction: Mapping) -> tuple[str, str, dict | None]:
        """(subprogram, ASL argument text, decoded form) of the case's instruction."""
        if "call" in instruction:
            name = instruction["call"]
            if not self.program.has_subprogram(name):
                raise CaseProblem(f"the model has no subprogram {name}", "/instruction/call")
            return name, ", ".join(instruction.get("arguments", ())), None
        text = None
        if "asm" in instruction:
            text = instruction["asm"]
            word, length = self._assemble(text)
        else:
            word, length = int(instruction["word"], 16), instruction["length_bits"]
        entry, width, decoded = self.decode_word(word, length, instruction.get("entry"), "/instruction/word")
        if text is not None:
            decoded["asm_text"] = text
            decoded["word"] = f"0x{word:0{max(1, length // 4)}x}"
        return entry, f"'{word:0{width}b}', {length}", decoded

    def decode_word(self, word: int, length: int, entry: str | None, pointer: str,
                    what: str = "") -> tuple[str, int, dict]:
        """(entry point, width of its word operand, decoded form) of one encoded instruction; ``what`` names it
        in a problem's message (a bundle's "instruction 2 ('B.DIM ...')")."""
        matches = self.decoder.decode(word, length)
        if not matches:
            raise CaseProblem(f"{what}0x{word:x} ({length} bits) decodes to no form of this tree's encoding model",
                              pointer)
        unit, form = matches[0]
        entry = entry or ENTRY_BY_SURFACE.get(unit.surface)
        if entry is None or not self.program.has_subprogram(entry):
            raise CaseProblem(f"{what}no ASL entry point executes a {unit.surface} word ({entry or 'none known'}); "
                              "name one with instruction.entry", "/instruction")
        width = self._word_width(entry)
        if word >> width:
            raise CaseProblem(f"{what}the word is wider than {entry}'s bits({width}) operand", pointer)
        decoded = {"mnemonic": str(form.get("mnemonic", unit.mnemonic)), "form": str(form.get("form_id", "")),
                   "asm": str(form.get("asm", "")), "surface": unit.surface, "unit": unit.id,
                   "fields": {name: value for name, value in self.decoder.fields(form, word)}}
        return entry, width, decoded

    def _assemble(self, text: str) -> tuple[int, int]:
        from ..isa.assembler import AsmError
        try:
            done = self.assembler().assemble(text)
        except AsmError as exc:
            raise CaseProblem(f"the assembly text does not assemble: {exc}", "/instruction/asm") from None
        return done.word, done.length_bits

    def _word_width(self, entry: str) -> int:
        try:
            return self.program.operand_width(entry)
        except ValueError as exc:
            raise CaseProblem(str(exc), "/instruction") from None

    def _run(self, case: Mapping) -> dict[str, Any]:
        instruction = case["instruction"]
        if "asm" in instruction:
            parts = exec_bundle.split_text(instruction["asm"])
            if len(parts) > 1:
                return exec_bundle.run(self, case, exec_bundle.prepare(self, parts, instruction.get("entry")))
            if parts:
                instruction = {**instruction, "asm": parts[0]}
        program, probe = self.program, self.session.probe
        entry, arguments, decoded = self._entry(instruction)
        returns = program.returns_value(entry)
        call = f"let PTODocsCase_result = {entry}({arguments});" if returns else f"{entry}({arguments});"
        self.begin(case, [call])
        status, message = "ok", ""
        try:
            program.call("PTODocsCase_instruction")
        except AslCompileError as exc:
            raise CaseProblem(f"the instruction cannot run: {exc}", "/instruction") from None
        except AslLimitError as exc:
            raise CaseProblem(f"the instruction is over a limit: {located(exc)}", "/instruction") from None
        except (AslError, RecursionError) as exc:
            status, message = "exception", f"{type(exc).__name__}: {located(exc)}"
        except MemoryError:
            raise CaseProblem("the instruction needs more memory than this process can have", "/instruction") from None
        except Exception as exc:  # noqa: BLE001 - the last-resort net: located, not a traceback
            raise CaseProblem(f"the instruction cannot run: {internal_error(exc)}", "/instruction") from None
        steps = [step_json(s) for s in probe.steps]
        values = self.read(case) if status == "ok" else {}
        step = steps[0] if steps else None
        result = {
            "schema": RESULT_SCHEMA, "profile": self.profile, "status": status, "message": message,
            "entry": entry, "decoded": decoded,
            "result": step["result"] if step else None,
            "exception": step["exception"] if step else "",
            "before": step["before"] if step else [],
            "changed": step["changed"] if step else [],
            "truncated": step["truncated"] if step else False,
            "profile_fallbacks": step.get("profile_fallbacks", []) if step else [],
            "read": values,
            "fault": self.global_text("_LastFault"),
            "status_flags": self.flags(),
        }
        result["digest"] = hashlib.sha256(json.dumps(result, sort_keys=True, separators=(",", ":"),
                                                     ensure_ascii=False).encode("utf-8")).hexdigest()
        return result

    result_schema = RESULT_SCHEMA

    def begin(self, case: Mapping, calls: list[str]) -> None:
        """Link the case's subprograms (setup, the instruction ``calls`` if any, reads) and run its setup after
        ``ResetProfileState()``, unwatched; the probe then watches from a clean list of steps."""
        session, program, probe = self.session, self.program, self.session.probe
        reset = "    ResetProfileState();\n" if program.has_subprogram("ResetProfileState") else ""
        setup = "".join(f"    {line.strip()}\n" for line in case.get("setup", ()))
        printed = "".join(f"    println({expr});\n" for expr in case.get("read", ()))
        body = "".join(f"    {call}\n" for call in calls)
        # (a statement list is never empty in ASL: ``pass;`` closes each, as ASLRef requires)
        # (one part per subprogram: a part seen before at the same place is not parsed and compiled again)
        parts = [f"func PTODocsCase_setup()\nbegin\n{reset}{setup}    pass;\nend;\n\n",
                 *([f"func PTODocsCase_instruction()\nbegin\n{body}end;\n\n"] if calls else []),
                 f"func PTODocsCase_read()\nbegin\n{printed}    pass;\nend;\n"]
        session.restore()
        wanted = ["PTODocsCase_setup", "PTODocsCase_instruction", "PTODocsCase_read"] if calls else \
            ["PTODocsCase_setup", "PTODocsCase_read"]
        try:
            session.link_parts(parts, "<case>", wanted)
        except AslSyntaxError as exc:
            raise CaseProblem(f"the setup is not ASL: {exc}", "/setup") from None
        except LinkRefused as exc:
            if exc.reason == "model":
                raise CaseProblem("the setup declares a subprogram of the model", "/setup") from None
            # a setup line or a read expression that closes its subprogram and declares its own
            raise CaseProblem("the setup and the read expressions must be ASL statements and expressions only; "
                              "they may not end the subprogram they are run in or declare anything", "/setup") from None
        probe.clear()
        probe.enabled = False
        self._call("PTODocsCase_setup", "the setup", "/setup")
        probe.enabled = True

    def read(self, case: Mapping) -> dict[str, str]:
        """The case's read expressions, each with its value as ASLRef prints it."""
        reads = list(case.get("read", ()))
        if not reads:
            return {}
        output, probe = self.session.output, self.session.probe
        output.seek(0)
        output.truncate()
        probe.enabled = False
        try:
            self._call("PTODocsCase_read", "a read expression", "/read")
        finally:
            probe.enabled = True
        lines = output.getvalue().split("\n")
        return {expr: lines[i] if i < len(lines) else "" for i, expr in enumerate(reads)}

    def assembler(self):
        from ..isa.assembler import Assembler
        if self._assembler is None:
            self._assembler = Assembler(self.catalog)
        return self._assembler

    def _call(self, name: str, what: str, pointer: str) -> None:
        """Run a subprogram the case made (setup, reads); any failure is the case's problem at ``pointer``."""
        try:
            self.program.call(name)
        except (AslError, AslCompileError, RecursionError) as exc:
            raise CaseProblem(f"{what} failed: {type(exc).__name__}: {located(exc)}", pointer) from None
        except MemoryError:
            raise CaseProblem(f"{what} needs more memory than this process can have", pointer) from None
        except Exception as exc:  # noqa: BLE001 - the last-resort net: located, not a traceback
            raise CaseProblem(f"{what} failed: {internal_error(exc)}", pointer) from None

    def global_text(self, name: str) -> str | None:
        from ..asl.probe import short_text
        if not self.program.has_global(name):
            return None
        return short_text(self.program.global_value(name))

    def flags(self) -> dict[str, bool] | None:
        if not self.program.has_subprogram("NumericStatusFlags"):
            return None
        try:
            bits = self.program.call("NumericStatusFlags").val
        except (AslError, AttributeError):
            return None
        return {name: bool(bits >> i & 1) for i, name in enumerate(FLAG_NAMES)}
