"""analysis/state.py analyse: the analysed tree is made once, and the pages read it without checking again."""

from __future__ import annotations

from pathlib import Path

from pto_docs.analysis.state import analyse
from pto_docs.checks import examples as examples_module
from pto_docs.render.pages import SiteRenderer

SPEC_ROOT = Path(__file__).resolve().parents[2] / "catalog"


def test_each_instruction_is_checked_by_the_executor_once_and_the_pages_check_nothing(monkeypatch, tmp_path):
    from tests.checks.test_examples import GOOD_EXAMPLE, TADD_PATH, tadd_tree
    root = tadd_tree(tmp_path, "DataType is one of S32, U32, FP32, S16, U16, FP16, or BF16.", GOOD_EXAMPLE)
    checked = []
    original = examples_module.check_unit

    def counted(unit, *rest):
        checked.append(unit.id)
        return original(unit, *rest)
    monkeypatch.setattr(examples_module, "check_unit", counted)
    analysis = analyse(root)
    assert analysis.site is not None and checked
    assert sorted(checked) == sorted(set(checked))  # the findings the pages show reuse the consistency verdicts
    tadd = analysis.catalog.unit_for_path(TADD_PATH)
    assert [f.code for f in analysis.site.findings_of(tadd)] == ["DATATYPE-PROSE"]
    checked.clear()
    renderer = SiteRenderer(analysis.site)
    for _page in renderer.pages("en"):
        pass
    assert checked == []
    assert "DATATYPE-PROSE" in [f.code for f in analysis.site.report_findings]


def test_an_analysis_with_errors_has_no_site_data(tmp_path):
    import shutil
    root = tmp_path / "tree"
    shutil.copytree(SPEC_ROOT, root)
    unit = next(root.glob("asl/tile/**/*.asl"))
    unit.write_text(unit.read_text("utf-8").replace("// PTO-", "// PTO-BROKEN ", 1), "utf-8")
    analysis = analyse(root)
    assert analysis.errors and analysis.site is None and analysis.examples is None
