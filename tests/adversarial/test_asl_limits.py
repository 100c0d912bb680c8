"""Issue 30, findings 3 and 4: hostile ASL in a spec tree or a case runs under limits and never prints a traceback.

Each test alters a copy of catalog/ as a pull request to a spec repository could, then runs pto-docs as a user
does (``python -m pto_docs.cli``, a fresh process, under a timeout: a regression that hangs fails) and checks
the exit code and the diagnostic."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.adversarial.conftest import run_capped, run_cli

UNIT = "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"
POINT = "tests/asl/scalar/agu/SWI/scalar-exec-swi-hostile-001.asl"
POINT_ID = "PTO-AVS-AGU-SWI-HOSTILE-001"
H = """func H(n: integer) => integer
begin
    if n == 0 then return 1; end;
    return H(n - 1) + H(n - 1);
end;
"""


def add_to_unit(root: Path, text: str) -> int:
    """Append ``text`` to the TADD unit; the line it starts on."""
    unit = root / UNIT
    before = unit.read_text("utf-8")
    unit.write_text(before + text, "utf-8")
    return before.count("\n") + 1


def add_point(root: Path, body: str) -> None:
    record = {"id": POINT_ID, "source": "asl/scalar/agu/SWI.asl", "requirements": ["PTO-INST-SCALAR-SWI"],
              "kind": "execution", "summary": "hostile", "pass_condition": "none", "related_sources": []}
    (root / POINT).write_text(f"// PTO-TEST: {json.dumps(record)}\n{body}", "utf-8")


def avs(root: Path, tmp_path: Path, timeout: float = 300) -> tuple[int, dict, str]:
    """Exit code, the results document, and what was printed."""
    out = tmp_path / "avs.json"
    code, printed, err = run_cli("avs", str(root), "--jobs", "2", "-q", "--json", str(out), "--cache-dir",
                           str(tmp_path / "cache"), timeout=timeout)
    return code, json.loads(out.read_text("utf-8")), printed + err


def statuses(doc: dict) -> dict[str, tuple[str, str]]:
    return {t["id"]: (t["status"], t["message"]) for t in doc["tests"]}


def test_an_exponential_recursion_in_one_point_is_an_error_and_the_others_still_run(tree, tmp_path):
    add_point(tree, H + "func main() => integer\nbegin\n    assert H(60) == 1;\n    return 0;\nend;\n")
    code, doc, err = avs(tree, tmp_path)
    results = statuses(doc)
    assert code == 1
    status, message = results.pop(POINT_ID)
    assert status == "error" and f"{POINT}:2:1: in H: step budget exhausted" in message, message
    assert results and all(s == "pass" for s, _ in results.values())  # every other point got its result
    assert f"error[AVS-ERROR]: {POINT_ID}:" in err


def test_a_huge_value_in_a_branch_never_taken_does_not_hang_the_compiler(tree, tmp_path):
    add_point(tree, "func main() => integer\nbegin\n    if FALSE then let y = Replicate('1', 2^40); end;\n"
                    "    return 0;\nend;\n")
    code, doc, _ = avs(tree, tmp_path, timeout=180)
    assert code == 0 and statuses(doc)[POINT_ID] == ("pass", "")


@pytest.mark.parametrize("width", ["2^34", "2^36"])
def test_a_unit_constant_beyond_the_width_bound_is_an_error_in_a_capped_process(tree, tmp_path, width):
    # the main process builds the model's globals: capped at 3 GB, as the probe was
    line = add_to_unit(tree, f"constant PROBE_BIG = Ones{{{width}}};\n")
    assert line > 1
    out = tmp_path / "avs.json"
    code, _, err = run_capped("avs", str(tree), "--jobs", "1", "-q", "--json", str(out), "--cache-dir",
                              str(tmp_path / "cache"), gigabytes=3)
    assert "Traceback" not in err and "MemoryError" not in err, err
    assert code == 1
    bits = {"2^34": "17179869184", "2^36": "68719476736"}[width]
    messages = {m for s, m in statuses(json.loads(out.read_text("utf-8"))).values()}
    assert messages == {"the model cannot be linked: AslLimitError: in the initialiser of global PROBE_BIG: "
                        f"a bitvector of {bits} bits is beyond the limit of 16,777,216 bits"}


@pytest.mark.parametrize("text, where, diagnostic", [
    ('constant PROBE_S : string = "\\x";\n', 30, "unknown escape sequence \\x in a string literal"),
    ("constant PROBE_P : integer = " + "(" * 3000 + "1" + ")" * 3000 + ";\n", 70, "expression nested more than 40 deep"),
], ids=["string-escape", "3000-parentheses"])
def test_asl_text_the_lexer_or_parser_refuses_is_a_positioned_syntax_error(tree, tmp_path, text, where, diagnostic):
    line = add_to_unit(tree, text)
    code, doc, err = avs(tree, tmp_path, timeout=180)
    assert code == 1
    expected = f"the model cannot be linked: {UNIT}:{line}:{where}: error[ASL-SYNTAX]: {diagnostic}"
    assert {m for _, m in statuses(doc).values()} == {expected}


def test_a_5000_digit_literal_is_a_number(tree, tmp_path):
    add_to_unit(tree, "constant PROBE_D : integer = " + "7" * 5000 + ";\n")
    add_point(tree, "func main() => integer\nbegin\n    assert PROBE_D MOD 1000 == 777;\n"
                    "    assert PROBE_D > 10 ^ 4999;\n    return 0;\nend;\n")
    code, doc, _ = avs(tree, tmp_path, timeout=180)
    assert code == 0 and statuses(doc)[POINT_ID] == ("pass", "")


# -- exec v2 cases ---------------------------------------------------------------------------------------------

def exec_case(tmp_path: Path, root: Path, case: dict, timeout: float = 180) -> tuple[int, str, str]:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case), "utf-8")
    return run_cli("exec", str(path), "--spec-root", str(root), "--cache-dir", str(tmp_path / "cache"),
                   timeout=timeout)


def case(setup=(), read=()) -> dict:
    return {"schema": "pto-docs.case.v2", "setup": list(setup), "read": list(read),
            "instruction": {"call": "LastFault"}}


def test_a_case_setup_cannot_close_its_subprogram_and_declare_its_own(tree, tmp_path):
    setup = ["let z = H(60);", "end;", H.replace("\n", " "), "func PTODocsCase_pad() begin"]
    code, out, err = exec_case(tmp_path, tree, case(setup))
    assert code == 2 and out == ""
    assert err.startswith(f"{tmp_path / 'case.json'}:1:1: error[EXEC-CASE]: the setup and the read expressions must "
                          "be ASL statements")
    assert "(at /setup)" in err


def test_a_setup_line_the_runtime_cannot_evaluate_is_a_located_case_error(tree, tmp_path):
    code, _, err = exec_case(tmp_path, tree, case(['let x : integer = 1 + "a";']))
    assert code == 2
    assert re.match(re.escape(str(tmp_path / "case.json")) + r":1:1: error\[EXEC-CASE\]: the setup failed: AslCompileError: "
                    r"<case>:1:1: in PTODocsCase_setup: operator \+ cannot combine an integer and a string", err), err


def test_a_setup_loop_that_never_ends_is_an_exec_error(tree, tmp_path):
    code, _, err = exec_case(tmp_path, tree, case(["while TRUE do pass; end;"]))
    assert code == 2 and "error[EXEC-CASE]: the setup failed: AslLimitError: <case>:" in err
    assert "step budget exhausted" in err


def test_a_read_of_a_5000_digit_integer_is_printed(tree, tmp_path):
    code, out, err = exec_case(tmp_path, tree, case(read=["2 ^ 20000"]))
    assert code == 0, err
    value = json.loads(out)["read"]["2 ^ 20000"]
    assert len(value) == 6021 and value.startswith("3980276840337966592354307206191202453704772780492425938713")


def test_a_string_escape_in_a_setup_is_a_syntax_error(tree, tmp_path):
    code, _, err = exec_case(tmp_path, tree, case(['let s : string = "\\x";']))
    assert code == 2 and "error[EXEC-CASE]: the setup is not ASL: <case>:" in err
    assert "error[ASL-SYNTAX]: unknown escape sequence \\x in a string literal (at /setup)" in err


# -- validate: the SEMANTICS-PROSE witness -----------------------------------------------------------------------

def test_validate_reports_a_witness_model_over_the_step_budget(tree, tmp_path):
    unit = tree / UNIT
    text = unit.read_text("utf-8")
    # TADD's record names an index reduction: validate runs its witness on the tree's ASL
    unit.write_text(text.replace('{"constant":"TileBinary_ADD"}',
                                 '{"constant":"TileReduction_ARGMIN"},{"constant":"TileAxis_Row"}', 1), "utf-8")
    line = add_to_unit(tree, "constant PROBE_H : integer = H(60);\n" + H)
    code, out, err = run_cli("validate", str(tree), env={"XDG_CACHE_HOME": str(tmp_path / "xdg")}, timeout=300)
    assert code == 1
    warnings = [ln for ln in (out + err).splitlines() if "warning[SEMANTICS-PROSE]" in ln]
    assert warnings == [f"{UNIT}:1:1: warning[SEMANTICS-PROSE]: TADD: the witness could not run on the ASL model, "
                        "which is over a limit of the interpreter: the model cannot be linked: "
                        f"{UNIT}:{line + 1}:1: in H: step budget exhausted: more than 100,000,000 loop iterations "
                        "and calls (a loop or a recursion that does not end?)"], out + err


# -- build: avs_examples: run ------------------------------------------------------------------------------------

def test_a_build_with_avs_examples_reports_a_model_over_the_step_budget(tree, tmp_path):
    from pto_docs.cli.init import MINIMAL
    line = add_to_unit(tree, "constant PROBE_H : integer = H(60);\n" + H)
    config = tree / "mkdocs.yml"  # as `pto-docs init` writes it, with the worked examples run by the build
    config.write_text(MINIMAL.replace("spec_root: .", "spec_root: .\n      avs_examples: run"), "utf-8")
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    code, out, err = run_cli("build", str(tree), "--config-file", str(config), "--site-dir", str(tmp_path / "site"),
                             "-q", env=env, timeout=600)
    assert code != 0
    assert (f"{UNIT}:{line + 1}:1: error[AVS-ERROR]: the ASL model cannot be linked, so no AVS test point runs: "
            "in H: step budget exhausted") in out + err, out + err
    assert not any((tmp_path / "site").rglob("*"))  # no half-written site
