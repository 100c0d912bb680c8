"""Every instruction of a real PTO-ISA/pto-spec checkout (PTO_SPEC_CHECKOUT) gets pto-docs' own executed example
with a visible effect, and the scalar FP examples equal IEEE 754 as NumPy computes it. One run of the whole tree is
shared by the module (its results then come from the run's own user cache)."""

from __future__ import annotations

import struct

import numpy as np
import pytest

pytestmark = pytest.mark.realtree

# the examples pto-docs cannot make on 0.58.3 yet, and why (the report of the change lists them): none since the frame
# instructions (FENTRY, FRET.STK) got a stack of their own (teaching_stack: the model's stack pointer is R2, a0)
NON_TILE_MISSING: dict[str, str] = {}
KNOWN_MISSING = len(NON_TILE_MISSING)  # every tile instruction has an example
# the examples that show the instruction's own fault, and the condition the page names (a code of
# teaching.conditions.*; EBREAK's breakpoint has none: it always raises it)
FAULT_EXAMPLES = {"EBREAK": ("Fault_SoftwareBreakpoint", ""), "C.EBREAK": ("Fault_SoftwareBreakpoint", ""),
                  "ASSERT": ("Fault_Assert", "zero_source"), "ACRC": ("Fault_ServiceRequest", "ring_2"),
                  "ERCOV": ("Fault_IllegalInstruction", "reserved"), "ESAVE": ("Fault_IllegalInstruction", "reserved"),
                  "XB": ("Fault_IllegalInstruction", "reserved")}
HINTS = {"PRF", "PRFI.U", "HL.PRF", "HL.PRFI.U"}  # complete with no architectural effect, and say so


@pytest.fixture(scope="module")
def real_taught(real_load, asl_model_cache):
    from pto_docs.api import teach
    return teach(real_load.catalog, str(asl_model_cache))


def test_nearly_every_instruction_has_an_executed_example_with_a_visible_effect(real_load, real_taught):
    from pto_docs.bridge.teaching_run import is_hint, own_fault, reserved, visible
    from pto_docs.render.state_view import teaching_view
    taught, missing = real_taught
    instructions = real_load.catalog.instructions
    units = real_load.catalog.units
    assert set(taught) | set(missing) == {u.id for u in instructions}
    assert all(visible(t.result) or own_fault(t.result, reserved(t.scenario)) or is_hint(units[uid]) or t.scenario.hint
               for uid, t in taught.items())
    tile_hints = sorted(t.scenario.mnemonic for t in taught.values() if not visible(t.result) and t.scenario.hint)
    assert tile_hints == ["TPREFETCH"], tile_hints  # (a hint: completed, nothing changed; its caption says so)
    faulting = {t.scenario.mnemonic: (t.result["fault"], "+".join(teaching_view(t).conditions))
                for t in taught.values() if not visible(t.result) and t.result.get("fault") not in (None, "Fault_None")}
    assert faulting == FAULT_EXAMPLES
    quiet = {t.scenario.mnemonic for t in taught.values() if teaching_view(t).quiet}
    assert quiet == HINTS
    assert len(missing) <= KNOWN_MISSING, sorted(m.mnemonic for m in missing.values())
    non_tile = {m.mnemonic for uid, m in missing.items() if units[uid].surface != "tile"}
    assert non_tile <= set(NON_TILE_MISSING), sorted(non_tile)
    assert all(m.reason for m in missing.values())
    assert not [t for t in taught.values() if t.finding], "the NumPy executor disagrees"


def test_every_instruction_has_an_executed_example(real_taught):
    assert not real_taught[1], sorted(m.mnemonic for m in real_taught[1].values())


def _bytes(setup) -> dict[int, int]:
    """Address -> the byte a scenario's setup writes there."""
    written = {}
    for line in setup:
        if line.startswith("WriteMemoryByte("):
            where, value = line[len("WriteMemoryByte(Zeros{PTO_XLEN} + "):].rstrip(");").split(", Zeros{8} + ")
            written[int(where, 16)] = int(value, 16)
    return written


def _word_at(setup, address: int) -> int:
    """The 8-byte little-endian value a scenario's setup writes at ``address``."""
    written = _bytes(setup)
    return int.from_bytes(bytes(written[address + i] for i in range(8)), "little")


def test_frame_examples_save_and_restore_through_the_model_stack_pointer(real_load, real_taught):
    """FENTRY stores its range's shown values in the slots below the model's stack pointer (slot i at sp - 8(i+1),
    the range in order) and moves that register down by the frame size; FRET.STK moves it up, restores ra from slot
    zero and continues there, restores the rest from the next slots. The model's stack pointer is the register of
    its own constant (R2 on 0.58.3, which the names call a0), and the page says so."""
    from pto_docs.bridge.teaching_stack import model_stack_pointer
    from pto_docs.render.state_view import teaching_view
    model = model_stack_pointer(real_load.catalog)
    assert model is not None and model.path.endswith("lifetime.asl")
    text = next(u.file.text for u in real_load.catalog.units.values() if u.path == model.path)
    assert text.splitlines()[model.line - 1].replace(" ", "") == f"constant{model.constant}={model.index};"
    taught = {t.scenario.mnemonic: t for t in real_taught[0].values()}
    for mnemonic in ("FENTRY", "FRET.STK"):
        found = taught[mnemonic]
        view = teaching_view(found)
        assert not view.fault and view.stack[1] == model.index and view.stack[3] == 1  # (R1: the names' sp)
        # (a memory row's hover title is its value's hex and then its bytes: "0x...05 (05 00 ...)")
        changes = {c.name: (int(c.before.bits.split()[0], 16), int(c.after.bits.split()[0], 16)) for c in view.changes}
        sp_name, frame = view.stack[0], int(found.scenario.asm.rsplit(",", 1)[1])
        before, after = changes.pop(sp_name)
        assert "sp" not in changes  # the register the names call sp stays where it was
        ranges = [o for o in found.scenario.operands if o.kind in ("source", "destination")]
        if mnemonic == "FENTRY":
            assert after == before - frame
            slots = [before - 8 * (i + 1) for i in range(len(ranges))]  # each an 8-byte row of its own, by value
            assert sorted(n for n in changes if n.startswith("memory[")) == sorted(f"memory[0x{a:x}]" for a in slots)
            for slot, o in zip(slots, ranges, strict=True):
                assert changes[f"memory[0x{slot:x}]"] == (_word_at(found.scenario.setup, slot), int(o.value)), o.name
        else:
            assert after == before + frame and ranges[0].name == "ra"
            target = _word_at(found.scenario.setup, after - 8)
            assert target % 2 == 0 and changes["ra"][1] == target and changes["pc"][1] == target
            for i, o in enumerate(ranges[1:], start=1):
                assert changes[o.name][1] == _word_at(found.scenario.setup, after - 8 * (i + 1))


def _value(text: str, data_type: str):
    bits = int(text, 16)
    if data_type == "FP32":
        return np.frombuffer(struct.pack("<I", bits & 0xFFFFFFFF), dtype=np.float32)[0]
    return np.frombuffer(struct.pack("<Q", bits), dtype=np.float64)[0]


IEEE = {"FADD": lambda a, b: a + b, "FSUB": lambda a, b: a - b, "FMUL": lambda a, b: a * b,
        "FDIV": lambda a, b: a / b, "FSQRT": lambda a: np.sqrt(a), "FMIN": np.minimum, "FMAX": np.maximum,
        "FABS": np.abs, "FMADD": lambda a, b, c: a * b + c, "FMSUB": lambda a, b, c: a * b - c}


def test_scalar_fp_examples_equal_ieee(real_taught):
    taught = {t.scenario.mnemonic: t for t in real_taught[0].values()}
    checked = 0
    for mnemonic, op in IEEE.items():
        found = taught.get(mnemonic)
        assert found is not None, f"{mnemonic} has no executed example"
        s = found.scenario
        dtype = np.float32 if s.data_type == "FP32" else np.float64
        args = [dtype(float(o.value)) for o in s.operands if o.kind == "source"]
        dest = next(o for o in s.operands if o.kind == "destination")
        after = next(c[2] for c in found.result["changed"] if c[0] == dest.location)
        if mnemonic in ("FMADD", "FMSUB"):  # fused: one rounding, computed exactly in float64 from float32 inputs
            want = dtype(op(*(np.float64(a) for a in args)))
        else:
            want = op(*args)
        got = _value(after, s.data_type)
        assert got.tobytes() == dtype(want).tobytes(), (mnemonic, s.asm, [float(a) for a in args], got, want)
        checked += 1
    assert checked == len(IEEE)


MATRIX = ("TMATMUL", "TMATMUL_ACC", "TMATMUL_BIAS", "TMATMUL_MX", "TMATMUL_MX_ACC", "TMATMUL_MX_BIAS",
          "TGEMV", "TGEMV_ACC", "TGEMV_BIAS", "TGEMV_MX", "TGEMV_MX_ACC", "TGEMV_MX_BIAS")
NP_TYPES = {"FP16": np.float16, "FP32": np.float32, "FP64": np.float64}


def _tile_roles(real_load, found) -> dict[int, str]:
    """Tile index -> the role the spec's catalog record gives its operand (left, right, accumulator, bias ...)."""
    unit = real_load.catalog.units[found.scenario.unit_id]
    record = next(r for r in unit.catalog_records if "semantic_handler" in r)
    roles = {o["field"]: o["role"] for o in record["operands"]}
    out = {}
    for argument, value in zip(record["arguments"], found.scenario.instruction["arguments"], strict=True):
        if value != "0":  # (0: no scale tile)
            out[int(value)] = roles[argument["operand"]]
    return out


def test_matrix_examples_equal_ieee(real_load, real_taught):
    """Every TMATMUL*/TGEMV* example's destination is NumPy's float64 product (plus accumulator or bias) of the
    shown tiles, rounded once to the destination's type, bit for bit."""
    taught = {t.scenario.mnemonic: t for t in real_taught[0].values()}
    for mnemonic in MATRIX:
        found = taught.get(mnemonic)
        assert found is not None, f"{mnemonic} has no executed example"
        assert not found.result.get("profile_fallbacks"), (mnemonic, found.result.get("profile_fallbacks"))
        roles = _tile_roles(real_load, found)
        grids, dest = {}, None
        for index, _role, dtype, rows, cols, grid in found.scenario.tiles:
            role = roles[index].replace("-vector", "").replace("-matrix", "")
            if role == "destination":
                dest = (index, dtype, rows, cols)
            else:  # the shown inputs, as stored in their own type
                grids[role] = np.array(grid, dtype=NP_TYPES[dtype]).astype(np.float64)
        assert dest is not None and {"left", "right"} <= set(grids), (mnemonic, roles)
        want = grids["left"] @ grids["right"]
        if "accumulator" in grids:
            want = want + grids["accumulator"]
        if "bias" in grids:
            want = want + grids["bias"]  # (one row, added to every row)
        index, dtype, rows, cols = dest
        want = want.astype(NP_TYPES[dtype])
        width = np.dtype(NP_TYPES[dtype]).itemsize * 8
        reads = found.result["read"]
        got = np.array([[int(reads[f"ReadTileElement({index}, {r}, {c})"], 16) & ((1 << width) - 1)
                         for c in range(cols)] for r in range(rows)], dtype=f"<u{width // 8}").view(NP_TYPES[dtype])
        assert got.shape == want.shape and got.tobytes() == want.tobytes(), (mnemonic, got, want)


def test_predicate_examples_show_the_comparison_and_the_selection(real_taught):
    """TCMP's output tile is the predicate (1/0 a cell) of its shown sources compared as the handler's
    comparison (LT) says; TSEL's output takes the true source where the shown mask is 1, the false one where 0."""
    from pto_docs.render.state_view import teaching_view
    taught = {t.scenario.mnemonic: t for t in real_taught[0].values()}
    for mnemonic in ("TCMP", "TSEL", "TCMPS", "TSELS", "MGATHER_MASK", "MSCATTER_MASK"):
        assert mnemonic in taught, f"{mnemonic} has no executed example"
    view = teaching_view(taught["TCMP"])
    assert taught["TCMP"].scenario.instruction["arguments"][-1] == "TileComparison_LT"
    left, right = ([[int(v.text) for v in row] for row in g.rows] for g in view.tiles if g.role == "source")
    (out,) = (g for g in view.tiles if g.role == "destination")
    assert out.data_type == "predicate"
    assert [[v.text for v in row] for row in out.rows] == [
        ["1" if a < b else "0" for a, b in zip(ra, rb, strict=True)] for ra, rb in zip(left, right, strict=True)]
    assert {v.text for row in out.rows for v in row} == {"0", "1"}  # (both outcomes shown)
    view = teaching_view(taught["TSEL"])
    mask, true, false = (g for g in view.tiles if g.role == "source")  # the handler's order: mask, true, false
    assert mask.data_type == "predicate"
    (out,) = (g for g in view.tiles if g.role == "destination")
    want = [[t.text if m.text == "1" else f.text for m, t, f in zip(rm, rt, rf, strict=True)]
            for rm, rt, rf in zip(mask.rows, true.rows, false.rows, strict=True)]
    assert [[v.text for v in row] for row in out.rows] == want


def test_index_and_sort_examples_rearrange_their_shown_sources(real_taught):
    """TGATHER's output cell [r][c] is the value source's row index[r][c] in column c, TSCATTER puts source[r][c]
    there instead, TMRGSORT's output is its two shown sorted rows merged in order (NumPy's sort)."""
    from pto_docs.render.state_view import teaching_view
    taught = {t.scenario.mnemonic: t for t in real_taught[0].values()}

    def grids(mnemonic):
        view = teaching_view(taught[mnemonic])
        sources = [np.array([[float(v.text) for v in row] for row in g.rows]) for g in view.tiles if g.role == "source"]
        (out,) = (np.array([[float(v.text) for v in row] for row in g.rows]) for g in view.tiles
                  if g.role == "destination")
        return sources, out

    (values, indices), out = grids("TGATHER")
    rows, cols = indices.shape
    assert sorted(set(indices.ravel())) == [0, 1]  # (the index tile is the second source: rows of the value tile)
    assert out.tolist() == [[values[int(indices[r, c]), c] for c in range(cols)] for r in range(rows)]
    (values, indices), out = grids("TSCATTER")
    want = np.zeros_like(out)
    for r in range(rows):
        for c in range(cols):
            want[int(indices[r, c]), c] = values[r, c]
    assert out.tolist() == want.tolist() and out.tolist() != values.tolist()
    (left, right), out = grids("TMRGSORT")
    assert out.ravel().tolist() == np.sort(np.concatenate([left.ravel(), right.ravel()]), kind="stable").tolist()
    assert out.ravel().tolist() != np.concatenate([left.ravel(), right.ravel()]).tolist()  # (they interleave)


def test_histogram_example_counts_its_shown_values(real_taught):
    """THISTOGRAM's 256 bins (shown 16 a line) are the cumulative count of the shown U16 values' low byte (the
    handler's selected byte 0) among those whose high byte is the shown filter's, as NumPy counts them."""
    from pto_docs.render.state_view import teaching_view
    found = next(t for t in real_taught[0].values() if t.scenario.mnemonic == "THISTOGRAM")
    assert found.scenario.instruction["arguments"][-1] == "0"  # the selected byte
    view = teaching_view(found)
    (values, prefix) = (np.array([[int(v.text) for v in row] for row in g.rows]) for g in view.tiles
                        if g.role == "source")
    (out,) = (g for g in view.tiles if g.role == "destination")
    assert out.columns == 256 and all(len(row) == 16 for row in out.rows)
    kept = values.ravel()[(values.ravel() >> 8) == prefix[0, 0]] & 0xFF
    want = np.cumsum(np.bincount(kept, minlength=256))
    assert [int(v.text) for row in out.rows for v in row] == want.tolist() and want[-1] > 0


def test_image_to_column_example_lists_the_windows_of_its_shown_image(real_taught):
    """TIMG2COL's output rows are the 2 x 2 windows (stride 1) of its shown 3 x 3 image (one row of nine), each
    flattened row by row, as NumPy's sliding_window_view takes them."""
    from numpy.lib.stride_tricks import sliding_window_view

    from pto_docs.render.state_view import teaching_view
    found = next(t for t in real_taught[0].values() if t.scenario.mnemonic == "TIMG2COL")
    view = teaching_view(found)
    (image,) = (np.array([[int(v.text) for v in row] for row in g.rows]) for g in view.tiles if g.role == "source")
    (out,) = (g for g in view.tiles if g.role == "destination")
    windows = sliding_window_view(image.reshape(3, 3), (2, 2)).reshape(4, 4)
    assert [[int(v.text) for v in row] for row in out.rows] == windows.tolist()


def test_a_frame_restore_lists_ra_as_an_input_only_if_it_returns_through_it(real_taught):
    """FRET.RA returns through ra: its example sets it (and returns there); FEXIT reads no ra: its example does not
    list it (0.58.3's page said "with ra = 0x1000")."""
    by_name = {t.scenario.mnemonic: t for t in real_taught[0].values()}
    fexit, fret = by_name["FEXIT"], by_name["FRET.RA"]
    assert "ra" not in [o.name for o in fexit.scenario.operands]
    ra = next(o for o in fret.scenario.operands if o.name == "ra")
    assert dict((c[0], c[2]) for c in fret.result["changed"])["_PC"] == f"0x{int(ra.value, 16):016x}"


def _memory_after(result) -> dict[int, int]:
    """Address -> the byte a run left there, for every byte its changed rows list (``_Memory[a..b]`` or ``[a]``)."""
    import re
    out = {}
    for name, _before, after in result["changed"]:
        m = re.fullmatch(r"_Memory\[(\d+)(?:\.\.(\d+))?\]", str(name))
        if m:
            out.update({int(m.group(1)) + i: int(v, 16) for i, v in enumerate(str(after).split())})
    return out


def test_byte_address_operands_point_at_aligned_memory_and_the_copy_shows(real_load, real_taught):
    """The registers whose contract role names a byte address hold aligned addresses of their own: DMA copies the 64
    recognisable bytes at its source (SrcL) to its destination (SrcR, zeros before), MCOPY copies RegSrc2's count of
    them from RegSrc1 to RegSrc0, MSET fills RegSrc2's count of bytes at RegSrc0 with RegSrc1's low byte (their ASL
    and contracts); the page shows the copy as rows of 8 bytes and says address in the operand table."""
    from pto_docs.bridge import teaching
    from pto_docs.render.state_view import teaching_view
    taught = {t.scenario.mnemonic: t for t in real_taught[0].values()}
    for mnemonic, want_roles in (("DMA", {"SrcL": "source", "SrcR": "destination"}),
                                 ("MCOPY", {"RegSrc0": "destination", "RegSrc1": "source"}),
                                 ("MSET", {"RegSrc0": "destination"})):
        found = taught[mnemonic]
        s = found.scenario
        kinds = {o.kind: o for o in s.operands}
        assert "destination_address" in kinds, (mnemonic, s.operands)
        dest = int(kinds["destination_address"].value, 16)
        counts = [int(o.value) for o in s.operands if o.kind == "source"]  # (in the syntax's order)
        setup = _bytes(s.setup)
        assert dest % 8 == 0 and not any(dest + i in setup for i in range(64))  # zeros (the model's reset value)
        if mnemonic == "MSET":
            fill, count = counts
            want = {dest + i: fill & 0xFF for i in range(count)}
        else:
            source = int(kinds["source_address"].value, 16)
            assert source % 8 == 0 and all(setup.get(source + i) for i in range(64))  # recognisable, none zero
            count = 64 if mnemonic == "DMA" else counts[0]
            want = {dest + i: setup[source + i] for i in range(count)}
        assert count > 0 and _memory_after(found.result) == want, mnemonic
        view = teaching_view(found)
        rows = [c for c in view.changes if c.name.startswith("memory[")]
        assert [c.name for c in rows] == [f"memory[0x{a:x}..0x{min(a + 8, dest + count) - 1:x}]"
                                          for a in range(dest, dest + count, 8)]
        assert " ".join(c.after.text for c in rows) == " ".join(f"{want[a]:02x}" for a in sorted(want))
        assert {o.kind for o in view.operands} >= {"destination_address"}
        assert teaching.address_roles(real_load.catalog.units[s.unit_id]) == want_roles
