"""Instruction pages show their own executed example by default (teaching_examples: run), in both languages, with
no raw model name or bookkeeping row outside the folded details: on the catalog tree's site and, when
PTO_SPEC_CHECKOUT is set, on the real tree's (``real_site``: `pto-docs init` + `mkdocs build`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SECTION = re.compile(r'<section class="pto-section pto-teaching".*?</section>', re.DOTALL)
FOLDED = re.compile(r"<details.*?</details>", re.DOTALL)
RAW = re.compile(r"_(PEGPRs|PC|SystemRegisters|Tiles|Memory|BARG|Bundle)\b")


def _sections(site: Path, lang: str) -> dict[str, str]:
    out = {}
    for page in (site / lang / "instructions").rglob("index.html"):
        found = SECTION.search(page.read_text("utf-8"))
        if found:
            out[page.parent.name] = found.group(0)
    return out


def _check_shown_state(sections: dict[str, str]) -> None:
    for name, html in sections.items():
        shown = FOLDED.sub("", html)
        assert not RAW.search(shown), (name, RAW.search(shown).group(0))
        assert 'class="pto-example-caption"' in shown


def test_catalog_pages_show_their_executed_example(built_site):
    for lang, title in (("", "Executed example"), ("zh-CN", "执行示例")):
        sections = _sections(built_site, lang)
        assert {"TSQRT", "TCOLEXPAND"} <= set(sections)
        page = next((built_site / lang / "instructions").rglob("TSQRT/index.html")).read_text("utf-8")
        assert title in page and 'id="executed-example"' in page
        _check_shown_state(sections)
        # the tile's data type is named, and every shown value has its exact bits on hover
        assert "<code>FP32</code>" in sections["TSQRT"]
        assert re.search(r'<td class="pto-cell pto-cell--valid" title="0x[0-9a-f]{8}">1\.5</td>', sections["TSQRT"])


OPERAND = re.compile(r'<tr><td><code>([a-z0-9]+)</code></td><td>[^<]*</td><td><code title="(0x[0-9a-f]+)">')
CHANGED = re.compile(r'<tr><td><code>([^<]+)</code></td><td><code title="([^"]*)">[^<]*</code></td>'
                     r'<td class="pto-changed"><code title="([^"]*)">')


def test_catalog_swi_and_l_bstop_pages_show_their_executed_example(built_site):
    """The two catalog instructions that had none (SWI: the setup's memory did not fit the sample's model; L.BSTOP:
    it retired with no effect outside a bundle) show pto-docs' executed example in both languages: SWI stores the
    data register's four bytes at base + simm * 4 (computed from the page's own operands), L.BSTOP commits."""
    for lang in ("", "zh-CN"):
        sections = _sections(built_site, lang)
        assert {"SWI", "L.BSTOP"} <= set(sections), lang
        swi = sections["SWI"]
        data, base, simm = re.search(r"<code>swi ([a-z0-9]+), \[([a-z0-9]+), (-?\d+)\]</code>", swi).groups()
        values = dict(OPERAND.findall(swi))
        address = int(values[base], 16) + 4 * int(simm)
        changed = {where: (before, after) for where, before, after in CHANGED.findall(swi)}
        stored = int(values[data], 16) & 0xFFFFFFFF
        assert changed[f"memory[0x{address:x}]"][1] == f"0x{stored:08x} ({' '.join(f'{stored >> 8 * i & 0xFF:02x}' for i in range(4))})"
        stop = {where: (before, after) for where, before, after in CHANGED.findall(sections["L.BSTOP"])}
        assert stop["BundlesCommitted"] == ("0", "1") and stop["BundleActive"] == ("TRUE", "FALSE")
        _check_shown_state({"SWI": swi, "L.BSTOP": sections["L.BSTOP"]})


@pytest.mark.realtree
def test_real_tree_pages_show_their_executed_example(real_site, real_load):
    from tests.bridge.test_teaching_realtree import KNOWN_MISSING
    instructions = len(real_load.catalog.instructions)
    for lang in ("", "zh-CN"):
        sections = _sections(real_site, lang)
        assert len(sections) >= instructions - KNOWN_MISSING
        _check_shown_state(sections)
    en = _sections(real_site, "")
    assert ("<code>fadd.fs a0, a1, -&gt;a4</code> with <code>a0 = 1.5, a1 = 2.25</code> gives <code>a4 = 3.75</code>."
            in en["FADD"])
    assert "AslCompileError" not in "".join(en.values())
    # a matrix product a reader checks (FP16 inputs, FP32 result), a comparison's predicate, a prefetch's hint
    cells = re.findall(r'<td class="pto-cell pto-cell--valid" title="[^"]*">([^<]*)</td>', en["TMATMUL"])
    assert cells[-4:] == ["5.0", "-7.25", "-2.5", "12.125"] and "<code>FP16</code>" in en["TMATMUL"]
    assert "data type <code>predicate</code>" in en["TCMP"]
    assert "changed no architectural state: a prefetch is a hint" in en["TPREFETCH"]
    assert "预取只是提示" in _sections(real_site, "zh-CN")["TPREFETCH"]
    # the frame instructions run with a stack, and say the model's stack pointer is R2 (a0), not the names' sp (R1)
    zh = _sections(real_site, "zh-CN")
    for name in ("FENTRY", "FEXIT", "FRET.RA", "FRET.STK"):
        assert "reads the frame stack pointer from R2 (<code>a0</code>" in en[name], name
        assert "从 R2（<code>a0</code>" in zh[name] and "<code>sp</code>" in zh[name], name
    # FENTRY's two stores are two 8-byte values (their bytes on hover), not sixteen byte rows; the frame's size a
    # number; FRET.STK's pc the address it returned to, in hex, and the model's copy of ra (_ReturnAddress) folded
    assert "<code>FENTRY [a1 ~ a2], sp!, 16</code> with <code>a0 = 0x400, sp = 0x400, a1 = 7, a2 = 5</code> gives " \
        "<code>a0 = 0x3f0, memory[0x3f0] = 0x5, memory[0x3f8] = 0x7, FrameDepth = 1, …</code>" in en["FENTRY"]  # (more below)
    for lang, sections in (("en", en), ("zh-CN", zh)):
        fentry = FOLDED.sub("", sections["FENTRY"])
        assert re.findall(r"<td><code>(memory\[0x[0-9a-f]+\])</code>", fentry) == ["memory[0x3f0]", "memory[0x3f8]"]
        assert '<code title="0x0000000000000005 (05 00 00 00 00 00 00 00)">0x5</code>' in fentry, lang
        assert '<td><code>LastFrameSize</code></td><td><code title="0x0000000000000000">0</code></td>' \
            '<td class="pto-changed"><code title="0x0000000000000010">16</code>' in fentry, lang
        ret = FOLDED.sub("", sections["FRET.STK"])
        assert "<code>pc = 0x1000, a0 = 0x410, ra = 0x1000, s0 = 5, …</code>" in ret and "ReturnAddress" not in ret, lang
        # FRET.RA returns through ra as a call leaves it (ra and the model's _ReturnAddress), not to 0
        assert "<code>pc = 0x1000, a0 = 0x410, a1 = 7, a2 = 5, …</code>" in FOLDED.sub("", sections["FRET.RA"]), lang
        # FEXIT does not return: ra is no input of its example (it listed ra = 0x1000)
        fexit = FOLDED.sub("", sections["FEXIT"])
        assert "<tr><td><code>ra</code></td>" not in fexit and "ra = " not in fexit, lang
    # a tile store's memory: its eight S32 elements as eight 4-byte values, named in the caption
    tstore = FOLDED.sub("", en["TSTORE"])
    assert len(re.findall(r"<td><code>memory\[0x[0-9a-f]+\]</code>", tstore)) == 8
    assert "writes <code>memory[0x200] = 1, memory[0x204] = 2," in tstore  # (code, as a scalar caption's state)
    # on every page: an address (pc) in hex, no shown state a small 64-bit value in 16 hex digits
    for lang in ("", "zh-CN"):
        for name, html in _sections(real_site, lang).items():
            shown = FOLDED.sub("", html)
            assert not re.search(r"<td><code>pc</code></td><td><code title=\"[^\"]*\">-?\d+<", shown), (lang, name)
            cells = re.findall(r'class="pto-changed"><code title="[^"]*">(0x[0-9a-f]{16})<', shown)
            assert all(int(c, 16) >= 1 << 56 for c in cells), (lang, name, cells)
    # a jump starts where its target is an address (J -12 from pc 0 went to 0xffffffffffffffe8): no pc, block pc
    # or target shown with its top bit set; memory a store or an atomic changed is its raw value in hex, in values
    # of the access size (LD.ADD's 8 bytes, as its ASL contract declares; SH's 0x3423, not 13347)
    for lang in ("", "zh-CN"):
        sections = _sections(real_site, lang)
        jump = FOLDED.sub("", sections["J"])
        assert '<td><code>pc</code></td><td><code title="0x0000000000010000">0x10000</code></td>' \
            '<td class="pto-changed"><code title="0x000000000000ffe8">0xffe8</code>' in jump, lang
        for name, html in sections.items():
            rows = re.findall(r"<td><code>(pc|BARG\.bpcn|BPC)</code></td>(.*?)</tr>", FOLDED.sub("", html))
            assert not [r for r in rows if re.search(r">0x[89a-f][0-9a-f]{15}<", r[1])], (lang, name, rows)
        # an example with no inputs (J, SETRET, a PC-relative load) says what it gives, not "with —"
        assert not [n for n, html in sections.items() if re.search(r"</code>(?: with —|：输入 —)", html)], lang
        bare = ("<code>j -12</code> gives <code>pc = 0xffe8</code>." if not lang else
                "<code>j -12</code>：得到 <code>pc = 0xffe8</code>。")
        assert bare in jump, lang
        # a register result computed from the pc (ADDTPC's contract says it uses the TPC) is an address
        assert "<code>a4 = 0x4000</code>" in FOLDED.sub("", sections["ADDTPC"]), lang
        add = FOLDED.sub("", sections["LD.ADD"])
        assert re.findall(r"<td><code>(memory\[0x[0-9a-f]+\])</code>", add) == ["memory[0x200]"], lang
        assert '<code title="0x8877665544332218 (18 22 33 44 55 66 77 88)">0x8877665544332218</code>' in add, lang
        assert '<code title="0x3423 (23 34)">0x3423</code>' in FOLDED.sub("", sections["SH"]), lang
