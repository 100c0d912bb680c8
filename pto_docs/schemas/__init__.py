"""JSON Schemas shipped with pto-docs (data files)."""
