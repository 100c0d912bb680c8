"""The MkDocs plugin package (entry point ``pto-docs`` -> :class:`pto_docs.site.plugin.PtoDocsPlugin`); see
plugin.py for what each module does."""
