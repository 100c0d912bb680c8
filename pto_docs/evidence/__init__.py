"""The derived files of a spec tree that pto-docs maintains itself (``pto-docs evidence``).

A tree whose ``specification.toml`` names ``[toolchain] evidence_generator = "pto-docs evidence"`` (the sample
tree ``catalog/``) keeps its catalog projections, ADR index, readiness evidence and release manifest as pure
functions of its sources. They are derived here from the one loaded :class:`~pto_docs.model.catalog.Catalog`, never by
reading the tree a second time. Upstream pto-spec keeps its own generators; pto-docs only checks such a tree.
"""

from .derive import GENERATOR, OUTPUTS, derive_evidence, owns_evidence

__all__ = ["GENERATOR", "OUTPUTS", "derive_evidence", "owns_evidence"]
