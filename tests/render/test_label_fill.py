"""Labels whose placeholders become HTML (the teaching stack-pointer note): filled in one pass, tree text escaped."""

from __future__ import annotations

from pathlib import Path

import yaml

from pto_docs.render.env import environment, fill
from pto_docs.render.resources import TEMPLATES_DIR

HOSTILE_PATH = "asl/<img src=x onerror=alert(1)>@@A@@.asl"


def test_a_placeholder_spelled_in_a_value_is_text_not_replaced_again():
    got = str(fill("at @@W@@, address @@A@@ & more", {"@@W@@": HOSTILE_PATH, "@@A@@": "0x400"}))
    assert got == "at asl/&lt;img src=x onerror=alert(1)&gt;@@A@@.asl, address 0x400 &amp; more"


def test_the_stack_pointer_note_escapes_the_tree_and_keeps_its_sentence():
    line = next(text for text in (Path(TEMPLATES_DIR) / "partials" / "teaching.html.j2").read_text().splitlines()
                if "t.stack" in text and "stack_pointer" in text)
    label = yaml.safe_load((Path(__file__).resolve().parents[2] / "pto_docs" / "i18n" / "en.yaml").read_text())[
        "teaching"]["stack_pointer"]
    stack = ("a0", 2, "sp", 1, "PTO_FRAME_SP_INDEX", HOSTILE_PATH, 7, "0x400")
    html = environment().from_string(line).render(t={"stack": stack}, L=lambda key, **kw: label.format(**kw))
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;@@A@@.asl:7</code>" in html
    assert html.count("<code>0x400</code>") == 1  # (the address, once: not put into the path too)
