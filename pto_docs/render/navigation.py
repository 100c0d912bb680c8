"""The MkDocs ``nav`` of the site: localized section titles, pages grouped the way the spec classifies them.

Material renders the navigation into every page, and with ``navigation.prune`` a page carries the top level
plus every sibling along its own branch. The cost of a page (and of the build: profiled, Material's
navigation template was the second largest cost of a build) therefore grows with the largest sibling group,
and a sidebar of 183 load/store mnemonics is no help to a reader either. So every group holds at most
:data:`MAX_ENTRIES` entries: instructions nest by classification segment (as their URLs do), architecture
units by their classification without its last segment (which names the unit itself), and a group that is
still larger is split into consecutive alphabetical ranges labelled ``first – last``, as a dictionary's
thumb index is (a prefix every title of the group shares is left out of the labels).
"""

from __future__ import annotations

import html
import math
import os
from collections import defaultdict

from ..analysis.data_types import has_data_types
from ..i18n import labels
from . import routes
from .classes import class_pages
from .indexes import SiteRenderer, _surface_key, surface_label

MAX_ENTRIES = 24
RANGE_DASH = " – "
SEPARATORS = "-._/ "


def ranges(entries: list[dict], limit: int = MAX_ENTRIES) -> list[dict]:
    """``entries`` (one-key dicts, in reading order) unchanged when there are at most ``limit``; else the
    fewest equal consecutive runs of at most ``limit`` each, every run one ``{"first – last": run}`` entry."""
    if len(entries) <= limit:
        return entries
    count = math.ceil(len(entries) / limit)
    size = math.ceil(len(entries) / count)
    runs = [entries[i:i + size] for i in range(0, len(entries), size)]
    cut = len(_shared_prefix([_title(e) for e in entries]))
    return [{_title(run[0])[cut:] + RANGE_DASH + _title(run[-1])[cut:]: run} for run in runs]


def _shared_prefix(titles: list[str]) -> str:
    """The leading segments every title shares when there are at least two of them ("PTO-BLOCK-MODEL-"),
    so that range labels show what differs; one shared segment ("ADR-") stays."""
    prefix = os.path.commonprefix(titles)
    end = max(prefix.rfind(sep) for sep in SEPARATORS) + 1
    prefix = prefix[:end]
    return prefix if sum(prefix.count(sep) for sep in SEPARATORS) >= 2 else ""


def _title(entry: dict) -> str:
    (title,) = entry
    return title


def _tree_entries(node: dict, path: tuple = (), index=None) -> list[dict]:
    """A nested ``{segment: {... "": [pages]}}`` tree as nav entries: a node's own pages first, then its
    sub-groups by name; a group that holds only one sub-group and no pages of its own is skipped over, unless
    it has a classification page (which would then be in no group: MkDocs warns of a page not in the nav).
    ``index(path)``: the entry of the page a group at ``path`` opens with (its classification page), or None."""
    pages = list(node.get("", []))
    groups = []
    for key in sorted(k for k in node if k):
        child, at = node[key], path + (key,)
        # a single sub-group: show it in place of its parent, when the parent has no page of its own
        while len(child) == 1 and "" not in child and (index is None or index(at) is None):
            ((key, child, at),) = [(f"{key} / {k}", v, at + (k,)) for k, v in child.items()]
        groups.append({key: _tree_entries(child, at, index)})
    head = index(path) if index is not None else None
    limit = MAX_ENTRIES - 1 if head else MAX_ENTRIES  # (the head counts among the group's entries)
    entries = ranges(ranges(pages) + groups, limit) if groups else ranges(pages, limit)
    return [head] + entries if head else entries


def navigation(r: SiteRenderer, locale: str) -> list:
    lab = labels(locale)
    instructions_tree: dict[str, dict] = {}
    for u in sorted(r.catalog.instructions, key=lambda u: (_surface_key(u.surface), u.classification, u.mnemonic or "")):
        node = instructions_tree.setdefault(u.surface, {})
        for segment in u.classification or ("-",):
            node = node.setdefault(segment, {})
        node.setdefault("", []).append({u.mnemonic: routes.unit_src(u)})
    instructions: list = [{lab.t("find.nav_instruction_index"): routes.INSTRUCTION_INDEX}]
    pages = r.class_pages() if hasattr(r, "class_pages") else class_pages(r.catalog)
    if has_data_types(r.catalog):
        instructions.append({lab.t("reference.data_types_title"): routes.DATA_TYPES})
    for surface in sorted(instructions_tree, key=_surface_key):
        def index(path, surface=surface):
            page = None if "-" in path else pages.get((surface, path))
            name = " / ".join(path) if path else surface_label(locale, surface)
            return {lab.t("find.nav_class_page", name=name): page.src} if page else None
        instructions.append({surface_label(locale, surface): _tree_entries(instructions_tree[surface], (), index)})

    units_tree: dict[str, dict] = defaultdict(dict)
    for u in sorted((u for u in r.units if not u.is_instruction), key=lambda u: (u.classification, u.id)):
        node = units_tree[u.surface]
        for segment in u.classification[:-1]:
            node = node.setdefault(segment, {})
        node.setdefault("", []).append({u.id: routes.unit_src(u)})
    units: list = [{lab.t("find.nav_unit_index"): routes.UNIT_INDEX}]
    for surface in sorted(units_tree, key=_surface_key):
        node = units_tree[surface]
        while len(node) == 1 and "" not in node:  # every unit of the surface shares a first segment ("model")
            (node,) = node.values()
        units.append({surface_label(locale, surface): _tree_entries(node)})

    adrs: list = [{lab.t("find.nav_adr_index"): routes.ADR_INDEX}] + ranges([{a: routes.adr_src(a)} for a in sorted(r.catalog.adrs)])
    from .indexes import requirement_page_title
    from .requirements_view import requirement_pages
    requirements: list = [{lab.t("find.nav_requirement_index"): routes.REQUIREMENTS}] + [
        {requirement_page_title(locale, p): p.src} for p in requirement_pages(r.catalog)]
    nav: list = [
        {lab.t("nav.home"): routes.HOME},
        {lab.t("nav.instructions"): instructions},
        {lab.t("nav.units"): units},
        {lab.t("nav.adrs"): adrs},
        {lab.t("nav.requirements"): requirements},
    ]
    history = getattr(r.data, "history", None)  # the plugin's ``previous``: what changed since it (changes.py)
    if history is not None:
        nav.append({lab.t("changes.title", previous=history.previous): routes.CHANGES})
    if r.data.trace_page(locale) is not None:  # (made once by the analysis, kept for the page itself)
        nav.append({lab.t("nav.reports"): [{lab.t("nav.traceability"): routes.TRACEABILITY}]})
    return html_titles(nav)


def html_titles(nav):
    """The nav with every title HTML-escaped: MkDocs and Material take a title as HTML (a heading's inner text) and
    print it unescaped in the navigation, the header and the path; a mnemonic is free text from the tree."""
    if isinstance(nav, list):
        return [html_titles(entry) for entry in nav]
    if isinstance(nav, dict):
        return {html.escape(title): html_titles(value) for title, value in nav.items()}
    return nav
