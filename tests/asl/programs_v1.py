"""ASL v1 programs beyond what pto-spec uses (issue 34), run by both ASLRef and pto_docs.asl like programs.py's:
bitfields and tuple items, '++' on any values, the reach of 'as', globals initialised in ASLRef's order,
writes through accessors and pragma, more of the standard library, the exception type of any thrown value,
value semantics of arguments read from globals and of destructured stored tuples; then (written as an ASL author
would) recurselimit, overlapping slices, value semantics through globals, arrays and tuples, exception types,
overloads by static type, evaluation order, standard library edges, big loops that leave early, bitfield views
of one width told apart by static type."""

PROGRAMS_V1 = {
    "bitfields_and_tuple_items": """
type Flags of bits(8) { [7:4] hi { [3] top, [1:0] low2 }, [0] z, [3:1] mid };
var G: Flags;

func main() => integer
begin
    var f: Flags = '10110110';
    println f.hi, " ", f.z, " ", f.mid, " ", f.hi.top, " ", f.hi.low2, " ", f.[z, mid];
    f.mid = '101';
    f.z = '1';
    println f;
    G.hi = '0011';
    println G, " ", G.hi.low2;
    let t = (1, '10', TRUE);
    println t.item0, " ", t.item1, " ", t.item2;
    return 0;
end;
""",
    "string_concat_and_as": """
type Colour of enumeration { RED, GREEN };

func main() => integer
begin
    println "n=" ++ 42 ++ " " ++ '1010' ++ " " ++ TRUE ++ " " ++ 2.5 ++ " " ++ RED;
    let y = 2;
    let p = 2 ^ y as integer {1..4};
    let q = 1 + 2 as integer {3} + 4;
    println p, " ", q;
    return 0;
end;
""",
    "globals_initialised_by_dependencies": """
var Counter: integer = 0;

func Next() => integer
begin
    let c = Counter;
    Counter = c + 1;
    return c;
end;

let Zed: integer = Next();
let B: integer = A * 2;
let A: integer = 21 + Next();
let AA: integer = C + Next();
let C: integer = Next();

func main() => integer
begin
    println "Zed=", Zed, " B=", B, " A=", A, " AA=", AA, " C=", C, " Counter=", Counter;
    return 0;
end;
""",
    "writes_through_accessors": """
type R of record { a: integer, b: bits(4) };
var Store: R;
var Word: bits(8) { [7:4] hi };

accessor Rec() <=> v: R
begin
    getter
        return Store;
    end;
    setter
        println "set a=", v.a, " b=", v.b;
        Store = v;
    end;
end;

accessor W() <=> v: bits(8) { [7:4] hi }
begin
    getter
        return Word;
    end;
    setter
        Word = v;
    end;
end;

func main() => integer
begin
    Rec().a = 5;
    Rec().b[1:0] = '11';
    W()[3:0] = '1001';
    W().hi = '0110';
    println Store.a, " ", Store.b, " ", Word;
    pragma my_pragma 1, "two";
    return 0;
end;
""",
    "stdlib_more_functions": """
func main() => integer
begin
    println FloorLog2(17), " ", CeilLog2(17), " ", FloorPow2(17), " ", CeilPow2(17), " ", CeilPow2(0);
    println IsPow2(16), " ", IsPow2(0), " ", IsEven(-2), " ", IsOdd(-1);
    println AlignDownP2('110111', 3), " ", AlignUpP2('110111', 3), " ", AlignUpSize(13, 4), " ", AlignDownSize(13, 4);
    println ROL('1000', 1), " ", ROL('1000', 5), " ", ROR('', 3), " ", ILog2(-8.0), " ", ILog2(0.75);
    let (r, c) = ROR_C('0011', 1);
    let (l, d) = LSL_C('1100', 1);
    let (s, e) = ASR_C('1001', 2);
    println r, " ", c, " ", l, " ", d, " ", s, " ", e;
    println HighestSetBitNZ('0110'), " ", LowestSetBitNZ('0110'), " ", CountLeadingSignBits('11100101');
    println Extend{6}('101', TRUE), " ", Extend{6}('101', FALSE);
    return 0;
end;
""",
    "align_negative_is_an_error": """
func main() => integer
begin
    println AlignDownSize(13, 4);
    println AlignUpP2(-13, 2);
    return 0;
end;
""",
    "exception_types_of_any_thrown_value": """
type E of exception { code: integer };
type F of exception { why: string };
type Empty of exception {-};

var Saved: E = E { code = 11 };

func MakeF(s: string) => F
begin
    return F { why = s };
end;

func ThrowLocal()
begin
    let e = E { code = 3 };
    throw e;
end;

func ThrowParam(x: F)
begin
    throw x;
end;

func Rethrow()
begin
    try
        throw Empty {-};
    catch
        when Empty => println "caught Empty, throwing another";
            throw Empty {-};
    end;
end;

func Try(n: integer)
begin
    try
        case n of
            when 0 => ThrowLocal();
            when 1 => ThrowParam(MakeF("param"));
            when 2 => throw MakeF("call");
            when 3 => throw Saved;
            when 4 => Rethrow();
            otherwise => throw (if n > 10 then E { code = n } else E { code = -n });
        end;
    catch
        when x: E => println "E ", x.code;
        when y: F => println "F ", y.why;
        when Empty => println "Empty";
        otherwise => println "otherwise";
    end;
end;

func main() => integer
begin
    for n = 0 to 5 do
        Try(n);
    end;
    return 0;
end;
""",
    "arguments_from_globals_and_destructuring_never_alias": """
type R of record { a: integer };
var G: R;
var Arr: array[[2]] of R;
type E of exception { code: integer };

func F(r: R) => integer
begin
  G.a = 5;
  return r.a;
end;

func H(r: R) => integer
begin
  Arr[[0]].a = 7;
  return r.a;
end;

func Thrower()
begin
  let e = E { code = 3 };
  throw e;
end;

func main() => integer
begin
  println F(G);
  println H(Arr[[0]]);
  println F(if TRUE then G else G);
  try
    Thrower();
  catch
    when x: E => println "E ", x.code;
    otherwise => println "otherwise";
  end;
  let t = (G, 1);
  var (u, v) = t;
  u.a = 9;
  println G.a, " ", t.item0.a;
  return 0;
end;
""",
    "arbitrary_of_constrained_integers": """
type Small of integer{-3..3};

func main() => integer
begin
  var s: Small;
  println s, " ", ARBITRARY: Small;
  println ARBITRARY: integer{-5..5};
  println ARBITRARY: integer{3..7, -2..-1};
  println ARBITRARY: integer{7, 3};
  println ARBITRARY: integer;
  println ARBITRARY: integer{4..9};
  return 0;
end;
""",
    "recurselimit_counts_frames_not_calls": """
func Down(n: integer) => integer recurselimit 4
begin
  println "down ", n;
  if n == 0 then return 0; end;
  return 1 + Down(n - 1);
end;

func main() => integer
begin
  // four frames at most: each call from main starts again
  println Down(3);
  println Down(3);
  println Down(3);
  println Down(4);
  return 0;
end;
""",
    "recurselimit_mutual_recursion": """
func Even(n: integer) => boolean recurselimit 3
begin
  println "even ", n;
  return if n == 0 then TRUE else Odd(n - 1);
end;

func Odd(n: integer) => boolean
begin
  return if n == 0 then FALSE else Even(n - 1);
end;

func main() => integer
begin
  println Even(4);
  println Even(7);
  return 0;
end;
""",
    "recurselimit_after_caught_exception": """
type Stop of exception { depth: integer };

func Dive(n: integer) => integer recurselimit 3
begin
  if n == 2 then throw Stop { depth = n }; end;
  return Dive(n + 1);
end;

func main() => integer
begin
  for i = 1 to 5 do
    try
      let x = Dive(0);
    catch
      when s: Stop => println "stopped at ", s.depth, " try ", i;
    end;
  end;
  return 0;
end;
""",
    "overlapping_slices_in_one_assignment": """
func Set(x: bits(8), i: integer, j: integer) => bits(8)
begin
  var y = x;
  y[i+:2, j] = '111';
  return y;
end;

func main() => integer
begin
  var x: bits(8) = '00000000';
  x[7:4, 3:0] = '10100101';
  println x;
  x[7, 0] = '11';
  println x;
  println Set(x, 2, 5), " ", Set(x, 4, 0);
  println Set(x, 2, 3);
  println "not reached";
  return 0;
end;
""",
    "value_semantics_global_record_argument": """
type R of record { a: integer, b: bits(4) };
var G: R;

func Bump(r: R) => integer
begin
  var s = r;
  s.a = s.a + 1;
  G.a = 100;
  return r.a * 10 + s.a;
end;

func main() => integer
begin
  G.a = 1;
  println Bump(G);
  println G.a;
  return 0;
end;
""",
    "value_semantics_arrays_of_records": """
type P of record { x: integer, tags: array[[2]] of bits(2) };
var A: array[[3]] of P;

func main() => integer
begin
  A[[0]].x = 1;
  var b = A;
  b[[0]].x = 5;
  b[[1]].tags[[1]] = '11';
  let snapshot = A[[1]];
  A[[1]].tags[[0]] = '01';
  println A[[0]].x, " ", b[[0]].x, " ", A[[1]].tags[[1]], " ", b[[1]].tags[[1]], " ", snapshot.tags[[0]];
  return 0;
end;
""",
    "value_semantics_tuples_and_returns": """
type R of record { v: integer };
var G: R;
var GA: array[[2]] of integer;

func Get() => R
begin
  return G;
end;

func Pair() => (R, integer)
begin
  return (G, GA[[0]]);
end;

func main() => integer
begin
  var x = Get();
  x.v = 7;
  let (p, q) = Pair();
  G.v = 3;
  GA[[0]] = 4;
  let t = (GA, G);
  GA[[1]] = 9;
  G.v = 11;
  println x.v, " ", G.v, " ", p.v, " ", q, " ", t.item0[[1]], " ", t.item1.v;
  return 0;
end;
""",
    "value_semantics_procedure_writes_own_copy": """
type Regs of record { r: array[[4]] of bits(8) };
var State: Regs;

func Clear(regs: Regs) => Regs
begin
  var out = regs;
  for i = 0 to 3 do
    out.r[[i]] = Zeros{8};
  end;
  return out;
end;

func main() => integer
begin
  for i = 0 to 3 do
    State.r[[i]] = Ones{8};
  end;
  let cleared = Clear(State);
  println State.r[[2]], " ", cleared.r[[2]];
  State = cleared;
  State.r[[0]] = '10101010';
  println State.r[[0]], " ", cleared.r[[0]];
  return 0;
end;
""",
    "exceptions_typed_locals_rethrow_nested": """
type Fault of exception { code: integer };
type Other of exception { code: integer };

func Check(n: integer) => integer
begin
  if n > 2 then
    var f: Fault;
    f.code = n;
    throw f;
  end;
  if n < 0 then
    throw Other { code = n };
  end;
  return n;
end;

func Wrap(n: integer) => integer
begin
  try
    return Check(n);
  catch
    when e: Other => println "wrap other ", e.code; throw e;
  end;
end;

func main() => integer
begin
  for i = -1 to 4 do
    try
      println "ok ", Wrap(i);
    catch
      when f: Fault => println "fault ", f.code;
      when o: Other => println "other ", o.code;
    end;
  end;
  return 0;
end;
""",
    "exceptions_otherwise_and_uncaught_type": """
type A of exception { n: integer };
type B of exception { n: integer };

func Throw(k: integer)
begin
  if k == 0 then throw A { n = 0 }; end;
  throw B { n = k };
end;

func main() => integer
begin
  try
    try
      Throw(1);
    catch
      when a: A => println "inner A";
    end;
  catch
    when b: B => println "outer B ", b.n;
  end;
  try
    Throw(0);
  catch
    when b: B => println "B";
    otherwise => println "otherwise";
  end;
  Throw(2);
  println "not reached";
  return 0;
end;
""",
    "overloads_by_static_type": """
func Show(x: integer) => string
begin
  return "int";
end;

func Show(x: bits(4)) => string
begin
  return "bits4";
end;

func Show(x: boolean) => string
begin
  return "bool";
end;

func Show(x: integer, y: integer) => string
begin
  return "two";
end;

func main() => integer
begin
  let b: bits(4) = '1010';
  println Show(3), " ", Show(b), " ", Show(TRUE), " ", Show(1, 2), " ", Show(UInt(b));
  return 0;
end;
""",
    "overloads_real_declared_first": """
func F(x: real) => string
begin
  return "real";
end;

func F(x: integer) => string
begin
  return "integer";
end;

func main() => integer
begin
  println F(3), " ", F(3.0);
  return 0;
end;
""",
    "evaluation_order_arguments_and_operators": """
var Trace: integer = 0;

func Next(tag: integer) => integer
begin
  Trace = Trace * 10 + tag;
  return tag;
end;

func Three(a: integer, b: integer, c: integer) => integer
begin
  return a * 100 + b * 10 + c;
end;

func main() => integer
begin
  println Three(Next(1), Next(2), Next(3)), " ", Trace;
  Trace = 0;
  println Next(4) - Next(5), " ", Trace;
  Trace = 0;
  let t = (Next(6), Next(7));
  println Trace;
  Trace = 0;
  println (FALSE && Next(8) == 8), " ", (TRUE || Next(9) == 9), " ", Trace;
  return 0;
end;
""",
    "evaluation_order_assignment_sides": """
var Trace: integer = 0;
var A: array[[4]] of integer;

func Next(tag: integer) => integer
begin
  Trace = Trace * 10 + tag;
  return tag;
end;

func main() => integer
begin
  A[[Next(1)]] = Next(2);
  println Trace, " ", A[[1]];
  return 0;
end;
""",
    "evaluation_order_record_fields": """
type R of record { a: integer, b: integer };
var Trace: integer = 0;

func Next(tag: integer) => integer
begin
  Trace = Trace * 10 + tag;
  return tag;
end;

func main() => integer
begin
  let r = R { b = Next(1), a = Next(2) };
  println Trace, " ", r.a, " ", r.b;
  return 0;
end;
""",
    "big_loops_that_exit_early": """
func Find(limit: integer) => integer
begin
  for i = 0 to limit do
    if i * i > 50 then return i; end;
  end;
  return -1;
end;

func Search() => integer
begin
  var n: integer = 0;
  while TRUE do
    n = n + 3;
    if n MOD 7 == 0 then return n; end;
  end;
  return -1;
end;

func main() => integer
begin
  println Find(200000000), " ", Find(1000000000000000000000), " ", Search();
  var k: integer = 0;
  repeat
    k = k + 1;
  until k * k >= 90;
  println k;
  for j = 100000000000 downto 0 do
    if j MOD 1000 == 999 then println j; return 0; end;
  end;
  return 1;
end;
""",
    "stdlib_edges_bits": """
func main() => integer
begin
  println Zeros{0} :: '1', " ", Len(Zeros{0}), " ", UInt(Zeros{0}), " ", IsZero(Zeros{0});
  println SInt('1'), " ", SInt('0111'), " ", UInt('1111'), " ", ZeroExtend{8}('1010'), " ", SignExtend{8}('1010');
  println BitCount('10110'), " ", HighestSetBit('00000'), " ", LowestSetBit('00000'), " ", HighestSetBit('01100');
  println CountLeadingZeroBits('00010'), " ", CountLeadingZeroBits('0000'), " ", IsOnes('111'), " ", Replicate{8}('10');
  println LSL('0011', 2), " ", LSR('1100', 3), " ", ASR('1000', 2), " ", ROR('0001', 1), " ", ROR('0001', 0);
  return 0;
end;
""",
    "stdlib_edges_integers_reals": """
func main() => integer
begin
  println Min(-3, 2), " ", Max(-3, -7), " ", Abs(-9), " ", Abs(-2.5);
  println ILog2(64.0), " ", ILog2(0.125), " ", ILog2(100.0);
  println RoundDown(-2.5), " ", RoundUp(-2.5), " ", RoundTowardsZero(-2.5), " ", RoundDown(7.0), " ", Real(3) / 4.0;
  println -7 DIVRM 2, " ", -7 MOD 2, " ", " ", 2 ^ 10, " ", (-2) ^ 3, " ", 1 << 70;
  println -17 >> 2, " ", 5 DIV 5, " ", 3.0 ^ 2, " ", SqrtRounded(2.0, 10);
  return 0;
end;
""",
    "bitvector_arithmetic_wraps": """
func main() => integer
begin
  let a: bits(4) = '1111';
  println a + 1, " ", a + '0001', " ", '0000' - 1, " ", " ", NOT a, " ", a AND '0101';
  println '1010' XOR '0110', " ", '1010' OR '0101', " ", '1010' == '1010', " ", '1010' != '1011';
  var b: bits(16) = Zeros{16};
  b[15:8] = '11110000';
  b[3:0] = a;
  println b, " ", b[15:12, 3:0], " ", UInt(b[11 +: 5]);
  return 0;
end;
""",
    "case_guards_and_patterns": """
type Op of enumeration { ADD, SUB, MUL };

func Kind(op: Op, x: bits(4)) => string
begin
  case op of
    when ADD where x == '0000' => return "add zero";
    when ADD, SUB => return "add/sub";
    otherwise => return "other";
  end;
end;

func Bits(x: bits(4)) => integer
begin
  case x of
    when '1xx1' => return 1;
    when '1xxx' => return 2;
    when '0000', '0001' => return 3;
    otherwise => return 4;
  end;
end;

func Range(n: integer) => integer
begin
  case n of
    when <= -1 => return -1;
    when 0..9 => return 1;
    when 10, 20 => return 2;
    when >= 100 => return 3;
    otherwise => return 0;
  end;
end;

func main() => integer
begin
  println Kind(ADD, '0000'), " ", Kind(ADD, '0001'), " ", Kind(SUB, '0000'), " ", Kind(MUL, '0000');
  println Bits('1001'), Bits('1000'), Bits('0001'), Bits('0110');
  println Range(-5), Range(5), Range(20), Range(15), Range(1000);
  println '1010' IN {'1x1x'}, " ", 5 IN {1..4, 6}, " ", ADD IN {SUB, MUL};
  return 0;
end;
""",
    "for_bounds_evaluated_once": """
var Calls: integer = 0;

readonly func Bound() => integer
begin
  return 3 + Calls;
end;

func main() => integer
begin
  var n: integer = 4;
  var s: integer = 0;
  for i = 0 to n do
    n = 1;
    s = s + i;
  end;
  for j = Bound() downto 0 do
    s = s + 100;
  end;
  println s, " ", n, " ", Calls;
  for k = 5 to 2 do
    println "never";
  end;
  return 0;
end;
""",
    "strings_and_printing": """
type Colour of enumeration { RED, GREEN };

func main() => integer
begin
  let s = "a" ++ "b" ++ 1 ++ TRUE ++ RED;
  println s, " ", -2.5, " ", 1.0 / 3.0, " ", 10.0, " ", 0.0 - 0.5;
  print "no newline";
  println "";
  println '', " ", "tab\\tend", " ", "quote\\"q";
  println 1000000000000000000000000 * 1000000000000000000000000;
  return 0;
end;
""",
    "globals_let_snapshot_of_var": """
var Counter: integer = 5;
var Table: array[[3]] of integer;

func Fill() => integer
begin
  for i = 0 to 2 do
    Table[[i]] = i * Counter;
  end;
  return Table[[2]];
end;

func main() => integer
begin
  let before = Table;
  let x = Fill();
  Counter = 0;
  let y = Fill();
  println before[[2]], " ", x, " ", y, " ", Table[[2]];
  return 0;
end;
""",
    "assert_with_side_effect_order": """
var Trace: integer = 0;

readonly func Step(n: integer) => integer
begin
  return Trace + n;
end;

func main() => integer
begin
  assert Step(1) == 1;
  println "one";
  Trace = 5;
  assert Step(2) == 7;
  println "two";
  assert Step(3) == 7;
  println "not reached";
  return 0;
end;
""",
    "deep_recursion_without_limit": """
func Sum(n: integer) => integer
begin
  if n == 0 then return 0; end;
  return n + Sum(n - 1);
end;

func main() => integer
begin
  println Sum(3000);
  return 0;
end;
""",
    "constrained_integers_and_as": """
type Idx of integer{0..7};

func Pick(i: Idx) => integer
begin
  return i * 2;
end;

func main() => integer
begin
  var total: integer = 0;
  for i = 0 to 7 do
    total = total + Pick(i as Idx);
  end;
  println total;
  let j = 9;
  println Pick(j as Idx);
  return 0;
end;
""",
    "array_indexed_by_enumeration": """
type Colour of enumeration { RED, GREEN, BLUE };
var Counts: array[[Colour]] of integer;

func main() => integer
begin
  Counts[[GREEN]] = 2;
  Counts[[BLUE]] = Counts[[GREEN]] + 1;
  var copy = Counts;
  copy[[RED]] = 9;
  println Counts[[RED]], " ", Counts[[GREEN]], " ", Counts[[BLUE]], " ", copy[[RED]];
  return 0;
end;
""",
    "setter_getter_with_global_state": """
var Store: array[[4]] of bits(8);

accessor Reg(i: integer) <=> v: bits(8)
begin
  getter
    return Store[[i]];
  end;
  setter
    Store[[i]] = v;
  end;
end;

func main() => integer
begin
  Reg(1) = '00001111';
  Reg(2) = Reg(1) OR '11110000';
  var x = Reg(2);
  x[0] = '0';
  println Reg(1), " ", Reg(2), " ", x, " ", Store[[2]];
  return 0;
end;
""",
    "uncaught_exception_exits_nonzero": """
type Boom of exception { n: integer };

func main() => integer
begin
  println "before";
  throw Boom { n = 1 };
  return 0;
end;
""",
    "main_returns_computed_status": """
func main() => integer
begin
  var s: integer = 0;
  for i = 1 to 10 do
    s = s + i;
  end;
  return s MOD 7;
end;
""",
    "evaluation_order_index_call_then_global_value": """
var G: integer = 1;
var A: array[[4]] of integer;

func Bump() => integer
begin
  G = G + 1;
  return 0;
end;

func main() => integer
begin
  A[[Bump()]] = G;
  println A[[0]], " ", G;
  return 0;
end;
""",
    # two views of one width place one nested bitfield name differently: each access is resolved by the static
    # type (a local, a global, a record field, a view given by a named type or by 'bits(6) {...}'), read and written
    "bitfield_views_of_one_width_by_static_type": """
type Mode0 of bits(6) { [5] TTA, [1:0] FP };

type Reg of bits(16) {
    [15] TOP,
    [5:0] V0 { [0] TTA, [4:3] FP },
    [11:6] V1: Mode0,
    [5:0] V2: bits(6) { [2] TTA, [5:4] FP }
};

type Holder of record { r: Reg, n: integer };

var GR: Reg = '1010011100101101';

func main() => integer
begin
    var r: Reg = '0110110010110101';
    println r.V0.TTA, " ", r.V1.TTA, " ", r.V2.TTA, " ", r.V0.FP, " ", r.V1.FP, " ", r.V2.FP;
    println GR.V0.TTA, GR.V1.TTA, GR.V2.TTA, " ", GR.V1.FP;
    r.V0.TTA = '0';
    r.V1.TTA = '0';
    r.V2.FP = '10';
    println r;
    GR.V1.FP = '01';
    GR.V2.TTA = NOT GR.V2.TTA;
    println GR;
    var h: Holder;
    h.r = r;
    h.r.V1.TTA = '1';
    h.r.V0.FP[0] = '1';
    println h.r.V1.TTA, " ", h.r.V0.FP, " ", h.r;
    let m: Mode0 = r.V1;
    println m.TTA, " ", m.FP;
    return 0;
end;
""",
}
