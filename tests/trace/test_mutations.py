"""Mutation tests: each change to a spec tree is caught, named and (where it should) fails the gate.

Every test runs on the small tree the tests write and, once it is complete, on a copy of the embedded catalog.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from pto_docs.analysis.load import load_catalog

from .conftest import codes, make_traced_tree


@pytest.fixture(params=["factory", "catalog"])
def tree(request, tmp_path) -> Path:
    if request.param == "factory":
        return make_traced_tree(tmp_path / "spec")
    return request.getfixturevalue("catalog_copy")


def _cat(root: Path):
    return load_catalog(root).catalog


def flip_byte(path: Path, offset: int | None = None) -> None:
    data = bytearray(path.read_bytes())
    index = len(data) // 2 if offset is None else offset
    while not chr(data[index]).isalpha():  # keep the file valid UTF-8 so the flip is the only change
        index += 1
    data[index] ^= 0x20
    path.write_bytes(bytes(data))


def test_clean_tree_passes_stamped_and_checked(tree, run_trace):
    code, out, err = run_trace(tree, "--stamp")
    assert code == 0, err
    code, out, err = run_trace(tree, "--check")
    assert code == 0, err
    assert not [c for c in codes(err) if c[0] == "error"]


def test_byte_flip_in_a_unit_makes_it_stale_and_fails(tree, run_trace):
    run_trace(tree, "--stamp")
    cat = _cat(tree)
    unit = next(u for u in sorted(cat.units.values(), key=lambda u: u.path) if u.is_instruction and cat.tests_by_unit.get(u.id))
    flip_byte(tree / unit.path)
    code, _out, err = run_trace(tree, "--check")
    assert code == 1
    found = codes(err)
    assert ("error", "unit-stale", unit.id) in found
    assert any(line.startswith(unit.path + ": error[unit-stale]") for line in err.splitlines())
    # its tests are now suspect through the changed unit (propagation), and so is its derived requirement
    for tid in cat.tests_by_unit[unit.id]:
        assert ("error", "link-suspect", f"test-unit {tid} -> {unit.id}") in found
    assert ("error", "link-suspect", f"requirement-unit {unit.requirement_id} -> {unit.id}") in found


def test_deleted_test_leaves_its_requirement_uncovered(tree, run_trace):
    run_trace(tree, "--stamp")
    cat = _cat(tree)
    req = min((r for r in cat.requirements.values() if r.executable and cat.tests_by_requirement.get(r.id)),
              key=lambda r: (len(cat.tests_by_requirement[r.id]), r.id))
    deleted = cat.tests_by_requirement[req.id]
    for tid in deleted:
        (tree / cat.tests[tid].path).unlink()
    code, _out, err = run_trace(tree, "--check")
    assert code == 1
    found = codes(err)
    assert ("error", "requirement-uncovered", req.id) in found
    for tid in deleted:
        assert ("error", "coverage-suspect", req.id) in found
        assert ("error", "link-removed", f"test-requirement {tid} -> {req.id}") in found
        assert ("error", "test-recorded-only", tid) in found  # the evidence still records it


def test_changed_ndf_body_makes_digest_stale_and_links_suspect(tree, run_trace):
    run_trace(tree, "--stamp")
    cat = _cat(tree)
    candidates = [c for c in sorted(cat.ndf_clauses, key=lambda c: c.id)
                  if cat.tests_by_requirement.get(c.id) and cat.adrs_by_ndf.get(c.id)]
    if not candidates:
        pytest.skip("no NDF clause here has both tests and ADRs")
    clause = candidates[0]
    path = tree / clause.path
    lines = path.read_text("utf-8").split("\n")
    body_line = clause.line + 1  # 0-based index of the first body line (after NDF-BEGIN and the ndf: line)
    assert lines[body_line].startswith("// ")
    lines[body_line] = lines[body_line] + " (amended)"
    path.write_text("\n".join(lines), "utf-8")
    code, _out, err = run_trace(tree, "--check")
    assert code == 1
    found = codes(err)
    assert ("error", "requirement-stale", clause.id) in found  # its expanded_ndf digest no longer matches
    for tid in cat.tests_by_requirement[clause.id]:
        assert ("error", "link-suspect", f"test-requirement {tid} -> {clause.id}") in found
    for aid in cat.adrs_by_ndf[clause.id]:
        assert ("error", "link-suspect", f"adr-requirement {aid} -> {clause.id}") in found


def test_changed_english_summary_makes_translation_stale(tree, run_trace):
    run_trace(tree, "--stamp")
    cat = _cat(tree)
    tr = next((t for _k, t in sorted(cat.translations.items()) if "/summary" in t.strings and t.subject in cat.units), None)
    if tr is None:
        pytest.skip("no translation of a unit summary here")
    unit = cat.units[tr.subject]
    path = tree / unit.path
    lines = path.read_text("utf-8").split("\n")
    prefix = "// PTO-INSTRUCTION: "
    index = unit.line - 1
    record = json.loads(lines[index][len(prefix):])
    record["summary"] = record["summary"].rstrip(".") + ", now differently."
    lines[index] = prefix + json.dumps(record, separators=(",", ":"))
    path.write_text("\n".join(lines), "utf-8")
    code, _out, err = run_trace(tree, "--check")
    found = codes(err)
    tid = f"{tr.locale}/{tr.subject}"
    assert ("warning", "translation-stale", tid) in found
    assert ("error", "link-suspect", f"translation-english {tid} -> {tr.subject}") in found
    assert code == 1
    # stale translations alone are warnings under the default policy
    code, _out, err = run_trace(tree, "--policy", "unit-stale=ignore", "--policy", "link-*=ignore",
                                "--policy", "requirement-stale=ignore", "--policy", "aggregate-stale=ignore",
                                "--policy", "coverage-suspect=ignore")
    assert code == 0, err
    assert ("warning", "translation-stale", tid) in codes(err)


def _fake_examples(cat, digest: str):
    from pto_docs.bridge.examples import WorkedExample
    unit = next(u for u in sorted(cat.units.values(), key=lambda u: u.id) if u.is_instruction)
    return (WorkedExample(f"{unit.mnemonic}/pinned", unit.mnemonic, unit.id, "catalog", unit.path, {"case": 1}, {},
                          {"digest": digest}, digest, None),)


def test_executor_change_of_a_result_is_a_digest_mismatch(tree, run_trace, monkeypatch):
    import pto_docs.bridge.examples as examples_mod
    real = examples_mod.worked_examples
    cat = _cat(tree)
    current = real(cat)
    if not current:
        monkeypatch.setattr(examples_mod, "worked_examples", lambda c: _fake_examples(c, "a" * 64))
    code, _out, err = run_trace(tree, "--stamp")
    assert code == 0, err
    before = examples_mod.worked_examples(cat)
    changed_key = before[0].key

    def changed(_catalog):
        out = list(before)
        out[0] = dataclasses.replace(out[0], digest="b" * 64)
        return tuple(out)

    monkeypatch.setattr(examples_mod, "worked_examples", changed)
    code, _out, err = run_trace(tree, "--check")
    assert code == 1
    assert ("error", "example-digest-mismatch", changed_key) in codes(err)


def test_executor_change_through_run_case(catalog_copy, run_trace, monkeypatch):
    """On the catalog: patch the executor itself, so the digest really is recomputed from a different result."""
    import pto_docs.executor as executor
    cat = _cat(catalog_copy)
    from pto_docs.bridge.examples import worked_examples
    examples = worked_examples(cat)
    if not examples:
        pytest.skip("the catalog has no worked examples")
    code, _out, err = run_trace(catalog_copy, "--stamp")
    assert code == 0, err
    target = examples[0].instruction
    real_run = executor.run_case

    def patched(case):
        result = real_run(case)
        if case.get("execute", {}).get("instruction") == target or target in str(case.get("bundle_text", "")):
            import hashlib
            result = dict(result, message=result.get("message", "") + " (changed)")
            body = {k: v for k, v in result.items() if k != "digest"}
            result["digest"] = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
        return result

    monkeypatch.setattr(executor, "run_case", patched)
    code, _out, err = run_trace(catalog_copy, "--check")
    assert code == 1
    assert any(c[1] == "example-digest-mismatch" and c[2].startswith(target + "/") for c in codes(err))
