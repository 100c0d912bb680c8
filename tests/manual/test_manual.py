"""The manual (manual/: a MkDocs site of its own) builds strictly, with every link and anchor resolved; it loads
nothing from outside itself; its codes page is the code registry; its commands page documents every command
and option of the CLI; it is not shipped; and the README stays a first screen whose links all resolve."""

from __future__ import annotations

import argparse
import ast
import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pto_docs.cli import build_parser

try:  # the registry moves into pto_docs/model/ (issue 31)
    from pto_docs.model.codes import CODES
except ImportError:
    from pto_docs.model.codes import CODES

REPO = Path(__file__).resolve().parents[2]
MANUAL = REPO / "manual"
README = REPO / "README.md"


def build(config: Path, site: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          capture_output=True, text=True, env=env, timeout=600)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("manual") / "site"
    done = build(MANUAL / "mkdocs.yml", out)
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def page_text(site: Path, page: str) -> str:
    return (site / page / "index.html").read_text("utf-8")


def test_every_page_is_built_and_in_the_navigation(site):
    sources = sorted(p.stem for p in (MANUAL / "docs").glob("*.md"))
    assert len(sources) >= 15
    for stem in sources:
        assert (site / ("" if stem == "index" else stem) / "index.html").is_file(), stem
    # the speed log of benchmarks/ is a page too, with the log's own text
    log = page_text(site, "speed-log")
    first_row = next(line for line in (REPO / "benchmarks" / "RESULTS.md").read_text("utf-8").splitlines()
                     if line.startswith("| first bilingual build"))
    assert "first bilingual build against upstream" in log and first_row.count("|") > 3


def test_a_broken_anchor_or_link_fails_the_build(tmp_path):
    """The validation options of manual/mkdocs.yml make --strict fail on a link to a missing page or anchor
    (MkDocs' defaults only log those)."""
    shutil.copytree(REPO / "pto_docs", tmp_path / "pto_docs", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "benchmarks").mkdir()
    shutil.copy(REPO / "benchmarks" / "RESULTS.md", tmp_path / "benchmarks" / "RESULTS.md")
    shutil.copytree(MANUAL / "docs", tmp_path / "manual" / "docs")
    for name in ("mkdocs.yml", "hooks.py"):
        shutil.copy(MANUAL / name, tmp_path / "manual" / name)
    page = tmp_path / "manual" / "docs" / "commands.md"
    original = page.read_text("utf-8")
    broken = ("formats.md#no-such-section", "no-such-page.md", "#no-such-heading")
    page.write_text(original + "".join(f"\n[x]({target})\n" for target in broken), "utf-8")
    done = build(tmp_path / "manual" / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    warned = [line for line in done.stderr.splitlines() if line.startswith("WARNING")]
    assert [target for target in broken if not any(target.split("#")[-1] in line for line in warned)] == [], warned


_RESOURCE = re.compile(r"<(?:script|link|img|iframe|source|audio|video|embed|object)\b[^>]*?"
                       r"\s(?:src|href|data|srcset)=[\"']?\s*(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?//", re.I)


def test_no_page_loads_anything_from_outside_the_manual(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 15
    offending = {str(p.relative_to(site)): _RESOURCE.findall(p.read_text("utf-8")) for p in pages}
    assert {k: v for k, v in offending.items() if v} == {}
    for sheet in site.rglob("*.css"):
        text = sheet.read_text("utf-8", errors="replace")
        assert not re.search(r"(?:@import|url\()\s*[\"']?(?:https?:)?//", text), sheet  # no web fonts, no CDN


_CODE_ROW = re.compile(r"<tr>\s*<td><code>([A-Z][A-Z0-9-]*)</code></td>\s*<td>(.*?)</td>\s*</tr>", re.S)


def test_the_codes_page_is_the_code_registry(site):
    shown = {code: html.unescape(re.sub(r"<[^>]+>", "", meaning))
             for code, meaning in _CODE_ROW.findall(page_text(site, "diagnostics"))}
    assert len(CODES) > 40
    assert shown == {code: meaning.replace("`", "") for code, meaning in CODES.items()}


_GATE_ROW = re.compile(r"<tr>\s*<td><code>([a-z][a-z0-9-]*)</code></td>\s*<td>(error|warning|ignore)</td>\s*"
                       r"<td>(.*?)</td>\s*</tr>", re.S)


def test_the_gate_codes_on_the_traceability_page_are_the_gates(site):
    from pto_docs.trace.gate import CODES as GATE_CODES
    shown = {code: (severity, html.unescape(re.sub(r"<[^>]+>", "", meaning)))
             for code, severity, meaning in _GATE_ROW.findall(page_text(site, "traceability"))}
    assert len(GATE_CODES) > 40
    assert shown == {code: (severity, meaning.replace("`", "")) for code, (severity, meaning) in GATE_CODES.items()}


def cli_commands() -> dict[str, list[str]]:
    """Every command of the CLI ("i18n status" for a nested one) with its option strings and positionals."""
    found: dict[str, list[str]] = {}

    def walk(parser: argparse.ArgumentParser, prefix: tuple[str, ...]) -> None:
        options = []
        for action in parser._actions:  # noqa: SLF001 - argparse keeps no public list of them
            if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
                for name, sub in action.choices.items():
                    walk(sub, (*prefix, name))
                return
            options += [o for o in action.option_strings if o not in ("-h", "--help")]
        if prefix:
            found[" ".join(prefix)] = options

    walk(build_parser(), ())
    return found


def test_the_commands_page_documents_every_command_and_option():
    text = (MANUAL / "docs" / "commands.md").read_text("utf-8")
    sections = dict(re.findall(r"^## ([^\n]+)\n(.*?)(?=^## |\Z)", text, re.M | re.S))
    commands = cli_commands()
    assert {"validate", "build", "trace", "avs", "exec", "i18n status", "i18n extract"} <= set(commands)
    assert set(sections) == set(commands)
    missing = {name: [o for o in options if f"`{o}" not in sections[name]] for name, options in commands.items()}
    assert {name: options for name, options in missing.items() if options} == {}
    for name, body in sections.items():
        assert re.search(r"Exit 0", body), f"{name}: no exit codes"


def test_the_manual_is_not_shipped():
    """setup.py ships pto_docs/ and the data directories it maps; none of them is or holds the manual, which has
    no Python package either (manual/hooks.py is loaded by MkDocs from the manual's own configuration)."""
    assert (MANUAL / "mkdocs.yml").is_file()
    tree = ast.parse((REPO / "setup.py").read_text("utf-8"))
    shipped = next(ast.literal_eval(node.value) for node in ast.walk(tree)
                   if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "SHIPPED")
    roots = [REPO / "pto_docs", *(REPO / folder for folder in shipped.values())]
    for root in roots:
        assert root.is_dir() and not MANUAL.is_relative_to(root) and not root.is_relative_to(MANUAL), root
    assert not list(MANUAL.rglob("__init__.py"))
    for config in (REPO / "mkdocs.yml", REPO / "pto_docs" / "site" / "default-mkdocs.yml"):
        if config.is_file():
            assert "manual" not in config.read_text("utf-8"), config


_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def github_slug(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_the_readme_is_a_first_screen_whose_links_resolve():
    text = README.read_text("utf-8")
    assert len(text.splitlines()) <= 300
    # the commands in one table: every command of the CLI
    listed = set(re.findall(r"^\| `pto-docs ([a-z0-9-]+(?: [a-z]+)?)", text, re.M))
    assert listed == set(cli_commands())
    slugs = {github_slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}
    links = _LINK.findall(text)
    local = [target for target in links if not re.match(r"^[a-z]+:", target)]
    assert len(local) >= 10  # it points into the manual
    for target in local:
        path, _, fragment = target.partition("#")
        if path:
            assert (README.parent / path).resolve().is_file(), target
        else:
            assert fragment in slugs, target
    assert {(README.parent / t.partition("#")[0]).resolve() for t in local if t.endswith(".md")} >= {
        MANUAL / "docs" / name for name in ("commands.md", "diagnostics.md", "security.md", "architecture.md")}
