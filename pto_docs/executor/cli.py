"""``pto-docs exec CASE``: load a JSON/YAML case, run it, print the result."""

from __future__ import annotations

import json
import sys

import yaml

from ..schemas.strict_parse import load_yaml, loads_json
from .case import run_case
from .faults import CaseError


def load_case(text: str, name: str = "<case>") -> dict:
    """Parse JSON (text starting with ``{``) or YAML (``yaml.safe_load``) text."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("{"):
        try:
            data = loads_json(text.lstrip("\ufeff"))
        except json.JSONDecodeError as exc:
            raise CaseError(f"invalid JSON: {exc.msg}", "", "EXEC-SYNTAX",
                            exc.lineno, exc.colno) from None
    else:
        try:
            data = load_yaml(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise CaseError(f"invalid YAML: {problem}", "", "EXEC-SYNTAX",
                            mark.line + 1 if mark else None,
                            mark.column + 1 if mark else None) from None
    if not isinstance(data, dict):
        raise CaseError("a case must be a mapping/object", "", "EXEC-SCHEMA", 1, 1)
    return data


def _locate(text: str, pointer: str) -> tuple[int, int]:
    """Best-effort line/column of a JSON pointer in JSON or YAML text."""
    try:
        node = yaml.compose(text)
    except Exception:
        return 1, 1
    if node is None:
        return 1, 1
    best = node
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    for part in parts:
        nxt = None
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if str(k.value) == part:
                    nxt = v
                    break
        elif isinstance(node, yaml.SequenceNode) and part.isdigit() and int(part) < len(node.value):
            nxt = node.value[int(part)]
        if nxt is None:
            break
        node = best = nxt
    return best.start_mark.line + 1, best.start_mark.column + 1


def _diagnostic(name: str, err: CaseError, text: str | None) -> str:
    line, col = err.line, err.column
    if line is None:
        line, col = _locate(text, err.pointer) if text else (1, 1)
    msg = " ".join(str(err.message).split())
    return f"{name}:{line}:{col}: error[{err.code}]: {msg} (at {err.pointer or '/'})"


def exec_command(path: str, stdout=None, stderr=None, other_format=None) -> int:
    """Run the case at ``path`` (``-`` = stdin); 0 when it ran, 2 when malformed. ``other_format(case, name,
    text)`` (optional) sees the parsed case first and returns an exit code when it runs the case itself (a
    format this executor does not know, e.g. pto-docs' v2 cases), or None to leave it to this executor."""
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    name = "<stdin>" if path == "-" else path
    text = None
    try:
        if path == "-":
            raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        else:
            with open(path, "rb") as fh:
                raw = fh.read()
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except OSError as exc:
        stderr.write(f"{name}:1:1: error[EXEC-IO]: cannot read case: "
                     f"{exc.strerror or exc} (at /)\n")
        return 2
    except UnicodeDecodeError as exc:
        stderr.write(f"{name}:1:1: error[EXEC-IO]: case is not UTF-8 text "
                     f"(byte {exc.start}) (at /)\n")
        return 2
    try:
        case = load_case(text, name)
        if other_format is not None:
            code = other_format(case, name, text)
            if code is not None:
                return code
        result = run_case(case)
    except CaseError as err:
        stderr.write(_diagnostic(name, err, text) + "\n")
        return 2
    except RecursionError:
        stderr.write(f"{name}:1:1: error[EXEC-CASE]: case is nested too deeply (at /)\n")
        return 2
    stdout.write(json.dumps(result, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return 0
