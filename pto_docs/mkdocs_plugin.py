"""The plugin's old import path, kept for installs whose entry point still names it (until reinstalled)."""

from .site.plugin import PtoDocsPlugin

__all__ = ["PtoDocsPlugin"]
