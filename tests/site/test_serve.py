"""`mkdocs serve --dirty` (a real server on a free loopback port, on a copy of catalog/): a save that breaks a
record keeps the last good site served (no request hangs), logs one error with file:line:col, shows the
diagnostics on every page (our stylesheet's banner), and the next good save recovers. Waits are bounded; no
timing is asserted."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from pto_docs.cli.init import MINIMAL

REPO = Path(__file__).resolve().parents[2]
UNIT = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
TMUL_PAGE = "instructions/tile/elementwise-tile-tile/arithmetic/TMUL/"
BANNER = "the spec tree has errors"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=20) as response:  # a hanging request fails the test
        return response.status, re.sub(r"livereload\(\d+, \d+\)", "livereload()", response.read().decode("utf-8"))


def _until(check, what: str, limit: float = 240.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            value = check()
        except OSError:
            value = None
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"gave up waiting for {what}")


@pytest.fixture
def server(tmp_path):
    root = tmp_path / "spec"
    shutil.copytree(REPO / "catalog", root)
    (root / "mkdocs.yml").write_text(MINIMAL + "strict: true\n", "utf-8")  # strict: our error must not fail it
    port = _free_port()
    log = (tmp_path / "serve.log").open("w")
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    process = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--dirty",
                                "-a", f"127.0.0.1:{port}"], cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}/"
        _until(lambda: _get(base)[0] == 200, "the first build")
        yield root, base, tmp_path / "serve.log"
    finally:
        _stop_server(process, log, port)


def _stop_server(process: subprocess.Popen, log, port: int) -> None:
    """End a `mkdocs serve` started by a test, close its log and wait for its language worker to end too."""
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.close()
    # its language worker ends with it (SIGTERM reaches only the server, not its process group)
    _until(lambda: not _serving_processes(port), "the stopped server's worker processes to end", limit=15)


def _serving_processes(port: int) -> list[int]:
    """Processes still serving on ``port`` (read from /proc: the command lines naming it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in command and f"127.0.0.1:{port}".encode() in command:
            found.append(int(entry.name))
    return found


def test_a_broken_record_keeps_the_last_good_site_and_recovers(server):
    root, base, log = server
    unit = root / UNIT
    good = unit.read_text("utf-8")
    page_before = _get(base + TMUL_PAGE)[1]
    unit.write_text(good.replace('"mnemonic":"TMUL",', '"mnemonic":"TMUL",,', 1), "utf-8")
    css = _until(lambda: (lambda text: text if BANNER in text else None)(_get(base + "assets/pto-docs.css")[1]),
                 "the diagnostics banner")
    assert "JSON-SYNTAX" in css
    for url in (base, base + TMUL_PAGE, base + "zh-CN/", base + "zh-CN/" + TMUL_PAGE):
        status, text = _get(url)
        assert status == 200 and "assets/pto-docs.css" in text
    assert _get(base + TMUL_PAGE)[1] == page_before  # the last good page, unchanged
    errors = [line for line in log.read_text("utf-8").splitlines() if "error[" in line]
    assert len(errors) == 1, errors
    assert f"{UNIT}:1:" in errors[0] and "error[JSON-SYNTAX]" in errors[0]
    unit.write_text(good.replace("Multiplies the matching elements", "Multiplies (edited) the matching elements"), "utf-8")
    _until(lambda: BANNER not in _get(base + "assets/pto-docs.css")[1], "the banner to go")
    _until(lambda: "Multiplies (edited)" in _get(base + TMUL_PAGE)[1], "the fixed page")
    assert "Traceback" not in log.read_text("utf-8")
