"""What the data-type page shows (templates/pages/data_types.md.j2): the tree's data-type code table."""

from __future__ import annotations

from typing import Any

from ..analysis.data_types import DATA_TYPE_DOMAIN, data_types, field_domains
from ..i18n import labels
from ..model.catalog import Catalog
from . import routes
from .env import Prose
from .field_values import value_ranges


def data_types_values(catalog: Catalog, locale: str) -> dict[str, Any] | None:
    """The page's values, or None when the tree defines no data-type codes (no page)."""
    table = data_types(catalog)
    domain = field_domains(catalog).get(DATA_TYPE_DOMAIN)
    if not table or domain is None:
        return None
    lab = labels(locale)
    keys = lab.keys()
    width = domain.width if domain.width and domain.width <= 64 else None
    rows = [{"code": t.code, "name": t.name, "width": t.width, "lanes": t.lanes, "format": t.format,
             "binary": format(t.code, f"0{width}b") if width and 0 <= t.code < (1 << width) else str(t.code),
             "kind": (lab.t(f"reference.kind.{t.kind}") if f"reference.kind.{t.kind}" in keys else t.kind) if t.kind else None}
            for t in table]
    owner = catalog.units.get(domain.owner)
    src = routes.DATA_TYPES

    def prose(key: str, text: str) -> Prose | None:
        return Prose(domain.owner, f"{domain.pointer}/{key}", text) if text else None

    return {"rows": rows, "domain": domain, "profiled": any(t.width is not None for t in table),
            "owner_href": routes.relative(src, routes.unit_src(owner)) if owner is not None else "",
            "role": prose("role", domain.role), "zero": prose("zero_meaning", domain.zero_meaning),
            "rejection": prose("rejection", domain.rejection), "reserved": value_ranges(domain.reserved)}
