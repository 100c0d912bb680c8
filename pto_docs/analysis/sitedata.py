"""Facts about the whole tree that pages share, computed once per catalog (never per page)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model.catalog import Catalog, Unit
from ..model.frozen import thaw
from ..sources.tree import SpecTree

TRACEABILITY = "spec/evidence/release-traceability-readiness.json"
# (evidence id, path, where its status lives) — the commit-scoped artifacts the upstream portal lists
ARTIFACTS = (
    ("PTO-EVIDENCE-RELEASE-TRACEABILITY", TRACEABILITY, ("summary", "status")),
    ("PTO-EVIDENCE-INSTRUCTION-CONTRACT-CLOSURE", "spec/evidence/instruction-contract-closure.json", ("summary", "status")),
    ("PTO-EVIDENCE-ARCHITECTURE-READINESS", "spec/evidence/architecture-readiness.json", ("summary", "status")),
    ("PTO-EVIDENCE-RELEASE-GATE-READINESS", "spec/evidence/release-gate-readiness.json", ("summary", "status")),
    ("PTO-EVIDENCE-RELEASE-MANIFEST", "spec/release-manifest.json", ("specification_status",)),
)


@dataclass(frozen=True)
class Artifact:
    id: str
    path: str
    status: str
    sha256: str | None
    recorded_only: bool = False  # absent from the tree; its hash is the one the release manifest records


def group_examples(examples: tuple) -> dict[str, tuple]:
    """unit id -> its worked examples, in the order given."""
    grouped: dict[str, list] = {}
    for example in examples:
        grouped.setdefault(example.unit_id, []).append(example)
    return {k: tuple(v) for k, v in grouped.items()}


class _TraceUnits(Mapping):
    """unit id -> the tree's traceability row of that unit, thawed when first read (a page model reads its own
    unit's row; thawing all of them up front cost each process about 0.5 s on the real tree)."""

    def __init__(self, frozen: dict[str, Any]):
        self._frozen = frozen
        self._thawed: dict[str, dict[str, Any]] = {}

    def __getitem__(self, unit_id: str) -> dict[str, Any]:
        row = self._thawed.get(unit_id)
        if row is None:
            row = self._thawed[unit_id] = thaw(self._frozen[unit_id])
        return row

    def __iter__(self):
        return iter(self._frozen)

    def __len__(self) -> int:
        return len(self._frozen)

    def __contains__(self, unit_id: object) -> bool:
        return unit_id in self._frozen


def _trace_units(catalog: Catalog) -> Mapping[str, dict[str, Any]]:
    rows: dict[str, Any] = {}
    trace = catalog.json(TRACEABILITY)
    if isinstance(trace, Mapping):
        for row in trace.get("units", ()):
            if isinstance(row, Mapping) and isinstance(row.get("id"), str):
                rows[row["id"]] = row
    return _TraceUnits(rows)


@dataclass
class SiteData:
    catalog: Catalog
    tree: SpecTree
    trace_units: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    artifacts: tuple[Artifact, ...] = ()
    examples: Mapping[str, tuple] = field(default_factory=dict)  # unit id -> WorkedExample tuple
    avs: Mapping[str, Any] = field(default_factory=dict)  # test id -> trace.avs_status.AvsStatus (plugin avs_results)
    avs_profile: str = ""
    avs_examples: Mapping[str, Any] = field(default_factory=dict)  # unit id -> avs_examples.AvsExample list
    flags: tuple = ()  # flags_check.FlagsFinding of the tree (FLAGS-PROSE), shown on the pages they concern
    semantics: tuple = ()  # semantics_check.SemanticsFinding (SEMANTICS-PROSE), shown on the instruction's page
    assembly: Mapping[str, tuple] = field(default_factory=dict)  # unit id -> EXAMPLE-ASM checks.findings.Finding tuple
    teaching: Mapping[str, Any] = field(default_factory=dict)  # unit id -> bridge.teaching_run.Taught
    untaught: Mapping[str, Any] = field(default_factory=dict)  # unit id -> bridge.teaching_run.Untaught (why none)
    avs_key: str = ""  # canonical sha256 of the AVS results (the pages' keys: render/pages.py)
    # the traceability report (trace.build_report; None: made when first needed) and its page per language
    trace_report: dict | None = None
    _trace_pages: dict = field(default_factory=dict, repr=False)
    findings: Mapping[str, tuple] = field(default_factory=dict)  # instruction id -> its checks.findings.Finding tuple
    report_findings: tuple = ()  # every instruction's findings, in the report page's order (mnemonic, id)
    flags_through: Mapping[str, tuple] = field(default_factory=dict)  # instruction id -> FLAGS-PROSE its execution calls
    history: Any = None  # history.notes.ReleaseHistory against the plugin's ``previous`` release (site/history.py)

    @classmethod
    def build(cls, catalog: Catalog, tree: SpecTree, examples: tuple = (), avs: Mapping | None = None,
              memo=None, semantics: tuple | None = None, trace_report: dict | None = None) -> SiteData:
        """``memo`` (load_memo.LoadMemo) remembers the model checks across loads (model_checks.py);
        ``semantics``: the SEMANTICS-PROSE findings when already made (site/load_helper.py); ``trace_report``:
        the traceability report when already made (analysis/state.py)."""
        data = cls(catalog, tree)
        data.trace_report = trace_report
        if avs is not None:
            from ..model.frozen import canonical_sha256
            data.avs_key = canonical_sha256(avs)
            from ..trace.avs_status import page_statuses
            data.avs, data.avs_profile = page_statuses(catalog, avs), str(avs.get("profile", ""))
            from ..bridge.avs_examples import examples_by_unit
            data.avs_examples = examples_by_unit(catalog, avs, data.avs)
        from ..checks import model_checks
        data.flags = model_checks.flags(catalog, memo)
        # the verdicts validation already ran (cached by model), or the findings made beside it
        data.semantics = semantics if semantics is not None else model_checks.semantics(catalog)
        data.assembly = model_checks.assembly(catalog, memo)
        data.findings, data.report_findings, data.flags_through = _instruction_findings(catalog, data, memo)
        data.trace_units = _trace_units(catalog)
        recorded = _recorded_hashes(catalog)
        data.artifacts = tuple(
            _artifact(catalog, tree, *spec) if tree.exists(spec[1]) or spec[1] in catalog.json_files
            else Artifact(spec[0], spec[1], "", recorded[spec[1]], recorded_only=True)
            for spec in ARTIFACTS if tree.exists(spec[1]) or spec[1] in catalog.json_files or spec[1] in recorded)
        data.examples = group_examples(examples)
        return data

    @classmethod
    def trace_rows(cls, catalog: Catalog, tree: SpecTree) -> SiteData:
        """Only what :meth:`trace_row` reads (the costly parts of an instruction model need no more)."""
        data = cls(catalog, tree)
        data.trace_units = _trace_units(catalog)
        return data

    def trace_page(self, locale: str) -> str | None:
        """The traceability report page's Markdown in ``locale`` (the trace package owns its content), or None when
        the report code fails: the page is then left out (logged) rather than failing the site build. Made once
        per language; the navigation and the home page ask it whether there is a report page."""
        pages = self._trace_pages
        if locale in pages:
            return pages[locale]
        from ..trace import build_report, report_markdown
        try:
            if self.trace_report is None:
                examples = tuple(ex for group in self.examples.values() for ex in group)
                self.trace_report = build_report(self.catalog, self.tree, examples)
            pages[locale] = report_markdown(self.trace_report, locale, cards=True)  # tables as phone cards
        except Exception as exc:  # the report is another package's; keep the site building without it
            logging.getLogger("mkdocs.plugins.pto-docs").info(f"pto-docs: traceability report page left out: {exc!r}")
            pages[locale] = None
        return pages[locale]

    def findings_of(self, unit: Unit) -> tuple:
        """The model-check findings an instruction page shows (checks/findings.py findings_of)."""
        return self.findings.get(unit.id, ())

    def flags_via(self, unit: Unit) -> tuple:
        """The FLAGS-PROSE findings of the functions an instruction's execution calls (none for other units)."""
        return self.flags_through.get(unit.id, ())

    def trace_row(self, unit: Unit) -> dict[str, Any]:
        """The traceability unit row: the tree's own when it has one, else derived from the catalog."""
        if unit.id in self.trace_units:
            return self.trace_units[unit.id]
        cat = self.catalog
        row: dict[str, Any] = {
            "classification": list(unit.classification),
            "id": unit.id,
            "readiness_subjects": list(self.adrs_of(unit)),
            "source": unit.path,
            "surface": unit.surface,
            "tests": list(cat.tests_by_unit.get(unit.id, ())),
        }
        if unit.is_instruction:
            row["mnemonic"] = unit.mnemonic
            row["instruction_contract"] = {"mnemonic": unit.mnemonic, "ndf_clause": unit.requirement_id}
        return row

    def tests_of(self, unit: Unit) -> tuple[str, ...]:
        """Tests owned by the unit, plus the tests of every requirement it owns (as upstream)."""
        cat = self.catalog
        ids = set(cat.tests_by_unit.get(unit.id, ()))
        row = self.trace_units.get(unit.id, {})
        ids.update(t for t in row.get("tests", ()) + row.get("semantic_tests", ()) if t in cat.tests)
        owned = [c.id for c in unit.ndf] + ([unit.requirement_id] if unit.requirement_id else [])
        for rid in owned:
            ids.update(cat.tests_by_requirement.get(rid, ()))
        return tuple(sorted(ids))

    def adrs_of(self, unit: Unit) -> tuple[str, ...]:
        cat = self.catalog
        ids = set(cat.adrs_by_unit.get(unit.id, ()))
        for clause in unit.ndf:
            ids.update(cat.adrs_by_ndf.get(clause.id, ()))
        ids.update(a for a in self.trace_units.get(unit.id, {}).get("readiness_subjects", ()) if a in cat.adrs)
        return tuple(sorted(ids))


def _instruction_findings(catalog: Catalog, data: SiteData, memo) -> tuple[dict, tuple, dict]:
    """(instruction id -> its model-check findings, all of them in the report page's order, instruction id -> the
    FLAGS-PROSE findings of the functions its execution calls), for every instruction that has any."""
    from ..checks.findings import findings_of
    findings = {u.id: found for u in catalog.instructions if (found := findings_of(u, catalog, data.assembly, memo))}
    listed = tuple(f for u in sorted(catalog.instructions, key=lambda u: (u.mnemonic or "", u.id))
                   for f in findings.get(u.id, ()))
    through: dict = {}
    if data.flags:
        from ..checks.flags import executes_through
        from ..model.catalog import asl_name
        for u in catalog.instructions:
            stem = asl_name(u.mnemonic or "")
            found = tuple(f for f in data.flags if executes_through(u.file.text, stem, f.function))
            if found:
                through[u.id] = found
    return findings, listed, through


def _recorded_hashes(catalog: Catalog) -> dict[str, str]:
    """path -> sha256 of every file the release manifest records (canonical inputs and owned artifacts)."""
    manifest = catalog.json("spec/release-manifest.json")
    out: dict[str, str] = {}
    if isinstance(manifest, Mapping):
        for key in ("canonical_inputs", "owned_artifacts"):
            for item in manifest.get(key, ()) or ():
                if isinstance(item, Mapping) and isinstance(item.get("path"), str) and isinstance(item.get("sha256"), str):
                    out.setdefault(item["path"], item["sha256"])
    return out


def _artifact(catalog: Catalog, tree: SpecTree, aid: str, path: str, status_at: tuple[str, ...]) -> Artifact:
    node: Any = catalog.json(path)
    for key in status_at:
        node = node.get(key) if isinstance(node, Mapping) else None
    return Artifact(aid, path, str(node) if node is not None else "", tree.sha256(path))
