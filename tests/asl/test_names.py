"""asl_names: the global names a unit declares (checked against the parser) and the closure by name."""

from __future__ import annotations

import pytest

from pto_docs.asl.names import closure, names
from pto_docs.asl.parser import parse


def parser_names(text: str, path: str) -> set[str]:
    out: set[str] = set()
    for d in parse(text, path):
        if d.tag in ("func", "type", "global"):
            out.add(d.name)
            if d.tag == "type" and d.ty is not None and d.ty.tag == "enum":
                out.update(d.ty.labels)
    return out


def check_tree(units) -> int:
    for unit in units:
        missing = parser_names(unit.text, unit.path) - names(unit.text).declared
        assert not missing, (unit.path, sorted(missing))
    return len(units)


def test_every_name_the_parser_declares_is_found_in_the_sample_tree(catalog_load):
    from pto_docs.bridge.avs import model_units
    assert check_tree(model_units(catalog_load.catalog)) >= 5


@pytest.mark.realtree
def test_every_name_the_parser_declares_is_found_in_the_real_tree(real_load):
    from pto_docs.bridge.avs import generated_decoders, model_units
    catalog = real_load.catalog
    assert check_tree(model_units(catalog)) >= 800
    text = generated_decoders(catalog)
    assert parser_names(text, "@decoder@") <= names(text).declared


UNITS = {
    "a.asl": "func Entry() => integer\nbegin\n    return Helper(K_One) + G;\nend;\n",
    "b.asl": "// uses nothing\nfunc Helper(k: K) => integer\nbegin\n    return 1;\nend;\n",
    "c.asl": "type K of enumeration {K_One, K_Two};\nvar G : integer = 0;\n",
    "d.asl": "func Unrelated() => integer\nbegin\n    return 2;\nend;\n",
    "e.asl": "constant Prefixed_A = 1;\n",
}


def test_names_are_declarations_and_mentions():
    facts = names(UNITS["c.asl"])
    assert facts.declared == {"K", "K_One", "K_Two", "G"}
    assert {"integer", "enumeration"} <= facts.mentioned


def test_the_closure_follows_mentions_to_declarations():
    facts = {path: names(text) for path, text in UNITS.items()}
    reached, seen = closure(facts, {"Entry"})
    assert reached == {"a.asl", "b.asl", "c.asl"} and "Unrelated" not in seen
    assert closure(facts, {"Entry"}, ("Prefixed_",))[0] == {"a.asl", "b.asl", "c.asl", "e.asl"}
    # a unit that comes to declare a reached name (a duplicate or an overload) joins the closure
    facts["d.asl"] = names(UNITS["d.asl"] + "func Helper(x: integer) => integer\nbegin\n    return 3;\nend;\n")
    assert "d.asl" in closure(facts, {"Entry"})[0]
