"""``pto-docs build-versions``: mike's layout, the cache shared by later runs, refusals (site/versions.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from versions_helpers import build_versions, git, release_copy

from pto_docs.site.uptodate import fingerprint
from pto_docs.site.versions import release_dirs


def _redirect_target(page: Path) -> str:
    return re.search(r'url=([^"]+)"', page.read_text("utf-8")).group(1)


@pytest.fixture(scope="module")
def two_releases(tmp_path_factory):
    """0.9.10 and 0.9.9 (numeric order, not text order: 0.9.10 is the latest), built into one site."""
    base = tmp_path_factory.mktemp("releases")
    trees = [release_copy(base, "0.9.9"), release_copy(base, "0.9.10")]
    out = base / "out"
    rc, err = build_versions(*map(str, trees), "--site-dir", str(out))
    assert rc == 0, err
    return trees, out, err


def test_mike_layout_in_every_language(two_releases):
    _trees, out, _err = two_releases
    wanted = [{"version": "0.9.10", "title": "0.9.10", "aliases": ["latest"]},
              {"version": "0.9.9", "title": "0.9.9", "aliases": []}]
    for prefix in (out, out / "zh-CN"):
        assert json.loads((prefix / "versions.json").read_text("utf-8")) == wanted
        assert _redirect_target(prefix / "index.html") == "latest/"
        assert _redirect_target(prefix / "latest" / "index.html") == "../0.9.10/"
        assert _redirect_target(prefix / "latest" / "instructions" / "index.html") == "../../0.9.10/instructions/"
        for version in ("0.9.9", "0.9.10"):
            page = (prefix / version / "instructions" / "index.html").read_text("utf-8")
            config = json.loads(re.search(r'<script id="__config" type="application/json">(.*?)</script>', page).group(1))
            assert config["version"] == {"provider": "mike"}  # Material's version selector
    # every further language under its own prefix, not inside the primary's release directory
    assert not (out / "0.9.10" / "zh-CN").exists()
    assert (out / ".pto-docs-site").is_file()


def test_language_switch_links_across_the_versioned_layout(two_releases):
    _trees, out, _err = two_releases
    page = out / "0.9.9" / "instructions" / "index.html"
    links = {lang: href for href, lang in re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', page.read_text("utf-8"))}
    assert links["zh-CN"] == "../../zh-CN/0.9.9/instructions/"
    assert (page.parent / links["zh-CN"] / "index.html").resolve().is_file()
    zh = out / "zh-CN" / "0.9.9" / "instructions" / "index.html"
    back = {lang: href for href, lang in re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', zh.read_text("utf-8"))}
    assert (zh.parent / back["en"] / "index.html").resolve() == page.resolve()


def test_a_release_added_later_reuses_the_first_ones_build(tmp_path):
    first = release_copy(tmp_path, "1.0.0")
    out = tmp_path / "out"
    rc, err = build_versions(str(first), "-o", str(out))
    assert rc == 0, err
    _pages, cached = release_dirs(first.resolve(), None)
    before = fingerprint(cached)  # every file's path, size, mtime and inode
    published = {part: fingerprint(out / part) for part in ("1.0.0", "zh-CN/1.0.0")}
    assert before is not None and None not in published.values()
    second = release_copy(tmp_path, "1.1.0")
    rc, err = build_versions(str(first), str(second), "-o", str(out))
    assert rc == 0, err
    assert fingerprint(cached) == before, "the first release was built again"
    assert {part: fingerprint(out / part) for part in published} == published, "the first release was published again"
    lines = {line.split(":", 1)[0]: line for line in err.splitlines() if line.startswith("1.")}
    assert "nothing changed since the last build" in lines["1.0.0"]
    assert "0 reused" in lines["1.1.0"]
    assert [v["version"] for v in json.loads((out / "versions.json").read_text())] == ["1.1.0", "1.0.0"]
    assert (out / "1.0.0" / "units" / "index.html").is_file()


@pytest.mark.parametrize("version", ["../escape", "latest", "zh-CN", "1/2", "1..2", ""])
def test_a_version_that_cannot_name_a_directory_is_refused(tmp_path, version):
    tree = release_copy(tmp_path, version, name="tree")
    out = tmp_path / "out"
    rc, err = build_versions(str(tree), "-o", str(out))
    assert rc == 2
    assert re.match(rf"{re.escape(str(tree / 'specification.toml'))}:\d+:1: error\[VERSION-NAME\]: ", err), err
    assert not out.exists()
    assert not (tmp_path / "escape").exists()


def test_one_version_twice_and_a_stranger_directory_are_refused(tmp_path):
    a, b = release_copy(tmp_path, "2.0.0", name="a"), release_copy(tmp_path, "2.0.0", name="b")
    rc, err = build_versions(str(a), str(b), "-o", str(tmp_path / "out"))
    assert rc == 2 and "error[VERSION-TWICE]" in err
    stranger = tmp_path / "mine"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("keep me")
    rc, err = build_versions(str(a), "-o", str(stranger))
    assert rc == 2 and "refusing to replace its contents" in err
    assert sorted(p.name for p in stranger.iterdir()) == ["notes.txt"]
    rc, err = build_versions(str(a), "-o", str(tmp_path / "kept" / "site"), "--cache-dir", str(tmp_path / "kept"))
    assert rc == 2 and "error[OUTPUT-REFUSED]" in err and "cache of its releases' builds" in err, err


def test_a_republished_site_mends_what_was_edited_and_drops_what_was_left_out(tmp_path):
    a, b = release_copy(tmp_path, "3.0.0"), release_copy(tmp_path, "3.1.0")
    out = tmp_path / "out"
    assert build_versions(str(a), str(b), "-o", str(out))[0] == 0
    page = out / "3.0.0" / "units" / "index.html"
    good = page.read_bytes()
    page.unlink()
    page.write_text("edited by hand")  # (a new file: the kept build's hard link is untouched)
    rc, err = build_versions(str(a), "-o", str(out))  # 3.1.0 left out: 3.0.0 is the latest now
    assert rc == 0, err
    assert page.read_bytes() == good
    assert not (out / "3.1.0").exists() and not (out / "zh-CN" / "3.1.0").exists()
    assert [v["version"] for v in json.loads((out / "zh-CN" / "versions.json").read_text())] == ["3.0.0"]
    assert _redirect_target(out / "latest" / "units" / "index.html") == "../../3.0.0/units/"


def test_releases_from_a_checkouts_tags(tmp_path):
    """TREE may be a revision of the checkout the command runs in (read from .git; git itself is only used here to
    make the checkout)."""
    repo = release_copy(tmp_path, "4.0.0", name="repo")  # (no mkdocs.yml: the configuration shipped is used)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "4.0.0")
    git(repo, "tag", "v4.0.0")
    spec = repo / "specification.toml"
    spec.write_text(spec.read_text("utf-8").replace('"4.0.0"', '"4.1.0"'))
    git(repo, "commit", "-qam", "4.1.0")
    git(repo, "tag", "v4.1.0")
    out = tmp_path / "out"
    rc, err = build_versions("v4.0.0", "v4.1.0", "-o", str(out), cwd=repo)
    assert rc == 0, err
    assert [v["version"] for v in json.loads((out / "versions.json").read_text())] == ["4.1.0", "4.0.0"]
    assert (out / "zh-CN" / "4.0.0" / "units" / "index.html").is_file()
    rc, err = build_versions("v9.9.9", "-o", str(out), cwd=repo)
    assert rc == 2 and "error[GIT-REVISION]" in err, err


def test_with_changes_each_release_tells_what_changed_since_the_one_before(tmp_path):
    from history_helpers import make_releases
    old, new = make_releases(tmp_path, removed=False)  # 0.58.4 and 0.58.5 (TMUL reworded)
    out = tmp_path / "out"
    rc, err = build_versions(str(old), str(new), "--changes", "-o", str(out))
    assert rc == 0, err
    for prefix, title in (("", "Changes since 0.58.4"), ("zh-CN/", "自 0.58.4 以来的变更")):
        page = (out / prefix / "0.58.5" / "changes" / "index.html").read_text("utf-8")
        assert title in page and 'id="change-TMUL"' in page
        tmul = out / prefix / "0.58.5" / "instructions/tile/elementwise-tile-tile/arithmetic/TMUL/index.html"
        assert "pto-release-change" in tmul.read_text("utf-8")
        assert not (out / prefix / "0.58.4" / "changes").exists()


def test_a_release_that_fails_to_build_leaves_the_published_site_as_it_was(tmp_path):
    good = release_copy(tmp_path, "5.0.0")
    out = tmp_path / "out"
    assert build_versions(str(good), "-o", str(out))[0] == 0
    before = fingerprint(out)
    bad = release_copy(tmp_path, "5.1.0")
    unit = bad / "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"
    unit.write_text(unit.read_text("utf-8").replace('"mnemonic":"TADD"', '"mnemonic":"TADDX"', 1), "utf-8")
    rc, err = build_versions(str(good), str(bad), "-o", str(out))
    assert rc == 1 and f"release 5.1.0 ({bad.resolve()}): " in err and "the site is left as it was" in err, err
    assert fingerprint(out) == before
