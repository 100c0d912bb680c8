"""ASL v1 programs beyond what pto-spec uses (issue 34), run by both ASLRef and pto_docs.asl like programs.py's:
bitfields and tuple items, '++' on any values, the reach of 'as', globals initialised in ASLRef's order,
writes through accessors and pragma, more of the standard library, the exception type of any thrown value,
value semantics of arguments read from globals and of destructured stored tuples."""

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
}
