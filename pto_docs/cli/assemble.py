"""``python -m pto_docs.cli.assemble``: a developer's entry point to the assembler (``pto_docs.isa.assembler``):
assemble TEXT arguments, print the round-trip coverage, the verdicts of the example lines."""

from __future__ import annotations

from collections.abc import Sequence

from ..isa.assembler import AsmError, Assembler, round_trip


def main(argv: Sequence[str] | None = None) -> int:
    """The word of each TEXT (or its one-line error), the round-trip coverage per surface, the verdicts of the
    contract example and block lines. Exit 0, or 1 when a TEXT does not assemble, 2 when the tree cannot be read."""
    import argparse
    import collections
    import sys
    parser = argparse.ArgumentParser(prog="python -m pto_docs.cli.assemble", description=main.__doc__)
    parser.add_argument("texts", nargs="*", metavar="TEXT", help="assembly text of one instruction each")
    parser.add_argument("--spec-root", required=True, metavar="TREE")
    parser.add_argument("--round-trip", action="store_true", help="words of every form -> text -> words, per surface")
    parser.add_argument("--samples", type=int, default=16, help="random words per form (default 16)")
    parser.add_argument("--examples", action="store_true", help="verdicts of every contract example and block line")
    args = parser.parse_args(argv)
    from ..analysis.load import load_catalog
    from ..model.diagnostics import SpecRootError
    try:
        catalog = load_catalog(args.spec_root).catalog
    except SpecRootError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    assembler = Assembler(catalog)
    code = 0
    for text in args.texts:
        try:
            done = assembler.assemble(text)
        except AsmError as exc:
            print(f"{text}: error: {exc}")
            code = 1
            continue
        fields = " ".join(f"{k}={v}" for k, v in done.fields)
        print(f"{text}: {done.hex} ({done.length_bits} bits) {done.form.get('form_id')} {fields}")
    if args.round_trip:
        trips = round_trip(assembler, args.samples)
        for surface in ("scalar", "block", "tile"):
            mine = [t for t in trips if t.surface == surface]
            count = collections.Counter(t.status for t in mine)
            print(f"{surface}: {count['full']} of {len(mine)} forms round-trip every sampled word; "
                  + ", ".join(f"{k} {count[k]}" for k in ("partial", "none", "unsupported", "no-word") if count[k]))
        for t in trips:
            if t.status != "full":
                why = t.failure or t.example
                extra = f" (fields not in the template: {', '.join(t.unbound)}; with them zero: " \
                        f"{'all round-trip' if t.zero_unbound else 'still failing: ' + t.zero_failure})" if t.unbound else ""
                print(f"  {t.status:11} {t.form_id or t.unit_id}: {why}{extra}")
    if args.examples:
        from ..checks.examples import assembly_lines
        every = frozenset(u.id for u in catalog.instructions)
        verdicts: collections.Counter = collections.Counter()
        for unit in catalog.instructions:
            for pointer, segment, verdict, message, _owner in assembly_lines(catalog, unit, assembler, every):
                verdicts[unit.surface, verdict] += 1
                if verdict == "mismatch":
                    print(f"  EXAMPLE-ASM {unit.mnemonic} {pointer}: {segment!r}: {message}")
        for surface in ("scalar", "block", "tile"):
            print(f"{surface}: " + ", ".join(f"{v} {verdicts[surface, v]}" for v in ("ok", "descriptive", "unchecked", "mismatch")))
    return code


if __name__ == "__main__":
    raise SystemExit(main())
