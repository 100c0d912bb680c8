"""A linked ASL program: types, globals, functions; lazy compilation; global-state snapshots."""

from __future__ import annotations

import sys
import time
import warnings
from contextlib import contextmanager
from fractions import Fraction

from .aliasing import GlobalWrites, global_roots
from .bitfields import Bitfields
from .codegen_stmt import StmtGen
from .compile_expr import ExprCompiler, constant, fold
from .errors import (
    AslCompileError,
    AslError,
    AslLimitError,
    AslThrow,
    asl_frame,
    has_position,
    runtime_type_error,
)
from .global_order import initialisation_order
from .runtime_helpers import HELPERS
from .statement_names import assigned_roots, declared_names
from .stdlib import PRIMITIVES
from .types import TypeTable
from .values import BV, copy_cost, copy_value

# reset: a global's copy cost is counted up to here (no test writes more paths into one global)
RESTORE_WHOLE_LIMIT = 1 << 17

# Steps (loop iterations and subprogram calls) one run may take, and the CPU seconds of this process it may last:
# ASL from a spec tree is data, and a loop or a recursion that never ends must end the run with a dynamic error,
# not hang the harness. The AVS points of pto-spec 0.58.3 take at most 5.3 million steps and 8 s (asl/README.md).
# CPU time, not wall time: a loaded machine does not make a point fail.
STEP_BUDGET = 100_000_000
TIME_LIMIT = 300.0
# Steps granted at a time: the generated code counts ``_B[0]`` down and calls ``Program.tick`` below zero, which
# checks the budget and the clock (about every 10 ms of ASL).
STEP_CHUNK = 1 << 16
# Python's exceptions that values of the wrong types raise in generated code (Program.call translates them)
PYTHON_FAULTS = (TypeError, AttributeError, KeyError, IndexError, ValueError, ZeroDivisionError, OverflowError,
                 UnboundLocalError)


class Function:
    """One declared subprogram, named ``pyname`` in the program's namespace; compiled on first call."""

    __slots__ = ("decl", "program", "arity", "arg_types", "signature", "pyname")

    def __init__(self, decl, program, pyname):
        self.decl = decl
        self.program = program
        self.arity = len(decl.params) + len(decl.args)
        self.arg_types = [a.ty for a in decl.params] + [a.ty for a in decl.args]
        self.signature = tuple(_coarse(t) for t in self.arg_types)
        self.pyname = pyname
        ns = program.ns

        def stub(*args):
            real = program.compile_python(self)
            ns[pyname] = real
            return real(*args)

        ns[pyname] = stub

    def impl(self, vals):
        return self.program.ns[self.pyname](*vals)



def _coarse(ty):
    """A position-free summary of a declared type, enough to tell overloads apart."""
    if ty is None:
        return None
    if ty.tag == "named":
        return ty.name
    if ty.tag == "tuple":
        return tuple(_coarse(t) for t in ty.items)
    return ty.tag


@contextmanager
def _naming_global(name: str):
    """A dynamic error without a position, raised while a global's initialiser runs, names the global."""
    try:
        yield
    except AslError as exc:
        if type(exc) in (AslError, AslLimitError) and asl_frame(exc) is None and not has_position(str(exc)):
            raise type(exc)(f"in the initialiser of global {name}: {exc}") from None
        raise
    except (AslCompileError, AslThrow, RecursionError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - the last-resort net
        error = runtime_type_error(exc)
        raise type(error)(f"in the initialiser of global {name}: {error}") from None


class Program:
    def __init__(self, decls, output=None):
        self.output = output if output is not None else sys.stdout
        self.types = TypeTable()
        self.enum_label_index: dict[str, int] = {}
        self.functions: dict[str, list[Function]] = {}
        self.global_index: dict[str, int] = {}
        self.global_decls: list = []  # syntax.Global nodes
        self.G: list = []
        self._initial: list | None = None
        self._copy_cost: list[int] = []  # per global of ``initial``: values.copy_cost
        self.dirty: set[tuple] = set()
        self.constant_names: set[str] = set()
        self.codegen_consts: list = []
        self.fn_counter = 0
        self.step_budget = STEP_BUDGET
        self.time_limit = TIME_LIMIT
        self.steps = [0]  # steps granted and not yet taken (see tick, renew_budget)
        self.ns = dict(HELPERS)
        self.bitfields = Bitfields(self)
        self.global_writes = GlobalWrites(self)
        self.ns.update(G=self.G, K=self.codegen_consts, _D=self.dirty, _out=self.output, _B=self.steps,
                       _tick=self.tick, _fld=self.bitfields.get, _flds=self.bitfields.get_many,
                       _fldv=self.bitfields.get_view, _fldset=self.bitfields.set, _fldsets=self.bitfields.set_many,
                       _fldsetv=self.bitfields.set_view, _exc_type=self.exception_type_of)
        self.renew_budget()
        self.add(decls)

    # declarations -----------------------------------------------------------------------------
    def add(self, decls):
        for d in decls:
            tag = d.tag
            if tag == "type":
                self.types.declare(d.name, d.ty)
                self.bitfields.note(d.ty)
                if d.ty is not None and d.ty.tag == "enum":
                    for i, label in enumerate(d.ty.labels):
                        self.enum_label_index[label] = i
            elif tag == "global":
                self.bitfields.note(d.ty)
                if d.kind in ("constant", "let"):
                    self.constant_names.add(d.name)
                if d.name not in self.global_index:
                    self.global_index[d.name] = len(self.G)
                    self.G.append(None)
                self.global_decls.append(d)
            elif tag == "func":
                self._add_function(d)

    def _add_function(self, d):
        self.fn_counter += 1
        self.add_function_again(Function(d, self, f"F{self.fn_counter}_{d.name}"))

    def add_function_again(self, fn: Function) -> None:
        """Declare ``fn`` (a :class:`Function` of this program, taken away since, e.g. by ``Session.restore``) as
        ``add`` would its declaration, keeping its name in the namespace and so its code once compiled: the same
        declaration compiled again in the same program would be the same code (``Session.link_parts``)."""
        d = fn.decl
        self.global_writes.memo.clear()
        bucket = self.functions.setdefault(d.name, [])
        for i, other in enumerate(bucket):
            if other.arity == fn.arity and other.signature == fn.signature:
                if other.decl.override == "implementation" and d.override == "impdef":
                    return
                bucket[i] = fn
                return
        bucket.append(fn)

    def where(self, pos) -> str:
        return f"offset {pos}"

    # globals ----------------------------------------------------------------------------------
    def global_reader(self, name, pos):
        j = self.global_index.get(name)
        G = self.G
        if j is not None:
            if name in self.constant_names and self.initial is not None and type(G[j]) not in (dict, list):
                return constant(G[j])
            return lambda f: G[j]
        if name in self.enum_label_index:
            return constant(name)
        raise AslCompileError(f"unknown identifier {name}")

    def initialize(self, decls=None):
        """Evaluate global initialisers in ASLRef's order (global_order.py): a fresh run's state."""
        comp = ExprCompiler(self, {})
        frame = [None]
        for d in decls if decls is not None else initialisation_order(self.global_decls, self.functions):
            name, ty, init = d.name, d.ty, d.init
            with _naming_global(name):
                if init is not None:
                    value = comp.rhs(init)(frame)
                else:
                    value = self.types.base_value(ty, comp)(frame)
            self.G[self.global_index[name]] = value
        self.initial = [copy_value(v) for v in self.G]
        self.dirty.clear()

    def initialize_one(self, d):
        """Add and evaluate one global declared after the model's (a test file's own global)."""
        name, ty, init = d.name, d.ty, d.init
        comp = ExprCompiler(self, {})
        with _naming_global(name):
            if init is not None:
                value = comp.rhs(init)([None])
            else:
                value = self.types.base_value(ty, comp)([None])
        self.G[self.global_index[name]] = value

    @property
    def initial(self) -> list | None:
        """Every global's fresh-run value (what ``reset`` restores)."""
        return self._initial

    @initial.setter
    def initial(self, values: list | None) -> None:
        self._initial = values
        self._copy_cost = [copy_cost(v, RESTORE_WHOLE_LIMIT) for v in values] if values is not None else []

    @property
    def copy_costs(self) -> list[int]:
        """Per global of the initial state: what copying it whole costs (values.copy_cost, capped)."""
        return self._copy_cost

    # the session API: code outside asl/ reads and writes the model's state only through these -------------
    def has_subprogram(self, name: str) -> bool:
        return name in self.functions

    def has_global(self, name: str) -> bool:
        return name in self.global_index

    def global_value(self, name: str):
        """The current value of global ``name`` (None when the program has no such global)."""
        j = self.global_index.get(name)
        return None if j is None else self.G[j]

    def set_global(self, name: str, value) -> None:
        """Give global ``name`` a new value; ``reset`` restores it."""
        j = self.global_index[name]
        self.G[j] = value
        self.dirty.add((j,))

    def keep_state_as_initial(self) -> None:
        """Make the current state the one ``reset`` restores (a harness that starts every run from the state
        ``ResetProfileState()`` leaves)."""
        self.initial = [copy_value(v) for v in self.G]
        self.dirty.clear()

    def arities(self, name: str) -> frozenset[int]:
        """The numbers of arguments the subprograms named ``name`` take (empty when there is none)."""
        return frozenset(fn.arity for fn in self.functions.get(name, ()))

    def returns_value(self, name: str) -> bool:
        """Whether the first subprogram named ``name`` returns a value (a function, not a procedure)."""
        return self.functions[name][0].decl.ret is not None

    def operand_width(self, name: str) -> int:
        """The width N of the first operand of subprogram ``name``, a ``bits(N)`` whose N is a literal or a global
        (ValueError, saying why, otherwise)."""
        fn = self.functions[name][0]
        ty = fn.arg_types[0] if fn.arg_types else None
        if ty is None or ty.tag != "bits":
            raise ValueError(f"{name}'s first operand is not a bitvector")
        width = ty.width
        if width.tag == "lit":
            return int(width.value)
        if width.tag == "var" and width.name in self.global_index:
            return int(self.global_value(width.name))
        raise ValueError(f"cannot tell the width of {name}'s operand")

    def reset(self):
        """Restore every storage path written since the last reset to its fresh-run value.

        A path is ``(global index, key, key, ...)``; shorter paths are restored first, so a finer path
        always finds its containers. A global with more written paths than a whole copy costs
        (``values.copy_cost``) is copied whole instead: the same value, cheaper (``ResetProfileState`` writes
        each of the 4,096 memory bytes one by one; a whole copy of that flat list is one ``list()``).
        """
        self.restore_written()
        self.renew_budget()

    def renew_budget(self):
        """A new run: the whole step budget, and ``time_limit`` CPU seconds from now."""
        grant = min(STEP_CHUNK, self.step_budget)
        self.steps[0] = grant
        self._steps_left = self.step_budget - grant
        self._deadline = time.process_time() + self.time_limit

    @property
    def steps_taken(self) -> int:
        """Steps taken since the budget was last renewed."""
        return self.step_budget - self._steps_left - self.steps[0]

    def tick(self, loc: str):
        """Called by generated code when the steps granted are used up: grant more, or end the run with a
        dynamic error when it is over its step budget or its time limit (then every later step raises too,
        until the budget is renewed)."""
        if self._steps_left <= 0:
            raise AslLimitError(f"{loc}: step budget exhausted: more than {self.step_budget:,} loop iterations and "
                                "calls (a loop or a recursion that does not end?)")
        if time.process_time() > self._deadline:
            raise AslLimitError(f"{loc}: time limit exhausted: the run took more than {self.time_limit:g} s of CPU time")
        grant = min(STEP_CHUNK, self._steps_left)
        self._steps_left -= grant
        self.steps[0] += grant

    def restore_written(self):
        """``reset`` without renewing the step budget: the state part of it (``dirty`` is empty after)."""
        G, initial, whole = self.G, self._initial, self._copy_cost
        n = len(initial)
        dirty = self.dirty
        by_global: dict[int, list[tuple]] = {}
        for path in dirty:
            by_global.setdefault(path[0], []).append(path)
        for j, paths in by_global.items():
            if j >= n:
                continue
            if len(paths) >= whole[j] or (j,) in dirty:
                G[j] = copy_value(initial[j])
                continue
            paths.sort(key=len)
            for path in paths:
                target, source = G[j], initial[j]
                for key in path[1:-1]:
                    target, source = target[key], source[key]
                target[path[-1]] = copy_value(source[path[-1]])
        self.dirty.clear()

    # functions --------------------------------------------------------------------------------
    def compile_python(self, fn: Function):
        """Generate, compile and return the Python function for ``fn``."""
        d = fn.decl
        name, params, args, body, loc = d.name, d.params, d.args, d.body, d.loc
        names = [a.name for a in params] + [a.name for a in args]
        locals_: list[str] = []
        declared_names(body, locals_)
        gen = StmtGen(self, set(names) | set(locals_))
        mutated: set[str] = set()
        assigned_roots(body, mutated)
        owned: list[str] = []
        declared_names(body, owned, owned_only=True)
        # returned without a copy: the declared locals and the parameters copied on entry (below)
        gen.owned = set(owned) | {n for n in names if n in mutated}
        for a in params + args:
            gen.note_type(a.name, a.ty)
        gen.emit(0, f"def {fn.pyname}({', '.join('l_' + n for n in names)}):")
        gen._budget(1, f"{loc}: in {name}")
        for n in names:
            if n in mutated:
                gen.emit(1, f"l_{n} = _cp(l_{n})")
        try:
            depth = 1
            if d.limit is not None:
                depth = self._recursion_guard(gen, fn, d.limit, f"{loc}: in {name}")
            gen.block(body, depth)
            if depth > 1:
                gen.emit(1, "finally:")
                gen.emit(2, f"{fn.pyname}_depth[0] -= 1")
            source = "\n".join(gen.lines) + "\n"
            with warnings.catch_warnings():  # ("str indices must be integers": ill-typed ASL, a run-time error)
                warnings.simplefilter("ignore", SyntaxWarning)
                code = compile(source, f"<asl {loc} {name}>", "exec")
        except AslCompileError as exc:
            if has_position(str(exc)):
                raise
            raise AslCompileError(f"{loc}: in {name}: {exc}") from None
        except (RecursionError, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001 - the last-resort net (Python's compiler refuses 200 parentheses)
            raise AslCompileError(f"{loc}: in {name}: the subprogram cannot be compiled (an expression with too many "
                                  f"operators?): {type(exc).__name__}: {exc}") from None
        scope: dict = {}
        exec(code, self.ns, scope)
        return scope[fn.pyname]

    def _recursion_guard(self, gen, fn: Function, limit, loc: str) -> int:
        """``recurselimit N``: count the frames of ``fn`` on the stack (a counter in the namespace, taken down
        by ``finally``); a call that would make them more than N is a dynamic error, as in ASLRef. Only
        subprograms that declare a limit pay for it. Returns the depth the body is emitted at."""
        counter = f"{fn.pyname}_depth"
        self.ns[counter] = [0]
        gen.emit(1, f"if {counter}[0] >= {gen.expr(limit)}:")
        gen.emit(2, f"raise AslError({loc + ': recursion limit reached'!r})")
        gen.emit(1, f"{counter}[0] += 1")
        gen.emit(1, "try:")
        return 2

    def call_code(self, gen, name, params, args) -> str:
        """Python code calling subprogram ``name`` (overloads resolved by arity, then by value types)."""
        candidates = self.functions[name]
        codes = [gen.expr(p) for p in params] + [self._argument(gen, name, a) for a in args]
        fitting = [c for c in candidates if c.arity == len(codes)]
        if not fitting and params:
            codes = codes[len(params):]
            fitting = [c for c in candidates if c.arity == len(codes)]
        if not fitting:
            raise AslCompileError(f"no {name} with {len(codes)} arguments")
        if len(fitting) > 1:  # the overloads the arguments' static types fit, where the text gives them
            exprs = (list(params) + list(args))[-len(codes):]
            knowns = [gen.static_type(x) for x in exprs]
            narrowed = [c for c in fitting if self._fits_statically(c, knowns)]
            fitting = narrowed or fitting
        if len(fitting) == 1:
            return f"{fitting[0].pyname}({', '.join(codes)})"
        self.fn_counter += 1
        key = f"_overload_{self.fn_counter}"
        chooser = self._overload_chooser(fitting, None)
        ns = self.ns
        self.ns[key] = lambda *vals: ns[chooser(vals).pyname](*vals)
        return f"{key}({', '.join(codes)})"

    def _fits_statically(self, fn: Function, knowns) -> bool:
        """Whether no argument whose static type is known (static_kinds) contradicts ``fn``'s declared type."""
        for ty, known in zip(fn.arg_types, knowns):
            if known is None or ty is None:
                continue
            try:
                tag = self.types.resolve(ty).tag
            except AslCompileError:
                continue
            if tag != known.tag:
                return False
        return True

    def _argument(self, gen, callee: str, a) -> str:
        """An argument's code: copied when it is read from a global the callee may write (aliasing.py)."""
        code = gen.expr(a)
        roots = global_roots(a, gen.locals, self.global_index)
        if roots and not self.global_writes.of(callee).isdisjoint(roots):
            return f"_cp({code})"
        return code

    def compile_call(self, comp, name, params, args, pos):
        pfns = [comp.expr(p) for p in params]
        afns = [comp.expr(a) for a in args]
        candidates = self.functions.get(name)
        if candidates is None:
            prim = PRIMITIVES.get(name)
            if prim is None:
                raise AslCompileError(f"call of unknown subprogram {name}")
            folded = fold(lambda *vs: prim(vs[: len(pfns)], vs[len(pfns):]), pfns + afns)
            if folded is not None:
                return folded
            if not pfns:
                if len(afns) == 1:
                    a0 = afns[0]
                    return lambda f: prim((), (a0(f),))
                return lambda f: prim((), [a(f) for a in afns])
            return lambda f: prim([p(f) for p in pfns], [a(f) for a in afns])
        n = len(pfns) + len(afns)
        fitting = [c for c in candidates if c.arity == n]
        if not fitting and pfns:
            fitting = [c for c in candidates if c.arity == len(afns)]
            pfns = []
        if not fitting:
            raise AslCompileError(f"no {name} with {n} arguments")
        allfns = pfns + afns
        if len(fitting) == 1:
            target = fitting[0]
            if n == 0:
                return lambda f: target.impl(())
            if n == 1:
                a0 = allfns[0]
                return lambda f: target.impl((a0(f),))
            if n == 2:
                a0, a1 = allfns
                return lambda f: target.impl((a0(f), a1(f)))
            if n == 3:
                a0, a1, a2 = allfns
                return lambda f: target.impl((a0(f), a1(f), a2(f)))
            return lambda f: target.impl([a(f) for a in allfns])
        chooser = self._overload_chooser(fitting, comp)

        def dispatch(f):
            vals = [a(f) for a in allfns]
            return chooser(vals).impl(vals)

        return dispatch

    def _overload_chooser(self, fitting, comp):
        def matches(ty, v):
            ty = self.types.resolve(ty)
            t = ty.tag
            if t == "int":
                return type(v) is int
            if t == "bool":
                return type(v) is bool
            if t == "bits":
                return type(v) is BV
            if t == "real":
                return type(v) is Fraction
            if t == "string":
                return type(v) is str
            if t == "enum":
                return type(v) is str and v in ty.labels
            if t in ("record", "exception"):
                return type(v) is dict and list(v) == [f.name for f in ty.fields]
            return True

        def choose(vals):
            for c in fitting:
                if all(matches(t, v) for t, v in zip(c.arg_types, vals)):
                    return c
            raise AslError("no overload matches the argument values")

        return choose

    def exception_type_of(self, value) -> str:
        """The exception type a thrown value has when the text does not say: the one exception type declared
        with exactly its fields, else 'exception' (no catcher names that)."""
        if type(value) is dict:
            fields = set(value)
            found = [n for n, ty in self.types.decls.items()
                     if ty.tag == "exception" and {f.name for f in ty.fields} == fields]
            if len(found) == 1:
                return found[0]
        return "exception"

    def call(self, name, *args):
        """Run subprogram ``name`` (the first of its arity). A Python exception from values the ASL should not have
        combined (ASLRef would have rejected the program when type-checking it) leaves as an ``AslTypeError``
        saying what was combined, anything else of Python's as an ``AslInternalError`` (errors.runtime_type_error):
        no check on the hot path, the exception is translated once, here."""
        for c in self.functions.get(name, ()):
            if c.arity == len(args):
                try:
                    return self.ns[c.pyname](*args)
                except PYTHON_FAULTS as exc:
                    raise runtime_type_error(exc) from None
        raise AslCompileError(f"no {name} with {len(args)} arguments")
