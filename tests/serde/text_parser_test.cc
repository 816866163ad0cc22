// Parser tests: what text means in the IR (scopes, captures, inference of
// attribute types, ONNX's own spellings), and exact number round trips.

#include <cmath>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::text {
namespace {

using ir::AttributeType;
using ir::DataType;

ir::Node* nth_node(const ir::Graph& g, size_t i) {
  ir::Node* n = g.first_node();
  while (i-- > 0 && n) n = n->next();
  return n;
}

TEST(TextParser, ReadsTheSyntaxDocExample) {
  const ir::Model m = parse_model(R"(
<
  ir_version: 7,
  opset_import: [ "" : 10 ]
>
agraph (float[N, 128] X, float[128, 10] W, float[10] B) => (float[N, 10] C)
{
    T = MatMul(X, W)
    S = Add(T, B)
    C = Softmax(S)
}
)");
  EXPECT_EQ(m.ir_version, 7);
  EXPECT_EQ(m.opset_imports.find(""), 10);
  const ir::Graph& g = m.graph();
  EXPECT_EQ(g.name(), "agraph");
  ASSERT_EQ(g.inputs().size(), 3u);
  EXPECT_EQ(g.inputs()[0]->type()->to_string(), "float[N,128]");
  ASSERT_EQ(g.num_nodes(), 3u);
  ir::Node* matmul = nth_node(g, 0);
  ir::Node* add = nth_node(g, 1);
  EXPECT_EQ(matmul->op_type(), "MatMul");
  EXPECT_EQ(matmul->input(0), g.inputs()[0]);
  EXPECT_EQ(add->input(0), matmul->output(0));
  ASSERT_EQ(g.outputs().size(), 1u);
  EXPECT_EQ(g.outputs()[0], nth_node(g, 2)->output(0));
  EXPECT_EQ(g.outputs()[0]->type()->to_string(), "float[N,10]");
}

TEST(TextParser, SubgraphsCaptureOuterValuesThroughEveryLevel) {
  const auto g = parse_graph(R"(
main (bool c, float x) => (y) {
   t = Neg (x)
   y = If (c) <then_branch: graph = then () => (r) {
      r = Loop ("", c) <body: graph = body (int64 i, bool k) => (k, p) {
         p = Mul (x, t)
      }>
   }, else_branch: graph = else () => (t) {
   }>
}
)");
  ir::Value* x = g->inputs()[1];
  ir::Node* neg = nth_node(*g, 0);
  ir::Node* if_node = nth_node(*g, 1);
  const auto& then_g = if_node->attribute("then_branch")->as_graph();
  const auto& else_g = if_node->attribute("else_branch")->as_graph();
  EXPECT_EQ(then_g->parent_node(), if_node);
  ir::Node* loop = then_g->first_node();
  EXPECT_EQ(loop->input(0), nullptr);
  EXPECT_EQ(loop->input(1), g->inputs()[0]);
  const auto& body = loop->attribute("body")->as_graph();
  ir::Node* mul = body->first_node();
  EXPECT_EQ(mul->input(0), x);               // two levels up
  EXPECT_EQ(mul->input(1), neg->output(0));  // two levels up
  EXPECT_EQ(body->outputs()[0], body->inputs()[1]);
  EXPECT_EQ(else_g->outputs()[0], neg->output(0));  // a subgraph output may be an outer value
  bool seen = false;
  for (const ir::Use& u : x->uses()) seen |= u.node == mul;
  EXPECT_TRUE(seen) << "captured uses are recorded on the outer value";
}

TEST(TextParser, InnerDefinitionsShadowOuterOnes) {
  const auto g = parse_graph(R"(
main (bool c, float x) => (y) {
   y = If (c) <then_branch: graph = then () => (x) { x = Neg (c) z = Abs (x) }, else_branch: graph = e () => (x) {}>
}
)");
  const auto& then_g = nth_node(*g, 0)->attribute("then_branch")->as_graph();
  ir::Node* neg = then_g->first_node();
  EXPECT_EQ(neg->next()->input(0), neg->output(0));
  EXPECT_EQ(then_g->outputs()[0], neg->output(0));
}

TEST(TextParser, ValuesMayBeUsedBeforeTheyAreDefined) {
  const auto g = parse_graph("g (float a) => (c) { c = Abs (b) b = Neg (a) }");
  ir::Node* abs = nth_node(*g, 0);
  ir::Node* neg = nth_node(*g, 1);
  EXPECT_EQ(abs->input(0), neg->output(0));
  EXPECT_EQ(print_graph(*g), "g (float a) => (c) {\n   c = Abs (b)\n   b = Neg (a)\n}\n");
}

TEST(TextParser, InitializersOfInputsInEitherSpelling) {
  const auto g = parse_graph(R"(
g (float[2] w = {1, 2}, float[1] v, float u) => (w)
   <float[1] v = {3}, int64 k = {4}>
{
}
)");
  ASSERT_EQ(g->initializers().size(), 3u);
  EXPECT_EQ(g->initializers()[0], g->inputs()[0]);
  EXPECT_EQ(g->initializers()[1], g->inputs()[1]);
  EXPECT_FALSE(g->initializers()[2]->is_graph_input());
  EXPECT_EQ(g->initializers()[2]->const_value()->data<int64_t>()[0], 4);
  EXPECT_EQ(print_graph(*g),
            "g (float[2] w, float[1] v, float u) => (float[2] w)\n"
            "   <float[2] w = {1, 2},\n"
            "    float[1] v = {3},\n"
            "    int64 k = {4}>\n"
            "{\n"
            "}\n");
}

TEST(TextParser, InfersUntypedAttributesAsOnnxParserDoes) {
  const auto g = parse_graph(R"(
g () => () {
   = Foo <i = 1, f = 0.5, n = -inf, s = "x", is = [1, 2], fs = [1.5, 2], ss = ["a"],
          t = float[2] {1, 2}, named = int64 k = {3}, tp = float[N], tps = [seq(int64), bool],
          g = sub () => () {}, gs = [a () => () {}, b () => () {}], cast: float = 2,
          sp = sparse_tensor(float[4]) {values: float[1] {7}, indices: int64[1] {2}},
          ann = <doc_string: "d"> float {1}>
      ()
}
)");
  ir::Node* n = g->first_node();
  auto type_of = [&](const char* name) { return n->attribute(name)->type; };
  EXPECT_EQ(type_of("i"), AttributeType::kInt);
  EXPECT_EQ(type_of("f"), AttributeType::kFloat);
  EXPECT_EQ(type_of("n"), AttributeType::kFloat);
  EXPECT_TRUE(std::isinf(n->attribute("n")->as_float()));
  EXPECT_EQ(type_of("s"), AttributeType::kString);
  EXPECT_EQ(type_of("is"), AttributeType::kInts);
  EXPECT_EQ(type_of("fs"), AttributeType::kFloats);
  EXPECT_EQ(n->attribute("fs")->as_floats(), (std::vector<float>{1.5f, 2.0f}));
  EXPECT_EQ(type_of("ss"), AttributeType::kStrings);
  EXPECT_EQ(type_of("t"), AttributeType::kTensor);
  EXPECT_EQ(n->attribute("named")->as_tensor().proto_info()->name, "k");
  EXPECT_EQ(type_of("tp"), AttributeType::kTypeProto);
  EXPECT_EQ(type_of("tps"), AttributeType::kTypeProtos);
  EXPECT_EQ(type_of("g"), AttributeType::kGraph);
  EXPECT_EQ(type_of("gs"), AttributeType::kGraphs);
  EXPECT_EQ(n->attribute("gs")->as_graphs().size(), 2u);
  EXPECT_EQ(n->attribute("cast")->as_float(), 2.0f);
  EXPECT_EQ(type_of("sp"), AttributeType::kSparseTensor);
  EXPECT_EQ(type_of("ann"), AttributeType::kTensor);
  EXPECT_EQ(n->attribute("ann")->as_tensor().proto_info()->doc_string, "d");
}

TEST(TextParser, AttributesMayFollowInputsAndAnnotationsAreNotMistakenForThem) {
  const auto g = parse_graph(R"(
g (float x) => (z) {
   y = Relu (x)
   <doc_string: "negates", metadata_props: ["k": "v"]>
   z = Neg (y) <alpha: float = 1>
}
)");
  ir::Node* relu = nth_node(*g, 0);
  ir::Node* neg = nth_node(*g, 1);
  EXPECT_TRUE(relu->attributes().empty());
  EXPECT_TRUE(relu->doc_string().empty());
  EXPECT_EQ(neg->doc_string(), "negates");
  EXPECT_EQ(neg->metadata_props(), (ir::MetadataProps{{"k", "v"}}));
  EXPECT_EQ(neg->attribute("alpha")->as_float(), 1.0f);
}

TEST(TextParser, OmittedNamesFollowOnnxParser) {
  const auto g = parse_graph(R"(
g (float x) => () {
   a, , b = Split (, x)
   = Foo (x,)
   = Bar (,)
   c = Baz ("", x, "")
}
)");
  ir::Node* split = nth_node(*g, 0);
  ASSERT_EQ(split->outputs().size(), 3u);
  EXPECT_EQ(split->output(1)->name(), "");
  ASSERT_EQ(split->inputs().size(), 2u);
  EXPECT_EQ(split->input(0), nullptr);
  EXPECT_EQ(nth_node(*g, 1)->inputs().size(), 1u);
  EXPECT_EQ(nth_node(*g, 2)->inputs().size(), 1u);
  EXPECT_EQ(nth_node(*g, 2)->input(0), nullptr);
  EXPECT_EQ(nth_node(*g, 3)->inputs().size(), 3u);
}

TEST(TextParser, OperatorDomainsAndOverloads) {
  const auto g = parse_graph(R"(
g () => () {
   = com.microsoft.Foo ()
   = ai.onnx.Add:v1 ()
   = "my-domain".Op:"o-1" ()
   = "x y" ()
}
)");
  EXPECT_EQ(nth_node(*g, 0)->domain(), "com.microsoft");
  EXPECT_EQ(nth_node(*g, 0)->op_type(), "Foo");
  EXPECT_EQ(nth_node(*g, 1)->domain(), "ai.onnx");
  EXPECT_EQ(nth_node(*g, 1)->overload(), "v1");
  EXPECT_EQ(nth_node(*g, 2)->domain(), "my-domain");
  EXPECT_EQ(nth_node(*g, 2)->overload(), "o-1");
  EXPECT_EQ(nth_node(*g, 3)->domain(), "");
  EXPECT_EQ(nth_node(*g, 3)->op_type(), "x y");
}

TEST(TextParser, NodeLabelsNameNodes) {
  const auto g = parse_graph("g () => () { [\"my node\"] = Foo () [n2] x = Bar () }");
  EXPECT_EQ(nth_node(*g, 0)->name(), "my node");
  EXPECT_EQ(nth_node(*g, 1)->name(), "n2");
}

TEST(TextParser, FunctionsWithAttributeDefaultsAndReferences) {
  const auto f = parse_function(R"(
<domain: "local", overload: "o", opset_import: ["" : 18], doc_string: "d", metadata_props: ["a": "b"]>
F <alpha, beta: float = 0.5, gamma: int> (float[N] x, y) => (z)
   <float[N] z>
{
   z = Mul <scale: float = @beta> (x, y)
}
)");
  EXPECT_EQ(f->domain, "local");
  EXPECT_EQ(f->name, "F");
  EXPECT_EQ(f->overload, "o");
  EXPECT_EQ(f->doc_string, "d");
  EXPECT_EQ(f->opset_imports.find(""), 18);
  EXPECT_EQ(f->attribute_names, std::vector<std::string>{"alpha"});
  ASSERT_EQ(f->attribute_defaults.size(), 2u);
  EXPECT_EQ(f->attribute_defaults[0].as_float(), 0.5f);
  EXPECT_EQ(f->attribute_defaults[1].type, AttributeType::kInt);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(f->attribute_defaults[1].value));
  const ir::Attribute* scale = f->body().first_node()->attribute("scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_TRUE(scale->is_reference());
  EXPECT_EQ(scale->ref_attr_name, "beta");
  EXPECT_EQ(f->body().value_info().size(), 1u);
  EXPECT_EQ(f->body().value_info()[0], f->body().outputs()[0]);
  EXPECT_EQ(print_function(*parse_function(print_function(*f))), print_function(*f));
}

TEST(TextParser, CommentsAndLayoutDoNotMatter) {
  const auto a = parse_graph("g(float x)=>(y){y=Neg(x)}");
  const auto b =
      parse_graph("# leading\ng (float x) # inputs\n  => (y)\n{\n  y = Neg (x) # negate\n}\n");
  EXPECT_EQ(print_graph(*a), print_graph(*b));
}

TEST(TextParser, ValueInfoMayDescribeValuesThatDoNotExist) {
  const auto g = parse_graph("g () => () <float[2] ghost, int64 other, float[2] ghost> {}");
  ASSERT_EQ(g->value_info().size(), 3u);
  EXPECT_EQ(g->value_info()[0], g->value_info()[2]);
  EXPECT_EQ(g->value_info()[0]->producer(), nullptr);
}

TEST(TextParser, Types) {
  const ir::Type t =
      parse_type("map(int64, seq(optional(float16[N:\"DATA_BATCH\", 3, ?]:\"IMAGE\")))");
  EXPECT_EQ(t.kind, ir::TypeKind::kMap);
  EXPECT_EQ(t.elem_type, DataType::kInt64);
  const ir::Type& inner = *t.element->element->element;
  EXPECT_EQ(inner.elem_type, DataType::kFloat16);
  EXPECT_EQ(inner.denotation(), "IMAGE");
  EXPECT_EQ((*inner.shape)[0].denotation, "DATA_BATCH");
  EXPECT_TRUE((*inner.shape)[2].is_unknown());
  EXPECT_EQ(print_type(t), "map(int64, seq(optional(float16[N:\"DATA_BATCH\",3,?]:\"IMAGE\")))");
  EXPECT_FALSE(parse_type("float[]").shape.has_value());
  EXPECT_TRUE(parse_type("float").shape->empty());
  EXPECT_EQ(parse_type("opaque(a.b, c)").opaque_domain(), "a.b");
}

TEST(TextParser, StringsKeepEveryByte) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  ir::Model m;
  m.doc_string = all;
  m.producer_name = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";
  const std::string text = print_model(m);
  EXPECT_NE(text.find("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), std::string::npos)
      << "valid UTF-8 stays readable";
  const ir::Model back = parse_model(text);
  EXPECT_EQ(back.doc_string, all);
  EXPECT_EQ(back.producer_name, m.producer_name);
}

// Every bit pattern of a narrow float type prints and reads back to itself.
void expect_every_pattern_round_trips(DataType dtype, int width) {
  const int64_t count = int64_t{1} << width;
  ir::Graph g("g");
  ir::Tensor t(dtype, {count});
  auto* p = static_cast<uint8_t*>(t.raw_data());
  for (int64_t i = 0; i < count; ++i) {
    if (width == 16) {
      const auto v = static_cast<uint16_t>(i);
      std::memcpy(p + 2 * i, &v, 2);
    } else if (width == 8) {
      p[i] = static_cast<uint8_t>(i);
    } else {
      p[i / 2] = static_cast<uint8_t>(p[i / 2] | (i << (4 * (i % 2))));
    }
  }
  g.add_initializer("t", t);
  const std::string text = print_graph(g);
  const auto back = parse_graph(text);
  EXPECT_TRUE(back->initializers()[0]->const_value()->same_contents(t))
      << ir::data_type_name(dtype);
  EXPECT_EQ(print_graph(*back), text);
}

TEST(TextParser, EveryNarrowFloatPatternRoundTrips) {
  expect_every_pattern_round_trips(DataType::kFloat16, 16);
  expect_every_pattern_round_trips(DataType::kBfloat16, 16);
  expect_every_pattern_round_trips(DataType::kFloat8E4M3FN, 8);
  expect_every_pattern_round_trips(DataType::kFloat8E4M3FNUZ, 8);
  expect_every_pattern_round_trips(DataType::kFloat8E5M2, 8);
  expect_every_pattern_round_trips(DataType::kFloat8E5M2FNUZ, 8);
  expect_every_pattern_round_trips(DataType::kFloat4E2M1, 4);
  expect_every_pattern_round_trips(DataType::kInt4, 4);
  expect_every_pattern_round_trips(DataType::kUint4, 4);
}

TEST(TextParser, NarrowFloatsReadDecimalsWithRoundingToNearestEven) {
  const auto g = parse_graph(
      "g () => () <float16[4] h = {0.1, 1.00048828125, 65520, -1e-8}, "
      "float8e4m3fn[2] e = {448, 0.0009765625}, float4e2m1[3] f = {0.25, 5, -0.74}, bfloat16 b = "
      "{1.00390625}> {}");
  auto bits16 = [&](size_t init, int i) {
    uint16_t v;
    std::memcpy(
        &v, static_cast<const uint8_t*>(g->initializers()[init]->const_value()->raw_data()) + 2 * i,
        2);
    return v;
  };
  EXPECT_EQ(bits16(0, 0), 0x2E66);
  EXPECT_EQ(bits16(0, 1), 0x3C00);  // a tie rounds to the even mantissa
  EXPECT_EQ(bits16(0, 2), 0x7C00);  // past the largest finite value: inf
  EXPECT_EQ(bits16(0, 3), 0x8000);  // underflows to -0
  const auto* e = static_cast<const uint8_t*>(g->initializers()[1]->const_value()->raw_data());
  EXPECT_EQ(e[0], 0x7E);
  EXPECT_EQ(e[1], 0x00);  // half the smallest subnormal: a tie, to even (zero)
  const auto* f = static_cast<const uint8_t*>(g->initializers()[2]->const_value()->raw_data());
  EXPECT_EQ(f[0], 0x60);            // 0.25 ties to 0 (even); 5 ties to 4 (0x6, even)
  EXPECT_EQ(f[1] & 0xF, 0x09);      // -0.74 rounds to -0.5
  EXPECT_EQ(bits16(3, 0), 0x3F80);  // a tie rounds to the even mantissa (1.0)
}

TEST(TextParser, RandomFloatsAndDoublesRoundTripExactly) {
  std::mt19937_64 rng(42);
  const int n = 20000;
  ir::Tensor f(DataType::kFloat, {n});
  ir::Tensor d(DataType::kDouble, {n});
  for (int i = 0; i < n; ++i) {
    const uint64_t r = rng();
    const auto r32 = static_cast<uint32_t>(r);
    std::memcpy(f.data<float>() + i, &r32, 4);
    std::memcpy(d.data<double>() + i, &r, 8);
  }
  ir::Graph g("g");
  g.add_initializer("f", f);
  g.add_initializer("d", d);
  const auto back = parse_graph(print_graph(g));
  EXPECT_TRUE(back->initializers()[0]->const_value()->same_contents(f));
  EXPECT_TRUE(back->initializers()[1]->const_value()->same_contents(d));
}

}  // namespace
}  // namespace onnxscript::text
