"""pto-docs i18n: what of a spec tree is translated, and translation skeletons to start from.

``pto-docs i18n status [SPEC_ROOT] [--locale zh-CN] [--format text|json]`` counts, per subject (unit or ADR),
the translatable strings that are translated, stale (the English changed since: its sha256 differs) and
missing. ``pto-docs i18n extract SUBJECT... [--spec-root DIR] [--locale zh-CN] [--out DIR]`` writes
``translations/<locale>/<SUBJECT>.json`` (``pto-docs.translation.v1``) with every translatable string's pointer,
the sha256 of its English and an empty ``text`` to fill in; it never overwrites an existing file. A string
whose ``text`` is still empty fails validation (SCHEMA), so an unfinished file cannot pass as translated:
fill in each text, or delete the entries not yet translated. Exit 0, 1 (the units or ADRs have errors, listed; a subject
unknown; a file exists), 2 (usage or I/O: a subject that is not a unit or ADR id, a target that goes through a
symbolic link inside the spec tree). Inside the spec root a skeleton is written without following any symbolic link
(:func:`pto_docs.store.output_guard.write_in_tree`).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TextIO

from ..i18n import LOCALES, SOURCE_LOCALE
from ..model.frozen import sha256_text
from ..model.translate_keys import resolve_pointer, subject_record, translatable_pointers

TARGET_LOCALES = tuple(loc for loc in LOCALES if loc != SOURCE_LOCALE)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="i18n_command", required=True)
    status = sub.add_parser("status", help="per-subject counts of translated, stale and missing strings")
    status.add_argument("spec_root", nargs="?", default=None,
                        help="spec tree to read (default: the pto-docs spec_root of ./mkdocs.yml, else catalog/)")
    status.add_argument("--locale", choices=TARGET_LOCALES, default=TARGET_LOCALES[0])
    status.add_argument("--format", choices=("text", "json"), default="text")
    status.add_argument("--all", action="store_true", help="also list subjects that are completely translated")
    extract = sub.add_parser("extract", help="write translation skeletons (never overwrites a translation)")
    extract.add_argument("subjects", nargs="+", metavar="SUBJECT", help="unit or ADR id (PTO-TILE-TSQRT, ADR-0035)")
    extract.add_argument("--spec-root", dest="spec_root_opt", default=None, help="spec tree (default as for status)")
    extract.add_argument("--locale", choices=TARGET_LOCALES, default=TARGET_LOCALES[0])
    extract.add_argument("--out", default=None,
                         help="directory to write <SUBJECT>.json into (default: SPEC_ROOT/translations/<locale>)")


def subject_pointers(catalog, subject: str) -> list[str]:
    """The strings of a subject that pages show and a translation may replace (as render/ asks for them)."""
    if subject in catalog.units:
        unit = catalog.units[subject]
        if unit.is_instruction:
            return list(translatable_pointers(unit.record, True))
        return ["/summary"] if isinstance(unit.record.get("summary"), str) and unit.summary.strip() else []
    if subject in catalog.adrs:
        adr = catalog.adrs[subject]
        return [p for p, text in (("/title", adr.title), ("/body", adr.body)) if text and text.strip()]
    return []


def english(catalog, subject: str, pointer: str) -> str | None:
    value = resolve_pointer(subject_record(catalog, subject), pointer)
    return value if isinstance(value, str) else None


def status_rows(catalog, locale: str) -> list[dict]:
    rows = []
    for subject in sorted(catalog.units) + sorted(catalog.adrs):
        translation = catalog.translations.get((locale, subject))
        counts = {"subject": subject, "translated": 0, "stale": 0, "missing": 0}
        for pointer in subject_pointers(catalog, subject):
            text = english(catalog, subject, pointer) or ""
            entry = translation.strings.get(pointer) if translation else None
            state = "missing" if entry is None else ("translated" if entry.en_sha256 == sha256_text(text) else "stale")
            counts[state] += 1
        if counts["translated"] + counts["stale"] + counts["missing"]:
            rows.append(counts)
    return rows


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .validate import load_or_report
    root = args.spec_root if args.i18n_command == "status" else args.spec_root_opt
    result = load_or_report(root, err)
    if result is None:
        return 2
    catalog = result.catalog
    if args.i18n_command == "status":
        return _status(catalog, args, out)
    # the skeletons derive from the units and ADRs: an error in them (a unit id '../x' is one) refuses the extract;
    # errors in the translations themselves (an unfinished skeleton's empty texts) do not, but a link out of the
    # root or a loop there does
    errors = [d for d in result.errors if not d.path.startswith("translations/")
              or d.code in ("PATH-OUTSIDE-ROOT", "SYMLINK-LOOP")]
    if errors:
        for diag in errors:
            err.write(diag.format() + "\n")
        err.write(f"pto-docs i18n extract: {len(errors)} error(s) in the units and ADRs; nothing written\n")
        return 1
    return _extract(catalog, Path(result.tree.root), args, out, err)


def subject_id_problem(subject: str) -> str | None:
    """Why ``subject`` may not name a file (it matches neither the unit nor the ADR id pattern), or None."""
    import re

    from ..schemas.registry import load_schema
    defs = load_schema("common")["$defs"]
    if any(re.fullmatch(defs[name]["pattern"].strip("^$"), subject) for name in ("unit_id", "adr_id")):
        return None
    return f"{subject!r} is not a unit id ({defs['unit_id']['pattern']}) or an ADR id ({defs['adr_id']['pattern']})"


def _status(catalog, args, out: TextIO) -> int:
    rows = status_rows(catalog, args.locale)
    total = {k: sum(r[k] for r in rows) for k in ("translated", "stale", "missing")}
    if args.format == "json":
        out.write(json.dumps({"schema": "pto-docs.i18n-status.v1", "locale": args.locale, "subjects": rows,
                              "total": total}, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
        return 0
    shown = rows if args.all else [r for r in rows if r["stale"] or r["missing"]]
    width = max([len(r["subject"]) for r in shown] + [len("subject")])
    out.write(f"{'subject':<{width}}  translated  stale  missing\n")
    for r in shown:
        out.write(f"{r['subject']:<{width}}  {r['translated']:>10}  {r['stale']:>5}  {r['missing']:>7}\n")
    done = sum(1 for r in rows if not r["stale"] and not r["missing"])
    out.write(f"{args.locale}: {len(rows)} subjects ({done} complete): {total['translated']} translated, "
              f"{total['stale']} stale, {total['missing']} missing\n")
    return 0


def _extract(catalog, spec_root: Path, args, out: TextIO, err: TextIO) -> int:
    from ..store.output_guard import OutputRefused, write_in_tree
    target = Path(args.out) if args.out else spec_root / "translations" / args.locale
    # inside the spec root (the default): written relative to the root, through no symbolic link
    in_tree = os.path.abspath(target) + os.sep
    in_tree = next((os.path.relpath(in_tree, base) for base in (os.path.abspath(spec_root), str(spec_root.resolve()))
                    if in_tree.startswith(base + os.sep)), None)
    status = 0
    for subject in args.subjects:
        if subject not in catalog.units and subject not in catalog.adrs:
            err.write(f"pto-docs i18n extract: {subject} is neither a unit nor an ADR of this tree\n")
            status = 1
            continue
        problem = subject_id_problem(subject)  # (an id becomes a file name only once it matches its pattern)
        if problem:
            err.write(f"pto-docs i18n extract: error[USAGE]: {problem}; nothing written for it\n")
            return 2
        path = target / f"{subject}.json"
        if path.exists() or (args.locale, subject) in catalog.translations:
            where = catalog.translations[(args.locale, subject)].path if (args.locale, subject) in catalog.translations else path
            err.write(f"pto-docs i18n extract: {where} exists; not overwritten (pto-docs i18n status shows what it lacks)\n")
            status = 1
            continue
        strings = [{"pointer": p, "en_sha256": sha256_text(english(catalog, subject, p) or ""), "text": ""}
                   for p in subject_pointers(catalog, subject)]
        doc = {"schema": "pto-docs.translation.v1", "locale": args.locale, "subject": subject, "strings": strings}
        text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
        try:
            if in_tree is not None:
                rel = os.path.normpath(os.path.join(in_tree, f"{subject}.json")).replace(os.sep, "/")
                write_in_tree(spec_root, rel, text.encode("utf-8"), exclusive=True)
            else:  # a directory of the user's choice outside the tree
                path.parent.mkdir(parents=True, exist_ok=True)
                with open(path, "x", encoding="utf-8") as fh:  # "x": never replaces a file (nor follows a link)
                    fh.write(text)
        except OutputRefused as exc:
            err.write(exc.format() + "\n")
            return 2
        except FileExistsError:
            err.write(f"pto-docs i18n extract: {path} exists; not overwritten\n")
            status = 1
            continue
        except OSError as exc:
            err.write(f"pto-docs i18n extract: cannot write {path}: {exc.strerror or exc}\n")
            return 2
        out.write(f"{path}: {len(strings)} string(s) to translate\n")
    return status
