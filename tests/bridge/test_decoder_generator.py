"""``pto-docs avs --decoders generate`` runs the tree's own scripts/generate-asl-decoders in a limited child
process (bridge/decoder_generator.py). The generators here are written by the tests into a tree the tests make
(tests/asl/test_own_decoders.py's decoder tree): one that prints the decoders, one that sleeps past the time
limit, one that allocates past the memory limit, one that exits 1, one that prints past the output limit. Each
failure is one diagnostic line and exit 2, never a traceback; a good output is cached by the digest of the
generator's inputs."""

from __future__ import annotations

import json
import textwrap

import pytest

from pto_docs.analysis.load import load_catalog
from pto_docs.bridge import decoder_generator
from pto_docs.isa.decoders import generate_decoders
from tests.asl.test_own_decoders import decoder_tree, run  # noqa: F401 - the fixture

GENERATOR = "scripts/generate-asl-decoders"
VALIDATE = "\nfunc ValidateDemoWitnesses()\nbegin\n    assert DecodeScalarForm(Zeros{48}, 32) == PTO_SCALAR_FORM_COUNT;\nend;\n"


@pytest.fixture
def small_limits(monkeypatch):
    limits = decoder_generator.Limits(seconds=3, memory=512 * 1024**2, output=4 * 1024**2)
    monkeypatch.setattr(decoder_generator, "LIMITS", limits)
    return limits


def write_generator(root, body: str) -> None:
    path = root / GENERATOR
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("import os, sys, time\n" + textwrap.dedent(body), "utf-8")


def good_generator(root, tmp_path) -> None:
    """Prints the decoders kept in the tree's spec/ folder (read relative to its working directory), counts its
    runs in a file outside the tree, and refuses to run with the caller's environment."""
    text = generate_decoders(load_catalog(root).catalog) + VALIDATE
    (root / "spec" / "decoders.txt").write_text(text, "utf-8")
    write_generator(root, f"""
        if "PTO_DOCS_TEST_SECRET" in os.environ or sys.argv[1:] != ["--kind", "monolithic"]:
            sys.exit(7)
        with open({str(tmp_path / "runs")!r}, "a") as runs:
            runs.write("run\\n")
        sys.stdout.write(open("spec/decoders.txt", encoding="utf-8").read())
    """)


def runs(tmp_path) -> int:
    path = tmp_path / "runs"
    return len(path.read_text().splitlines()) if path.exists() else 0


def avs(root, tmp_path, *more):
    return run("avs", str(root), "--decoders", "generate", "--jobs", "1", "-q", "--cache-dir", str(tmp_path / "c"),
               *more)


def test_generate_runs_the_trees_generator_once_per_set_of_inputs(decoder_tree, tmp_path, monkeypatch,  # noqa: F811
                                                                   small_limits):
    monkeypatch.setenv("PTO_DOCS_TEST_SECRET", "1")
    good_generator(decoder_tree, tmp_path)
    code, out, err = avs(decoder_tree, tmp_path, "--json", str(tmp_path / "avs.json"))
    assert (code, err) == (0, ""), out + err
    results = {t["id"]: t["status"] for t in json.loads((tmp_path / "avs.json").read_text("utf-8"))["tests"]}
    assert results["PTO-AVS-SCALAR-DEMO-VALIDATE-001"] == "pass" and set(results.values()) == {"pass"}
    assert runs(tmp_path) == 1
    assert avs(decoder_tree, tmp_path)[0] == 0 and runs(tmp_path) == 1  # the cached output
    (decoder_tree / "spec" / "unrelated.json").write_text("{}", "utf-8")  # an input changed: it runs again
    assert avs(decoder_tree, tmp_path)[0] == 0 and runs(tmp_path) == 2
    assert not list(decoder_tree.rglob("__pycache__"))  # nothing written into the tree


@pytest.mark.parametrize(("body", "says"), [
    ("time.sleep(30)\n", "ran longer than the limit of 3 s and was stopped"),
    ("hog = bytearray(2 * 1024**3)\nprint(len(hog))\n", "needed more memory than the limit of 512 MiB (MemoryError)"),
    ("sys.stderr.write('Traceback (most recent call last):\\nValueError: the spec is odd\\n')\nsys.exit(1)\n",
     "ended with status 1: ValueError: the spec is odd"),
    ("chunk = 'x' * 65536\nwhile True:\n    sys.stdout.write(chunk)\n",
     f"wrote more than the limit of {4 * 1024**2} bytes and was stopped"),
    ("", "printed nothing"),
])
def test_a_failing_generator_is_one_diagnostic_and_exit_2(decoder_tree, tmp_path, small_limits, body,  # noqa: F811
                                                          says):
    write_generator(decoder_tree, body)
    code, out, err = avs(decoder_tree, tmp_path)
    assert code == 2 and out == "", out + err
    (line,) = err.splitlines()
    assert line == f"{decoder_tree}: error[AVS-DECODERS]: --decoders generate: {GENERATOR} {says}"


def test_a_tree_without_a_generator_of_its_own_is_refused(decoder_tree, tmp_path, small_limits):  # noqa: F811
    code, out, err = avs(decoder_tree, tmp_path)
    assert code == 2 and f"the tree has no {GENERATOR} to run" in err
    outside = tmp_path / "outside.py"
    outside.write_text("print('func X() begin end;')\n", "utf-8")
    (decoder_tree / "scripts").mkdir()
    (decoder_tree / GENERATOR).symlink_to(outside)  # a link out of the tree is not the tree's generator
    code, out, err = avs(decoder_tree, tmp_path)
    assert code == 2 and f"the tree has no {GENERATOR} to run" in err


def test_avs_decoders_generate_in_mkdocs_yml_runs_it_for_the_builds_examples(decoder_tree, tmp_path,  # noqa: F811
                                                                              small_limits, caplog):
    from mkdocs.exceptions import Abort

    from tests.mkdocs_config import build_catalog
    good_generator(decoder_tree, tmp_path)
    site = tmp_path / "site"
    build_catalog(site, spec_root=str(decoder_tree), avs_examples="run", avs_decoders="generate",
                  cache_dir=str(tmp_path / "cache"))
    assert runs(tmp_path) == 1
    pages = [p.read_text("utf-8") for p in site.glob("**/index.html")]
    validate = [p for p in pages if 'id="PTO-AVS-SCALAR-DEMO-VALIDATE-001"' in p]
    assert validate and all("pto-avs--pass" in p.split('id="PTO-AVS-SCALAR-DEMO-VALIDATE-001"', 1)[1][:400]
                            for p in validate)
    write_generator(decoder_tree, "sys.exit(1)\n")
    with pytest.raises(Abort):  # the generator's inputs changed: it runs again, and fails the build
        build_catalog(tmp_path / "again", spec_root=str(decoder_tree), avs_examples="run", avs_decoders="generate",
                      cache_dir=str(tmp_path / "cache"))
    assert f"{decoder_tree}: error[AVS-DECODERS]: avs_decoders: generate: {GENERATOR} ended with status 1" in \
        caplog.text
    assert not (tmp_path / "again").exists() or not list((tmp_path / "again").glob("**/index.html"))
