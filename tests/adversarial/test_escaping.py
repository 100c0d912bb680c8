"""Every value from the tree is text wherever the site prints it (issue 30, finding 2): markup in every release
field of specification.toml, in a git tag name, branch and commit message, in titles, summaries, ADR front matter,
prose, translations and file names reaches no page, 404 included, as markup -- in either language and by either
build path (`pto-docs build`, and `pto-docs init` + `mkdocs build`).

Each planted value carries a marker of its own (``<x-pwnNN>``, also after ``">`` and ``'>`` to break out of an
attribute), so the scan is exact: a browser sees a tag only where ``<x-pwn`` stands unescaped in a page. In
sitemap.xml the same holds for XML; search_index.json is read as JSON, and its strings are HTML that the theme puts
into the page, so they must not hold the marker unescaped either."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO, run_cli, run_main, snapshot

TAG = "x-pwn"
RAW = re.compile(r"<\s*/?\s*x-pwn(\d+)", re.I)
ATTR = re.compile(r"['\"]?x-pwn(\d+)", re.I)


class Marks:
    """Hands out the planted values, each with a number of its own, and remembers where each went."""

    def __init__(self) -> None:
        self.where: dict[str, str] = {}

    def __call__(self, where: str) -> str:
        n = f"{len(self.where):02d}"
        self.where[n] = where
        return (f"<{TAG}{n}>\"><{TAG}{n}>'><{TAG}{n} a=\"b\">\" {TAG}{n}=\"1' {TAG}{n}='1"
                f"&lt;/title&gt;&lt;{TAG}{n}&gt;")  # (entities: a template that unescapes would make a tag)


def _git(root: Path, *argv: str) -> None:
    subprocess.run(["git", "-c", "user.name=pto", "-c", "user.email=pto@example.org", "-c", "init.defaultBranch=main",
                    *argv], cwd=root, check=True, capture_output=True)


def _rewrite_records(path: Path, marks: Marks, keys: tuple[str, ...]) -> None:
    """Append a mark to the named string fields of every ``// PTO-…: {json}`` record line of an ASL file."""
    lines = path.read_text("utf-8").split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"(// PTO-(?:INSTRUCTION|UNIT|TEST): )(\{.*\})\s*$", line)
        if not m:
            continue
        record = json.loads(m.group(2))
        for key in keys:
            if isinstance(record.get(key), str):
                record[key] += marks(f"{path.name} {key}")
        lines[i] = m.group(1) + json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    path.write_text("\n".join(lines), "utf-8")


def _rename_instruction(root: Path, old: str, where: str, new: str) -> None:
    """Give the tile instruction ``old`` the mnemonic ``new`` (free text in the schema) and move its unit file, tests,
    translation and ids to where the tree's rules then put them, so that the tree stays free of errors."""
    from pto_docs.model.catalog import mnemonic_stem, slug
    stem = mnemonic_stem(new)
    source = root / "asl/tile" / where / f"{old}.asl"
    text = source.read_text("utf-8")
    head, _, rest = text.partition("\n")
    record = json.loads(head[len("// PTO-INSTRUCTION: "):])
    record["mnemonic"] = new
    source.unlink()
    (source.parent / f"{stem}.asl").write_text(f"// PTO-INSTRUCTION: {json.dumps(record)}\n{rest}", "utf-8")
    (root / "tests/asl/tile" / where / old).rename(root / "tests/asl/tile" / where / stem)
    (root / f"translations/zh-CN/PTO-TILE-{old}.json").rename(root / f"translations/zh-CN/PTO-TILE-{slug(new)}.json")
    shutil.rmtree(root / "examples" / old)  # (an example names its instruction by a pattern a mark does not fit)
    ids = re.compile(rf"PTO-(INST-)?TILE-{old}(?![A-Z0-9-])")
    for path in root.rglob("*"):
        if path.is_file() and path.suffix in (".asl", ".json", ".md"):
            body = path.read_text("utf-8")
            changed = ids.sub(lambda m: f"PTO-{m.group(1) or ''}TILE-{slug(new)}", body)
            changed = changed.replace(f"{where}/{old}.asl", f"{where}/{stem}.asl")
            if changed != body:
                path.write_text(changed, "utf-8")


def hostile_tree(root: Path) -> Marks:
    """A copy of catalog/ at ``root`` with a mark in every place a tree's author controls text that reaches a page,
    made a git repository whose HEAD carries a tag, a branch and a commit message with marks."""
    marks = Marks()
    shutil.copytree(REPO / "catalog", root)
    spec = root / "specification.toml"
    text = spec.read_text("utf-8")
    for key in ("name", "short_name", "architecture_version", "encoding_abi"):
        text = re.sub(rf'^({key} = ")([^"]*)"', lambda m, k=key: m.group(1) + m.group(2)
                      + json.dumps(marks(f"specification.toml {k}"))[1:-1] + '"', text, count=1, flags=re.M)
    spec.write_text(text, "utf-8")
    for asl in sorted((root / "asl").rglob("*.asl")) + sorted((root / "tests").rglob("*.asl")):
        _rewrite_records(asl, marks, ("summary", "pass_condition"))
    tmul = root / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    body = tmul.read_text("utf-8")
    body = body.replace("// NDF-END:", f"// Prose {marks('NDF clause text')}\n// NDF-END:", 1)
    tmul.write_text(body, "utf-8")
    adr = root / "docs/status/decisions/0024-pc-relative-and-unscaled-agu-addressing.md"
    body = adr.read_text("utf-8")
    body = body.replace('"title": "PC-relative and unscaled AGU addressing"',
                        '"title": ' + json.dumps("PC-relative " + marks("ADR title")), 1)
    body += f"\n\n## Heading {marks('ADR heading')}\n\nText {marks('ADR body')}\n"
    adr.unlink()
    adr = adr.with_name("0024-pc" + marks("ADR file name").replace("/", "") + ".md")
    adr.write_text(body, "utf-8")
    tests = root / "tests/asl/tile/elementwise-tile-tile/arithmetic/TMUL"
    body = (tests / "tile-static-tmul-contract-001.asl").read_text("utf-8")
    (tests / f"q{marks('test file name').replace('/', '')}.asl").write_text(
        body.replace("PTO-AVS-TILE-TMUL-STATIC-001", "PTO-AVS-TILE-TMUL-STATIC-009"), "utf-8")
    for name in ("ADR-0024.json", "PTO-TILE-TMUL.json"):
        path = root / "translations/zh-CN" / name
        doc = json.loads(path.read_text("utf-8"))
        for entry in doc["strings"]:
            entry["text"] += marks(f"translation {name} {entry['pointer']}")
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=2), "utf-8")
    example = root / "examples/TMUL/u64-products.json"
    doc = json.loads(example.read_text("utf-8"))
    for lang in doc["caption"]:
        doc["caption"][lang] += marks(f"example caption {lang}")
    example.write_text(json.dumps(doc, ensure_ascii=False, indent=2), "utf-8")
    shutil.copy(example, root / "examples/TMUL" / f"q{marks('example file name').replace('/', '')}.json")
    _rename_instruction(root, "TSQRT", "elementwise-tile-tile/transcendental", "TSQRT" + marks("mnemonic"))
    _git(root, "init", "-q")
    _git(root, "checkout", "-q", "-b", f"b{marks('branch')}".replace(" ", "").replace('"', "").replace("'", ""))
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", f"commit {marks('commit message')}")
    _git(root, "tag", "v0.58.5" + marks("git tag").replace(" ", ""))
    return marks


def leaks(site: Path) -> dict[str, list[str]]:
    """Every page of the site (relative path) where a planted mark stands as markup: a tag, or an attribute that
    broke out of its quotes, as a browser's tokenizer sees it; with the numbers of the marks.

    Pages are the .html, .xml and .svg files and Material's search_index.json (its strings are HTML that the theme
    puts into the page). Data files are not pages: the examples' .json downloads, and search/pto-ids.json, whose
    strings assets/pto-search.js sets as textContent."""
    from html.parser import HTMLParser

    found: dict[str, list[str]] = {}
    for path in sorted(site.rglob("*")):
        if not path.is_file() or not (path.suffix in (".html", ".xml", ".svg") or path.name == "search_index.json"):
            continue
        text = path.read_text("utf-8", errors="replace")
        if path.suffix == ".json":
            text = "\n".join(str(v) for d in json.loads(text).get("docs", []) for v in d.values())
        hits = {m.group(1) for m in RAW.finditer(text)}

        class Scan(HTMLParser):
            def handle_starttag(self, tag, attrs):
                hits.update(m.group(1) for name, _v in attrs if (m := ATTR.match(name)))

            handle_startendtag = handle_starttag

        Scan(convert_charrefs=True).feed(text)
        if hits:
            found[path.relative_to(site).as_posix()] = sorted(hits)
    return found


def _named(found: dict[str, list[str]], marks: Marks) -> dict[str, list[str]]:
    return {page: [marks.where[n] for n in hits] for page, hits in found.items()}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> tuple[Path, Marks]:
    base = tmp_path_factory.mktemp("escaping")
    root = base / "T"
    marks = hostile_tree(root)
    return root, marks


def _check_site(site: Path, marks: Marks) -> None:
    pages = list(site.rglob("*.html"))
    assert (site / "404.html").is_file() and len(pages) > 40
    assert any((site / "zh-CN").rglob("*.html"))
    assert _named(leaks(site), marks) == {}
    # the marks are on the pages, as text: the test planted them where they are shown
    shown = "".join(p.read_text("utf-8") for p in pages)
    for n, where in marks.where.items():
        if where.startswith(("specification.toml architecture_version", "git tag", "ADR title", "mnemonic",
                             "ADR file name", "test file name")):
            assert f"&lt;{TAG}{n}&gt;" in shown, where


def test_pto_docs_build_prints_every_tree_value_as_text(hostile, tmp_path):
    root, marks = hostile
    before = snapshot(root)
    code, _out, err = run_main("validate", str(root))
    assert code == 0, err  # every mark is where the tree's rules allow text
    code, _out, err = run_cli("build", str(root), "--site-dir", str(tmp_path / "site"), "-q", "--no-cache")
    assert code == 0, err
    assert snapshot(root) == before
    _check_site(tmp_path / "site", marks)


def test_mkdocs_build_prints_every_tree_value_as_text(hostile, tmp_path):
    root, marks = hostile
    tree = tmp_path / "T"
    shutil.copytree(root, tree, symlinks=True)
    code, _out, err = run_main("init", str(tree))
    assert code == 0, err
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(tree / "mkdocs.yml"),
                           "--site-dir", str(site)], capture_output=True, text=True, timeout=600,
                          env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    _check_site(site, marks)
