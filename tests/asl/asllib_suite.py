"""ASLRef's own test programs (herdtools7 ``asllib/tests/`` at the commit pto-spec pins) run on our interpreter.

The tarball is shared reference material (BSD-3-Clause, Arm): it is unpacked at test time, never copied into the
project. Each program's expected outcome comes from ASLRef when the binary is present, else from the output
recorded in its cram folder's ``run.t`` (only plain ``aslref FILE.asl`` invocations: flags change semantics).

Outcomes: ``exit N`` (main returned N), ``dynamic`` (a dynamic error, stdout up to it compared), ``syntax``
(grammar or lexical rejection), ``static`` (ASLRef's type checker rejects it: out of scope, only checked for
tracebacks), and for ours also ``compile`` (AslCompileError), ``traceback`` and ``timeout``.

    python3 -m tests.asl.asllib_suite [SUBSTRING ...]   # the agreement figures and each disagreement

(the tarball: $PTO_DOCS_ASLLIB_TESTS, else the shared one)
"""

from __future__ import annotations

import io
import os
import re
import resource
import subprocess
import sys
import tarfile
import time
import traceback
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

TARBALL = Path(__file__).resolve().parents[3] / "shared" / "tools" / "aslref" / "asllib-tests-0b6e0906.tar.gz"
TESTS_DIR = "asllib/tests"
OURS_TIMEOUT = 30.0
REF_TIMEOUT = 60.0


@dataclass(frozen=True)
class Outcome:
    kind: str  # exit | dynamic | syntax | static | compile | traceback | timeout
    status: int = 0
    stdout: str = ""
    detail: str = ""
    loose_eol: bool = False  # recorded by cram: whether the last line ended with a newline is unknown

    def agrees(self, ours: Outcome) -> bool:
        if self.loose_eol and self.kind == ours.kind and self.kind in ("exit", "dynamic"):
            return (self.status, self.stdout.rstrip("\n")) == (ours.status, ours.stdout.rstrip("\n"))
        return self.key() == ours.key()

    def key(self):
        """What must agree: the outcome, the exit status, and stdout (except for rejections)."""
        if self.kind in ("exit", "dynamic"):
            return (self.kind, self.status, self.stdout)
        return (self.kind,)


def tarball_path() -> Path | None:
    candidate = Path(os.environ.get("PTO_DOCS_ASLLIB_TESTS", TARBALL))
    return candidate if candidate.is_file() else None


def unpack(tarball: Path, dest: Path) -> Path:
    """Unpack the tests and write the files ``run.t`` creates with ``cat >FILE <<EOF``; the tests root."""
    with tarfile.open(tarball) as tar:
        members = [m for m in tar.getmembers() if m.isfile() or m.isdir()]
        tar.extractall(dest, members=members, filter="data")
    root = dest / TESTS_DIR
    for run_t in sorted(root.glob("*.t/run.t")):
        for name, text in heredocs(run_t.read_text(encoding="utf-8")):
            target = run_t.parent / name
            if "/" not in name and not target.exists():
                target.write_text(text, encoding="utf-8")
    return root


def programs(root: Path) -> list[str]:
    """Every ``.asl`` program, as ``folder.t/name.asl`` relative to the tests root."""
    return sorted(str(p.relative_to(root)) for p in root.glob("*.t/*.asl"))


_HEREDOC = re.compile(r"^  \$ cat >(\S+) <<EOF$")


def heredocs(text: str):
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _HEREDOC.match(line)
        if m:
            body = []
            for more in lines[i + 1:]:
                if not more.startswith("  > ") and more != "  >":
                    break
                content = more[4:]
                if content == "EOF":
                    break
                body.append(content)
            yield m.group(1), "".join(b + "\n" for b in body)


_PLAIN = re.compile(r"^  \$ aslref ([\w.-]+\.asl)$")


def recorded(root: Path) -> dict[str, Outcome]:
    """Expected outcomes from the ``run.t`` files: plain ``aslref FILE.asl`` invocations only."""
    found: dict[str, Outcome] = {}
    for run_t in sorted(root.glob("*.t/run.t")):
        lines = run_t.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = _PLAIN.match(line)
            if not m:
                continue
            output = []
            for more in lines[i + 1:]:
                if not more.startswith("  ") or more.startswith("  $ "):
                    break
                output.append(more[2:])
            if any("aslref cannot find file" in out for out in output):
                continue
            status = 0
            if output and re.fullmatch(r"\[\d+\]", output[-1]):
                status = int(output.pop()[1:-1])
            name = f"{run_t.parent.name}/{m.group(1)}"
            outcome = classify(status, *split_merged(output))
            # dune's cram does not record whether the output's last line ended with a newline
            found.setdefault(name, Outcome(outcome.kind, outcome.status, outcome.stdout, outcome.detail, True))
    return found


def split_merged(lines: list[str]) -> tuple[str, str]:
    """Cram merges stdout and stderr: take out ASLRef's diagnostics (``File …`` location, quoted source and
    carets, the ``ASL … :`` message and its indented continuation lines, or a bare ``ASL …`` message)."""
    out, err = [], []
    i = 0
    while i < len(lines):
        j = i
        if lines[i].startswith("File ") and ", line " in lines[i]:
            j = i + 1
            while j < len(lines) and not lines[j].startswith("ASL "):
                j += 1
            if j == len(lines):
                out.append(lines[i])
                i += 1
                continue
        if lines[j].startswith("ASL "):
            block = lines[i:j + 1]
            j += 1
            # wrapped message lines: indented, or (warnings) unindented until the sentence ends
            while j < len(lines) and (lines[j].startswith("  ") or not block[-1].rstrip().endswith(".")):
                block.append(lines[j])
                j += 1
            err.extend(block)
            i = j
            continue
        out.append(lines[i])
        i += 1
    text = "".join(line[:-len(" (no-eol)")] if line.endswith(" (no-eol)") else line + "\n" for line in out)
    return text, "\n".join(err)


def classify(status: int, stdout: str, stderr: str) -> Outcome:
    if "ASL Grammar error" in stderr or "ASL Lexical error" in stderr:
        return Outcome("syntax", detail=stderr)
    if "ASL Type error" in stderr or "ASL Static error" in stderr:
        return Outcome("static", detail=stderr)
    if "ASL Dynamic error" in stderr or "ASL Execution error" in stderr:
        return Outcome("dynamic", 1, stdout, stderr)
    return Outcome("exit", status, stdout, stderr)


def _unlimited_stack():
    resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def run_aslref(aslref: str, root: Path, name: str) -> Outcome:
    folder, file = name.split("/")
    try:
        done = subprocess.run([aslref, file], cwd=root / folder, capture_output=True, text=True,
                              timeout=REF_TIMEOUT, preexec_fn=_unlimited_stack, check=False)
    except subprocess.TimeoutExpired:
        return Outcome("timeout")
    return classify(done.returncode, done.stdout, done.stderr)


def run_ours_inline(path: Path, name: str) -> Outcome:
    """Parse, link and run ``main()`` as ``pto_docs.asl.runner`` does, telling the ways it can end apart."""
    from pto_docs.asl.errors import AslCompileError, AslError, AslInternalError, AslThrow
    from pto_docs.asl.lexer import AslSyntaxError
    from pto_docs.asl.parser import parse
    from pto_docs.asl.profiles import bind_profile
    from pto_docs.asl.program import Program
    from pto_docs.asl.runner import run_in_big_stack, run_main

    out = io.StringIO()
    try:
        decls = parse(path.read_text(encoding="utf-8"), name)
        program = Program(decls, out)
        bind_profile(program, "pto-v0")

        def go():
            program.initialize()
            return run_main(program)

        status = run_in_big_stack(go)
        if not isinstance(status, int):
            return Outcome("traceback", 0, out.getvalue(), f"main returned {status!r}")
        return Outcome("exit", status, out.getvalue())
    except AslSyntaxError as exc:
        return Outcome("syntax", detail=str(exc))
    except AslCompileError as exc:
        return Outcome("compile", 1, out.getvalue(), str(exc))
    except AslInternalError as exc:  # the last-resort net caught a failure of the interpreter: counted as one
        return Outcome("traceback", 1, out.getvalue(), str(exc))
    except (AslError, AslThrow, RecursionError) as exc:
        return Outcome("dynamic", 1, out.getvalue(), str(exc) or type(exc).__name__)
    except BaseException:  # noqa: BLE001 - what this suite looks for
        lines = traceback.format_exc().strip().splitlines()
        return Outcome("traceback", 1, out.getvalue(), lines[-1])


def _child(conn, path, name):
    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
    sys.stdout = io.StringIO()
    conn.send(run_ours_inline(path, name))
    conn.close()


def run_ours_all(root: Path, names: list[str], jobs: int = 2, timeout: float = OURS_TIMEOUT) -> dict:
    """Each program in a forked child (a crash, a hang or a huge allocation stays there), ``jobs`` at a time."""
    import pto_docs.asl.profiles  # noqa: F401 - imported once, before the forks (NumPy, ml_dtypes: slow)
    import pto_docs.asl.runner  # noqa: F401

    ctx = get_context("fork")
    results: dict[str, Outcome] = {}
    pending = list(names)
    running: list = []
    while pending or running:
        while pending and len(running) < jobs:
            name = pending.pop(0)
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(child, root / name, name), daemon=True)
            proc.start()
            child.close()
            running.append((name, proc, parent, time.monotonic()))
        still = []
        for name, proc, conn, started in running:
            if conn.poll(0.005):
                if os.environ.get("ASLLIB_SLOW") and time.monotonic() - started > 1:
                    print(f"slow {time.monotonic() - started:.1f}s {name}", file=sys.stderr)
                try:
                    results[name] = conn.recv()
                except EOFError:
                    results[name] = Outcome("traceback", detail=f"child died (exit {proc.exitcode})")
                proc.join()
                conn.close()
            elif not proc.is_alive():
                results[name] = Outcome("traceback", detail=f"child died (exit {proc.exitcode})")
                try:  # it may have sent its result just after the poll above, then ended
                    if conn.poll(0):
                        results[name] = conn.recv()
                except EOFError:
                    pass
                conn.close()
            elif time.monotonic() - started > timeout:
                proc.kill()
                proc.join()
                conn.close()
                results[name] = Outcome("timeout", detail=f"over {timeout:.0f} s")
            else:
                still.append((name, proc, conn, started))
        running = still
    return results


def expectations(root: Path, names: list[str], aslref: str | None) -> dict[str, Outcome]:
    if aslref is None:
        return recorded(root)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(lambda n: run_aslref(aslref, root, n), names))
    return dict(zip(names, outcomes))


def load_differences(path: Path) -> dict[str, str]:
    """The reviewed list: ``folder.t/name.asl  reason`` a line; ``#`` comments."""
    known: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, reason = line.partition(" ")
            known[name] = reason.strip()
    return known


def compared(expected: Outcome) -> bool:
    """Programs ASLRef runs (an exit status or a dynamic error) or rejects for syntax."""
    return expected.kind in ("exit", "dynamic", "syntax")


def disagreements(names, expected: dict, ours: dict) -> dict[str, str]:
    """Each program that does not agree (or ends in a traceback or a timeout), with a one-line reason."""
    found = {}
    for n in names:
        e, o = expected.get(n), ours[n]
        if o.kind in ("traceback", "timeout"):
            found[n] = f"{o.kind}: {o.detail}"
        elif e is not None and compared(e) and not e.agrees(o):
            if e.kind != o.kind or e.status != o.status:
                want = f"exit {e.status}" if e.kind == "exit" else e.kind
                got = f"exit {o.status}" if o.kind == "exit" else o.kind
                found[n] = f"ASLRef {want}, ours {got}" + (f": {o.detail}" if o.detail else "")
            else:
                found[n] = "stdout differs"
    return {n: " ".join(r.split())[:160] for n, r in found.items()}


def main(argv=None) -> int:
    import tempfile

    from .conftest import aslref_path

    argv = sys.argv[1:] if argv is None else argv
    with tempfile.TemporaryDirectory() as tmp:
        root = unpack(tarball_path(), Path(tmp))
        names = programs(root)
        if argv:
            names = [n for n in names if any(pat in n for pat in argv)]
        expected = expectations(root, names, aslref_path())
        ours = run_ours_all(root, names)
    runs = [n for n in names if n in expected and expected[n].kind in ("exit", "dynamic")]
    syntax = [n for n in names if n in expected and expected[n].kind == "syntax"]
    found = disagreements(names, expected, ours)
    for n in found:
        e, o = expected.get(n), ours[n]
        print(f"{n}\n  aslref: {e.key() if e else None}\n  ours:   {o.key()} {o.detail[:300]}")
    if os.environ.get("ASLLIB_WRITE_LIST"):
        with open(os.environ["ASLLIB_WRITE_LIST"], "w", encoding="utf-8") as handle:
            handle.writelines(f"{n}  {r}\n" for n, r in found.items())
    agree = sum(expected[n].agrees(ours[n]) for n in runs)
    rejected = sum(ours[n].kind == "syntax" for n in syntax)
    tracebacks = sum(ours[n].kind == "traceback" for n in names)
    timeouts = sum(ours[n].kind == "timeout" for n in names)
    print(f"runs: {agree} of {len(runs)} agree; syntax rejections: {rejected} of {len(syntax)}; "
          f"tracebacks: {tracebacks}; timeouts: {timeouts}; programs: {len(names)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
