"""The console script's quick exit (cli.run): everything an ordinary exit would do happens, except freeing the heap.

Each case runs a real process, with standard output a pipe, as a release gate would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _python(code: str, *args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False)


def test_exit_codes_and_whole_output_pass_through(tmp_path):
    """A tree with a defect: exit 1, and the JSON diagnostics (long, piped) arrive whole."""
    root = tmp_path / "tree"
    (root / "asl").mkdir(parents=True)
    (root / "asl" / "BROKEN.asl").write_text("// PTO-INSTRUCTION: {not json\n" + "// filler\n" * 50_000, "utf-8")
    result = _python("from pto_docs.cli import run; import sys; run(sys.argv[1:])", "validate", str(root),
                     "--format", "json")
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)  # complete: a truncated document would not parse
    assert document, result.stdout[:500]


def test_usage_errors_and_version_keep_their_codes():
    usage = _python("from pto_docs.cli import run; run(['no-such-command'])")
    assert usage.returncode == 2
    assert "invalid choice" in usage.stderr
    version = _python("from pto_docs.cli import run; run(['--version'])")
    assert version.returncode == 0
    assert version.stdout.startswith("pto-docs ")


def test_atexit_handlers_run_in_order_before_the_quick_exit():
    result = _python("""
        import atexit
        atexit.register(print, "registered first, runs last", flush=False)
        atexit.register(print, "registered last, runs first", flush=False)
        from pto_docs.cli import run
        run(['--version'])
    """)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1:] == ["registered last, runs first", "registered first, runs last"], lines


def test_temporary_directories_are_removed(tmp_path):
    """A TemporaryDirectory still open at exit is removed by its finalizer (an atexit handler), as ordinarily."""
    result = _python(f"""
        import tempfile
        keep = tempfile.TemporaryDirectory(dir={str(tmp_path)!r})
        open(keep.name + "/x", "w").write("x")
        from pto_docs.cli import run
        run(['--version'])
    """)
    assert result.returncode == 0, result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_running_thread_gets_the_ordinary_exit():
    """A non-daemon thread still working is waited for, as Python does, rather than killed."""
    result = _python("""
        import threading, time
        def late():
            time.sleep(0.5)
            print("the thread finished", flush=True)
        threading.Thread(target=late).start()
        from pto_docs.cli import run
        run(['--version'])
    """)
    assert result.returncode == 0, result.stderr
    assert "the thread finished" in result.stdout


def test_a_closed_pipe_ends_as_the_ordinary_exit_does(tmp_path):
    """Output the reader never took: the same exit status as with the ordinary exit, and not success."""
    root = tmp_path / "tree"
    (root / "asl").mkdir(parents=True)
    (root / "asl" / "BROKEN.asl").write_text("// PTO-INSTRUCTION: {not json\n", "utf-8")
    for unbuffered in ("1", ""):  # a newcomer's shell buffers standard output; some CI environments do not
        environ = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
        if unbuffered:
            environ["PYTHONUNBUFFERED"] = unbuffered
        codes = []
        for entry in ("from pto_docs.cli import main; import sys; raise SystemExit(main(sys.argv[1:]))",
                      "from pto_docs.cli import run; import sys; run(sys.argv[1:])"):
            proc = subprocess.Popen([sys.executable, "-c", entry, "validate", str(root), "--format", "json"],
                                    cwd=REPO, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            proc.stdout.close()  # the reader went away
            proc.wait(timeout=300)
            proc.stderr.close()
            codes.append(proc.returncode)
        assert codes[0] == codes[1] != 0, (unbuffered, codes)
