"""Run a whole ASL program's ``main()`` the way ``aslref FILE`` does; also a command-line entry.

    python -m pto_docs.asl.runner prog.asl [more.asl ...]
"""

from __future__ import annotations

import sys
import threading

from .errors import AslCompileError, AslError, AslThrow, internal_error, located
from .lexer import AslSyntaxError
from .parser import parse
from .profiles import PROFILES, bind_profile
from .program import Program

STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 200000


_ON_BIG_STACK = threading.local()  # .on: this thread is one run_in_big_stack started


def run_in_big_stack(fn, *args):
    """Run ``fn(*args)`` in a thread with a large stack: deep ASL call chains nest many closures. Called from such
    a thread, it calls ``fn`` there (a loop of many runs, such as the teaching run, starts one thread, not one per
    run: a thread's 512 MB stack is mapped afresh each time)."""
    if getattr(_ON_BIG_STACK, "on", False):
        return fn(*args)
    result: list = []
    error: list = []

    def target():
        _ON_BIG_STACK.on = True
        try:
            result.append(fn(*args))
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            error.append(exc)

    # The recursion limit is the process's: it is raised only while the big-stack thread runs, so that code on
    # the main thread's ordinary stack (a deeply nested TOML or JSON file, later) still gets RecursionError,
    # never a crash of the C stack.
    old_size, old_limit = threading.stack_size(), sys.getrecursionlimit()
    threading.stack_size(STACK_BYTES)
    sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
    try:
        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)
    if error:
        raise error[0]
    return result[0]


def run_main(program: Program) -> int:
    """Call ``main()``; its integer result is the exit status (as ASLRef's). No ``main()`` is a dynamic error,
    as in ASLRef."""
    if not any(c.arity == 0 for c in program.functions.get("main", ())):
        raise AslError("no entry point: the program declares no func main() => integer")
    status = program.call("main")
    if type(status) is not int:
        raise AslError(f"main() returned {'no value' if status is None else 'a value that is not an integer'}")
    return status


def run_sources(sources: list[tuple[str, str]], output=None, profile: str = "pto-v0") -> tuple[int, str]:
    """Parse, link and run; returns (exit status, error message or '')."""
    out = output if output is not None else sys.stdout
    if profile not in PROFILES:  # the caller's mistake, not the ASL's: raised as before
        bind_profile(None, profile)
    try:
        decls = []
        for path, text in sources:
            decls.extend(parse(text, path))
        program = Program(decls, out)
        bind_profile(program, profile)

        def go():
            program.initialize()
            return run_main(program)

        status = run_in_big_stack(go)
        return status, ""
    except AslSyntaxError as exc:
        return 1, str(exc)
    except (AslError, AslCompileError) as exc:
        return 1, f"ASL error: {located(exc)}"
    except AslThrow as exc:
        return 1, f"ASL error: {exc}"
    except RecursionError:
        return 1, "ASL error: recursion too deep"
    except MemoryError:
        return 1, "ASL error: out of memory"
    except Exception as exc:  # noqa: BLE001 - the last-resort net: located, not a traceback
        return 1, f"ASL error: {internal_error(exc)}"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    sources = []
    for path in argv:
        with open(path, encoding="utf-8") as handle:
            sources.append((path, handle.read()))
    status, message = run_sources(sources)
    if message:
        print(message, file=sys.stderr)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
