"""What the site footer shows: the release identity and the generator, as one small dict for the theme.

The language build (site/build.py) puts it in ``config.extra["pto_footer"]`` (and in the no-change manifest, so
an unchanged tree needs no load for it); ``templates/overrides/partials/copyright.html`` renders it.
"""

from __future__ import annotations

from .. import __version__
from ..i18n import labels


def footer_identity(catalog, locale: str) -> dict[str, str]:
    lab = labels(locale)
    rel = catalog.release
    status_key = f"release.{rel.status}"
    parts = {
        "release": lab.t("footer.release", version=rel.version,
                         status=lab.t(status_key) if status_key in lab.keys() else rel.status),
        "generator": lab.t("footer.generator", version=__version__),
    }
    if rel.commit:
        parts["commit"] = lab.t("footer.commit", commit=rel.commit[:12] + ("+dirty" if rel.dirty else ""))
    if rel.tag:
        parts["tag"] = rel.tag
    return parts
