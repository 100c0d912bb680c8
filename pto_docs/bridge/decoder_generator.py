"""``--decoders generate`` / ``avs_decoders: generate``: run the spec tree's own decoder generator.

This is the one place pto-docs runs code of the spec tree: ``scripts/generate-asl-decoders --kind monolithic`` in
a child Python process, because only it makes the ``Validate*`` entry points that half of pto-spec's AVS points
call. The child is limited, not sandboxed: no shell; this interpreter (``-I -B``: no environment variables, user
site or bytecode written into the tree); a minimal environment; the tree as working directory; standard input
closed; its own session (a timeout kills the whole process group); address space, CPU seconds and the size of
any file it writes capped (``resource.setrlimit`` before it starts); standard output to a file outside the tree,
whose size cap ends the child (SIGXFSZ). A generator that fails, times out, runs out of memory or writes too
much is a :class:`GeneratorFailed` that says which. The output is cached (sealed, under the user's key) by the
sha256 of every file under the tree's ``scripts/``, ``spec/`` and ``asl/`` folders (what the generator may read)
and of this module's limits, so it runs again only when one of them changes."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

GENERATOR = "scripts/generate-asl-decoders"
ARGUMENTS = ("--kind", "monolithic")
INPUT_FOLDERS = ("scripts", "spec", "asl")  # the generator's inputs, for the cache key (conservatively all)
IGNORED = ("__pycache__",)
COMMAND_HINT = "python3 scripts/generate-asl-decoders --kind monolithic > FILE"


@dataclass(frozen=True)
class Limits:
    seconds: float = 600.0  # wall clock (pto-spec 0.58.3's takes about 3 s)
    memory: int = 4 * 1024**3  # address space, bytes (it needs about 70 MB resident)
    output: int = 512 * 1024**2  # bytes of standard output, and of any file it writes (0.58.3's: 38 MB)


LIMITS = Limits()


class GeneratorFailed(Exception):
    """The generator could not make the decoders; the message says why (one line, no traceback)."""


def generator_path(root: Path) -> Path | None:
    """The tree's generator script, or None when the tree has none (or only a link out of the tree)."""
    path = root / GENERATOR
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not real.is_file() or root.resolve() not in real.parents:
        return None
    return path


def inputs_digest(root: Path, limits: Limits | None = None) -> str:
    """sha256 of the generator's inputs: every regular file under INPUT_FOLDERS (path and content; symbolic
    links by their target text), the arguments and the limits."""
    limits = limits or LIMITS
    digest = hashlib.sha256(f"{' '.join(ARGUMENTS)}\0{limits}\0{sys.version}\0".encode())
    for folder in INPUT_FOLDERS:
        base = root / folder
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d not in IGNORED)
            for name in sorted(filenames):
                path = Path(dirpath, name)
                rel = path.relative_to(root).as_posix()
                try:
                    data = os.readlink(path).encode("utf-8", "surrogateescape") if path.is_symlink() \
                        else path.read_bytes()
                except OSError:
                    data = b"\0unreadable"
                digest.update(f"{rel}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
                digest.update(data)
    return digest.hexdigest()


def generate(root: Path, cache_dir=None, limits: Limits | None = None) -> str:
    """The decoder ASL the tree's generator prints (from the cache when its inputs are unchanged).
    Raises GeneratorFailed."""
    from ..store import sealed_folder
    root, limits = Path(root), limits or LIMITS
    script = generator_path(root)
    if script is None:
        raise GeneratorFailed(f"the tree has no {GENERATOR} to run")
    cache = sealed_folder(cache_dir)
    entry = f"generated-decoders-{inputs_digest(root, limits)[:32]}.asl"
    if cache is not None:
        payload = cache.load(entry)
        if payload is not None:
            try:
                return payload.decode("utf-8")
            except UnicodeDecodeError:
                pass
    text = run_generator(root, script, limits)
    if cache is not None:
        try:
            cache.save(entry, text.encode("utf-8"))
        except OSError:
            pass  # an unwritable cache costs a rerun next time, nothing else
    return text


def _limit_child(limits: Limits):
    def preexec() -> None:  # runs in the child between fork and exec: only setrlimit calls
        import resource
        cpu = int(limits.seconds) + 1
        for which, value in ((resource.RLIMIT_AS, limits.memory), (resource.RLIMIT_CPU, cpu),
                             (resource.RLIMIT_FSIZE, limits.output), (resource.RLIMIT_CORE, 0)):
            _soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(which, (value, hard))
    return preexec


def child_environment() -> dict[str, str]:
    return {"PATH": os.defpath, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0"}


def run_generator(root: Path, script: Path, limits: Limits) -> str:
    """Run ``script`` with ARGUMENTS in ``root`` under ``limits``; its standard output. Raises GeneratorFailed."""
    command = [sys.executable, "-I", "-B", str(script.resolve()), *ARGUMENTS]
    with tempfile.TemporaryDirectory(prefix="pto-docs-generator-") as scratch:
        out_path, err_path = Path(scratch, "stdout"), Path(scratch, "stderr")
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            try:
                child = subprocess.Popen(command, cwd=root.resolve(), env=child_environment(),
                                         stdin=subprocess.DEVNULL, stdout=out, stderr=err, shell=False,
                                         close_fds=True, start_new_session=True,
                                         preexec_fn=_limit_child(limits))
            except OSError as exc:
                raise GeneratorFailed(f"cannot start {GENERATOR}: {exc.strerror or exc}") from None
            try:
                code = child.wait(timeout=limits.seconds)
            except subprocess.TimeoutExpired:
                _kill_group(child)
                raise GeneratorFailed(f"{GENERATOR} ran longer than the limit of {limits.seconds:g} s "
                                      "and was stopped") from None
            finally:
                _kill_group(child)  # whatever it left running in its session
        size = out_path.stat().st_size
        stderr_tail = _tail(err_path)
        if code == -signal.SIGXFSZ or (code != 0 and size >= limits.output):
            raise GeneratorFailed(f"{GENERATOR} wrote more than the limit of {limits.output} bytes and was stopped")
        if code in (-signal.SIGXCPU, -signal.SIGKILL) and "MemoryError" not in stderr_tail:
            raise GeneratorFailed(f"{GENERATOR} used more than the limit of {int(limits.seconds) + 1} CPU seconds "
                                  "and was stopped")
        if code != 0 and ("MemoryError" in stderr_tail or "Cannot allocate memory" in stderr_tail):
            raise GeneratorFailed(f"{GENERATOR} needed more memory than the limit of {limits.memory >> 20} MiB "
                                  "(MemoryError)")
        if code != 0:
            how = f"signal {-code}" if code < 0 else f"status {code}"
            last = stderr_tail.strip().splitlines()[-1:] if stderr_tail.strip() else []
            said = f": {_printable(last[0])}" if last else ""
            raise GeneratorFailed(f"{GENERATOR} ended with {how}{said}")
        data = out_path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GeneratorFailed(f"{GENERATOR} printed text that is not UTF-8") from None
    if not text.strip():
        raise GeneratorFailed(f"{GENERATOR} printed nothing")
    return text


def _kill_group(child: subprocess.Popen) -> None:
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        child.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def _tail(path: Path, size: int = 4096) -> str:
    with open(path, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        handle.seek(max(0, handle.tell() - size))
        return handle.read().decode("utf-8", "replace")


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else "?" for c in text)[:300]
