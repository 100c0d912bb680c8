"""Statements of one subprogram as Python source lines (see codegen.py)."""

from __future__ import annotations

from .codegen import _NO, CodeGen, _bitfield
from .errors import AslCompileError
from .static_kinds import Known, check_field, check_slice
from .syntax import ArrayGet, Call, FieldGet, Var


class StmtGen(CodeGen):
    def block(self, stmts, depth: int):
        if not stmts:
            self.emit(depth, "pass")
            return
        for s in stmts:
            getattr(self, "s_" + s.tag)(s, depth)

    def s_pass(self, s, d):
        self.emit(d, "pass")

    def s_return(self, s, d):
        self.emit(d, "return" if s.value is None else f"return {self.returned(s.value)}")

    def returned(self, e) -> str:
        """The returned value: a local this frame owns (a declared local, or a parameter copied on entry) is
        handed over without a copy (nothing else refers to it, and the frame ends); anything else as ``rhs``."""
        if e.tag == "var" and e.name in self.owned:
            return "l_" + e.name
        if e.tag == "tuple" and self.value(e) is _NO:
            names = [x.name for x in e.items if x.tag == "var"]
            # a local named twice in one tuple would give the caller two names for one aggregate
            return "(" + "".join((self.returned(x) if x.tag != "var" or names.count(x.name) == 1 else self.rhs(x))
                                 + ", " for x in e.items) + ")"
        return self.rhs(e)

    def s_callstmt(self, s, d):
        self.emit(d, self.x_call(Call(s.pos, s.name, s.params, s.args)))

    def s_assert(self, s, d):
        self.emit(d, f"if not {self.expr(s.cond)}:")
        self.emit(d + 1, f"raise AslAssertionError({s.loc!r}, {s.text!r})")

    def s_unreachable(self, s, d):
        self.emit(d, f"raise AslUnreachable({s.loc!r})")

    def s_throw(self, s, d):
        name = self.exception_type(s.value)
        if name is None:  # not known from the text: the exception type whose fields the value has, if one
            tmp = self.new_tmp()
            self.emit(d, f"{tmp} = {self.rhs(s.value)}")
            self.emit(d, f"raise AslThrow({tmp}, _exc_type({tmp}))")
            return
        self.emit(d, f"raise AslThrow({self.rhs(s.value)}, {name!r})")

    def exception_type(self, e) -> str | None:
        """The static type name of a thrown expression, where the text gives it: a record literal, a local,
        parameter or global declared with a named type or initialised with a record literal, a catcher's
        name, a call of a function declared to return a named type."""
        tag = e.tag
        if tag == "record":
            return e.name
        if tag == "var":
            if e.name in self.locals:
                return getattr(self, "known_types", {}).get(e.name)
            for g in self.program.global_decls:
                if g.name == e.name:
                    return _type_name(g.ty) or (self.exception_type(g.init) if g.init is not None else None)
            return None
        if tag == "call":
            names = {_type_name(f.decl.ret) for f in self.program.functions.get(e.name, ())}
            return names.pop() if len(names) == 1 else None
        if tag == "if":
            then = self.exception_type(e.then)
            return then if then == self.exception_type(e.other) else None
        return None

    def note_type(self, name: str, ty, init=None):
        self.note_local(name, ty, init)
        known = self.__dict__.setdefault("known_types", {})
        found = _type_name(ty) or (self.exception_type(init) if init is not None else None)
        if found:
            known[name] = found
        else:
            known.pop(name, None)

    def s_print(self, s, d):
        parts = " + ".join(f"_fmt({self.expr(a)})" for a in s.args) or "''"
        end = " + '\\n'" if s.newline else ""
        self.emit(d, f"_out.write({parts}{end})")

    def s_if(self, s, d, keyword="if"):
        self.emit(d, f"{keyword} {self.expr(s.cond)}:")
        self.block(s.then, d + 1)
        other = s.other
        if len(other) == 1 and other[0].tag == "if":
            self.s_if(other[0], d, "elif")
        elif other:
            self.emit(d, "else:")
            self.block(other, d + 1)

    def s_case(self, s, d):
        tmp = self.new_tmp()
        self.emit(d, f"{tmp} = {self.expr(s.subject)}")
        known = self.static_type(s.subject)
        keyword = "if"
        for alt in s.alts:
            test = self.pattern_test(alt.patterns, tmp, known)
            if not alt.positive:
                test = f"(not {test})"
            if alt.where is not None:
                test = f"({test} and {self.expr(alt.where)})"
            self.emit(d, f"{keyword} {test}:")
            self.block(alt.body, d + 1)
            keyword = "elif"
        if s.otherwise is not None:
            if keyword == "if":
                self.block(s.otherwise, d)
                return
            self.emit(d, "else:")
            self.block(s.otherwise, d + 1)
        elif keyword == "elif":
            self.emit(d, "else:")
            self.emit(d + 1, f"raise AslUnreachable({s.loc!r})")
        else:
            self.emit(d, f"raise AslUnreachable({s.loc!r})")

    def _budget(self, d, loc: str):
        """Charge one step (a loop iteration, a call) to the run's budget: ``_B[0]`` counts down the steps
        granted so far; below zero ``_tick`` (Program.tick) grants more, or raises when the run is over its
        step budget or its time limit."""
        self.emit(d, "_B[0] -= 1")
        self.emit(d, "if _B[0] < 0:")
        self.emit(d + 1, f"_tick({loc!r})")

    def _limit_check(self, limit, count: str, loc: str, d):
        if limit is not None:
            self.emit(d, f"if {count} > {self.expr(limit)}:")
            self.emit(d + 1, f"raise AslError({loc + ': loop limit reached'!r})")

    def s_for(self, s, d):
        name, start, up, stop, limit, body, loc = s.name, s.start, s.up, s.stop, s.limit, s.body, s.loc
        rng = self.new_tmp()
        a, b = self.expr(start), self.expr(stop)
        self.emit(d, f"{rng} = range({a}, {b} + 1)" if up else f"{rng} = range({a}, {b} - 1, -1)")
        self._limit_check(limit, f"len({rng})", loc, d)
        self.__dict__.setdefault("local_types", {})[name] = Known("int")
        self.emit(d, f"for l_{name} in {rng}:")
        self._budget(d + 1, loc)
        self.block(body, d + 1)

    def s_while(self, s, d):
        cond, limit, body, loc = s.cond, s.limit, s.body, s.loc
        count = self.new_tmp()
        self.emit(d, f"{count} = 0")
        self.emit(d, f"while {self.expr(cond)}:")
        self.emit(d + 1, f"{count} += 1")
        self._limit_check(limit, count, loc, d + 1)
        self._budget(d + 1, loc)
        self.block(body, d + 1)

    def s_repeat(self, s, d):
        body, cond, limit, loc = s.body, s.cond, s.limit, s.loc
        count = self.new_tmp()
        self.emit(d, f"{count} = 0")
        self.emit(d, "while True:")
        self.emit(d + 1, f"{count} += 1")
        self._limit_check(limit, count, loc, d + 1)
        self._budget(d + 1, loc)
        self.block(body, d + 1)
        self.emit(d + 1, f"if {self.expr(cond)}:")
        self.emit(d + 2, "break")

    def s_try(self, s, d):
        exc = self.new_tmp()
        self.emit(d, "try:")
        self.block(s.body, d + 1)
        self.emit(d, f"except AslThrow as {exc}:")
        keyword = "if"
        for catcher in s.catchers:
            name = catcher.name
            self.emit(d + 1, f"{keyword} {exc}.type_name == {_type_name(catcher.ty)!r}:")
            if name:
                self.emit(d + 2, f"l_{name} = {exc}.value")
                self.note_type(name, catcher.ty)
            self.block(catcher.body, d + 2)
            keyword = "elif"
        tail = d + 1
        if keyword == "elif":
            self.emit(d + 1, "else:")
            tail = d + 2
        if s.otherwise is not None:
            self.block(s.otherwise, tail)
        else:
            self.emit(tail, "raise")

    # -- declarations and assignments ------------------------------------------------------------
    def s_decl(self, s, d):
        target, ty, init = s.target, s.ty, s.init
        value = self.rhs(init) if init is not None else self.base(ty)
        if isinstance(target, str):
            self.note_type(target, ty, init)
            self.emit(d, f"l_{target} = {value}")
        else:
            for n in target:
                if n:
                    self.note_type(n, None)
            names = ", ".join(f"l_{n}" if n else "_" for n in target)
            self.emit(d, f"{names}, = {value}")
            if init is not None and init.tag in ("var", "field", "aget"):  # a stored tuple: its parts are copied
                for n in target:
                    if n:
                        self.emit(d, f"l_{n} = _cp(l_{n})")

    def s_vars(self, s, d):
        for name in s.names:
            self.note_type(name, s.ty)
            self.emit(d, f"l_{name} = {self.base(s.ty)}")

    def s_assign(self, s, d):
        value = self.rhs(s.value)
        target = s.target
        if target.tag == "ltuple":
            tmp = self.new_tmp()
            self.emit(d, f"{tmp} = {value}")
            for i, item in enumerate(target.items):
                if item.tag != "ldiscard":
                    self.store(item, f"{tmp}[{i}]", d)
            return
        if ((_calls(s.value) or _calls(target)) and _indexed(target, self.locals)
                and not _local_only(s.value, self.locals)):
            # ASLRef evaluates the right side before the target's indices and slice bounds: it matters when one
            # of them calls a subprogram and both read more than locals and literals (a temporary for every
            # indexed assignment holds a value a little longer: 3 % more CPU time on the AVS run)
            tmp = self.new_tmp()
            self.emit(d, f"{tmp} = {value}")
            value = tmp
        self.store(target, value, d)

    def store(self, lv, value: str, d):
        tag = lv.tag
        if tag == "ldiscard":
            self.emit(d, value)
            return
        if tag not in ("lvar", "lfield", "laget", "lslice", "lfields"):
            raise AslCompileError(f"unsupported assignment target {tag}")
        if tag != "lvar" and tag != "laget" and lv.base.tag == "lvar":
            known = self.static_type(Var(0, lv.base.name))
            if tag == "lslice":
                check_slice(known, True)
            else:
                check_field(known, (lv.name,) if tag == "lfield" else lv.names, self.program.bitfields.special)
        if tag == "lfield" and self.program.bitfields.special(lv.name):
            self.store_special_field(lv, value, d)
            return
        if tag == "lfields" and any(self.program.bitfields.special(n) for n in lv.names):
            self.store_special_field(lv, value, d)
            return
        if tag == "lslice" and self._through_special_field(lv.base):
            # x.f[s] = v where x.f may be a bitfield: the slice of a copy, stored back as x.f
            tmp, new = self.new_tmp(), self.new_tmp()
            self.emit(d, f"{tmp} = {value}")
            parts = self.slice_parts(lv.slices)
            flat = ", ".join(f"({lo}, {w})" for lo, w in parts)
            self.emit(d, f"{new} = {_setter(parts)}({self.expr(_rvalue(lv.base))}, ({flat},), {tmp})")
            self.store(lv.base, new, d)
            return
        root, keys = self.access_path(lv, d)
        if tag in ("lslice", "lfields"):
            current = root + "".join(f"[{k}]" for k in keys)
            if tag == "lslice":
                parts = self.slice_parts(lv.slices)
                flat = ", ".join(f"({lo}, {w})" for lo, w in parts)
                value = f"{_setter(parts)}({current}, ({flat},), {value})"
            else:
                self.emit(d, f"_setfields({current}, {tuple(lv.names)!r}, {value})")
                return
        if not keys:
            self.emit(d, f"{root} = {value}")
            return
        container = root + "".join(f"[{k}]" for k in keys[:-1])
        self.emit(d, f"{container}[{keys[-1]}] = {value}")

    def _through_special_field(self, lv) -> bool:
        while lv.tag in ("lfield", "laget"):
            if lv.tag == "lfield" and self.program.bitfields.special(lv.name):
                return True
            lv = lv.base
        return False

    def store_special_field(self, lv, value: str, d):
        """``x.f = v`` where ``f`` may name a bitfield: a bitvector holder gets a new value, a record changes."""
        holder_lv = lv.base
        if holder_lv.tag not in ("lvar", "lfield", "laget"):
            named = lv.name if lv.tag == "lfield" else lv.names
            raise AslCompileError(f"unsupported assignment target {holder_lv.tag}.{named}")
        tmp = self.new_tmp()
        self.emit(d, f"{tmp} = {value}")
        setter = (f"_fldset({{}}, {lv.name!r}, {tmp})" if lv.tag == "lfield"
                  else f"_fldsets({{}}, {tuple(lv.names)!r}, {tmp})")
        bitfields = self.program.bitfields
        if lv.tag == "lfield" and lv.name in bitfields.repeated:  # as CodeGen.x_field: by the static type
            field = _bitfield(self.view_type(_rvalue(holder_lv)), lv.name)
            if field is not None:
                setter = f"_fldsetv({{}}, {bitfields.view(field)}, {tmp})"
        if holder_lv.tag == "lfield" and self.program.bitfields.special(holder_lv.name):
            # x.f.g = v: the holder x.f may itself be a bitfield: change a copy of it, then store that as x.f
            inner, new = self.new_tmp(), self.new_tmp()
            self.emit(d, f"{inner} = {self.expr(_rvalue(holder_lv))}")
            self.emit(d, f"{new} = {setter.format(inner)}")
            self.emit(d, f"if {new} is not None:")
            self.store(holder_lv, new, d + 1)
            return
        root, keys = self.access_path(holder_lv, d)
        holder = root + "".join(f"[{k}]" for k in keys)
        new = self.new_tmp()
        self.emit(d, f"{new} = {setter.format(holder)}")
        self.emit(d, f"if {new} is not None:")
        self.emit(d + 1, f"{holder} = {new}")

    def access_path(self, lv, d) -> tuple[str, list[str]]:
        """The root variable and the key codes (field names, checked indices) down to the target.

        Index expressions are evaluated once into temporaries. For a global root the path is recorded in
        the dirty set ``_D`` first, so the next reset restores exactly what was written.
        """
        steps = []
        while lv.tag in ("lfield", "laget", "lslice", "lfields"):
            steps.append(lv)
            lv = lv.base
        name = lv.name
        keys: list[str] = []
        container = "l_" + name if name in self.locals else None
        j = None
        if container is None:
            j = self.program.global_index.get(name)
            if j is None:
                raise AslCompileError(f"assignment to unknown identifier {name}")
            container = f"G[{j}]"
        walked = container
        for step in reversed(steps):
            if step.tag == "lfield":
                keys.append(repr(step.name))
            elif step.tag == "laget":
                tmp = self.new_tmp()
                self.emit(d, f"{tmp} = _ixc({walked}, {self.expr(step.index)})")
                keys.append(tmp)
            else:
                break
            walked = container + "".join(f"[{k}]" for k in keys)
        if j is not None:
            self.emit(d, f"_D.add(({j}, {''.join(k + ', ' for k in keys)}))")
        return container, keys


def _indexed(lv, locals_) -> bool:
    """Whether an assignment target evaluates an index or slice bound that reads more than locals and literals."""
    while lv.tag in ("lfield", "lfields", "laget", "lslice"):
        if lv.tag == "laget" and not _local_only(lv.index, locals_):
            return True
        if lv.tag == "lslice" and not _local_only(lv.slices, locals_):
            return True
        lv = lv.base
    return False


def _subtrees(node):
    """The syntax nodes (named tuples with a ``tag``) inside ``node``, itself included."""
    if isinstance(node, tuple):
        if getattr(node, "tag", None) is not None:
            yield node
        for item in node:
            yield from _subtrees(item)
    elif isinstance(node, list):
        for item in node:
            yield from _subtrees(item)


def _calls(e) -> bool:
    return any(x.tag == "call" for x in _subtrees(e))


def _local_only(e, locals_) -> bool:
    return all(x.tag in ("lit", "bin", "un", "single", "range", "len") or (x.tag == "var" and x.name in locals_)
               for x in _subtrees(e))


def _setter(parts) -> str:
    """The helper writing slices: several slices in one assignment are checked not to overlap."""
    return "_setslices" if len(parts) == 1 else "_setslices_disjoint"


def _rvalue(lv):
    """The expression reading what an assignment target (``lvar``, ``lfield``, ``laget``) names."""
    if lv.tag == "lvar":
        return Var(0, lv.name)
    if lv.tag == "lfield":
        return FieldGet(0, _rvalue(lv.base), lv.name)
    if lv.tag == "laget":
        return ArrayGet(0, _rvalue(lv.base), lv.index)
    raise AslCompileError(f"unsupported assignment target {lv.tag}")


def _type_name(ty) -> str | None:
    return ty.name if ty is not None and ty.tag == "named" else None
