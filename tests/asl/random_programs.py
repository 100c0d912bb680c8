"""Random, well-typed, error-free ASL expressions over integers and bitvectors (for differential tests).

Every binary operation is parenthesised (ASL forbids mixing operators of one precedence level), divisions
use positive divisors and DIV only exact quotients, so a program runs to the end on ASLRef.
"""

from __future__ import annotations

import random


class ExprGen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def int_expr(self, depth: int) -> str:
        r = self.r
        if depth <= 0 or r.random() < 0.2:
            return str(r.randint(0, 60)) if r.random() < 0.7 else f"(-{r.randint(1, 60)})"
        a, b = self.int_expr(depth - 1), self.int_expr(depth - 1)
        k = r.randint(1, 9)
        choice = r.randrange(11)
        if choice == 0:
            return f"({a} + {b})"
        if choice == 1:
            return f"({a} - {b})"
        if choice == 2:
            return f"({a} * {b})"
        if choice == 3:
            return f"({a} MOD {k})"
        if choice == 4:
            return f"({a} DIVRM {k})"
        if choice == 5:
            return f"(({a} * {k}) DIV {k})"
        if choice == 6:
            return f"({a} << {r.randint(0, 5)})"
        if choice == 7:
            return f"({a} >> {r.randint(0, 5)})"
        w = r.randint(1, 12)
        if choice == 8:
            return f"UInt({self.bv_expr(w, depth - 1)})"
        if choice == 9:
            return f"SInt({self.bv_expr(w, depth - 1)})"
        return f"(if {a} < {b} then {a} else {b})"

    def bv_literal(self, w: int) -> str:
        return "'" + "".join(self.r.choice("01") for _ in range(w)) + "'"

    def bv_expr(self, w: int, depth: int) -> str:
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.bv_literal(w)
        a, b = self.bv_expr(w, depth - 1), self.bv_expr(w, depth - 1)
        choice = r.randrange(12)
        if choice == 0:
            return f"({a} + {b})"
        if choice == 1:
            return f"({a} - {b})"
        if choice == 2:
            return f"({a} AND {b})"
        if choice == 3:
            return f"({a} OR {b})"
        if choice == 4:
            return f"({a} XOR {b})"
        if choice == 5:
            return f"(NOT {a})"
        if choice == 6:
            return f"({a} + {self.int_expr(depth - 1)})"
        if choice == 7:
            shift = r.choice(["LSL", "LSR", "ASR"])
            return f"{shift}({a}, {r.randint(0, w + 1)})"
        if choice == 8 and w >= 2:
            left = r.randint(1, w - 1)
            return f"({self.bv_expr(left, depth - 1)} :: {self.bv_expr(w - left, depth - 1)})"
        if choice == 9:
            extra = r.randint(1, 6)
            lo = r.randint(0, extra)
            return f"({self.bv_expr(w + extra, depth - 1)})[{lo + w - 1}:{lo}]"
        if choice == 10 and w >= 2:
            narrow = r.randint(1, w - 1)
            ext = r.choice(["ZeroExtend", "SignExtend"])
            return f"{ext}{{{w}}}({self.bv_expr(narrow, depth - 1)})"
        return f"({self.int_expr(depth - 1)})[{w - 1}:0]"

    def program(self, lines: int) -> str:
        body = []
        for i in range(lines):
            if i % 2:
                body.append(f"    println {self.int_expr(3)};")
            else:
                body.append(f"    println {self.bv_expr(self.r.randint(1, 16), 3)};")
        return "func main() => integer\nbegin\n" + "\n".join(body) + "\n    return 0;\nend;\n"
