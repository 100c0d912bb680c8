"""ASL v1 syntax beyond what pto-spec uses (issue 34), checked against ASLRef by test_differential.py.

PROGRAMS_SYNTAX run on both (same stdout and exit status); REJECTED_SYNTAX are programs ASLRef rejects for
grammar or lexical reasons (a syntax error here, ASL-SYNTAX), each with the text the diagnostic must name."""

PROGRAMS_SYNTAX = {
    "mask_parenthesised_bits": """
func main() => integer
begin
  for i = 0 to 15 do
    let bv = i[0 +: 4];
    println bv, " ", bv == '1(01)x', " ", bv IN {'(1 0)1(1)', '0x(0)1'}, " ", bv != '(0)1 1(1)';
    case bv of
      when '1(0)(0)1' => println "case 1xx1";
      when '0(1)1x' => println "case 0x1x";
      otherwise => pass;
    end;
  end;
  return 0;
end;
""",
    "tuple_target_of_fields": """
type Flags of bits(8) { [1:0] lo, [7:5] hi, [4] mid };
type Pair of record { a: integer, b: bits(4) };
var G: Pair;

func main() => integer
begin
  var f: Flags;
  f.(lo, -, hi) = ('11', TRUE, '101');
  println f;
  f.(mid, lo) = ('1', '01');
  println f, " ", f.mid;
  G.(b, a) = ('1001', 7);
  println G.a, " ", G.b;
  var r: Pair;
  (r.a, G.b, -) = (G.a + 1, f.hi :: '0', 3);
  println r.a, " ", G.b;
  return 0;
end;
""",
    "words_asl_does_not_reserve": """
var UNKNOWN: integer = 3;

func procedure(RDIV: integer) => integer
begin
  return RDIV * UNKNOWN;
end;

func main() => integer
begin
  let EOR2 = procedure(5);
  println EOR2, " ", procedure(UNKNOWN);
  return 0;
end;
""",
    "parameterised_accessors": """
var R: array [[4]] of bits(64);

accessor X{N}(n: integer) <=> value: bits(N)
begin
  readonly getter
    return R[[n]][0 +: N];
  end;

  setter
    R[[n]] = ZeroExtend{64}(value);
  end;
end;

func Pick{M}(x: bits(64)) => bits(M)
begin
  return x[M-1:0];
end;

func main() => integer
begin
  X{8}(1) = '10100101';
  X{16}(2) = X{8}(1) :: X{8}(1);
  println R[[1]], " ", R[[2]], " ", X{4}(2), " ", Pick{12}(R[[2]]);
  return 0;
end;
""",
    "string_with_raw_line_breaks": """
func main() => integer
begin
  let s = "one
two \\"three\\"
";
  print s;
  println "// not a comment
", '1';
  return 0;
end;
""",
    "literals_with_underscores": """
func main() => integer
begin
  println 1_000, " ", 0xF_F, " ", 0xff_, " ", 1__0, " ", 1_000.5, " ", '1010 0101';
  return 0;
end;
""",
    "collection_globals": """
var C: collection { data: bits(16), status: bits(8), };
var Empty: collection {-};

func main() => integer
begin
  println C.data, " ", C.status;
  C.status = '10000001';
  C.[data, status] = Ones{24};
  println C.data, " ", C.status, " ", C.[status, data];
  C.data[3:0] = '0000';
  println C.data;
  return 0;
end;
""",
}

REJECTED_SYNTAX = {
    "empty_when_list": ("""
func main() => integer
begin
  let b = '10';
  case b of
    when '10' =>
    when '11' => pass;
  end;
  return 0;
end;
""", "empty statement list"),
    "empty_function_body": ("""
func F()
begin
end;

func main() => integer
begin
  return 0;
end;
""", "empty statement list"),
    "empty_else_list": ("""
func main() => integer
begin
  if FALSE then
    pass;
  else
  end;
  return 0;
end;
""", "empty statement list"),
    "identifier_beginning_two_underscores": ("""
func main() => integer
begin
  var __hidden = TRUE;
  return 0;
end;
""", "'__hidden'"),
    "procedure_is_no_declaration": ("""
procedure P()
begin
  pass;
end;

func main() => integer
begin
  return 0;
end;
""", "expected a declaration"),
    "field_twice_in_a_tuple_target": ("""
type Flags of bits(8) { [1:0] lo, [7:5] hi };

func main() => integer
begin
  var f: Flags;
  f.(lo, -, lo) = ('11', TRUE, '10');
  return 0;
end;
""", "multiple writes"),
    "one_field_tuple_target": ("""
type Flags of bits(8) { [1:0] lo, [7:5] hi };

func main() => integer
begin
  var f: Flags;
  f.(lo) = ('11');
  return 0;
end;
""", "two targets or more"),
    "one_item_tuple_target": ("""
func main() => integer
begin
  var x = 1;
  (x) = 2;
  return 0;
end;
""", "two targets or more"),
    "one_name_tuple_declaration": ("""
func main() => integer
begin
  var (x) = 1;
  return 0;
end;
""", "two names or more"),
    "collection_type_declaration": ("""
type C of collection { a: bits(2) };

func main() => integer
begin
  return 0;
end;
""", "collection"),
    "collection_local": ("""
func main() => integer
begin
  var c: collection { a: bits(2) };
  return 0;
end;
""", "collection"),
    "bracket_concatenation": ("""
func main() => integer
begin
  println ['1', '01'];
  return 0;
end;
""", "not ASL v1"),
    "hex_literal_beginning_with_underscore": ("""
func main() => integer
begin
  println 0x_FF;
  return 0;
end;
""", "expected ';'"),
    "non_ascii_in_a_comment": ("""
// caf\u00e9
func main() => integer
begin
  return 0;
end;
""", "U+00E9"),
    "non_ascii_in_a_string": ("""
func main() => integer
begin
  println "\u00fc";
  return 0;
end;
""", "U+00FC"),
    "local_var_without_type_or_value": ("""
func main() => integer
begin
  var x;
  return 0;
end;
""", "a type or an initial value"),
    "global_var_without_type_or_value": ("""
var G;

func main() => integer
begin
  return 0;
end;
""", "a type or an initial value"),
    "catch_with_only_otherwise": ("""
type E of exception {-};

func main() => integer
begin
  try
    throw E{-};
  catch
    otherwise => println "caught";
  end;
  return 0;
end;
""", "'when'"),
    "mask_unbalanced_parenthesis": ("""
func main() => integer
begin
  println '1(01' == '101';
  return 0;
end;
""", "unexpected character"),
    "mask_x_in_parentheses": ("""
func main() => integer
begin
  println '1(x)1' == '101';
  return 0;
end;
""", "unexpected character"),
}
