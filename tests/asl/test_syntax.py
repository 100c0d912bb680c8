"""The syntax tree's nodes: named classes read by field name; a positional read is refused."""

from __future__ import annotations

import pickle

import pytest

from pto_docs.asl.parser import parse
from pto_docs.asl.syntax import Assign, Binary, Func, LField, Lit, LVar, Return, Var

TEXT = "func F(x: integer) => integer\nbegin\n    r.f = x;\n    return x + 1;\nend;\n"


def test_nodes_are_named_classes_read_by_field_name():
    [f] = parse(TEXT)
    assert type(f) is Func and f.name == "F" and [a.name for a in f.args] == ["x"] and f.ret.tag == "int"
    assign, ret = f.body
    assert type(assign) is Assign and assign.target == LField(LVar("r"), "f") and type(assign.value) is Var
    assert type(ret) is Return and type(ret.value) is Binary and ret.value.op == "+"
    assert ret.value.right == Lit(ret.value.right.pos, 1) and ret.value.right.pos == TEXT.index("1;")


def test_a_positional_read_of_a_node_is_refused():
    [f] = parse(TEXT)
    for node in (f, f.body[1], f.body[1].value, f.args[0], f.ret):
        with pytest.raises(TypeError, match="read by field name"):
            node[1]
        with pytest.raises(TypeError, match="read by field name"):
            node[1:]


def test_a_tree_pickles_to_the_same_classes():
    decls = parse(TEXT)
    again = pickle.loads(pickle.dumps(decls, protocol=pickle.HIGHEST_PROTOCOL))
    assert again == decls and type(again[0].body[1].value) is Binary and again[0].body[0].target.base.name == "r"
