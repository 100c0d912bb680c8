"""The page view of an instruction's worked examples from the AVS test points (``pto_docs.bridge.avs_examples``).

State rows are the leaves the interpreter recorded; a run of array elements with consecutive indices
(memory bytes, a tile's payload words, a register file) is shown as one row ``name[a..b]``."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..bridge.avs_examples import AvsExample
from ..model.catalog import Catalog, Unit
from ..store.memo import Memo
from . import routes
from .state_view import _split, shown_change

MAX_ROWS = 48  # state rows shown per table; the rest are counted
MAX_RUN = 16  # values shown per grouped row
INDEXED = re.compile(r"^(.*)\[(\d+)\]$")


@dataclass(frozen=True)
class StateRow:
    name: str
    before: str | None
    after: str | None
    count: int = 1  # leaves in the row


@dataclass(frozen=True)
class AvsExampleView:
    test_id: str
    test_href: str
    kind: str
    status: str
    profile: str
    own: bool
    call: str
    mnemonic: str | None
    form_id: str | None
    asm: str | None
    word: str | None
    length_bits: int | None
    fields: tuple[tuple[str, str], ...]
    result: str | None
    exception: str
    faulted: bool
    before: tuple[StateRow, ...]
    before_more: int
    changed: tuple[StateRow, ...]
    changed_more: int
    sequence: tuple[tuple[str, bool], ...]
    truncated: bool
    digest: str
    folded: tuple[StateRow, ...] = ()  # bookkeeping the instruction changed (PC step, cycle counter, trap copies)
    fault: str = ""  # the fault the step raised (its _LastFault), named
    condition: str = ""  # why: the fault test's own summary
    fallbacks: tuple[str, ...] = ()  # ieee hooks the step ran as pto-v0 (probe.Step.fallbacks): said on the page


def _group(rows: Sequence[tuple[str, str | None, str | None]]) -> list[StateRow]:
    """Consecutive ``x[i]``, ``x[i+1]``, ... rows as one ``x[i..j]`` row (values space-separated)."""
    out: list[StateRow] = []
    run: list[tuple[str, int, str | None, str | None]] = []

    def flush():
        if not run:
            return
        if len(run) == 1:
            name, index, b, a = run[0]
            out.append(StateRow(f"{name}[{index}]", b, a))
        else:
            first, last = run[0][1], run[-1][1]

            def join(values):
                shown = ["–" if v is None else v for v in values[:MAX_RUN]]
                return " ".join(shown) + (" …" if len(values) > MAX_RUN else "")
            out.append(StateRow(f"{run[0][0]}[{first}..{last}]", join([r[2] for r in run]), join([r[3] for r in run]),
                                len(run)))
        run.clear()

    for name, before, after in rows:
        m = INDEXED.match(name)
        if m:
            prefix, index = m.group(1), int(m.group(2))
            if run and run[-1][0] == prefix and run[-1][1] == index - 1:
                run.append((prefix, index, before, after))
                continue
            flush()
            run.append((prefix, index, before, after))
            continue
        flush()
        out.append(StateRow(name, before, after))
    flush()
    return out


def _limit(rows: list[StateRow]) -> tuple[tuple[StateRow, ...], int]:
    return tuple(rows[:MAX_ROWS]), max(0, len(rows) - MAX_ROWS)


def avs_example_views(catalog: Catalog, unit: Unit, examples: Sequence[AvsExample], src: str) -> tuple[AvsExampleView, ...]:
    out = []
    for ex in examples:
        step: Mapping = ex.step
        test = catalog.tests.get(ex.test_id)
        owner = catalog.unit_for_path(test.source) if test is not None else None
        if owner is None or owner.id == unit.id:
            href = f"#{ex.test_id}"
        else:
            href = routes.relative(src, routes.unit_src(owner)) + f"#{ex.test_id}"
        before, before_more = _limit(_readable(_group([(name, value, None) for name, value in step.get("before", ())])))
        shown = [tuple(c[:3]) for c in step.get("changed", ()) if shown_change(c, {"decoded": {"word": _hex(ex)}})]
        folded = [tuple(c[:3]) for c in step.get("changed", ()) if tuple(c[:3]) not in shown]
        changed, changed_more = _limit(_readable(_group(shown)))
        d = ex.decoded
        fault = next((str(c[2]) for c in step.get("changed", ()) if c[0] == "_LastFault"), "")
        out.append(AvsExampleView(
            ex.test_id, href, ex.kind, ex.status, ex.profile, ex.own,
            f"{step.get('function')}({', '.join(step.get('arguments') or ())})",
            d.mnemonic if d else None, d.form_id if d else None, _concrete(catalog, d) if d else None,
            d.hex if d else None,
            d.length_bits if d else None,
            tuple((name, f"{value} (0x{value:x})") for name, value in d.fields) if d else (),
            step.get("result"), step.get("exception", ""), ex.faulted,
            before, before_more, changed, changed_more,
            tuple((text, i == ex.step_index) for i, text in enumerate(ex.sequence)),
            bool(step.get("truncated")), ex.digest, tuple(_group(folded)), fault if ex.faulted else "",
            str(getattr(test, "summary", "") or "") if ex.faulted else "",
            tuple(step.get("profile_fallbacks") or ())))
    return tuple(out)


def _hex(ex) -> str:
    return ex.decoded.hex if ex.decoded is not None else ""


def _readable(rows: list[StateRow]) -> list[StateRow]:
    """The general registers named as a reader knows them (``a0``), one row each; memory runs stay grouped."""
    out = []
    for row in rows:
        parts = _split(row.name, row.before, row.after) if row.name.startswith("_PEGPRs[0][") else []
        if parts:
            out += [StateRow(name, b, a) for name, b, a, _width in parts]
        else:
            out.append(row)
    return out


_ASSEMBLERS = Memo(__name__, "the assembler of a catalog: id(catalog) -> Assembler", limit=2)


def _concrete(catalog: Catalog, d) -> str:
    """The assembly of the decoded word, rendered by pto-docs' assembler (``add a1, a0, sp``), else the template."""
    from ..isa.assembler import AsmError, Assembler
    assembler = _ASSEMBLERS.get(id(catalog))
    if assembler is None or assembler.catalog is not catalog:
        assembler = _ASSEMBLERS[id(catalog)] = Assembler(catalog)
    hits = assembler.decoder.decode(d.word, d.length_bits)
    if not hits:
        return d.asm
    unit, form = hits[0]
    for syn in assembler.syntax_of(unit, form):
        if syn.problem:
            continue
        try:
            return assembler.render(syn, dict(d.fields))
        except AsmError:
            continue
    return d.asm
