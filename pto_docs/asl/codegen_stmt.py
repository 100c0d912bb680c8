"""Statements of one subprogram as Python source lines (see codegen.py)."""

from __future__ import annotations

from .codegen import _NO, CodeGen
from .errors import AslCompileError


class StmtGen(CodeGen):
    def block(self, stmts, depth: int):
        if not stmts:
            self.emit(depth, "pass")
            return
        for s in stmts:
            getattr(self, "s_" + s[0])(s, depth)

    def s_pass(self, s, d):
        self.emit(d, "pass")

    def s_return(self, s, d):
        self.emit(d, "return" if s[2] is None else f"return {self.returned(s[2])}")

    def returned(self, e) -> str:
        """The returned value: a local this frame owns (a declared local, or a parameter copied on entry) is
        handed over without a copy (nothing else refers to it, and the frame ends); anything else as ``rhs``."""
        if e[0] == "var" and e[2] in self.owned:
            return "l_" + e[2]
        if e[0] == "tuple" and self.value(e) is _NO:
            names = [x[2] for x in e[2] if x[0] == "var"]
            # a local named twice in one tuple would give the caller two names for one aggregate
            return "(" + "".join((self.returned(x) if x[0] != "var" or names.count(x[2]) == 1 else self.rhs(x))
                                 + ", " for x in e[2]) + ")"
        return self.rhs(e)

    def s_callstmt(self, s, d):
        self.emit(d, self.x_call(("call", s[1], s[2], s[3], s[4])))

    def s_assert(self, s, d):
        self.emit(d, f"if not {self.expr(s[2])}:")
        self.emit(d + 1, f"raise AslAssertionError({s[4]!r}, {s[3]!r})")

    def s_unreachable(self, s, d):
        self.emit(d, f"raise AslUnreachable({s[2]!r})")

    def s_throw(self, s, d):
        name = self.exception_type(s[2])
        if name is None:  # not known from the text: the exception type whose fields the value has, if one
            tmp = self.new_tmp()
            self.emit(d, f"{tmp} = {self.rhs(s[2])}")
            self.emit(d, f"raise AslThrow({tmp}, _exc_type({tmp}))")
            return
        self.emit(d, f"raise AslThrow({self.rhs(s[2])}, {name!r})")

    def exception_type(self, e) -> str | None:
        """The static type name of a thrown expression, where the text gives it: a record literal, a local,
        parameter or global declared with a named type or initialised with a record literal, a catcher's
        name, a call of a function declared to return a named type."""
        tag = e[0]
        if tag == "record":
            return e[2]
        if tag == "var":
            if e[2] in self.locals:
                return getattr(self, "known_types", {}).get(e[2])
            for g in self.program.global_decls:
                if g[3] == e[2]:
                    return _type_name(g[4]) or (self.exception_type(g[5]) if g[5] is not None else None)
            return None
        if tag == "call":
            names = {_type_name(f.decl[7]) for f in self.program.functions.get(e[2], ())}
            return names.pop() if len(names) == 1 else None
        if tag == "if":
            then = self.exception_type(e[3])
            return then if then == self.exception_type(e[4]) else None
        return None

    def note_type(self, name: str, ty, init=None):
        known = self.__dict__.setdefault("known_types", {})
        found = _type_name(ty) or (self.exception_type(init) if init is not None else None)
        if found:
            known[name] = found
        else:
            known.pop(name, None)

    def s_print(self, s, d):
        parts = " + ".join(f"_fmt({self.expr(a)})" for a in s[2]) or "''"
        end = " + '\\n'" if s[3] else ""
        self.emit(d, f"_out.write({parts}{end})")

    def s_if(self, s, d, keyword="if"):
        self.emit(d, f"{keyword} {self.expr(s[2])}:")
        self.block(s[3], d + 1)
        other = s[4]
        if len(other) == 1 and other[0][0] == "if":
            self.s_if(other[0], d, "elif")
        elif other:
            self.emit(d, "else:")
            self.block(other, d + 1)

    def s_case(self, s, d):
        tmp = self.new_tmp()
        self.emit(d, f"{tmp} = {self.expr(s[2])}")
        keyword = "if"
        for pats, positive, where, body in s[3]:
            test = self.pattern_test(pats, tmp)
            if not positive:
                test = f"(not {test})"
            if where is not None:
                test = f"({test} and {self.expr(where)})"
            self.emit(d, f"{keyword} {test}:")
            self.block(body, d + 1)
            keyword = "elif"
        if s[4] is not None:
            if keyword == "if":
                self.block(s[4], d)
                return
            self.emit(d, "else:")
            self.block(s[4], d + 1)
        elif keyword == "elif":
            self.emit(d, "else:")
            self.emit(d + 1, f"raise AslUnreachable({s[5]!r})")
        else:
            self.emit(d, f"raise AslUnreachable({s[5]!r})")

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
        _, _, name, start, up, stop, limit, body, loc = s
        rng = self.new_tmp()
        a, b = self.expr(start), self.expr(stop)
        self.emit(d, f"{rng} = range({a}, {b} + 1)" if up else f"{rng} = range({a}, {b} - 1, -1)")
        self._limit_check(limit, f"len({rng})", loc, d)
        self.emit(d, f"for l_{name} in {rng}:")
        self._budget(d + 1, loc)
        self.block(body, d + 1)

    def s_while(self, s, d):
        _, _, cond, limit, body, loc = s
        count = self.new_tmp()
        self.emit(d, f"{count} = 0")
        self.emit(d, f"while {self.expr(cond)}:")
        self.emit(d + 1, f"{count} += 1")
        self._limit_check(limit, count, loc, d + 1)
        self._budget(d + 1, loc)
        self.block(body, d + 1)

    def s_repeat(self, s, d):
        _, _, body, cond, limit, loc = s
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
        self.block(s[2], d + 1)
        self.emit(d, f"except AslThrow as {exc}:")
        keyword = "if"
        for name, ty, body in s[3]:
            type_name = ty[1] if ty[0] == "named" else None
            self.emit(d + 1, f"{keyword} {exc}.type_name == {type_name!r}:")
            if name:
                self.emit(d + 2, f"l_{name} = {exc}.value")
                self.note_type(name, ty)
            self.block(body, d + 2)
            keyword = "elif"
        tail = d + 1
        if keyword == "elif":
            self.emit(d + 1, "else:")
            tail = d + 2
        if s[4] is not None:
            self.block(s[4], tail)
        else:
            self.emit(tail, "raise")

    # -- declarations and assignments ------------------------------------------------------------
    def s_decl(self, s, d):
        target, ty, init = s[3], s[4], s[5]
        value = self.rhs(init) if init is not None else self.base(ty)
        if isinstance(target, str):
            self.note_type(target, ty, init)
            self.emit(d, f"l_{target} = {value}")
        else:
            names = ", ".join(f"l_{n}" if n else "_" for n in target)
            self.emit(d, f"{names}, = {value}")
            if init is not None and init[0] in ("var", "field", "aget"):  # a stored tuple: its parts are copied
                for n in target:
                    if n:
                        self.emit(d, f"l_{n} = _cp(l_{n})")

    def s_vars(self, s, d):
        for name in s[2]:
            self.emit(d, f"l_{name} = {self.base(s[3])}")

    def s_assign(self, s, d):
        value = self.rhs(s[3])
        target = s[2]
        if target[0] == "ltuple":
            tmp = self.new_tmp()
            self.emit(d, f"{tmp} = {value}")
            for i, item in enumerate(target[1]):
                if item[0] != "ldiscard":
                    self.store(item, f"{tmp}[{i}]", d)
            return
        self.store(target, value, d)

    def store(self, lv, value: str, d):
        tag = lv[0]
        if tag == "ldiscard":
            self.emit(d, value)
            return
        if tag not in ("lvar", "lfield", "laget", "lslice", "lfields"):
            raise AslCompileError(f"unsupported assignment target {tag}")
        if tag == "lfield" and self.program.bitfields.special(lv[2]):
            self.store_special_field(lv, value, d)
            return
        if tag == "lfields" and any(self.program.bitfields.special(n) for n in lv[2]):
            self.store_special_field(lv, value, d)
            return
        if tag == "lslice" and self._through_special_field(lv[1]):
            # x.f[s] = v where x.f may be a bitfield: the slice of a copy, stored back as x.f
            tmp, new = self.new_tmp(), self.new_tmp()
            self.emit(d, f"{tmp} = {value}")
            flat = ", ".join(f"({lo}, {w})" for lo, w in self.slice_parts(lv[2]))
            self.emit(d, f"{new} = _setslices({self.expr(_rvalue(lv[1]))}, ({flat},), {tmp})")
            self.store(lv[1], new, d)
            return
        root, keys = self.access_path(lv, d)
        if tag in ("lslice", "lfields"):
            current = root + "".join(f"[{k}]" for k in keys)
            if tag == "lslice":
                parts = self.slice_parts(lv[2])
                flat = ", ".join(f"({lo}, {w})" for lo, w in parts)
                value = f"_setslices({current}, ({flat},), {value})"
            else:
                self.emit(d, f"_setfields({current}, {tuple(lv[2])!r}, {value})")
                return
        if not keys:
            self.emit(d, f"{root} = {value}")
            return
        container = root + "".join(f"[{k}]" for k in keys[:-1])
        self.emit(d, f"{container}[{keys[-1]}] = {value}")

    def _through_special_field(self, lv) -> bool:
        while lv[0] in ("lfield", "laget"):
            if lv[0] == "lfield" and self.program.bitfields.special(lv[2]):
                return True
            lv = lv[1]
        return False

    def store_special_field(self, lv, value: str, d):
        """``x.f = v`` where ``f`` may name a bitfield: a bitvector holder gets a new value, a record changes."""
        if lv[1][0] not in ("lvar", "lfield", "laget"):
            raise AslCompileError(f"unsupported assignment target {lv[1][0]}.{lv[2]}")
        tmp = self.new_tmp()
        self.emit(d, f"{tmp} = {value}")
        setter = f"_fldset({{}}, {lv[2]!r}, {tmp})" if lv[0] == "lfield" else f"_fldsets({{}}, {tuple(lv[2])!r}, {tmp})"
        if lv[1][0] == "lfield" and self.program.bitfields.special(lv[1][2]):
            # x.f.g = v: the holder x.f may itself be a bitfield: change a copy of it, then store that as x.f
            inner, new = self.new_tmp(), self.new_tmp()
            self.emit(d, f"{inner} = {self.expr(_rvalue(lv[1]))}")
            self.emit(d, f"{new} = {setter.format(inner)}")
            self.emit(d, f"if {new} is not None:")
            self.store(lv[1], new, d + 1)
            return
        root, keys = self.access_path(lv[1], d)
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
        while lv[0] in ("lfield", "laget", "lslice", "lfields"):
            steps.append(lv)
            lv = lv[1]
        name = lv[1]
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
            if step[0] == "lfield":
                keys.append(repr(step[2]))
            elif step[0] == "laget":
                tmp = self.new_tmp()
                self.emit(d, f"{tmp} = _ixc({walked}, {self.expr(step[2])})")
                keys.append(tmp)
            else:
                break
            walked = container + "".join(f"[{k}]" for k in keys)
        if j is not None:
            self.emit(d, f"_D.add(({j}, {''.join(k + ', ' for k in keys)}))")
        return container, keys


def _rvalue(lv):
    """The expression reading what an assignment target (``lvar``, ``lfield``, ``laget``) names."""
    if lv[0] == "lvar":
        return ("var", 0, lv[1])
    if lv[0] == "lfield":
        return ("field", 0, _rvalue(lv[1]), lv[2])
    if lv[0] == "laget":
        return ("aget", 0, _rvalue(lv[1]), lv[2])
    raise AslCompileError(f"unsupported assignment target {lv[0]}")


def _type_name(ty) -> str | None:
    return ty[1] if ty is not None and ty[0] == "named" else None
