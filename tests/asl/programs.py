"""Small ASL programs, one per construct or corner, run by both ASLRef and pto_docs.asl.

Each entry: name -> program text. Every program prints what it computes, so outputs are compared,
not hard-coded; programs that must fail (assertions, dynamic errors) do so after printing.
"""

PROGRAMS = {
    "slices_concat_width_edges": """
func main() => integer
begin
    let x : bits(8) = '10110001';
    println x[7:0], " ", x[7], " ", x[0], " ", x[7:4], " ", x[3:0], " ", x[0 +: 8], " ", x[4 +: 4];
    println x[7:4] :: x[3:0], " ", '1' :: x, " ", x :: '0', " ", x[6:1];
    var y : bits(64) = Zeros{64};
    y[63] = '1';
    y[31:0] = Ones{32};
    println y, " ", y[63:32], " ", y[0 +: 1];
    let w : bits(0) = x[3 +: 0];
    println w :: x;
    return 0;
end;
""",
    "slice_out_of_range": """
func main() => integer
begin
    let x : bits(8) = '10110001';
    let i = 5;
    println x[i +: 3];
    println x[i +: 4];
    return 0;
end;
""",
    "sint_uint": """
func main() => integer
begin
    println UInt('1111'), " ", SInt('1111'), " ", SInt('0111'), " ", SInt('1000'), " ", UInt('0');
    println SInt(Ones{64}), " ", UInt(Ones{64}), " ", SInt('1' :: Zeros{63});
    println ZeroExtend{16}('1001'), " ", SignExtend{16}('1001'), " ", SignExtend{4}('1001');
    return 0;
end;
""",
    "div_mod_negatives": """
func main() => integer
begin
    println -8 DIV 2, " ", 9 DIV 3, " ", 0 DIV 5;
    println -7 MOD 2, " ", 7 MOD 3, " ", -1 MOD 5, " ", -10 MOD 5;
    println -7 DIVRM 2, " ", 7 DIVRM 2, " ", -1 DIVRM 5, " ", -10 DIVRM 5;
    println 2 ^ 10, " ", (-2) ^ 3, " ", 3 * -4, " ", -(5 - 9);
    return 0;
end;
""",
    "shift_of_a_bitvector_is_error": """
func main() => integer
begin
    let x : bits(8) = '00000001';
    println x << 2;
    return 0;
end;
""",
    "div_inexact_is_error": """
func main() => integer
begin
    println 6 DIV 3;
    let a = -7;
    println a DIV 2;
    return 0;
end;
""",
    "shifts": """
func main() => integer
begin
    println 1 << 3, " ", 40 >> 3, " ", -7 >> 1, " ", -8 >> 2, " ", 5 << 0;
    let v = '10010110';
    println LSL(v, 1), " ", LSR(v, 3), " ", ASR(v, 3), " ", LSL(v, 8), " ", ASR('0110', 2);
    return 0;
end;
""",
    "bitwise": """
func main() => integer
begin
    let a = '1100';
    let b = '1010';
    println a AND b, " ", a OR b, " ", a XOR b, " ", NOT a, " ", a + b, " ", a - b, " ", b - a;
    println a + 1, " ", a + 5, " ", a - 13, " ", IsZero(a AND NOT a), " ", IsZero(a);
    return 0;
end;
""",
    "case_bitmask_patterns": """
func Classify(x: bits(4)) => integer
begin
    case x of
        when '1xx0' => return 1;
        when '0x01', '0011' => return 2;
        when '1111' => return 3;
        otherwise => return 4;
    end;
end;

func main() => integer
begin
    for i = 0 to 15 do
        print Classify(Zeros{4} + i);
    end;
    println "";
    println '1010' IN {'1x1x'}, " ", '1010' IN {'0xxx', '1011'}, " ", '0110' == '0xx0', " ", '0110' != 'x111';
    return 0;
end;
""",
    "case_integers_enums": """
type Colour of enumeration { Red, Green, Blue };

func Name(c: Colour) => integer
begin
    case c of
        when Red => return 10;
        when Green, Blue => return 20;
    end;
end;

func main() => integer
begin
    var total : integer = 0;
    for i = -2 to 12 do
        case i of
            when 0 => total = total + 1;
            when 1..3 => total = total + 10;
            when 7, 9 => total = total + 100;
            otherwise => total = total + 1000;
        end;
    end;
    println total, " ", Name(Red), " ", Name(Blue), " ", Red == Blue, " ", Green;
    return 0;
end;
""",
    "records_and_arrays": """
type Pair of record { left: integer, right: bits(4) };
type Box of record { pair: Pair, items: array [[3]] of integer, flag: boolean };
var G : Box;

func Bump(b: Box) => Box
begin
    var c = b;
    c.items[[1]] = c.items[[1]] + 5;
    c.pair.right = '1111';
    return c;
end;

func main() => integer
begin
    println G.pair.left, " ", G.pair.right, " ", G.items[[2]], " ", G.flag;
    var b = G;
    b.pair.left = 7;
    println G.pair.left, " ", b.pair.left;
    let c = Bump(b);
    println b.items[[1]], " ", c.items[[1]], " ", b.pair.right, " ", c.pair.right;
    G.items[[0]] = 3;
    let saved = G;
    G.items[[0]] = 4;
    println saved.items[[0]], " ", G.items[[0]];
    let p = Pair { left = 1, right = '0011' };
    println p.left, " ", p.right;
    return 0;
end;
""",
    "aggregates_never_alias": """
type Rec of record { a: integer, items: array [[2]] of integer };
var G : Rec;

func Twice() => (Rec, Rec)
begin
    var x = Rec { a = 1, items = G.items };
    return (x, x);
end;

func Same(r: Rec) => Rec
begin
    return r;
end;

func Fresh(r: Rec) => Rec
begin
    var x = r;
    x.a = x.a + 1;
    return x;
end;

func main() => integer
begin
    let c = TRUE;
    var p = Rec { a = 1, items = G.items };
    var q = if c then p else p;
    q.a = 10;
    q.items[[0]] = 10;
    println p.a, " ", p.items[[0]], " ", q.a;
    var (s, t) = (p, p);
    s.a = 20;
    println p.a, " ", t.a, " ", s.a;
    var (u, v) = Twice();
    u.a = 30;
    u.items[[1]] = 30;
    println v.a, " ", v.items[[1]];
    var w = Same(G);
    w.items[[1]] = 40;
    println G.items[[1]], " ", w.items[[1]];
    var y = Fresh(p);
    y.items[[0]] = 50;
    println p.a, " ", p.items[[0]], " ", y.a, " ", y.items[[0]];
    return 0;
end;
""",
    "array_index_out_of_range": """
var A : array [[4]] of integer;

func main() => integer
begin
    A[[3]] = 1;
    println A[[3]];
    let i = 4;
    println A[[i]];
    return 0;
end;
""",
    "exceptions_try_catch": """
type Boom of exception { code: integer };
type Other of exception { - };

func Risky(n: integer) => integer
begin
    if n > 2 then
        throw Boom { code = n };
    end;
    return n;
end;

func main() => integer
begin
    var seen : integer = 0;
    for n = 0 to 4 do
        try
            seen = seen + Risky(n);
        catch
            when e : Boom => println "caught ", e.code;
            when Other => println "other";
        end;
    end;
    println seen;
    try
        throw Other {-};
    catch
        when Boom => println "boom";
        otherwise => println "otherwise";
    end;
    return 0;
end;
""",
    "assert_fails": """
func main() => integer
begin
    let x = 3;
    println "before";
    assert x + 1 == 4;
    assert x == 4;
    println "after";
    return 0;
end;
""",
    "unreachable": """
func main() => integer
begin
    println "one";
    unreachable;
end;
""",
    "loops": """
func main() => integer
begin
    var s : integer = 0;
    for i = 1 to 10 do s = s + i; end;
    for i = 10 downto 7 do print i, " "; end;
    for i = 3 to 2 do println "never"; end;
    var n : integer = 0;
    while n < 5 do n = n + 2; end;
    var r : integer = 0;
    repeat
        r = r + 3;
    until r > 10;
    println s, " ", n, " ", r;
    return 0;
end;
""",
    "integer_constraint_checks": """
func main() => integer
begin
    let a = 5;
    let b = a as integer {0..7};
    println b;
    let c = (a + 10) as integer {0..7};
    println c;
    return 0;
end;
""",
    "reals_exact": """
func main() => integer
begin
    let third = 1.0 / 3.0;
    println third, " ", third * 3.0, " ", Real(7) / 2.0, " ", RoundDown(-2.5), " ", RoundUp(2.25);
    println RoundDown(Real(-7) / 2.0), " ", 0.5 + 0.25, " ", 2.0 ^ 3, " ", third < 0.5;
    return 0;
end;
""",
    "stdlib_reals": """
func main() => integer
begin
    println SqrtRounded(2.0, 10), " ", SqrtRounded(4.0, 3), " ", SqrtRounded(0.5, 8), " ", SqrtRounded(9.0 / 16.0, 4);
    println SqrtRounded(3.0, 24), " ", SqrtRounded(1.0 / 3.0, 5), " ", SqrtRounded(1000.0, 1);
    println RoundTowardsZero(-2.5), " ", RoundTowardsZero(2.5), " ", ILog2(1000.0), " ", ILog2(0.3), " ", ILog2(8.0);
    return 0;
end;
""",
    "accessors_getter_setter": """
var Store : array [[4]] of integer;
var Writes : integer = 0;

accessor Slot(i: integer) <=> v: integer
begin
    getter
        return Store[[i]] * 10;
    end;
    setter
        Store[[i]] = v + 1;
        Writes = Writes + 1;
    end;
end;

func main() => integer
begin
    Slot(2) = 5;
    Slot(0) = Slot(2);
    println Slot(2), " ", Slot(0), " ", Store[[0]], " ", Writes;
    return 0;
end;
""",
    "globals_constants_tuples": """
constant K = 12;
config LIMIT : integer {1..100} = 40;
var counter : integer = 0;
let Fixed = K * 2;

func Next() => (integer, boolean)
begin
    counter = counter + 1;
    return (counter, counter > 1);
end;

func main() => integer
begin
    let (a, b) = Next();
    let (c, d) = Next();
    var e : integer;
    var f : boolean;
    (e, f) = Next();
    let (-, g) = Next();
    println a, b, " ", c, d, " ", e, f, " ", g, " ", K, " ", LIMIT, " ", Fixed;
    return 0;
end;
""",
    "conditional_expressions_and_logic": """
func main() => integer
begin
    let x = 5;
    println (if x > 3 then 1 else 2), " ", (if x > 9 then 1 else if x > 4 then 2 else 3);
    println TRUE && FALSE, " ", TRUE || FALSE, " ", !TRUE, " ", FALSE ==> FALSE, " ", TRUE <=> FALSE;
    println Max(3, -4), " ", Min(3, -4), " ", Abs(-9);
    return 0;
end;
""",
    "main_returns_nonzero": """
func main() => integer
begin
    println "x";
    return 3;
end;
""",
    "overloads_by_arity": """
func F(x: integer) => integer
begin
    return x + 1;
end;

func F(x: integer, y: integer) => integer
begin
    return x * y;
end;

func main() => integer
begin
    println F(4), " ", F(4, 5);
    return 0;
end;
""",
}
