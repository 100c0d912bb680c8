"""render/pages.py SiteRenderer.compile_templates: prepare() compiles every page template before the languages fork,
so a forked language renders with the compiled templates it inherits; a template that does not compile is left
for the render that uses it to report, as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import pytest

from pto_docs.render.env import environment
from pto_docs.render.resources import TEMPLATES_DIR
from pto_docs.site.rendering import build_state

REPO = Path(__file__).resolve().parents[2]


def test_prepare_leaves_every_page_template_compiled(tmp_path, monkeypatch):
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES_DIR, templates)
    renderer = build_state(REPO / "catalog", templates_dir=str(templates)).renderer
    names = renderer.env.list_templates(extensions=("j2",))
    assert len(names) > 15 and renderer.env is environment(str(templates))
    renderer.prepare()
    compiled = []
    monkeypatch.setattr(jinja2.Environment, "_compile", lambda self, *a: compiled.append(a) or None)
    for name in names:  # what a forked language would do: every template comes from the cache, none compiles
        renderer.env.get_template(name)
    assert compiled == []


def test_a_template_that_does_not_compile_is_left_to_its_render(tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES_DIR, templates)
    (templates / "partials" / "unused.html.j2").write_text("{% if %}", "utf-8")
    renderer = build_state(REPO / "catalog", templates_dir=str(templates)).renderer
    renderer.prepare()  # no exception
    with pytest.raises(jinja2.TemplateSyntaxError):  # the render that uses it reports it
        renderer.env.get_template("partials/unused.html.j2")
