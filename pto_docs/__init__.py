"""pto-docs: bilingual documentation and hash-checked traceability for PTO ISA specification trees."""

__version__ = "0.1.0"
