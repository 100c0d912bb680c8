"""The page view of a teaching example (render/state_view.py): registers named as the syntax names them, typed
values with their exact bits, grouped model rows split, bookkeeping and model-internal rows folded, a caption."""

from __future__ import annotations

import dataclasses

from pto_docs.bridge.teaching import Operand, Scenario
from pto_docs.bridge.teaching_run import Taught
from pto_docs.render.state_view import teaching_view, typed

FADD = Scenario("PTO-SCALAR-FADD", "FADD", "scalar", "fadd.fs a0, a1, ->a4", (), {"asm": "fadd.fs a0, a1, ->a4"},
                operands=(Operand("a0", "source", "_PEGPRs[0][2]", "1.5", "FP32"),
                          Operand("a1", "source", "_PEGPRs[0][3]", "2.25", "FP32"),
                          Operand("a4", "destination", "_PEGPRs[0][6]", "99.0", "FP32")),
                data_type="FP32", result_type="FP32")
RESULT = {"status": "ok", "fault": "Fault_None", "digest": "d" * 64,
          "decoded": {"word": "0x0231034b"},
          "changed": [["_PC", "0x0000000000000000", "0x0000000000000004"],
                      ["_PEGPRs[0][6]", "0x0000000042c60000", "0x0000000040700000"],
                      ["_SystemRegisters.cycle", "0x0000000000000000", "0x0000000000000001"],
                      ["_BARG.taken", "FALSE", "TRUE"]],
          "status_flags": {"NV": False, "DZ": False, "OF": False, "UF": False, "NX": False}}


def test_typed_values_carry_their_exact_bits():
    assert typed("0x0000000040700000", "FP32") .text == "3.75"
    assert typed("0x0000000040700000", "FP32").bits == "0x40700000"
    assert typed("0xbff0000000000000", "FP64").text == "-1.0"
    assert typed("0x000000007fc00000", "FP32").text == "NaN"
    assert typed("0xfffffffffffffff4").text == "-12"  # a signed decimal, not 0xffff...f4
    assert typed("0xfffffffffffffff4").bits == "0xfffffffffffffff4"
    assert typed("0x7f", width=8).text == "0x7f"


def test_an_element_the_model_reads_sign_extended_is_typed_by_its_own_width():
    """A tile's S32 element is read by the model as a 64-bit value (TSUB's 1 - 8 as 0xfffffffffffffff9): the page
    shows the element's own bits, -7 (0xfffffff9), not a 64-bit hex; an S8 element its byte."""
    assert (typed("0xfffffffffffffff9", "S32", 32).text, typed("0xfffffffffffffff9", "S32", 32).bits) == \
        ("-7", "0xfffffff9")
    assert typed("0xffffffff88776655", "S32", 32).text == "0x88776655"  # (wide: hex, still its 32 bits)
    assert typed("0xfffffffffffffffa", "S8", 8).text == "0xfa"


def test_changes_are_named_by_the_syntax_and_bookkeeping_is_folded():
    view = teaching_view(Taught(FADD, RESULT, 0))
    # block state (what BSTART and the B.* descriptors set) is shown, by its name without the model's underscore
    assert [(c.name, c.before.text, c.after.text) for c in view.changes] == [("a4", "99.0", "3.75"),
                                                                             ("BARG.taken", "FALSE", "TRUE")]
    assert view.changes[0].after.bits == "0x40700000"
    assert {name for name, _b, _a in view.folded} == {"_PC", "_SystemRegisters.cycle"}
    assert not any(c.name.startswith("_") for c in view.changes)  # no raw model name is shown unfolded
    assert view.caption_inputs == "a0 = 1.5, a1 = 2.25" and view.caption_outputs.startswith("a4 = 3.75")
    assert [o.name for o in view.operands] == ["a0", "a1"] and view.operands[0].value.bits == "0x3fc00000"


def test_grouped_register_rows_are_split_and_a_branch_shows_its_target():
    result = {**RESULT, "changed": [["_PEGPRs[0][2..3]", "0x0 0x1", "0x5 0x6"], ["_PC", "0x0", "0x40"]]}
    plain = Scenario("U", "J", "scalar", "j 16", (), {"asm": "j 16"})
    view = teaching_view(Taught(plain, result, 0))
    # (the target is an address: hex, as an address operand is; its exact bits on hover)
    assert [(c.name, c.after.text) for c in view.changes] == [("a0", "5"), ("a1", "6"), ("pc", "0x40")]
    assert view.changes[2].after.bits == "0x0000000000000040" and view.caption_outputs.endswith("pc = 0x40")
    assert view.folded == ()


def test_a_fault_example_names_its_fault():
    ebreak = Scenario("U", "EBREAK", "scalar", "ebreak 3", (), {"asm": "ebreak 3"}, in_bundle=True)
    result = {**RESULT, "fault": "Fault_SoftwareBreakpoint", "changed": [["_ACRTrapCause[0]", "0x000000", "0x000003"]]}
    view = teaching_view(Taught(ebreak, result, 0))
    assert view.fault == "Fault_SoftwareBreakpoint" and view.in_bundle
    assert [c.name for c in view.changes] == ["ACRTrapCause[0]"]
    assert teaching_view(Taught(FADD, RESULT, 0)).fault == ""


def test_system_registers_are_named_by_their_hex_index_not_the_decimal_one():
    assert_ = Scenario("U", "ASSERT", "scalar", "assert zero", (), {"asm": "assert zero"}, in_bundle=True)
    result = {**RESULT, "fault": "Fault_Assert",
              "changed": [["_ExtendedSystemRegisters[3840]", "0x0", "0x10"],
                          ["_ExtendedSystemRegisters[3904..3905]", "0x0 0x0", "0x170 0x100"],
                          ["_ExtendedSystemRegisters[8199]", "0x0", "0x1"]]}
    names = [c.name for c in teaching_view(Taught(assert_, result, 0)).changes]
    assert names == ["ssr[0xf00]", "ssr[0xf40..0xf41]", "ssr[0x2007]"]  # 8199 = ring 2's 0x007


def test_flags_keep_their_order_whatever_the_results_key_order():
    fresh = teaching_view(Taught(FADD, RESULT, 0)).flags
    cached = {**RESULT, "status_flags": dict(sorted(RESULT["status_flags"].items()))}  # as the sealed JSON has them
    assert teaching_view(Taught(FADD, cached, 0)).flags == fresh
    assert [name for name, _raised in fresh] == ["NV", "DZ", "OF", "UF", "NX"]


def test_a_profile_fallback_is_said_in_both_languages():
    """An ieee hook the model ran as pto-v0 (the v2 result's profile_fallbacks) is named on the page, once."""
    from types import SimpleNamespace

    from pto_docs.i18n import labels
    from pto_docs.render.env import environment
    result = {**RESULT, "profile_fallbacks": ["ScalarFPFusedProfile", "ScalarFPBinaryProfile", "ScalarFPFusedProfile"]}
    view = teaching_view(Taught(FADD, result, 0))
    assert view.fallbacks == ("ScalarFPBinaryProfile", "ScalarFPFusedProfile")
    assert teaching_view(Taught(FADD, RESULT, 0)).fallbacks == ()
    template = environment().get_template("partials/teaching.html.j2")
    for locale, marker in (("en", "pto-v0 placeholder"), ("zh-CN", "pto-v0 占位实现")):
        html = template.render(m=SimpleNamespace(teaching=view), L=labels(locale))
        line = next(p for p in html.splitlines() if "pto-profile-fallback" in p)
        assert marker in line and "ScalarFPBinaryProfile, ScalarFPFusedProfile" in line
        plain = template.render(m=SimpleNamespace(teaching=teaching_view(Taught(FADD, RESULT, 0))), L=labels(locale))
        assert "pto-profile-fallback" not in plain


def test_the_kept_result_carries_the_fallbacks_of_the_run():
    from pto_docs.bridge import teaching_run
    ran = {k: None for k in ("status", "message", "entry", "decoded", "result", "exception", "before", "changed",
                             "truncated", "read", "fault", "status_flags", "digest")}

    class Runner:
        def __init__(self, fallbacks):
            self.fallbacks = fallbacks

        def run(self, case):
            return {**ran, "profile_fallbacks": self.fallbacks}
    assert teaching_run._run(Runner(["TileProfileMatrixBias"]), {})["profile_fallbacks"] == ["TileProfileMatrixBias"]
    assert "profile_fallbacks" not in teaching_run._run(Runner([]), {})  # (an example without one keeps its result)


def _store(access: int) -> Scenario:
    return Scenario("U", "ST", "scalar", "st a0, [a1]", (), {"asm": "st a0, [a1]"},
                    operands=(Operand("a0", "source", "_PEGPRs[0][2]", "7"),
                              Operand("a1", "memory", "_PEGPRs[0][3]", "0x200")), access=access)


def test_changed_memory_is_shown_as_values_of_the_access_size_with_their_bytes_on_hover():
    """A store's bytes as little-endian values of its access size at aligned addresses; a byte of the value the run
    did not change comes from the state before it (the setup's bytes), else it is the model's reset value 0."""
    setup = [["_Memory[512..515]", "0x11 0x22 0x33 0x44"], ["_PEGPRs[0][2..3]", "0x7 0x200"]]
    result = {**RESULT, "before": setup,
              "changed": [["_Memory[512..513]", "0x11 0x22", "0x07 0x00"], ["_Memory[520]", "0x00", "0x05"],
                          ["_SystemRegisters.cycle", "0x0", "0x1"]]}
    view = teaching_view(Taught(_store(4), result, 0))
    rows = [(c.name, c.before.text, c.after.text) for c in view.changes]
    assert rows == [("memory[0x200]", hex(0x44332211), hex(0x44330007)), ("memory[0x208]", "0x0", "0x5")]
    assert view.changes[0].after.bits == "0x44330007 (07 00 33 44)"
    assert view.changes[1].before.bits == "0x00000000 (00 00 00 00)"
    assert view.caption_outputs == f"memory[0x200] = {hex(0x44330007)}, memory[0x208] = 0x5"
    # two 2-byte values where the access is 2 bytes; runs of bytes where the size is unknown; byte by byte where
    # the access is one byte
    halves = teaching_view(Taught(_store(2), result, 0))
    assert [c.name for c in halves.changes] == ["memory[0x200]", "memory[0x208]"]
    assert halves.changes[0].after.text == "0x7" and halves.changes[0].after.bits == "0x0007 (07 00)"
    unknown = teaching_view(Taught(_store(0), result, 0))
    assert [(c.name, c.before.text, c.after.text) for c in unknown.changes] == [
        ("memory[0x200..0x201]", "11 22", "07 00"), ("memory[0x208]", "0x00", "0x05")]
    single = teaching_view(Taught(_store(1), result, 0))
    assert [(c.name, c.after.text) for c in single.changes] == [("memory[0x200]", "0x07"), ("memory[0x201]", "0x00"),
                                                                ("memory[0x208]", "0x05")]


def test_changed_bytes_of_no_typed_access_are_rows_of_a_run_split_where_a_byte_did_not_change():
    """A copy of unknown access size (DMA's 64 bytes) shows its contiguous changed bytes as rows of up to RUN_BYTES,
    each within one aligned block (an unaligned run starts with a short row), before and after as the bytes in
    memory order, each byte's address and value on hover; a byte the run did not change splits the run."""
    from pto_docs.render import state_values
    RUN_BYTES = 8  # (state_values.RUN_BYTES, checked last)
    start, count, gap = 0x605, 3 * RUN_BYTES + 2, 0x612  # 0x605..0x61e changed but for 0x612
    olds = {start + i: (i * 7) & 0xFF for i in range(count)}  # (the setup's bytes: the before of every byte)
    news = {a: (0x11 * (a - start + 1)) & 0xFF or 1 for a in olds}
    changed = [a for a in sorted(olds) if a != gap]
    result = {**RESULT, "before": [[f"_Memory[{start}..{start + count - 1}]",
                                    " ".join(f"0x{olds[a]:02x}" for a in sorted(olds))]],
              "changed": [[f"_Memory[{a}]", None, f"0x{news[a]:02x}"] for a in changed]}
    view = teaching_view(Taught(_store(0), result, 0))
    want_rows, row = [], []
    for a in changed:  # (made here from the addresses: a row ends at a gap or before a multiple of RUN_BYTES)
        if row and (a != row[-1] + 1 or a % RUN_BYTES == 0):
            want_rows.append(row)
            row = []
        row.append(a)
    want_rows.append(row)
    assert [len(r) for r in want_rows] == [3, 8, 2, 5, 7]  # 0x605.., 0x608.., 0x610.., (0x612 not) 0x613.., 0x618..
    got = [(c.name, c.before.text, c.after.text, c.after.bits) for c in view.changes]
    want = []
    for r in want_rows:
        name = f"memory[0x{r[0]:x}..0x{r[-1]:x}]" if len(r) > 1 else f"memory[0x{r[0]:x}]"
        before = " ".join(f"{olds[a]:02x}" for a in r) if len(r) > 1 else f"0x{olds[r[0]]:02x}"
        after = " ".join(f"{news[a]:02x}" for a in r) if len(r) > 1 else f"0x{news[r[0]]:02x}"
        bits = " ".join(f"0x{a:x}=0x{news[a]:02x}" for a in r) if len(r) > 1 else f"0x{news[r[0]]:02x}"
        want.append((name, before, after, bits))
    assert got == want
    assert not any(f"0x{gap:x}" in c.name for c in view.changes)  # the unchanged byte is in no row
    assert view.caption_outputs.startswith(f"{want[0][0]} = {want[0][2]}")
    assert state_values.RUN_BYTES == RUN_BYTES
    # the caption names the first four rows and says the table has more (five rows here)
    assert view.caption_outputs == ", ".join(f"{w[0]} = {w[2]}" for w in want[:4]) + ", …"
    four = {**result, "changed": [c for c in result["changed"] if int(c[0][8:-1]) < 0x618]}  # (the first four rows)
    fewer = teaching_view(Taught(_store(0), four, 0))
    assert len(fewer.changes) == 4 and not fewer.caption_outputs.endswith("…")


def test_memory_a_store_changed_is_its_raw_value_in_hex_unless_the_data_type_types_it():
    """Memory holds bits, not a signed number: a 2-byte store over 0x3423 shows 0x3423 (not 13347), a value with its
    top bit set 0x8899 (not -30567); an example whose data type has the access size types it (S16: -30567)."""
    result = {**RESULT, "before": [["_Memory[512..513]", "0x23 0x34"]],
              "changed": [["_Memory[512..513]", "0x23 0x34", "0x99 0x88"]]}
    view = teaching_view(Taught(_store(2), result, 0))
    assert [(c.name, c.before.text, c.after.text) for c in view.changes] == [("memory[0x200]", "0x3423", "0x8899")]
    assert view.changes[0].before.bits == "0x3423 (23 34)"
    typed16 = teaching_view(Taught(dataclasses.replace(_store(2), data_type="S16"), result, 0))
    assert [(c.before.text, c.after.text) for c in typed16.changes] == [("13347", "-30567")]
    wider = teaching_view(Taught(dataclasses.replace(_store(2), data_type="S32"), result, 0))  # (another size)
    assert [c.after.text for c in wider.changes] == ["0x8899"]


def test_model_state_is_typed_as_a_register_is_by_its_declared_width_and_name():
    """A 64-bit model variable (an ASL Word, as the registers are) is a signed decimal, hex where its name says it
    holds an address or gives no word to type by; narrower fields, integers, booleans and labels as printed."""
    block = Scenario("U", "F", "block", "f", (), {"asm": "f"})
    result = {**RESULT, "changed": [["_LastFrameSize", "0x0000000000000000", "0x0000000000000010"],
                                    ["_LastMemoryCommandAddress", "0x0000000000000000", "0x0000000000000200"],
                                    ["_BundleSequentialPC", "0x0000000000000000", "0x0000000000000004"],
                                    ["_CommitArgument", "0x0000000000000000", "0xfffffffffffffff4"],
                                    ["_ExtendedSystemRegisters[3904..3905]", "0x0000000000000000 0x0000000000000000",
                                     "0x0000000000000170 0x0000000000000100"],
                                    ["_LastFrameBegin", "0", "3"], ["_BundleDataAttributes.data_layout", "0x00", "0x15"],
                                    ["_BundleActive", "FALSE", "TRUE"],
                                    ["_SystemRegisters.core_state", "0x0000000000000002", "0x0000000000000000"],
                                    ["_FaultAddress", "0x0000000000000000", "0x0000000000000180"],
                                    ["_ACRTrapArgument0[0]", "0x0000000000000000", "0x0000000000000180"]]}
    view = teaching_view(Taught(block, result, 0))
    assert [(c.name, c.before.text, c.after.text) for c in view.changes] == [
        ("LastFrameSize", "0", "16"), ("LastMemoryCommandAddress", "0x0", "0x200"), ("BundleSequentialPC", "0x0", "0x4"),
        ("CommitArgument", "0", "-12"), ("ssr[0xf40..0xf41]", "0x0 0x0", "0x170 0x100"), ("LastFrameBegin", "0", "3"),
        ("BundleDataAttributes.data_layout", "0x00", "0x15"), ("BundleActive", "FALSE", "TRUE"),
        # (a state of bits: hex; a value equal to an address the example shows is that address)
        ("SystemRegisters.core_state", "0x2", "0x0"), ("FaultAddress", "0x0", "0x180"),
        ("ACRTrapArgument0[0]", "0x0", "0x180")]
    assert view.changes[0].after.bits == "0x0000000000000010"
    assert view.changes[4].after.bits == "0x0000000000000170 0x0000000000000100"


def test_a_variable_that_mirrors_a_register_is_folded_and_shows_the_register_as_an_address():
    """The model's copy of a register the instruction wrote (0.58.3's _ReturnAddress of ra) is shown once, as the
    register, in hex when the copy's name says it is an address; the copy is folded with the bookkeeping."""
    setret = Scenario("U", "SETRET", "scalar", "setret 12, ->ra", (), {"asm": "setret 12, ->ra"})
    result = {**RESULT, "changed": [["_PEGPRs[0][10]", "0x0000000000000000", "0x0000000000000018"],
                                    ["_ReturnAddress", "0x0000000000000000", "0x0000000000000018"]]}
    view = teaching_view(Taught(setret, result, 0))
    assert [(c.name, c.before.text, c.after.text) for c in view.changes] == [("ra", "0x0", "0x18")]
    assert [f[0] for f in view.folded] == ["_ReturnAddress"]
    # a variable of another value is no mirror; a mirror whose name says nothing of an address leaves ra decimal
    other = {**result, "changed": [result["changed"][0], ["_ReturnAddress", "0x0000000000000000",
                                                          "0x0000000000000020"]]}
    assert [c.name for c in teaching_view(Taught(setret, other, 0)).changes] == ["ra", "ReturnAddress"]
    plain = {**result, "changed": [result["changed"][0], ["_LastQueueLeft", "0x0000000000000000",
                                                          "0x0000000000000018"]]}
    assert [(c.name, c.after.text) for c in teaching_view(Taught(setret, plain, 0)).changes] == [("ra", "24")]
    # nor is the program counter's step to the same value (bookkeeping): ra stays a decimal there
    step = {**result, "changed": [["_PC", "0x0000000000000014", "0x0000000000000018"], result["changed"][0]]}
    assert [(c.name, c.after.text) for c in teaching_view(Taught(setret, step, 0)).changes] == [("ra", "24")]


def test_a_tile_store_shows_its_memory_as_elements_of_its_data_type_and_names_them_in_the_caption():
    """A tile store (no destination tile) writes memory: values of its element size, an FP element as its number,
    and the caption says what it wrote."""
    store = Scenario("U", "TSTORE", "tile", "tstore", (), {"call": "TSTORE", "arguments": []}, data_type="FP32",
                     operands=(Operand("address", "memory", "", "0x200"),), access=4,
                     tiles=((1, "source", "FP32", 1, 2, ((1.5, -2.0),)),))
    result = {**RESULT, "changed": [["_Memory[512..519]", "0x00 0x00 0x00 0x00 0x00 0x00 0x00 0x00",
                                     "0x00 0x00 0xc0 0x3f 0x00 0x00 0x00 0xc0"]]}
    view = teaching_view(Taught(store, result, 0))
    assert [(c.name, c.after.text, c.after.bits) for c in view.changes] == [
        ("memory[0x200]", "1.5", "0x3fc00000 (00 00 c0 3f)"), ("memory[0x204]", "-2.0", "0xc0000000 (00 00 00 c0)")]
    assert view.caption_outputs == "memory[0x200] = 1.5, memory[0x204] = -2.0"


def test_an_example_with_no_inputs_has_a_caption_without_them_in_both_languages():
    """J and SETRET read no operand the page lists: their caption says what they give, not "with —"."""
    from types import SimpleNamespace

    from pto_docs.i18n import labels
    from pto_docs.render.env import environment
    jump = dataclasses.replace(FADD, asm="j -12", operands=(), data_type="", result_type="")
    result = {**RESULT, "changed": [["_PC", "0x0000000000010000", "0x000000000000ffe8"]]}
    view = teaching_view(Taught(jump, result, 0))
    assert view.caption_inputs == "" and view.caption_outputs == "pc = 0xffe8"
    template = environment().get_template("partials/teaching.html.j2")
    for locale, caption in (("en", "<code>j -12</code> gives <code>pc = 0xffe8</code>."),
                            ("zh-CN", "<code>j -12</code>：得到 <code>pc = 0xffe8</code>。")):
        html = template.render(m=SimpleNamespace(teaching=view), L=labels(locale))
        assert f'<p class="pto-example-caption">{caption}</p>' in html, locale
    tile = SimpleNamespace(**{**view.__dict__, "surface": "tile", "caption_outputs": "memory[0x200] = 1.5"})
    html = template.render(m=SimpleNamespace(teaching=tile), L=labels("en"))
    assert '<p class="pto-example-caption"><code>j -12</code> writes <code>memory[0x200] = 1.5</code>.</p>' in html
