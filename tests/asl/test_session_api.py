"""The session API of asl/: code outside asl/ reads and writes a linked model's state only through it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pto_docs.asl.harness import LinkRefused, Session
from pto_docs.asl.lexer import AslSyntaxError
from pto_docs.asl.model import Unit, load_model
from pto_docs.asl.runner import run_in_big_stack
from pto_docs.asl.values import BV

PACKAGE = Path(__file__).resolve().parents[2] / "pto_docs"
MODEL = """// PTO-UNIT: {"id": "PTO-S", "depends_on": []}
constant WIDTH = 12;
var Counter : integer = 10;
var Present : boolean = FALSE;
func Bump() => integer
begin
    Counter = Counter + 1;
    return Counter;
end;
func Take(word : bits(WIDTH)) => integer
begin
    return UInt(word);
end;
func Fixed(word : bits(8))
begin
    Counter = UInt(word);
end;
func Whole(n : integer) => integer
begin
    return n;
end;
"""


def session() -> Session:
    return Session(load_model([Unit("PTO-S", "s.asl", (), MODEL)], None))


def test_globals_are_read_and_written_through_the_program_and_reset_restores_them():
    program = session().program
    assert program.has_global("Counter") and not program.has_global("Nothing")
    assert program.global_value("Nothing") is None
    program.set_global("Present", True)
    assert program.global_value("Present") is True
    program.reset()
    assert program.global_value("Present") is False


def test_keep_state_as_initial_makes_reset_restore_the_current_state():
    program = session().program
    assert run_in_big_stack(program.call, "Bump") == 11
    program.keep_state_as_initial()
    assert run_in_big_stack(program.call, "Bump") == 12
    program.reset()
    assert program.global_value("Counter") == 11


def test_subprograms_are_described_without_reading_their_syntax_tree():
    program = session().program
    assert program.has_subprogram("Bump") and not program.has_subprogram("Missing")
    assert program.returns_value("Take") and not program.returns_value("Fixed")
    assert program.operand_width("Take") == 12 and program.operand_width("Fixed") == 8
    with pytest.raises(ValueError, match="Whole's first operand is not a bitvector"):
        program.operand_width("Whole")
    assert run_in_big_stack(program.call, "Take", BV(5, 12)) == 5


def test_link_adds_exactly_the_named_subprograms_and_restore_takes_them_away():
    s = session()
    s.link("func Extra() => integer\nbegin\n    return 7;\nend;\n", "<case>", ["Extra"])
    assert run_in_big_stack(s.program.call, "Extra") == 7
    s.restore()
    assert not s.program.has_subprogram("Extra")


@pytest.mark.parametrize("text, names, reason", [
    ("func Extra()\nbegin\n    pass;\nend;\nvar Other : integer = 1;\n", ["Extra"], "other"),
    ("func Extra()\nbegin\n    pass;\nend;\n", ["Another"], "other"),
    ("func Bump() => integer\nbegin\n    return 0;\nend;\n", ["Bump"], "model"),
])
def test_link_refuses_a_text_that_declares_more_or_other_things_and_adds_nothing(text, names, reason):
    s = session()
    with pytest.raises(LinkRefused) as refused:
        s.link(text, "<case>", names)
    assert refused.value.reason == reason
    assert not s.program.has_subprogram("Extra") and not s.program.has_global("Other")
    assert run_in_big_stack(s.program.call, "Bump") == 11  # the model's own Bump, not the refused one


def test_link_of_a_text_that_is_not_asl_raises_a_syntax_error():
    with pytest.raises(AslSyntaxError):
        session().link("func (", "<case>", [])


def test_no_module_outside_asl_touches_the_program_state_or_the_session_internals():
    """``G``, ``dirty``, ``initial``, ``global_index``, ``functions`` and the session's private names belong
    to asl/ (issue 31): the bridge calls the session API above instead."""
    private = {"G", "dirty", "initial", "global_index", "functions", "_restore", "added_names", "base_functions"}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "asl":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in private and _names_asl_state(node.value):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: .{node.attr}")
    assert found == []


def _names_asl_state(value: ast.expr) -> bool:
    """Whether an attribute's owner is spelled as a program or a session (``program``, ``self.program``,
    ``prog``, ``self.session`` ...): the names the bridge gives them."""
    name = value.attr if isinstance(value, ast.Attribute) else value.id if isinstance(value, ast.Name) else ""
    return name in {"program", "prog", "session", "_program"}
