"""Compile statements to closures ``fn(frame) -> None | RETURN``.

A statement returns ``None`` to continue, or the ``RETURN`` marker after storing the function result
in ``frame[0]``; blocks stop at the first marker.
"""

from __future__ import annotations

from .compile_expr import ExprCompiler
from .errors import AslAssertionError, AslCompileError, AslError, AslThrow, AslUnreachable
from .values import BV, format_value

RETURN = object()


class StmtCompiler(ExprCompiler):
    def block(self, stmts):
        fns = [self.stmt(s) for s in stmts]
        if not fns:
            return lambda f: None
        if len(fns) == 1:
            return fns[0]
        if len(fns) == 2:
            s1, s2 = fns

            def two(f):
                r = s1(f)
                if r is not None:
                    return r
                return s2(f)

            return two
        fns = tuple(fns)

        def run(f):
            for s in fns:
                r = s(f)
                if r is not None:
                    return r
            return None

        return run

    def stmt(self, s):
        return getattr(self, "s_" + s[0])(s)

    def s_pass(self, s):
        return lambda f: None

    def s_return(self, s):
        if s[2] is None:
            return lambda f: RETURN
        fn = self.rhs(s[2])

        def ret(f):
            f[0] = fn(f)
            return RETURN

        return ret

    def s_callstmt(self, s):
        call = self.program.compile_call(self, s[2], s[3], s[4], s[1])

        def run(f):
            call(f)

        return run

    def s_assert(self, s):
        fn = self.expr(s[2])
        text, loc = s[3], s[4]

        def check(f):
            if not fn(f):
                raise AslAssertionError(loc, text)

        return check

    def s_unreachable(self, s):
        loc = s[2]

        def fail(f):
            raise AslUnreachable(loc)

        return fail

    def s_throw(self, s):
        if s[2] is None:
            def rethrow(f):
                raise AslError("rethrow outside a catcher is not supported")

            return rethrow
        fn = self.expr(s[2])
        name = s[2][2] if s[2][0] == "record" else "exception"

        def throw(f):
            raise AslThrow(fn(f), name)

        return throw

    def s_print(self, s):
        args = [self.expr(a) for a in s[2]]
        end = "\n" if s[3] else ""
        out = self.program.output

        def emit(f):
            out.write("".join(format_value(a(f)) for a in args) + end)

        return emit

    def s_if(self, s):
        cond = self.expr(s[2])
        then = self.block(s[3])
        other = self.block(s[4])
        if not s[4]:
            def if_(f):
                if cond(f):
                    return then(f)
                return None

            return if_
        return lambda f: then(f) if cond(f) else other(f)

    def s_case(self, s):
        subject = self.expr(s[2])
        alts = []
        for pats, positive, where, body in s[3]:
            test = self.pattern_test(pats)
            if not positive:
                test = (lambda t: lambda f, v: not t(f, v))(test)
            guard = self.expr(where) if where is not None else None
            alts.append((test, guard, self.block(body)))
        otherwise = self.block(s[4]) if s[4] is not None else None
        loc = s[5]

        def case(f):
            v = subject(f)
            for test, guard, body in alts:
                if test(f, v) and (guard is None or guard(f)):
                    return body(f)
            if otherwise is None:
                raise AslUnreachable(loc)
            return otherwise(f)

        return case

    def _limit(self, limit, loc):
        return None if limit is None else self.expr(limit)

    def s_for(self, s):
        slot = self.slots[s[2]]
        start, stop = self.expr(s[3]), self.expr(s[5])
        up = s[4]
        body = self.block(s[7])
        limit = self._limit(s[6], s[8])
        loc = s[8]

        def loop(f):
            a, b = start(f), stop(f)
            rng = range(a, b + 1) if up else range(a, b - 1, -1)
            if limit is not None and len(rng) > limit(f):
                raise AslError(f"{loc}: loop limit reached")
            for i in rng:
                f[slot] = i
                r = body(f)
                if r is not None:
                    return r
            return None

        return loop

    def s_while(self, s):
        cond, body = self.expr(s[2]), self.block(s[4])
        limit = self._limit(s[3], s[5])
        loc = s[5]

        def loop(f):
            n = 0
            cap = limit(f) if limit is not None else None
            while cond(f):
                n += 1
                if cap is not None and n > cap:
                    raise AslError(f"{loc}: loop limit reached")
                r = body(f)
                if r is not None:
                    return r
            return None

        return loop

    def s_repeat(self, s):
        body, cond = self.block(s[2]), self.expr(s[3])
        limit = self._limit(s[4], s[5])
        loc = s[5]

        def loop(f):
            n = 0
            cap = limit(f) if limit is not None else None
            while True:
                n += 1
                if cap is not None and n > cap:
                    raise AslError(f"{loc}: loop limit reached")
                r = body(f)
                if r is not None:
                    return r
                if cond(f):
                    return None

        return loop

    def s_try(self, s):
        body = self.block(s[2])
        catchers = []
        for name, ty, stmts in s[3]:
            type_name = ty[1] if ty[0] == "named" else None
            catchers.append((type_name, self.slots.get(name) if name else None, self.block(stmts)))
        otherwise = self.block(s[4]) if s[4] is not None else None

        def try_(f):
            try:
                return body(f)
            except AslThrow as exc:
                for type_name, slot, handler in catchers:
                    if type_name == exc.type_name:
                        if slot is not None:
                            f[slot] = exc.value
                        return handler(f)
                if otherwise is not None:
                    return otherwise(f)
                raise

        return try_

    # declarations and assignments -------------------------------------------------------------
    def s_decl(self, s):
        target, ty, init = s[3], s[4], s[5]
        value = self.rhs(init) if init is not None else self.program.types.base_value(ty, self)
        if isinstance(target, str):
            slot = self.slots[target]

            def decl(f):
                f[slot] = value(f)

            return decl
        slots = [self.slots[n] if n is not None else None for n in target]

        def decl_tuple(f):
            for slot, v in zip(slots, value(f)):
                if slot is not None:
                    f[slot] = v

        return decl_tuple

    def s_vars(self, s):
        value = self.program.types.base_value(s[3], self)
        slots = [self.slots[n] for n in s[2]]

        def decl(f):
            for slot in slots:
                f[slot] = value(f)

        return decl

    def s_assign(self, s):
        setter = self.lvalue(s[2])
        value = self.rhs(s[3])
        return lambda f: setter(f, value(f))

    def lvalue(self, lv):
        """Compile an assignment target to ``fn(frame, value)``."""
        tag = lv[0]
        if tag == "lvar":
            name = lv[1]
            slot = self.slots.get(name)
            if slot is not None:
                def set_local(f, v):
                    f[slot] = v

                return set_local
            return self.program.global_writer(name)
        if tag == "ldiscard":
            return lambda f, v: None
        if tag == "ltuple":
            setters = [self.lvalue(x) for x in lv[1]]

            def set_tuple(f, v):
                for setter, x in zip(setters, v):
                    setter(f, x)

            return set_tuple
        if tag == "lfield":
            container = self.container(lv[1])
            name = lv[2]

            def set_field(f, v):
                container(f)[name] = v

            return set_field
        if tag == "laget":
            container = self.container(lv[1])
            index = self.index(lv[2])

            def set_elem(f, v):
                arr = container(f)
                i = index(f)
                if i < 0:
                    raise AslError(f"array index {i} out of range 0..{len(arr) - 1}")
                try:
                    arr[i] = v
                except IndexError:
                    raise AslError(f"array index {i} out of range 0..{len(arr) - 1}") from None

            return set_elem
        if tag == "lfields":
            container = self.container(lv[1])
            names = lv[2]

            def set_fields(f, v):
                rec = container(f)
                low = v.val
                for n in reversed(names):
                    w = rec[n].width
                    rec[n] = BV(low & ((1 << w) - 1), w)
                    low >>= w

            return set_fields
        if tag == "lslice":
            read = self.container(lv[1])
            write = self.lvalue(lv[1])
            ranges = self.slices(lv[2])

            def set_slice(f, v):
                old = read(f)
                val = old.val
                low = v.val
                for lo, w in reversed(list(ranges(f))):
                    if lo < 0 or w < 0 or lo + w > old.width:
                        raise AslError(f"slice [{lo}+:{w}] out of range of a {old.width}-bit value")
                    mask = ((1 << w) - 1) << lo
                    val = (val & ~mask) | ((low << lo) & mask)
                    low >>= w
                write(f, BV(val, old.width))

            return set_slice
        raise AslCompileError(f"unsupported assignment target {tag}")

    def container(self, lv):
        """Read the current value stored at an assignment target (no copy: it is mutated in place)."""
        tag = lv[0]
        if tag == "lvar":
            if lv[1] in self.slots:
                return self.expr(("var", 0, lv[1]))
            return self.program.global_container(lv[1])
        if tag == "lfield":
            base = self.container(lv[1])
            name = lv[2]
            return lambda f: base(f)[name]
        if tag == "laget":
            base = self.container(lv[1])
            index = self.index(lv[2])
            return lambda f: base(f)[index(f)]
        if tag == "lslice":
            return self.container(lv[1])
        raise AslCompileError(f"unsupported nested assignment target {tag}")
