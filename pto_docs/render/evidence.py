"""Evidence index of a unit: its tests (with exact sources), the commit-scoped artifacts and its ADRs."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..analysis.sitedata import Artifact, SiteData
from ..model.catalog import Unit
from . import routes
from .env import Prose
from .fragments import plain_code


@dataclass(frozen=True)
class TestRow:
    id: str
    path: str
    kind: str
    summary: str
    pass_condition: str
    sha256: str
    requirements: tuple[str, ...]
    source: Markup
    avs_status: str = ""  # pass | fail | error | stale | missing; "" without AVS results (plugin avs_results)
    avs_message: str = ""


@dataclass(frozen=True)
class AdrRow:
    id: str
    title: Prose  # translatable like the ADR page's own title
    status: str
    path: str
    sha256: str
    href: str


@dataclass(frozen=True)
class EvidenceView:
    tests: tuple[TestRow, ...]
    artifacts: tuple[Artifact, ...]
    adrs: tuple[AdrRow, ...]
    avs_profile: str = ""

    @property
    def avs_counts(self) -> dict[str, int]:
        """The unit's tests by AVS status (empty without AVS results)."""
        counts: dict[str, int] = {}
        for t in self.tests:
            if t.avs_status:
                counts[t.avs_status] = counts.get(t.avs_status, 0) + 1
        return counts

    @property
    def count(self) -> int:
        return len(self.tests) + len(self.artifacts) + len(self.adrs)


def evidence_view(data: SiteData, unit: Unit, src: str) -> EvidenceView:
    cat = data.catalog
    tests = []
    for tid in data.tests_of(unit):
        t = cat.tests[tid]
        avs = data.avs.get(tid)
        tests.append(TestRow(t.id, t.path, t.kind, t.summary, t.pass_condition, t.file.sha256, t.requirements,
                             plain_code(t.file.text.rstrip("\n"), "asl"),
                             avs.status if avs else "", avs.message if avs else ""))
    adrs = []
    for aid in data.adrs_of(unit):
        a = cat.adrs[aid]
        adrs.append(AdrRow(a.id, Prose(a.id, "/title", a.title), a.status, a.path, a.file.sha256, routes.relative(src, routes.adr_src(a.id))))
    return EvidenceView(tuple(tests), data.artifacts, tuple(adrs), data.avs_profile if data.avs else "")
