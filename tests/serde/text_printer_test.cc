// Printer tests: exact text for small cases, and a hand-built model that uses
// every feature of the IR against the golden file tests/data/text/everything.txt.
//
// To regenerate golden files after an intended change of the syntax, run the
// tests with ONNXSCRIPT_UPDATE_GOLDEN=1 and review the diff:
//   ONNXSCRIPT_UPDATE_GOLDEN=1 ./serde_tests --gtest_filter='Text*'

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::text {
namespace {

using ir::DataType;
using ir::Dim;
using ir::Shape;
using ir::Type;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Compares `actual` with the golden file, or rewrites it when asked to.
void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(ONNXSCRIPT_TEST_DATA_DIR) + "/text/" + name;
  if (const char* update = std::getenv("ONNXSCRIPT_UPDATE_GOLDEN"); update && *update) {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  const std::string expected = read_file(path);
  ASSERT_FALSE(expected.empty()) << "missing golden file " << path;
  EXPECT_EQ(actual, expected) << "golden file " << path << " differs";
}

template <typename T>
ir::Tensor tensor(DataType dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
  ir::Tensor t(dtype, std::move(shape));
  if (!values.empty()) std::memcpy(t.raw_data(), values.data(), values.size() * sizeof(T));
  return t;
}

ir::Tensor strings(std::vector<int64_t> shape, const std::vector<std::string>& values) {
  ir::Tensor t(DataType::kString, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) t.data<std::string>()[i] = values[i];
  return t;
}

float bits_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// A model that uses every feature the text format has to carry.
ir::Model everything() {
  ir::Model m;
  m.ir_version = 11;
  m.opset_imports.append("", 21);
  m.opset_imports.append("com.example", 1);
  m.opset_imports.append("local", 1);
  m.producer_name = "onnxscript \"tests\"";
  m.producer_version = "0.1";
  m.domain = "ai.example";
  m.model_version = 7;
  m.doc_string = "A model that uses\nevery feature.";
  m.metadata_props = {{"author", "tests"}, {"empty", ""}};

  ir::Graph& g = m.graph();
  g.set_name("everything");
  g.doc_string = "the main graph";
  g.metadata_props = {{"k", "v"}};
  g.quantization_annotation.push_back(
      {"W", {{"SCALE_TENSOR", "scale"}, {"ZERO_POINT_TENSOR", "zp"}}});

  Dim batch("N");
  batch.denotation = "DATA_BATCH";
  Type x_type = Type::tensor(DataType::kFloat, Shape{batch, Dim(3), Dim()});
  x_type.set_denotation("TENSOR");
  ir::Value* x = g.add_input("X", x_type);
  x->set_doc_string("the input");
  x->set_metadata_props({{"unit", "m"}});
  ir::Value* seq = g.add_input("0", Type::sequence(Type::tensor(DataType::kInt64)));
  g.add_input("input.1", Type::map(DataType::kString,
                                   Type::optional(Type::tensor(DataType::kDouble, Shape{}))));
  Type opaque;
  opaque.kind = ir::TypeKind::kOpaque;
  opaque.set_opaque("com.example", "Blob");
  g.add_input("float", opaque);
  g.add_input("untyped");
  g.add_input("unspecified", Type{});
  g.add_input("sp", Type::sparse_tensor(DataType::kFloat, Shape{Dim(3), Dim(4)}));
  ir::Value* cond = g.add_input("cond", Type::tensor(DataType::kBool, Shape{}));
  ir::Value* w = g.add_input("W", Type::tensor(DataType::kFloat, Shape{Dim(2)}));
  g.set_initializer(w, tensor<float>(DataType::kFloat, {2}, {1.5f, -2.0f}));

  // One initializer per element type, with the values that are easy to get wrong.
  ir::Tensor f32 = tensor<float>(
      DataType::kFloat, {2, 4},
      {0.1f, -0.0f, 1e-45f, 3.4028235e38f, bits_float(0x7FC00000u), bits_float(0xFFC00000u),
       bits_float(0x7FC00001u), -std::numeric_limits<float>::infinity()});
  f32.mutable_proto_info().doc_string = "floats";
  g.add_initializer("f32", f32);
  g.add_initializer("f64", tensor<double>(DataType::kDouble, {3}, {0.1, 1e300, -5e-324}));
  g.add_initializer(
      "f16", tensor<uint16_t>(DataType::kFloat16, {5}, {0x3C00, 0x2E66, 0x7BFF, 0x0001, 0x7E00}));
  g.add_initializer("bf16", tensor<uint16_t>(DataType::kBfloat16, {3}, {0x3DCD, 0x4049, 0xFF80}));
  g.add_initializer("e4m3fn",
                    tensor<uint8_t>(DataType::kFloat8E4M3FN, {4}, {0x7E, 0x7F, 0x01, 0xB8}));
  g.add_initializer("e4m3fnuz",
                    tensor<uint8_t>(DataType::kFloat8E4M3FNUZ, {3}, {0x80, 0x7F, 0x00}));
  g.add_initializer("e5m2", tensor<uint8_t>(DataType::kFloat8E5M2, {4}, {0x7C, 0x7D, 0x7E, 0x3C}));
  g.add_initializer("e5m2fnuz", tensor<uint8_t>(DataType::kFloat8E5M2FNUZ, {2}, {0x80, 0x7F}));
  g.add_initializer("fp4", tensor<uint8_t>(DataType::kFloat4E2M1, {3}, {0x9F, 0x01}));
  g.add_initializer("i4", tensor<uint8_t>(DataType::kInt4, {3}, {0x8F, 0x07}));
  g.add_initializer("u4", tensor<uint8_t>(DataType::kUint4, {2}, {0xF0}));
  g.add_initializer("i8", tensor<int8_t>(DataType::kInt8, {2}, {-128, 127}));
  g.add_initializer("u8", tensor<uint8_t>(DataType::kUint8, {2}, {0, 255}));
  g.add_initializer("i16", tensor<int16_t>(DataType::kInt16, {2}, {-32768, 32767}));
  g.add_initializer("u16", tensor<uint16_t>(DataType::kUint16, {1}, {65535}));
  g.add_initializer("i32", tensor<int32_t>(DataType::kInt32, {2}, {INT32_MIN, INT32_MAX}));
  g.add_initializer("u32", tensor<uint32_t>(DataType::kUint32, {1}, {UINT32_MAX}));
  g.add_initializer("i64", tensor<int64_t>(DataType::kInt64, {2}, {INT64_MIN, INT64_MAX}));
  g.add_initializer("u64", tensor<uint64_t>(DataType::kUint64, {1}, {UINT64_MAX}));
  g.add_initializer("b", tensor<uint8_t>(DataType::kBool, {2}, {1, 0}));
  g.add_initializer("s", strings({4}, {"plain", "quote\" back\\slash", "line\nbreak\ttab\x01",
                                       "caf\xC3\xA9 \xFF"}));
  g.add_initializer("c64", tensor<float>(DataType::kComplex64, {2}, {1, 2, -0.5f, 0}));
  g.add_initializer("c128", tensor<double>(DataType::kComplex128, {1}, {0.1, -0.2}));
  g.add_initializer("scalar", tensor<int64_t>(DataType::kInt64, {}, {42}));
  g.add_initializer("empty", tensor<float>(DataType::kFloat, {0, 3}, {}));

  ir::SparseTensor sparse;
  sparse.values = tensor<float>(DataType::kFloat, {2}, {5, 6});
  sparse.indices = tensor<int64_t>(DataType::kInt64, {2}, {1, 6});
  sparse.dims = {3, 4};
  g.add_sparse_initializer("sparse_w", sparse);

  // A node that uses a value defined further down (the IR does not require order).
  ir::Node* early = g.append_node("Relu", {nullptr}, 1);
  early->output(0)->set_name("early");

  ir::Node* custom = g.append_node("Custom", {x, nullptr, w}, 1, "com.example");
  custom->set_name("custom node");
  custom->set_overload("v2");
  custom->output(0)->set_name("T1");
  custom->set_doc_string("Does custom things.");
  custom->set_metadata_props({{"origin", "handwritten"}});
  custom->set_attribute(ir::Attribute::make_float("alpha", 0.5f));
  custom->set_attribute(ir::Attribute::make_int("beta", -3));
  custom->set_attribute(ir::Attribute::make_string("mode", "a\"b"));
  custom->set_attribute(ir::Attribute::make_ints("axes", {1, -1}));
  custom->set_attribute(
      ir::Attribute::make_floats("scales", {0.25f, std::numeric_limits<float>::infinity()}));
  custom->set_attribute(ir::Attribute::make_strings("names", {"x", ""}));
  custom->set_attribute(ir::Attribute::make_ints("none", {}));
  ir::Attribute documented = ir::Attribute::make_int("k", 1);
  documented.doc_string = "why k is 1";
  custom->set_attribute(documented);

  ir::Node* odd = g.append_node("Odd Op", {custom->output(0)}, 2, "my-domain");
  odd->output(1)->set_name("T2");
  early->set_input(0, odd->output(1));

  g.append_node("Print", {seq}, 0);

  ir::Node* constant = g.append_node("Constant", {}, 1);
  constant->output(0)->set_name("T3");
  ir::Tensor named = tensor<float>(DataType::kFloat, {2}, {1, 2});
  named.mutable_proto_info().name = "named const";
  named.mutable_proto_info().doc_string = "a constant";
  constant->set_attribute(ir::Attribute::make_tensor("value", named));

  ir::Node* typed = g.append_node("Typed", {}, 1, "com.example");
  typed->output(0)->set_name("T4");
  typed->set_attribute(ir::Attribute("sparse", ir::AttributeType::kSparseTensor, sparse));
  typed->set_attribute(
      ir::Attribute("tp", ir::AttributeType::kTypeProto,
                    Type::sequence(Type::tensor(DataType::kFloat, Shape{Dim("N")}))));
  typed->set_attribute(
      ir::Attribute("tps", ir::AttributeType::kTypeProtos,
                    std::vector<Type>{Type::tensor(DataType::kInt64, Shape{}),
                                      Type::optional(Type::tensor(DataType::kBool))}));
  typed->set_attribute(ir::Attribute(
      "ts", ir::AttributeType::kTensors,
      std::vector<ir::Tensor>{tensor<int8_t>(DataType::kInt8, {}, {1}), strings({2}, {"a", "b"})}));
  typed->set_attribute(ir::Attribute("sps", ir::AttributeType::kSparseTensors,
                                     std::vector<ir::SparseTensor>{sparse}));
  typed->set_attribute(
      ir::Attribute("no_tensors", ir::AttributeType::kTensors, std::vector<ir::Tensor>{}));

  // If: the branches capture X and T1 from the main graph; the then-branch
  // holds a Loop whose body captures X (two levels up) and a then-branch value.
  ir::Node* if_node = g.append_node("If", {cond}, 1);
  if_node->output(0)->set_name("Y");
  auto then_g = std::make_shared<ir::Graph>("then");
  ir::Node* then_add = then_g->append_node("Add", {x, custom->output(0)}, 1);
  then_add->output(0)->set_name("then_sum");
  auto body = std::make_shared<ir::Graph>("body");
  ir::Value* iter = body->add_input("i", Type::tensor(DataType::kInt64, Shape{}));
  ir::Value* keep = body->add_input("keep", Type::tensor(DataType::kBool, Shape{}));
  ir::Node* body_mul = body->append_node("Mul", {x, then_add->output(0)}, 1);
  body_mul->output(0)->set_name("prod");
  body->outputs() = {keep, body_mul->output(0)};
  (void)iter;
  ir::Node* loop = then_g->append_node("Loop", {nullptr, cond}, 1);
  loop->output(0)->set_name("looped");
  loop->set_attribute(ir::Attribute::make_graph("body", body));
  then_g->outputs() = {loop->output(0)};
  auto else_g = std::make_shared<ir::Graph>("else");
  else_g->doc_string = "the else branch";
  ir::Node* else_id = else_g->append_node("Identity", {x}, 1);
  else_id->output(0)->set_name("else_out");
  else_g->outputs() = {else_id->output(0)};
  else_g->add_initializer("k", tensor<float>(DataType::kFloat, {1}, {3}));
  if_node->set_attribute(ir::Attribute::make_graph("then_branch", then_g));
  if_node->set_attribute(ir::Attribute::make_graph("else_branch", else_g));

  ir::Node* seq_node = g.append_node("SequenceMap", {seq}, 1);
  seq_node->output(0)->set_name("mapped");
  auto fn_body = std::make_shared<ir::Graph>("fn");
  ir::Value* e = fn_body->add_input("e");
  ir::Node* neg = fn_body->append_node("Neg", {e}, 1);
  neg->output(0)->set_name("ne");
  fn_body->outputs() = {neg->output(0)};
  seq_node->set_attribute(ir::Attribute("bodies", ir::AttributeType::kGraphs,
                                        std::vector<std::shared_ptr<ir::Graph>>{fn_body}));

  ir::Node* gelu = g.append_node("Gelu", {x}, 1, "local");
  gelu->set_overload("tanh");
  gelu->output(0)->set_name("G");

  g.outputs() = {if_node->output(0), odd->output(1), gelu->output(0)};
  if_node->output(0)->set_type(Type::tensor(DataType::kFloat, Shape{Dim("N"), Dim(3)}));
  if_node->output(0)->set_doc_string("the result");

  custom->output(0)->set_type(Type::tensor(DataType::kFloat, std::nullopt));
  custom->output(0)->set_doc_string("intermediate");
  g.value_info().push_back(custom->output(0));
  ir::Value* ghost = g.create_detached_value("ghost");
  ghost->set_type(Type::tensor(DataType::kUint8, Shape{Dim(1)}));
  g.value_info().push_back(ghost);

  auto f = std::make_unique<ir::Function>("local", "Gelu");
  f->overload = "tanh";
  f->doc_string = "Gelu, tanh approximation.";
  f->metadata_props = {{"since", "1"}};
  f->opset_imports.append("", 21);
  f->attribute_names = {"beta"};
  f->attribute_defaults.push_back(ir::Attribute::make_float("alpha", 1.0f));
  f->attribute_defaults.push_back(
      ir::Attribute("gamma", ir::AttributeType::kInt, std::monostate{}));
  ir::Graph& fb = f->body();
  ir::Value* fx = fb.add_input("X", Type::tensor(DataType::kFloat, Shape{Dim("N")}));
  ir::Value* fy = fb.add_input("Y");
  ir::Node* mul = fb.append_node("Mul", {fx, fy}, 1);
  mul->output(0)->set_name("Z");
  mul->set_attribute(ir::Attribute::make_reference("scale", ir::AttributeType::kFloat, "alpha"));
  fb.outputs() = {mul->output(0)};
  fb.value_info().push_back(mul->output(0));
  mul->output(0)->set_type(Type::tensor(DataType::kFloat, Shape{Dim("N")}));
  m.functions().push_back(std::move(f));

  auto plain = std::make_unique<ir::Function>("local", "Plain");
  ir::Value* pa = plain->body().add_input("a");
  ir::Node* id = plain->body().append_node("Identity", {pa}, 1);
  id->output(0)->set_name("b");
  plain->body().outputs() = {id->output(0)};
  m.functions().push_back(std::move(plain));
  return m;
}

TEST(TextPrinter, EverythingMatchesGolden) {
  const ir::Model m = everything();
  const std::string text = print_model(m);
  expect_golden("everything.txt", text);
  // The golden text reads back to a model that prints the same.
  const ir::Model back = parse_model(text, "everything.txt");
  EXPECT_EQ(print_model(back), text);
}

TEST(TextPrinter, EverythingParsesBackToTheSameIr) {
  const ir::Model m = everything();
  const ir::Model back = parse_model(print_model(m));
  const ir::Graph& g = back.graph();
  ASSERT_EQ(g.inputs().size(), m.graph().inputs().size());
  EXPECT_EQ(g.inputs()[0]->type(), m.graph().inputs()[0]->type());
  EXPECT_EQ(g.inputs()[0]->doc_string(), "the input");
  EXPECT_FALSE(g.inputs()[4]->type().has_value());  // untyped
  ASSERT_TRUE(g.inputs()[5]->type().has_value());   // unspecified
  EXPECT_EQ(g.inputs()[5]->type()->kind, ir::TypeKind::kUnspecified);
  ASSERT_EQ(g.initializers().size(), m.graph().initializers().size());
  for (size_t i = 0; i < g.initializers().size(); ++i) {
    const ir::Tensor& a = *m.graph().initializers()[i]->const_value();
    const ir::Tensor& b = *g.initializers()[i]->const_value();
    EXPECT_TRUE(a.same_contents(b)) << g.initializers()[i]->name();
  }
  EXPECT_EQ(g.initializers()[0]->name(), "W");
  EXPECT_TRUE(g.initializers()[0]->is_graph_input());
  ASSERT_EQ(g.sparse_initializers().size(), 1u);
  EXPECT_TRUE(g.sparse_initializers()[0]->sparse_value()->values.same_contents(
      m.graph().sparse_initializers()[0]->sparse_value()->values));
  EXPECT_EQ(g.quantization_annotation.size(), 1u);
  EXPECT_EQ(g.value_info().size(), 2u);
  EXPECT_EQ(g.value_info()[1]->producer(), nullptr);
  EXPECT_EQ(back.functions().size(), 2u);
  EXPECT_EQ(back.functions()[0]->attribute_defaults.size(), 2u);
  EXPECT_EQ(back.functions()[0]->attribute_names, std::vector<std::string>{"beta"});
}

TEST(TextPrinter, TypesFollowOnnxSpelling) {
  EXPECT_EQ(print_type(Type::tensor(DataType::kFloat, Shape{})), "float");
  EXPECT_EQ(print_type(Type::tensor(DataType::kFloat)), "float[]");
  EXPECT_EQ(print_type(Type::tensor(DataType::kFloat, Shape{Dim("N"), Dim(3), Dim()})),
            "float[N,3,?]");
  EXPECT_EQ(print_type(Type::tensor(DataType::kInt64, Shape{Dim("batch size")})),
            "int64[\"batch size\"]");
  EXPECT_EQ(print_type(Type::sequence(Type::tensor(DataType::kFloat16, Shape{Dim(2)}))),
            "seq(float16[2])");
  EXPECT_EQ(print_type(Type::map(DataType::kString, Type::tensor(DataType::kFloat, Shape{}))),
            "map(string, float)");
  EXPECT_EQ(print_type(Type::optional(Type::sequence(Type::tensor(DataType::kBool)))),
            "optional(seq(bool[]))");
  EXPECT_EQ(print_type(Type::sparse_tensor(DataType::kFloat8E5M2, Shape{Dim(3), Dim(4)})),
            "sparse_tensor(float8e5m2[3,4])");
  EXPECT_EQ(print_type(Type{}), "?");
  for (const char* text : {"float4e2m1[1]", "int4", "uint4[?]", "bfloat16[N]", "complex128",
                           "opaque()", "opaque(Blob)", "opaque(com.example, Blob)", "seq(?)"}) {
    EXPECT_EQ(print_type(parse_type(text)), text);
  }
}

TEST(TextPrinter, NodesShowNamesDomainsOverloadsAndOmittedValues) {
  ir::Graph g("g");
  ir::Value* a = g.add_input("a", Type::tensor(DataType::kFloat, Shape{}));
  ir::Node* n = g.append_node("Op", {a, nullptr, a, nullptr}, 3, "com.ms");
  n->set_name("n1");
  n->set_overload("fast");
  n->output(1)->set_name("y");
  ir::Node* q = g.append_node("Op 2", {n->output(1)}, 0, "x-y");
  q->set_overload("1.0");
  g.outputs() = {n->output(1)};
  EXPECT_EQ(print_graph(g),
            "g (float a) => (y) {\n"
            "   [n1] \"\", y, \"\" = com.ms.Op:fast (a, \"\", a, \"\")\n"
            "   = \"x-y\".\"Op 2\":\"1.0\" (y)\n"
            "}\n");
}

TEST(TextPrinter, QuotesNamesThatAreNotIdentifiersOrAreKeywords) {
  ir::Graph g("main graph");
  ir::Value* a = g.add_input("0", Type::tensor(DataType::kFloat, Shape{}));
  ir::Value* b = g.add_input("float", Type::tensor(DataType::kFloat, Shape{}));
  ir::Value* c = g.add_input("nan");
  ir::Node* n = g.append_node("Sum", {a, b, c}, 1);
  n->output(0)->set_name("out:1");
  g.outputs() = {n->output(0)};
  EXPECT_EQ(print_graph(g),
            "\"main graph\" (float \"0\", float \"float\", \"nan\") => (\"out:1\") {\n"
            "   \"out:1\" = Sum (\"0\", \"float\", \"nan\")\n"
            "}\n");
}

TEST(TextPrinter, AttributesWithSubgraphsComeAfterInputs) {
  const char* text =
      "g (bool c, float x) => (y) {\n"
      "   y = If (c) <then_branch: graph = a () => (float x) {\n"
      "   }, else_branch: graph = b () => (z)\n"
      "      <float[1] z = {0}>\n"
      "   {\n"
      "   }>\n"
      "}\n";
  EXPECT_EQ(print_graph(*parse_graph(text)), text);
}

TEST(TextPrinter, FloatsUseTheShortestExactForm) {
  ir::Graph g("g");
  g.add_initializer("f",
                    tensor<float>(DataType::kFloat, {4}, {0.1f, 1.0f, 100.0f, 1.17549435e-38f}));
  g.add_initializer("h", tensor<uint16_t>(DataType::kFloat16, {3}, {0x2E66, 0x5640, 0x7C00}));
  EXPECT_EQ(print_graph(g),
            "g () => ()\n"
            "   <float[4] f = {0.1, 1, 100, 1.1754944e-38},\n"
            "    float16[3] h = {0.1, 100, inf}>\n"
            "{\n"
            "}\n");
}

TEST(TextPrinter, BigTensorsCanBeElidedButThenNotParsed) {
  ir::Graph g("g");
  g.add_initializer("big", tensor<int32_t>(DataType::kInt32, {5}, {1, 2, 3, 4, 5}));
  PrintOptions options;
  options.max_tensor_elements = 4;
  const std::string text = print_graph(g, options);
  EXPECT_NE(text.find("int32[5] big = {...}"), std::string::npos) << text;
  EXPECT_THROW(parse_graph(text), ParseError);
  options.max_tensor_elements = 5;
  EXPECT_NE(print_graph(g, options).find("{1, 2, 3, 4, 5}"), std::string::npos);
}

TEST(TextPrinter, SaysWhatItLeavesOut) {
  ir::Model m;
  m.ir_version = 10;
  m.configuration.push_back("x");
  m.unknown_fields = "y";
  ir::Node* n = m.graph().append_node("Foo", {}, 0);
  n->set_unknown_fields("z");  // the wire format's business: not mentioned
  n->mutable_device_configurations().push_back("w");
  const std::string text = print_model(m);
  EXPECT_NE(text.find("\n>\n# not shown in text: configuration (1 entries)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("   # not shown in text: device_configurations (1 entries)\n   = Foo ()"),
            std::string::npos)
      << text;
  PrintOptions quiet;
  quiet.comment_dropped_fields = false;
  EXPECT_EQ(print_model(m, quiet).find('#'), std::string::npos);
  EXPECT_EQ(print_model(parse_model(text), quiet), print_model(m, quiet));
}

TEST(TextPrinter, MalformedAttributesAreReportedNotCrashed) {
  ir::Graph g("g");
  ir::Node* n = g.append_node("Foo", {}, 0);
  n->set_attribute(ir::Attribute("bad", ir::AttributeType::kInt, std::string("not an int")));
  EXPECT_THROW(print_graph(g), ValidationError);
}

}  // namespace
}  // namespace onnxscript::text
