"""`mkdocs serve --dirty` with ``avs_examples: run`` (a real server on a free loopback port, on a copy of catalog/):
a saved unit whose global initialiser recurses without end (issue 30) ends the rebuild on the interpreter's step
budget: one error with file:line:col in the log and on every page, the last good site keeps being served, and the
next good save recovers. Waits are bounded, so a rebuild that hangs fails the test; no timing is asserted."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from pto_docs.cli.init import MINIMAL
from tests.site.test_serve import BANNER, REPO, _free_port, _get, _stop_server, _until

UNIT = "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"
TADD_PAGE = "instructions/tile/elementwise-tile-tile/arithmetic/TADD/"
LOOP = """constant PROBE_H : integer = H(60);
func H(n: integer) => integer
begin
    if n == 0 then return 1; end;
    return H(n - 1) + H(n - 1);
end;
"""


def test_a_saved_unit_that_recurses_without_end_is_an_error_and_the_server_keeps_answering(tmp_path):
    root = tmp_path / "spec"
    shutil.copytree(REPO / "catalog", root)
    config = MINIMAL.replace("spec_root: .", "spec_root: .\n      avs_examples: run") + "strict: true\n"
    (root / "mkdocs.yml").write_text(config, "utf-8")
    port = _free_port()
    log_path = tmp_path / "serve.log"
    log = log_path.open("w")
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1", "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    process = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--dirty", "-a", f"127.0.0.1:{port}"],
                               cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}/"
        _until(lambda: _get(base)[0] == 200, "the first build")
        page_before = _get(base + TADD_PAGE)[1]
        unit = root / UNIT
        good = unit.read_text("utf-8")
        line = good.count("\n") + 1
        unit.write_text(good + LOOP, "utf-8")
        css = _until(lambda: (lambda text: text if BANNER in text else None)(_get(base + "assets/pto-docs.css")[1]),
                     "the diagnostics banner", limit=300)
        assert "AVS-ERROR" in css
        for url in (base, base + TADD_PAGE, base + "zh-CN/" + TADD_PAGE):
            status, text = _get(url)
            assert status == 200 and "assets/pto-docs.css" in text
        assert _get(base + TADD_PAGE)[1] == page_before  # the last good page, unchanged
        errors = [ln for ln in log_path.read_text("utf-8").splitlines() if "error[" in ln]
        assert len(errors) == 1, errors
        assert f"{UNIT}:{line + 1}:1: error[AVS-ERROR]: the ASL model cannot be linked" in errors[0], errors
        assert "in H: step budget exhausted" in errors[0]
        unit.write_text(good.replace("Adds the matching elements", "Adds (edited) the matching elements"), "utf-8")
        _until(lambda: BANNER not in _get(base + "assets/pto-docs.css")[1], "the banner to go", limit=300)
        _until(lambda: "Adds (edited)" in _get(base + TADD_PAGE)[1], "the fixed page")
        assert "Traceback" not in log_path.read_text("utf-8")
    finally:
        _stop_server(process, log, port)
