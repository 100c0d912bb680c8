"""The record-line scanner never raises, whatever the text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pto_docs.sources.asl_scan import RECORD_PREFIXES, AslScan, scan_asl

MARKERS = [*RECORD_PREFIXES.values(), "// NDF-BEGIN: ", "// NDF-END: ", "// ndf: ", "// DOC-BEGIN: ", "// DOC-END: ", "//", "{", "}"]
line = st.one_of(st.text(max_size=80), st.builds(lambda m, t: m + t, st.sampled_from(MARKERS), st.text(max_size=60)))


@settings(max_examples=400, deadline=None)
@given(st.lists(line, max_size=30))
def test_scan_never_raises(lines):
    scan = scan_asl("x.asl", "\n".join(lines), tuple(RECORD_PREFIXES))
    for diag in scan.diagnostics:
        assert diag.path == "x.asl" and diag.line >= 1 and diag.code


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=2000), st.lists(line, max_size=30).map("\n".join)))
def test_scan_arbitrary_text(text):
    """Whatever the text: every diagnostic names a line of it, every record is the text after its prefix at the
    line and column it names, and a text with no line starting with // yields nothing at all."""
    lines = text.split("\n")
    scan = scan_asl("y.asl", text, tuple(RECORD_PREFIXES))
    for diag in scan.diagnostics:
        assert diag.path == "y.asl" and 1 <= diag.line <= len(lines), diag
    for record in scan.records:
        assert lines[record.line - 1][record.col - 1:] == record.text
        assert lines[record.line - 1][:record.col - 1] == RECORD_PREFIXES[record.kind]
    if not any(text_line.startswith("//") for text_line in lines):
        assert scan == AslScan()


@given(st.lists(st.text(alphabet="abc \n", max_size=20), min_size=1, max_size=6))
def test_ndf_body_roundtrip(body_lines):
    body_lines = [b.replace("\n", " ") for b in body_lines]
    text = "\n".join(["// NDF-BEGIN: PTO-X-001", "// ndf: kind=contract level=L1 layer=tile status=accepted",
                      *("// " + b for b in body_lines), "// NDF-END: PTO-X-001"])
    scan = scan_asl("z.asl", text, ())
    expected = "\n".join(body_lines).strip()
    if expected:
        assert [c.body for c in scan.ndf] == [expected]
