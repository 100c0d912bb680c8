"""The id lookup shipped with the site (``search/pto-ids.json``): every mnemonic, unit id, requirement id, test
id and ADR id with the page (and anchor) it lives on, so an exact id typed into the search box is answered
first and at once (``site_src/assets/pto-search.js``), before and above Material's full-text results.

Keys are normalised as the script normalises the query: upper case, only ``A-Z0-9`` (``adr 0035`` =
``ADR-0035``). Kind labels come from the i18n files, one set per language.
"""

from __future__ import annotations

import json
import re

from ..i18n import LOCALES, labels
from ..i18n.long_names import long_name, search_terms, titled
from ..model.catalog import Catalog
from . import routes

KINDS = ("instruction", "unit", "requirement", "test", "adr")
PATH = "search/pto-ids.json"


def normalise(text: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", text.upper())


def _url(src: str, anchor: str = "") -> str:
    return routes.url_of(src) + (f"#{anchor}" if anchor else "")


def id_entries(cat: Catalog) -> list[list]:
    """``[key, url, kind index, shown text, rank]`` rows, sorted; rank orders several pages of one key (a
    mnemonic before a unit id, a page before an anchor)."""
    rows: set[tuple] = set()
    for unit in cat.units.values():
        src = routes.unit_src(unit)
        kind = 0 if unit.is_instruction else 1
        rows.add((normalise(unit.id), _url(src), kind, unit.id, 1))
        if unit.mnemonic:
            rows.add((normalise(unit.mnemonic), _url(src), kind, unit.mnemonic, 0))
    for rid, req in cat.requirements.items():
        owner = cat.units.get(req.owner)
        if owner is not None:
            rows.add((normalise(rid), _url(routes.unit_src(owner), rid if req.origin == "ndf" else ""), 2, rid, 2))
    for tid, test in cat.tests.items():
        unit = cat.unit_for_path(test.source)
        if unit is not None:
            rows.add((normalise(tid), _url(routes.unit_src(unit), tid), 3, tid, 3))
    for aid in cat.adrs:
        rows.add((normalise(aid), _url(routes.adr_src(aid)), 4, aid, 0))
    # "load word" finds LW: each English long name as a key too, where it is no id's key already
    ids = {r[0] for r in rows}
    for unit in cat.instructions:
        key = normalise(long_name(unit.mnemonic, "en"))
        if key and key not in ids:
            rows.add((key, _url(routes.unit_src(unit)), 0, titled(unit.mnemonic, "en"), 5))
    return [list(r) for r in sorted(rows, key=lambda r: (r[0], r[4], r[1]))]


def _translated(cat: Catalog, locale: str, subject: str, pointer: str, english: str) -> str:
    tr = cat.translations.get((locale, subject))
    hit = tr.strings.get(pointer) if tr is not None else None
    return hit.text if hit is not None and hit.text else english


def quick_entries(cat: Catalog, examples=None) -> dict[str, list[list]]:
    """Per language, ``[url, title, text]`` of every instruction (title: "LW — Load Word"; text: its summary, its
    worked examples' captions and its search terms, i18n/long_names.py),
    unit (summary) and ADR (title): the titles and summaries ``pto-search.js`` matches at once, while Material's
    full-text index is still being built in the browser."""
    out: dict[str, list[list]] = {}
    for loc in LOCALES:
        rows = []
        for unit in sorted(cat.units.values(), key=lambda u: u.id):
            text = _translated(cat, loc, unit.id, "/summary", unit.summary or "")
            for ex in (examples or {}).get(unit.id, ()):
                caption = (getattr(ex, "caption", None) or {})
                text += " " + (caption.get(loc) or caption.get("en") or "")
            terms = search_terms(unit.mnemonic, loc)
            if terms:
                text += " " + " ".join(terms)
            rows.append([_url(routes.unit_src(unit)), titled(unit.mnemonic, loc) if unit.mnemonic else unit.id, text.strip()])
        for aid, adr in sorted(cat.adrs.items()):
            title = _translated(cat, loc, aid, "/title", adr.title or "")
            rows.append([_url(routes.adr_src(aid)), aid, title])
        out[loc] = rows
    return out


def id_index_json(cat: Catalog, examples=None) -> bytes:
    data = {
        "version": 1,
        "kinds": {loc: [labels(loc).t(f"search.kind_{k}") for k in KINDS] for loc in LOCALES},
        "exact": {loc: labels(loc).t("search.exact") for loc in LOCALES},
        "quick_label": {loc: labels(loc).t("search.quick") for loc in LOCALES},
        "entries": [row[:4] for row in id_entries(cat)],
        "quick": quick_entries(cat, examples),
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
