"""A serving process keeps the file listing of installed theme directories (site/theme_listing.py): the answer is
Jinja's own, an installed directory is walked once, and a directory of the author's (a custom_dir) is walked on
every call, so a file added to it while serving is seen."""

from __future__ import annotations

import jinja2
import material
from mkdocs.structure.files import Files

from pto_docs.site import theme_listing
from tests.mkdocs_config import REPO


def _mkdocs_config(custom_dir):
    from mkdocs.config import load_config
    text = (REPO / "mkdocs.yml").read_text("utf-8").replace("docs_dir: site_src", f"docs_dir: {REPO / 'site_src'}")
    text = text.replace("  name: material\n", f"  name: material\n  custom_dir: {custom_dir}\n", 1)
    path = custom_dir.parent / "mkdocs.yml"
    path.write_text(text, "utf-8")
    return load_config(config_file=str(path), site_dir=str(custom_dir.parent / "site"))


def _walks(monkeypatch) -> list[str]:
    walked: list[str] = []
    real = theme_listing._names
    monkeypatch.setattr(theme_listing, "_names", lambda d, f: walked.append(d) or real(d, f))
    return walked


def test_the_listing_is_jinjas_and_an_installed_directory_is_walked_once(tmp_path, monkeypatch):
    custom = tmp_path / "overrides"
    (custom / "assets").mkdir(parents=True)
    (custom / "assets" / "mine.css").write_text("a {}\n", "utf-8")
    config = _mkdocs_config(custom)
    plain = config.theme.get_env()
    expected = Files([])
    expected.add_files_from_theme(plain, config)
    theme_listing._LISTINGS.clear()
    theme_listing._VERDICTS.clear()
    walked = _walks(monkeypatch)
    kept = config.theme.get_env()
    theme_listing.install(kept)
    first = Files([])
    first.add_files_from_theme(kept, config)
    assert [f.src_uri for f in first] == [f.src_uri for f in expected]
    assert kept.list_templates() == plain.list_templates()
    assert kept.list_templates(extensions=["html"]) == plain.list_templates(extensions=["html"])
    installed = [d for d in walked if theme_listing._installed(d)]
    assert any(d.startswith(str(material.__path__[0])) for d in installed)
    walked.clear()
    (custom / "assets" / "added.css").write_text("b {}\n", "utf-8")  # added while serving
    again = config.theme.get_env()
    theme_listing.install(again)
    second = Files([])
    second.add_files_from_theme(again, config)
    assert walked == [str(custom)]  # the author's directory only: the installed ones are kept
    assert "assets/added.css" in {f.src_uri for f in second}
    assert [f.src_uri for f in second if f.src_uri != "assets/added.css"] == [f.src_uri for f in first]


def test_another_filter_or_loader_is_answered_as_jinja_answers(tmp_path):
    env = jinja2.Environment(loader=jinja2.DictLoader({"a.html": "", "b.css": ""}))
    theme_listing.install(env)
    assert env.list_templates(filter_func=lambda n: n.endswith(".css")) == ["b.css"]
    assert env.list_templates() == ["a.html", "b.css"]
