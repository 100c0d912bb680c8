"""Issue 33: generated messages in the page's language. The model checks' reasons (the assembler's and the reference
executor's bundle parser's; a finding's detail) and the AVS messages of the report are templates of
i18n/report.yaml: the English text is what the code printed before (its f-strings are the templates' shapes), the
zh-CN page reads the parameters back and says the rest in Chinese."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from pto_docs.i18n.messages import CHECK_PREFIX, PREFIX, labels, localise
from pto_docs.trace import build_report, report_markdown

REPO = Path(__file__).resolve().parents[2]
# where the checks' reasons are made: (file, the calls whose first argument is a reason, functions returning them)
SOURCES = {
    "pto_docs/isa/assembler/operands.py": ("AsmError",),
    "pto_docs/isa/assembler/assemble.py": ("AsmError",),
    "pto_docs/executor/bundle.py": ("problems.append", "pb.problems.append"),
}
RETURNS = {"pto_docs/isa/assembler/assemble.py": ("check_line", "_wrong_shape"),
           "pto_docs/executor/bundle.py": ("check_bundle",)}


def _variants(node: ast.AST) -> list[str]:
    """The shapes a reason's expression can print: literal text, ``{}`` for each value (adjacent values as one)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        out = [""]
        for part in node.values:
            if isinstance(part, ast.Constant):
                pieces = [part.value]
            elif isinstance(part.value, ast.IfExp) and all(isinstance(b, ast.Constant) for b in (part.value.body, part.value.orelse)):
                pieces = [part.value.body.value, part.value.orelse.value]  # "operand{'s' if n != 1 else ''}"
            else:
                pieces = ["\0"]
            out = [o + p for o in out for p in pieces]
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [a + b for a in _variants(node.left) for b in _variants(node.right)]
    if isinstance(node, ast.IfExp):
        return _variants(node.body) + _variants(node.orelse)
    return ["\0"]


def _shape(text: str) -> str:
    return re.sub("\0+", "{}", text)


def made_reasons() -> set[str]:
    """The shape of every reason the assembler and the bundle parser print (a value passed on, such as
    ``min(errors)[-1]`` or an ``error`` variable, is another reason: left out)."""
    out = set()
    for path, calls in SOURCES.items():
        tree = ast.parse((REPO / path).read_text("utf-8"))
        for node in ast.walk(tree):
            found = []
            if isinstance(node, ast.Call) and ast.unparse(node.func) in calls and node.args:
                found = [node.args[0]]
            elif isinstance(node, ast.FunctionDef) and node.name in RETURNS.get(path, ()):
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Return) and ret.value is not None:
                        value = ret.value.elts[-1] if isinstance(ret.value, ast.Tuple) else ret.value
                        if isinstance(value, ast.BinOp) and isinstance(value.right, ast.List):  # problems + [f"..."]
                            value = value.right.elts[0]
                        found.append(value)
            for value in found:
                if isinstance(value, (ast.Constant, ast.JoinedStr, ast.BinOp)):
                    out.update(_shape(v) for v in _variants(value) if v.strip("\0"))
    return out


def template_shapes(prefix: str) -> dict[str, str]:
    out = {}
    for key, template in labels("en").items():
        if key.startswith(prefix):
            parts = [lit + ("\0" if field is not None else "")
                     for lit, field, _spec, _conv in string.Formatter().parse(template)]
            out[_shape("".join(parts))] = key
    return out


def test_every_reason_the_checks_print_has_its_template():
    made = made_reasons()
    assert len(made) >= 60, len(made)  # (the scan finds the assembler's and the parser's reasons)
    shapes = template_shapes(CHECK_PREFIX)
    # the reasons a check makes but a finding never shows: the assembler's "descriptive" and "unchecked" verdicts
    assert not {s for s in made if s not in shapes and not _not_a_finding(s)}, \
        sorted(s for s in made if s not in shapes and not _not_a_finding(s))


def _not_a_finding(shape: str) -> bool:
    return shape in {"operands written as placeholders", "a comment", "the instruction's own assembly template", "an immediate written by a name the records give no value for",
                     "no operand is a concrete value (number, register or named value)",
                     "this tree has no encoding form (no assembly syntax) for the instruction",
                     "the bundle notation LBn=value (the loop bound it binds), as the block lines write it",
                     "written as a shorthand of some attributes, not the {...} record of all its fields ({}): the "
                     "others' values are not given", "", "{}"}


def test_every_check_template_is_read_back_in_chinese_with_its_values_as_code():
    en, zh = labels("en"), labels("zh-CN")
    checked = 0
    for key, template in en.items():
        if not key.startswith(CHECK_PREFIX):
            continue
        fields = [f for _lit, f, _s, _c in string.Formatter().parse(template) if f]
        values = {f: f"<v{i}>" for i, f in enumerate(fields)}
        english = template.format(**values)
        out = localise(english, "zh-CN", lambda v: f"[{v}]", CHECK_PREFIX)
        assert out == zh[key].format(**{f: f"[{v}]" for f, v in values.items()}), (key, out)
        assert re.search(r"[\u4e00-\u9fff]", out), key
        assert localise(english, "zh-CN", str) is None  # never taken for one of the report's messages
        checked += 1
    assert checked >= 70


def test_real_reasons_read_back():
    cases = {
        "B.DIM: expects 3 operands (B.DIM RegSrc, uimm, ->LB0), got 2": "[B.DIM]：需要 [3] 个操作数（[B.DIM RegSrc, uimm, ->LB0]），实际为 [2] 个",
        "B.DATR: 'None' is not one of EQ, NE, LT, GT, LE, GE (cmode)": "[B.DATR]：['None'] 不是 [EQ, NE, LT, GT, LE, GE] 之一（[cmode]）",
        "unknown mnemonic 'BSTART.TLSU' (this instruction is written BSTART.TMOV)": "未知助记符 ['BSTART.TLSU']（本指令写作 [BSTART.TMOV]）",
        "B.IOT #2 must carry 1 source(s), found 0": "第 [2] 个 B.IOT 必须带 [1] 个源操作数，实际为 [0] 个",
        "TADD takes 1 B.IOT binding(s), found 2": "[TADD] 需要 [1] 个 B.IOT 绑定，实际为 [2] 个",
    }
    for english, chinese in cases.items():
        assert localise(english, "zh-CN", lambda v: f"[{v}]", CHECK_PREFIX) == chinese


def test_bundle_parser_reasons_are_templates():
    from pto_docs.executor.bundle import check_bundle
    reasons = check_bundle("BSTART.TADD FP32; B.DIM LB0=0, LB0=2, LBX=1; B.IOT T#1, T#2, mask=10101; B.NOPE", False)
    assert len(reasons) >= 3, reasons
    assert all(localise(r, "zh-CN", str, CHECK_PREFIX) for r in reasons), \
        [r for r in reasons if not localise(r, "zh-CN", str, CHECK_PREFIX)]


# -- the report's AVS messages -----------------------------------------------------------------------------------
def test_avs_messages_of_the_report_in_chinese_and_unchanged_in_english(catalog_load):
    from tests.trace.test_avs_results import avs_doc
    catalog = catalog_load.catalog
    fail, stale, missing = sorted(catalog.tests)[:3]
    report = build_report(catalog, catalog_load.tree, (), avs=avs_doc(catalog, fail=fail, stale=stale, missing=missing))
    messages = {f["code"]: f["message"] for f in report["findings"] if f["code"] in ("avs-missing", "avs-stale")}
    assert messages["avs-missing"] == "no result for this test point"  # the English text as before
    assert messages["avs-stale"] == (f"the result ran {catalog.tests[stale].path} at sha256 {'0' * 64}; the file is "
                                     f"now {catalog.tests[stale].file.sha256}")
    zh = report_markdown(report, "zh-CN")
    assert "该测试点没有结果" in zh and "该结果运行的是 sha256 为" in zh
    assert "no result for this test point" not in zh and "the result ran" not in zh
    assert "assertion failed: x == 1" in zh  # the point's own failure text stays English (lang=en)


@pytest.mark.parametrize("key", ["avs_example_missing", "avs_example_failing", "avs_example_unpinned",
                                 "avs_example_changed"])
def test_avs_example_messages_read_back(key):
    template = labels("en")[PREFIX + key]
    fields = [f for _lit, f, _s, _c in string.Formatter().parse(template) if f]
    out = localise(template.format(**{f: "X1" for f in fields}), "zh-CN", str)
    assert out == labels("zh-CN")[PREFIX + key].format(**{f: "X1" for f in fields})


def test_reading_back_a_hostile_message_is_linear():
    """A reason carries spec text (an operand as written): one of 400 KB full of the templates' own words is read
    in well under a second (a regular expression of lazy groups took 258 s on 9 KB)."""
    import time
    for message in (": x is not one of " * 20000, "B.IOT: '" + ": a is not one of b (" * 20000 + "'",
                    "B: " + "a: b sets c twice x" * 20000):
        start = time.perf_counter()
        localise(message, "zh-CN", str, CHECK_PREFIX)
        localise(message, "zh-CN", str)
        assert time.perf_counter() - start < 2.0, message[:40]
