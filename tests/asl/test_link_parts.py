"""Session.link_parts: each part's subprogram parsed and compiled once per session, run as a fresh link would."""

from __future__ import annotations

import pytest

from pto_docs.asl import program as program_module
from pto_docs.asl.errors import AslError, located
from pto_docs.asl.harness import LinkRefused, Session
from pto_docs.asl.lexer import AslSyntaxError
from pto_docs.asl.model import Unit, load_model
from pto_docs.asl.runner import run_in_big_stack

MODEL = """// PTO-UNIT: {"id": "PTO-S", "depends_on": []}
var Counter : integer = 10;
var Log : array [[4]] of integer;
func Bump(n : integer) => integer
begin
    Counter = Counter + n;
    return Counter;
end;
"""
# a setup with local state of its own (a local array written, a loop): a second run must start from none of it
SETUP = """func Setup()
begin
    var seen : array [[4]] of integer;
    for i = 0 to 3 do
        seen[[i]] = seen[[i]] + i + Counter;
        Log[[i]] = seen[[i]];
    end;
    let ignored = Bump(1);
end;

"""
FIRST = "func Step()\nbegin\n    let r = Bump(2);\n    Log[[0]] = r;\nend;\n\n"
SECOND = "func Step()\nbegin\n    let r = Bump(5);\n    Log[[1]] = r * 2;\nend;\n\n"
FAILING = "func Step()\nbegin\n    let r = Bump(1);\n    assert r == 0;\nend;\n\n"
READ = "func Read() => integer\nbegin\n    return Counter + Log[[0]] + Log[[1]] + Log[[2]] + Log[[3]];\nend;\n"
NAMES = ["Setup", "Step", "Read"]


def session() -> Session:
    return Session(load_model([Unit("PTO-S", "s.asl", (), MODEL)], None))


def run(s: Session, parts: list[str], whole: bool = False) -> tuple:
    """(what Read returns, or the error of Step, located) after Setup and Step of a fresh state."""
    s.restore()
    if whole:
        s.link("".join(parts), "<case>", NAMES)
    else:
        s.link_parts(parts, "<case>", NAMES)
    run_in_big_stack(s.program.call, "Setup")
    try:
        run_in_big_stack(s.program.call, "Step")
    except AslError as exc:
        return ("error", located(exc))
    return ("ok", run_in_big_stack(s.program.call, "Read"))


@pytest.fixture
def compiled(monkeypatch) -> list[str]:
    """The names of the subprograms compiled from here on."""
    names: list[str] = []
    real = program_module.Program.compile_python

    def counting(self, fn):
        names.append(fn.decl.name)
        return real(self, fn)

    monkeypatch.setattr(program_module.Program, "compile_python", counting)
    return names


def test_a_part_seen_before_is_compiled_once_and_runs_as_a_fresh_link_would(compiled):
    s = session()
    first, second, failing = [SETUP, FIRST, READ], [SETUP, SECOND, READ], [SETUP, FAILING, READ]
    fresh = {key: run(session(), parts, whole=True) for key, parts in
             (("first", first), ("second", second), ("failing", failing))}
    assert fresh["first"] != fresh["second"] and fresh["failing"][0] == "error"
    del compiled[:]
    got = [run(s, first), run(s, second), run(s, first), run(s, failing), run(s, second), run(s, first)]
    assert got == [fresh["first"], fresh["second"], fresh["first"], fresh["failing"], fresh["second"],
                   fresh["first"]]
    # Setup once, each Step once, Read once per place (it follows Steps of two lengths; not run after the failing
    # Step): the same text at the same place is not parsed or compiled again
    assert [compiled.count(name) for name in NAMES] == [1, 3, 2] and len(FIRST) != len(SECOND)


def test_positions_are_those_of_the_whole_text():
    """A part's declaration and its run-time errors say where it is in the whole text (line and column)."""
    parts = [SETUP, FAILING, READ]
    by_parts, whole = session(), session()
    assert run(by_parts, parts) == run(whole, parts, whole=True)
    assert "<case>:14:12:" in run(by_parts, parts)[1]  # FAILING's assert, on the whole text's line 14
    for name in NAMES:
        assert by_parts.program.functions[name][0].decl.loc == whole.program.functions[name][0].decl.loc
    # the same Step after a longer Setup is another place: its own positions, not those of the first
    longer = [SETUP.replace("begin\n", "begin\n    pass;\n", 1), FAILING, READ]
    assert run(by_parts, longer) == run(session(), longer, whole=True) != run(whole, parts, whole=True)


@pytest.mark.parametrize("step", [
    "func Step()\nbegin\n    pass;\nend;\nfunc Other()\nbegin\n    pass;\nend;\n\n",  # declares another
    "func Step()\nbegin\n    pass;\nend;\n\nfunc Bump(n : integer) => integer\nbegin\n    return n;\nend;\n\n",
    "func Bump(n : integer) => integer\nbegin\n    return n;\nend;\n\n",  # one of the model's, in its place
    "func Step()\nbegin\n    pass;\n",  # unfinished: the whole text's error (in the next part), not the part's
    "func Step()\nbegin\n    /* a comment that runs on\n",
    "func Step()\nbegin\n    pass;\nend;",  # no newline at its end: parsed with the next part, as a whole
])
def test_parts_that_do_not_each_declare_their_one_subprogram_get_the_whole_texts_error(step):
    parts = [SETUP, step, READ]
    text = "".join(parts)
    try:
        session().link(text, "<case>", NAMES)
        expected = None
    except (LinkRefused, AslSyntaxError) as exc:
        expected = (type(exc), str(exc), getattr(exc, "reason", None))
    s = session()
    s.link_parts([SETUP, FIRST, READ], "<case>", NAMES)  # (parts seen before do not change the outcome)
    s.restore()
    try:
        s.link_parts(parts, "<case>", NAMES)
        got = None
    except (LinkRefused, AslSyntaxError) as exc:
        got = (type(exc), str(exc), getattr(exc, "reason", None))
    assert got == expected
    if expected is not None:
        assert not s.program.has_subprogram("Setup") and not s.program.has_subprogram("Read")


def test_a_part_that_calls_another_part_runs_the_one_of_its_own_case():
    """A compiled call is bound to the subprogram it was compiled with: a part that names another part's subprogram
    is linked with its case, never reused with an earlier case's sibling (Setup calls Read; case B's Read differs)."""
    calls_read = "func Setup()\nbegin\n    Counter = Read();\nend;\n\n"
    get = "func Get() => integer\nbegin\n    return Counter;\nend;\n\n"
    names = ["Get", "Setup", "Read"]

    def go(s: Session, read_returns: int) -> int:
        s.restore()
        s.link_parts([get, calls_read, f"func Read() => integer\nbegin\n    return {read_returns};\nend;\n"],
                     "<case>", names)
        run_in_big_stack(s.program.call, "Setup")
        return run_in_big_stack(s.program.call, "Get")

    s = session()
    assert [go(s, 1), go(s, 2), go(s, 1)] == [1, 2, 1]
