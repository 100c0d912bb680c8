"""Developer sessions: nox -s tests | lint | docs | manual | trace | bench."""

from __future__ import annotations

import os

import nox

nox.options.sessions = ["lint", "tests"]
nox.options.reuse_existing_virtualenvs = True


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite (browser tests need Debian's chromium at /usr/bin/chromium)."""
    session.install("-e", ".[test]")
    session.run("pytest", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    session.install("ruff")
    session.run("ruff", "check", "pto_docs", "tests", "benchmarks", "manual", "noxfile.py")


@nox.session
def docs(session: nox.Session) -> None:
    """Build the bilingual site from catalog/ into site/, strictly."""
    session.install("-e", ".")
    session.run("mkdocs", "build", "--strict")


@nox.session
def manual(session: nox.Session) -> None:
    """Build the pto-docs manual (manual/: a site of its own, never part of a spec site) into manual/site/,
    strictly: a broken link or anchor fails it. Its codes table comes from the code registry (manual/hooks.py)."""
    session.install("-e", ".")
    session.run("mkdocs", "build", "--strict", "-f", "manual/mkdocs.yml", *session.posargs,
                env={"NO_MKDOCS_2_WARNING": "1"})


@nox.session
def trace(session: nox.Session) -> None:
    """Run the traceability gate on catalog/ (or on the tree given after --)."""
    session.install("-e", ".")
    session.run("pto-docs", "trace", *(session.posargs or ["catalog", "--check"]))


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks only (never run as tests). Set PTO_SPEC_CHECKOUT for the real-tree figures."""
    session.install("-e", ".")
    # (and the benchmarks' own settings: PTO_DOCS_BENCH_ROUNDS, PTO_DOCS_BENCH_SERVE_EDIT=code, ..._SERVE_WARM=1)
    env = {k: v for k, v in os.environ.items()
           if k in ("PTO_SPEC_CHECKOUT", "PTO_DOCS_AVS_DECODERS") or k.startswith("PTO_DOCS_BENCH_")}
    session.run("python", "benchmarks/run.py", *session.posargs, env=env)
