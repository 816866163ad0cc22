// Parse errors: every malformed input is a ParseError that names the source,
// the line and column, and what was expected; none crashes.

#include <random>
#include <string>

#include <gtest/gtest.h>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::text {
namespace {

std::string parse_error(std::string_view text) {
  try {
    parse_model(text, "bad.txt");
  } catch (const ParseError& e) {
    return e.what();
  }
  return "(no error)";
}

struct Case {
  const char* name;
  const char* text;
  const char* message;  // the whole message, starting with "bad.txt:line:col: "
};

// Lines and columns are 1-based; the model text starts on line 1.
const Case kCases[] = {
    {"empty input", "", "bad.txt:1:1: expected a graph name, found end of input"},
    {"unterminated string", "<producer_name: \"abc>\ng () => () {}",
     "bad.txt:1:17: unterminated string (missing closing '\"')"},
    {"bad escape", "<producer_name: \"a\\qb\">",
     "bad.txt:1:19: unknown escape sequence in string; use \\\\, \\\", \\n, \\r, \\t or \\xHH"},
    {"number with two dots", "g () => () <float[2] w = {1.2.3, 4}> {}",
     "bad.txt:1:27: malformed number '1.2.': unexpected character after it"},
    {"number running into a name", "g (float[3N] x) => () {}",
     "bad.txt:1:10: malformed number '3N': unexpected character after it"},
    {"exponent without digits", "g () => () <float w = {1e}> {}",
     "bad.txt:1:24: malformed number '1e': expected digits in the exponent"},
    {"integer out of range", "<ir_version: 99999999999999999999> g () => () {}",
     "bad.txt:1:14: integer 99999999999999999999 is out of range for int64"},
    {"absurd dimension", "g (float[99999999999999999999] x) => () {}",
     "bad.txt:1:10: integer 99999999999999999999 is out of range for int64"},
    {"absurd tensor shape", "g () => () <float[4000000000,4000000000,4000000000] w = {1}> {}",
     "bad.txt:1:13: tensor element count overflows int64"},
    {"huge tensor with little data", "g () => () <float[1000000000000] w = {1}> {}",
     "bad.txt:1:38: a float tensor of shape [1000000000000] needs 1000000000000 values, found 1"},
    {"negative tensor dimension", "g () => () <float[-2] w = {}> {}",
     "bad.txt:1:13: tensor dimension -2 is negative"},
    {"symbolic tensor dimension", "g () => () <float[N] w = {}> {}",
     "bad.txt:1:13: tensor dimensions must be numbers"},
    {"too few values", "g () => () <int64[2,2] w = {1, 2, 3}> {}",
     "bad.txt:1:28: a int64 tensor of shape [2,2] needs 4 values, found 3"},
    {"int8 out of range", "g () => () <int8[2] w = {1, 300}> {}",
     "bad.txt:1:29: 300 is out of range for int8"},
    {"negative unsigned", "g () => () <uint64 w = {-1}> {}",
     "bad.txt:1:25: -1 is out of range for uint64"},
    {"float for int", "g () => () <int32 w = {1.5}> {}",
     "bad.txt:1:24: expected an integer for int32, found number 1.5"},
    {"float8 out of range", "g () => () <float8e4m3fn w = {1000}> {}",
     "bad.txt:1:31: 1000 is not a valid float8e4m3fn value (out of range?)"},
    {"float out of range", "g () => () <float w = {1e39}> {}",
     "bad.txt:1:24: 1e39 is not a valid float (out of range?)"},
    {"nan bits that are not a nan", "g () => () <float w = {nan(0x3f800000)}> {}",
     "bad.txt:1:24: nan(0x3f800000) is not a valid float (out of range?)"},
    {"string in a float tensor", "g () => () <float w = {\"1\"}> {}",
     "bad.txt:1:24: expected a float value, found string \"1\""},
    {"unknown type", "g (floaty[3] x) => () {}", "bad.txt:1:4: unknown type 'floaty'"},
    {"unknown element type in map", "g (map(floaty, float) x) => () {}",
     "bad.txt:1:8: unknown element type 'floaty'"},
    {"unknown type in declarations", "g () => () <floaty[3] x> {}",
     "bad.txt:1:13: expected a type, found identifier 'floaty'"},
    {"undefined value", "g (float x) => (y) {\n   y = Add (x, z)\n}",
     "bad.txt:2:16: 'z' is not defined"},
    {"undefined output", "g (float x) => (y) {}",
     "bad.txt:1:17: 'y' is not defined (it is listed as a graph output)"},
    {"undefined capture",
     "g (bool c) => () {\n   = If (c) <then_branch: graph = t () => () {\n      = Foo (q)\n   "
     "}>\n}",
     "bad.txt:3:14: 'q' is not defined"},
    {"duplicate definition", "g (float x) => (y) {\n   y = Neg (x)\n   y = Abs (x)\n}",
     "bad.txt:3:4: 'y' is defined twice in graph 'g' (first at line 2, column 4)"},
    {"duplicate input", "g (float x, float x) => () {}",
     "bad.txt:1:19: 'x' is defined twice in graph 'g' (first at line 1, column 10)"},
    {"initializer shadows node output", "g () => () <float a = {1}> { a = Foo () }",
     "bad.txt:1:30: 'a' is defined twice in graph 'g' (first at line 1, column 19)"},
    {"duplicate attribute", "g () => () { = Foo <a: int = 1, a: int = 2> () }",
     "bad.txt:1:33: attribute 'a' given twice"},
    {"unknown attribute type", "g () => () { = Foo <a: integer = 1> () }",
     "bad.txt:1:24: unknown attribute type 'integer'; expected float, int, string, tensor, graph, "
     "sparse_tensor, type_proto or their plurals"},
    {"attribute value of the wrong kind", "g () => () { = Foo <a: int = \"x\"> () }",
     "bad.txt:1:30: expected an integer, found string \"x\""},
    {"untyped empty list", "g () => () { = Foo <a = []> () }",
     "bad.txt:1:25: empty list needs a type: write a: ints = []"},
    {"untyped reference", "g () => () { = Foo <a = @b> () }",
     "bad.txt:1:25: attribute reference 'a' needs a type: write a: <type> = @name"},
    {"missing arrow", "g (float x) (y) {}",
     "bad.txt:1:13: expected '=>' between graph inputs and outputs, found '('"},
    {"missing closing brace", "g () => () {\n   y = Foo ()\n",
     "bad.txt:3:1: expected '}' to close the nodes, found end of input"},
    {"missing equals in node", "g () => () { y Foo () }",
     "bad.txt:1:16: expected '=' after the node outputs, found identifier 'Foo'"},
    {"unknown model key", "<ir_vers: 3> g () => () {}",
     "bad.txt:1:2: unknown model header key 'ir_vers'; expected ir_version, opset_import, "
     "producer_name, "
     "producer_version, domain, model_version, doc_string or metadata_props"},
    {"repeated model key", "<ir_version: 3, ir_version: 4> g () => () {}",
     "bad.txt:1:17: 'ir_version' given twice"},
    {"unknown annotation key", "g () => () { <color: \"red\"> = Foo () }",
     "bad.txt:1:15: unknown annotation key 'color'; expected doc_string or metadata_props"},
    {"unexpected character", "g () => () { $ }", "bad.txt:1:14: unexpected character '$'"},
    {"binary garbage", "g () => () \x01\x02", "bad.txt:1:12: unexpected byte 0x01"},
    {"trailing garbage in a function", "g () => () {} <domain: \"x\"> f () => () {} }",
     "bad.txt:1:43: expected a function name, found '}'"},
    {"external data", "g () => () <float[3] w = [\"location\": \"w.bin\"]> {}",
     "bad.txt:1:26: tensor data must be written inline as {...}; text does not read external data"},
    {"elided tensor", "g () => () <float[3] w = {...}> {}",
     "bad.txt:1:27: tensor data was elided ('...') when printed; it cannot be read back"},
    {"sparse values of the wrong type",
     "g () => () <sparse_tensor(float[4]) s = {values: int64[1] {1}, indices: int64[1] {0}}> {}",
     "bad.txt:1:50: sparse tensor values are int64, but the type says float"},
};

TEST(TextErrors, MessagesNamePlaceAndExpectation) {
  for (const Case& c : kCases) {
    EXPECT_EQ(parse_error(c.text), c.message) << c.name;
  }
}

TEST(TextErrors, DeepNestingIsAnErrorNotACrash) {
  std::string types = "g (";
  for (int i = 0; i < 100000; ++i) types += "seq(";
  EXPECT_NE(parse_error(types).find("nesting deeper than 100 levels"), std::string::npos);

  std::string graphs = "g () => () { = If <b: graph = ";
  for (int i = 0; i < 5000; ++i) graphs += "h () => () { = If <b: graph = ";
  EXPECT_NE(parse_error(graphs).find("nesting deeper than 100 levels"), std::string::npos);

  std::string lists = "g () => () { = F <a = ";
  for (int i = 0; i < 5000; ++i) lists += "[";
  EXPECT_EQ(parse_error(lists).find("bad.txt:1:"), 0u);
}

TEST(TextErrors, OtherEntryPointsReportErrorsToo) {
  EXPECT_THROW(parse_type("seq(float"), ParseError);
  EXPECT_THROW(parse_type("float[3] extra"), ParseError);
  EXPECT_THROW(parse_function("F (x) => (y) {}"), ParseError);
  EXPECT_THROW(parse_graph("g () => () {} g () => () {}"), ParseError);
  try {
    parse_graph("g () => (", "my source");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "my source:1:10: expected a value name, found end of input");
  }
}

// Random edits of valid text: each either parses or throws ParseError.
TEST(TextErrors, MutatedTextNeverCrashes) {
  const std::string valid = R"(<
   ir_version: 10,
   opset_import: ["" : 21, "local" : 1],
   metadata_props: ["k": "v"]
>
<doc_string: "g">
main (float[N,3] x, bool c, seq(int64) s) => (y)
   <float[2] w = {1.5, -nan},
    sparse_tensor(float[4]) sp = {values: float[1] {7}, indices: int64[1] {2}},
    float16[2] h = {0.1, inf},
    string[1] t = {"a\"b\x01"},
    float[N] v>
{
   <doc_string: "d">
   [n] v, "" = local.F:o <a: float = 1, b: ints = [1, 2], t: tensor = int4[3] {1, -8, 7}> (x, "", w)
   y = If (c) <then_branch: graph = a () => (v) {
   }, else_branch: graph = b () => (z) {
      z = Neg (v)
   }>
}

<
   domain: "local",
   opset_import: ["" : 21]
>
F <a: float = 1, b> (x, y) => (z)
{
   z = Mul <s: float = @a> (x, y)
}
)";
  ASSERT_NO_THROW(parse_model(valid));
  std::mt19937 rng(7);
  const std::string alphabet = "<>()[]{},=:.@?\"\\#-0123456789eEx nanfloat\n";
  int parsed = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = valid;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text.erase(pos, 1 + rng() % 4);
          break;
        case 1:
          text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
          break;
        default:
          text[pos] = static_cast<char>(rng() % 256);
          break;
      }
    }
    try {
      const ir::Model m = parse_model(text, "mutated");
      ++parsed;
      // Whatever parses prints and parses back to the same text.
      const std::string printed = print_model(m);
      EXPECT_EQ(print_model(parse_model(printed)), printed);
    } catch (const ParseError&) {
    }
  }
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace onnxscript::text
