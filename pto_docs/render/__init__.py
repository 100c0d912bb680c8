"""Pure renderers: page models from the Catalog, Jinja2 templates to Markdown + escaped HTML, both languages."""

from .pages import SiteRenderer

__all__ = ["SiteRenderer"]
