"""``pto-docs build NEW --previous OLD``: the changes page in both languages, the note on a changed instruction's
page, the page kept at a removed instruction's old address; a changed OLD rebuilds (site/history.py)."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest
from history_helpers import ARITH, CHANGELOG_LINE, cli, make_releases

PAGE = "instructions/tile/elementwise-tile-tile/arithmetic/{}/index.html"


@pytest.fixture(scope="module")
def history_site(tmp_path_factory):
    base = tmp_path_factory.mktemp("history")
    old, new = make_releases(base)
    site = base / "site"
    rc, err = cli("build", str(new), "--previous", str(old), "--site-dir", str(site), "-q")
    assert rc == 0, err
    return old, new, site


def _text(path: Path) -> str:
    page = path.read_text("utf-8")
    article = re.search(r"<article.*?</article>", page, re.S).group(0)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", article)))


def _links(path: Path) -> dict[str, str]:
    return {html.unescape(text.strip()): href for href, text in
            re.findall(r'<a href="([^"]+)"[^>]*>(?:<code[^>]*>)?([^<]*)', path.read_text("utf-8"))}


@pytest.mark.parametrize("lang,title", [("", "Changes since 0.58.4"), ("zh-CN/", "自 0.58.4 以来的变更")])
def test_the_changes_page_names_what_changed(history_site, lang, title):
    _old, _new, site = history_site
    page = site / lang / "changes" / "index.html"
    text = _text(page)
    assert title in text
    # the removed instruction, linked to the page kept at its old address; the changed one, with its old and new text
    assert (page.parent / _links(page)["TOLDADD"] / "index.html").resolve() == (site / lang / PAGE.format("TOLDADD")).resolve()
    row = re.search(r'<tr id="change-TMUL">(.*?)</tr>', page.read_text("utf-8"), re.S).group(1)
    assert "Multiplied the matching elements" in row and "Multiplies the matching elements" in row
    assert "TADD" not in re.findall(r'<tr id="change-([^"]+)"', page.read_text("utf-8"))
    # in the navigation of every page
    assert title in (site / lang / "index.html").read_text("utf-8")


@pytest.mark.parametrize("lang", ["", "zh-CN/"])
def test_a_changed_instruction_says_so_and_links_to_its_change(history_site, lang):
    _old, _new, site = history_site
    tmul = site / lang / PAGE.format("TMUL")
    note = re.search(r'<div class="admonition info pto-release-change".*?</div>', tmul.read_text("utf-8"), re.S).group(0)
    href = re.search(r'href="([^"]+)"', note).group(1)
    target, _, fragment = href.partition("#")
    assert fragment == "change-TMUL"
    assert f'id="{fragment}"' in (tmul.parent / target / "index.html").read_text("utf-8")
    assert "pto-release-change" not in (site / lang / PAGE.format("TADD")).read_text("utf-8")


@pytest.mark.parametrize("lang", ["", "zh-CN/"])
def test_a_removed_instruction_keeps_a_page_at_its_old_address(history_site, lang):
    _old, _new, site = history_site
    page = site / lang / PAGE.format("TOLDADD")
    text = _text(page)
    assert "0.58.5" in text and "0.58.4" in text
    assert (page.parent / _links(page)["ADR-0059"] / "index.html").resolve() == (site / lang / "adrs/ADR-0059/index.html").resolve()
    assert CHANGELOG_LINE in text  # quoted as text: the tree's markup is not the page's
    # what replaces it (ADR-0059 and the changelog name TADD with it), linked to TADD's page of this release
    replaced = re.search(r'<p class="pto-replaced-by">(.*?)</p>', page.read_text("utf-8"), re.S).group(1)
    assert re.findall(r"<code>([^<]*)</code>", replaced) == ["TADD"]
    href = re.search(r'href="([^"]+)"', replaced).group(1)
    assert (page.parent / href / "index.html").resolve() == (site / lang / PAGE.format("TADD")).resolve()
    assert "Adds <img src=x onerror=alert(1)> the" in text  # (the old release's summary, as text too)
    for shown in (page, site / lang / "changes" / "index.html"):
        assert "<b>instead</b>" not in shown.read_text("utf-8") and "<img src=x" not in shown.read_text("utf-8")


def test_without_previous_there_is_no_history(history_site, tmp_path):
    _old, new, _site = history_site
    site = tmp_path / "site"
    rc, err = cli("build", str(new), "--site-dir", str(site), "-q")
    assert rc == 0, err
    assert not (site / "changes").exists() and not (site / PAGE.format("TOLDADD")).exists()
    assert "pto-release-change" not in (site / PAGE.format("TMUL")).read_text("utf-8")


def test_a_changed_previous_release_is_not_served_from_the_cache(tmp_path):
    old, new = make_releases(tmp_path)
    site = tmp_path / "site"
    assert cli("build", str(new), "--previous", str(old), "--site-dir", str(site), "-q")[0] == 0
    assert "pto-release-change" in (site / PAGE.format("TMUL")).read_text("utf-8")
    shutil.copy(new / ARITH / "TMUL.asl", old / ARITH / "TMUL.asl")  # TMUL no longer changed since OLD
    rc, err = cli("build", str(new), "--previous", str(old), "--site-dir", str(site), "-q")
    assert rc == 0, err
    assert "pto-release-change" not in (site / PAGE.format("TMUL")).read_text("utf-8")


def test_a_previous_release_that_is_neither_a_tree_nor_a_revision_is_a_usage_error(tmp_path):
    tree = tmp_path / "tree"  # (outside any git checkout)
    shutil.copytree(Path(__file__).resolve().parents[2] / "catalog", tree)
    rc, err = cli("build", str(tree), "--previous", "v9.9.9", "--site-dir", str(tmp_path / "site"))
    assert rc == 2
    assert err.startswith("v9.9.9: error[IO-ROOT]: --previous: neither a spec tree directory nor a git revision"), err
    # in a checkout (this repository's): a name no revision has
    rc, err = cli("build", "catalog", "--previous", "no-such-tag-9.9.9", "--site-dir", str(tmp_path / "site"))
    assert rc == 2 and "error[GIT-REVISION]" in err and "no-such-tag-9.9.9" in err, err
    assert not (tmp_path / "site").exists()


def test_long_values_are_cut_around_their_first_difference():
    from pto_docs.render.changes import MAX_VALUE, shortened
    old, new = "x" * 500 + "old tail", "x" * 500 + "new tail"
    a, b = shortened(old, new)
    assert "old tail" in a and "new tail" in b and a != b
    assert len(a) <= MAX_VALUE + 2 and len(b) <= MAX_VALUE + 2
    assert shortened("short", None) == ("short", None)
    assert shortened({"k": [1, 2]}, {"k": [1, 3]}) == ('{"k": [1, 2]}', '{"k": [1, 3]}')


def test_a_replacement_is_an_instruction_of_the_new_release_named_in_the_same_sentence_or_line(tmp_path):
    from pto_docs.api import load_catalog
    from pto_docs.history.naming import ReleaseNotes
    old, new = make_releases(tmp_path)
    (new / "CHANGELOG.md").write_text("# Changelog\n\n- TOLDADD: replaced by TSQRT.\n- TMUL and SWI are unchanged.\n"
                                    "- TOLDADD and TCOLEXPAND were reviewed.\n", "utf-8")
    notes = ReleaseNotes(load_catalog(new).catalog, (new / "CHANGELOG.md").read_text("utf-8"))
    named = notes.naming("TOLDADD", "PTO-TILE-TOLDADD")
    # ADR-0059's sentence names TADD, the changelog line TSQRT; TMUL and SWI are in a line that does not name it
    assert named.replacements == ("TADD", "TSQRT")
    # a line naming it with another instruction but saying nothing replaces it names no replacement
    assert named.changelog == ("- TOLDADD: replaced by TSQRT.", "- TOLDADD and TCOLEXPAND were reviewed.")
    assert "ADR-0059" in named.adrs
    assert notes.naming("TNOSUCH").replacements == () and not notes.naming("TNOSUCH")


def test_a_mnemonic_is_named_only_as_a_whole_word():
    from pto_docs.history.naming import names as mentions
    assert mentions("Scope: `B.EQ`, `B.NE`.", "B.EQ") and mentions("B.EQ is reserved", "B.EQ")
    assert not mentions("B.EQZ is kept", "B.EQ") and not mentions("XB.EQ", "B.EQ") and not mentions("B.EQ.W", "B.EQ")
    assert mentions("see PTO-TILE-TOLDADD", "TOLDADD", "PTO-TILE-TOLDADD")


def test_the_plugin_option_previous_is_read_relative_to_mkdocs_yml(tmp_path):
    import subprocess
    import sys
    old, new = make_releases(tmp_path)
    (new / "mkdocs.yml").write_text("site_name: t\ntheme:\n  name: material\nplugins:\n  - pto-docs:\n"
                                    "      spec_root: .\n      previous: ../old\n  - search\n", "utf-8")
    site = tmp_path / "site"
    env = {**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)], cwd=new, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert 'id="change-TMUL"' in (site / "zh-CN" / "changes" / "index.html").read_text("utf-8")
    assert (site / PAGE.format("TOLDADD")).is_file()


def test_the_site_and_the_gate_read_the_same_changelog(tmp_path):
    """A changelog line past the first MiB: the pages of removed instructions quote it as the gate counts it (the
    site read only the first MiB, so its page said nothing names the instruction the gate saw named)."""
    from pto_docs.api import load_catalog
    from pto_docs.history.diff import diff_analyses
    from pto_docs.history.naming import changelog_text
    from pto_docs.history.undocumented import undocumented_changes
    from pto_docs.site.history import PreviousRelease
    old, new = make_releases(tmp_path)
    adr = new / "docs/status/decisions/0059-mnemonic-field-encoding-closure.md"
    adr.write_text(adr.read_text("utf-8").replace("TOLDADD is replaced by TADD.", ""), "utf-8")
    line = "- TOLDADD is replaced by TSQRT"
    (new / "CHANGELOG.md").write_text("# Changelog\n\n" + ("- filler\n" * 120_000) + line + "\n", "utf-8")
    assert (new / "CHANGELOG.md").stat().st_size > 1 << 20
    catalog = load_catalog(new).catalog
    removed = PreviousRelease(str(old), tmp_path, new).history(catalog, new).removed
    assert [(r.unit.mnemonic, r.changelog, r.replacements) for r in removed] == [("TOLDADD", (line,), ("TSQRT",))]
    diff = diff_analyses(load_catalog(old).catalog, catalog)
    assert undocumented_changes(diff, catalog, changelog_text(new)) == []
    # and a link in its place is read by neither
    (new / "CHANGELOG.md").rename(tmp_path / "elsewhere.md")
    (new / "CHANGELOG.md").symlink_to(tmp_path / "elsewhere.md")
    assert PreviousRelease(str(old), tmp_path, new).history(catalog, new).removed[0].changelog == ()
    assert [f[1] for f in undocumented_changes(diff, catalog, changelog_text(new))] == ["TOLDADD"]
