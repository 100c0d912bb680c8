"""`python -m pto_docs.cli`: the pto-docs command line."""

from . import run

run()
