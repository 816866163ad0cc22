// The direct wire encoder (serde/wire_encoder.cc) against its oracle, the
// general writer (write_model_proto + SerializeAsString): whenever the
// encoder handles a model, its bytes must be identical. Covered: the ONNX
// test corpus, eDSL models (functions with attribute references, control
// flow, symbolic dims, sequences), hand-built graphs with every attribute
// type and every kind of type, models it must hand over to the general
// writer (residue, naming errors), and a long chain read back.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "onnxscript/onnxscript.h"
#include "onnxscript/serde/text.h"
#include "onnxscript/support/file_io.h"
#include "onnxscript/wire/onnx.pb.h"
#include "sample_scripts.h"
#include "serde/model_io.h"
#include "serde/wire_encoder.h"
#include "serde_test_util.h"

namespace onnxscript::serde {
namespace {

namespace fs = std::filesystem;
namespace op = opset17;
using ir::AttributeType;
using ir::DataType;
using ::testing::HasSubstr;

// The general writer's bytes, with the error context serialize_model uses.
std::string general_bytes(const ir::Model& model) {
  detail::ErrorContext ctx{"<serialize_model>"};
  wire::ModelProto proto;
  detail::write_model_proto(model, &proto, ctx, nullptr);
  return proto.SerializeAsString();
}

// The general writer's error message, or "" when it does not throw.
std::string general_error(const ir::Model& model) {
  try {
    general_bytes(model);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

::testing::AssertionResult SameBytes(const std::string& expected, const std::string& actual) {
  if (expected == actual) return ::testing::AssertionSuccess();
  const size_t n = std::min(expected.size(), actual.size());
  size_t at = 0;
  while (at < n && expected[at] == actual[at]) ++at;
  return ::testing::AssertionFailure()
         << "the encoder's " << actual.size() << " bytes differ from the general writer's "
         << expected.size() << " bytes first at byte " << at;
}

// Expects the encoder to handle `model` and to write the general writer's bytes.
void expect_fast_and_equal(const ir::Model& model) {
  std::string fast;
  const char* reason = nullptr;
  ASSERT_TRUE(detail::encode_model_fast(model, &fast, &reason)) << "bailed: " << reason;
  EXPECT_TRUE(SameBytes(general_bytes(model), fast));
  EXPECT_EQ(serialize_model(model), fast);
}

// Expects the encoder to decline `model`, and serialize_model to throw the
// general writer's error, word for word.
void expect_bail_with_general_error(const ir::Model& model, const std::string& fragment) {
  std::string fast = "stale";
  EXPECT_FALSE(detail::encode_model_fast(model, &fast));
  EXPECT_TRUE(fast.empty());
  const std::string expected = general_error(model);
  ASSERT_THAT(expected, HasSubstr(fragment));
  try {
    serialize_model(model);
    ADD_FAILURE() << "serialize_model did not throw";
  } catch (const ValidationError& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
}

// ---------------------------------------------------------------- the corpus

std::vector<fs::path> models_under(const std::string& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(ONNX_TESTDATA_DIR) / dir))
    if (e.is_regular_file() && e.path().filename() == "model.onnx") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

struct CorpusCase {
  const char* dir;
  size_t min_fast;  // models the encoder must handle (of those that load)
  friend void PrintTo(const CorpusCase& c, std::ostream* os) { *os << c.dir; }
};

class WireEncoderCorpus : public ::testing::TestWithParam<CorpusCase> {};

TEST_P(WireEncoderCorpus, HandledModelsMatchTheGeneralWriterByteForByte) {
  size_t fast = 0;
  size_t bailed = 0;
  size_t unreadable = 0;
  std::map<std::string, size_t> reasons;
  for (const fs::path& path : models_under(GetParam().dir)) {
    SCOPED_TRACE(path.string());
    ir::Model model;
    try {
      model = load_model(path);
    } catch (const Error&) {
      ++unreadable;
      continue;
    }
    std::string bytes;
    const char* reason = nullptr;
    if (detail::encode_model_fast(model, &bytes, &reason)) {
      ++fast;
      EXPECT_TRUE(SameBytes(general_bytes(model), bytes));
    } else {
      ++bailed;
      ++reasons[reason];
    }
  }
  std::printf("[ corpus   ] %s: %zu handled by the encoder, %zu bailed, %zu unreadable\n",
              GetParam().dir, fast, bailed, unreadable);
  for (const auto& [reason, count] : reasons)
    std::printf("[ corpus   ]   bailed: %zu x %s\n", count, reason.c_str());
  EXPECT_GE(fast, GetParam().min_fast);
  EXPECT_GT(fast, 9 * bailed) << "the encoder should handle the large majority";
}

INSTANTIATE_TEST_SUITE_P(Suites, WireEncoderCorpus,
                         ::testing::Values(CorpusCase{"node", 900},
                                           CorpusCase{"pytorch-converted", 82},
                                           CorpusCase{"pytorch-operator", 35},
                                           CorpusCase{"simple", 23}),
                         [](const auto& info) {
                           std::string name = info.param.dir;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// ---------------------------------------------------------------- eDSL models

TEST(WireEncoderScript, ModelLocalFunctionWithAttributeReferences) {
  const ir::Model model = onnxscript::testing::scaled_caller().to_model();
  ASSERT_EQ(model.functions().size(), 1u);
  expect_fast_and_equal(model);
}

TEST(WireEncoderScript, IfAndLoopSubgraphsCapturingOuterValues) {
  const Function f = script("control", {"X", "n", "s"}, [](FLOAT<"N"> X, INT64<> n, FLOAT<> s) {
    Value positive = If(
        op::ReduceMax(X, {.keepdims = 0}) > 0, [&] { return X * 2; }, [&] { return X; });
    auto [total, partial] = for_range(n, {X * 0}, [&](Value i, Value acc) {
      Value next = acc + positive * op::Cast(i, {.to = DataType::kFloat});
      return std::tuple{next, next * 2};
    });
    auto [last, steps] = while_loop(s < 100, {s, 0}, [](Value v, Value k) {
      Value w = v * 2;
      return std::tuple{continue_while(w < 100), w, k + 1};
    });
    return std::tuple{total, partial, last, steps};
  });
  expect_fast_and_equal(f.to_model());
}

TEST(WireEncoderScript, ScanBodyAndSequences) {
  const Function f = script("scan", {"A", "B"}, [](FLOAT<"N"> A, FLOAT<"N"> B) {
    const Graph step = graph("step", {"s", "a", "b"}, [](FLOAT<> s, FLOAT<> a, FLOAT<> b) {
      Value s2 = s + a * b;
      return std::tuple{s2, s2};
    });
    auto [sum, partial] =
        unpack<2>(op::Scan({Value(0.0f), A, B}, {.body = step, .num_scan_inputs = 2}));
    Value sequence = op::SequenceConstruct({A, B, partial});
    return std::tuple{sum, op::SequenceAt(sequence, Value(int64_t{1}))};
  });
  expect_fast_and_equal(f.to_model());
}

TEST(WireEncoderScript, SymbolicDimsSequenceAndOptionalSignatures) {
  const Function make = script(
      "make", {"A", "B"}, [](FLOAT<"batch", "N"> A, FLOAT<"batch", "N"> B) -> SEQUENCE<FLOAT<"N">> {
        return op::SequenceConstruct({A, B, A + B});
      });
  expect_fast_and_equal(make.to_model());
  const Function wrap = script(
      "wrap", {"X"}, [](FLOAT<"N"> X) -> OPTIONAL<FLOAT<"N">> { return op::Optional(X); });
  expect_fast_and_equal(wrap.to_model());
}

// ---------------------------------------------------------------- hand-built IR

ir::Type float_tensor(ir::Shape shape) {
  return ir::Type::tensor(DataType::kFloat, std::move(shape));
}

// A tensor of `dtype` with `count` elements whose bytes count down from 0xff,
// so that signed types get negative values.
ir::Tensor patterned(DataType dtype, std::vector<int64_t> shape) {
  ir::Tensor t(dtype, std::move(shape));
  auto* bytes = static_cast<unsigned char*>(t.raw_data());
  for (size_t i = 0; i < t.nbytes(); ++i) bytes[i] = static_cast<unsigned char>(0xff - i * 7);
  return t;
}

ir::Tensor typed_fields(ir::Tensor t) {
  t.mutable_proto_info().encoding = ir::TensorEncoding::kTypedFields;
  return t;
}

// Every element type, as raw_data and as typed fields, with odd counts for
// the 4-bit types.
std::vector<ir::Tensor> every_element_type() {
  std::vector<ir::Tensor> out;
  for (int32_t d = 1; d <= ir::kMaxDataType; ++d) {
    const auto dtype = static_cast<DataType>(d);
    if (dtype == DataType::kString) continue;
    out.push_back(patterned(dtype, {3}));
    out.push_back(typed_fields(patterned(dtype, {3})));
  }
  ir::Tensor strings(DataType::kString, {3});
  strings.data<std::string>()[0] = "a";
  strings.data<std::string>()[2] = std::string("nul\0inside", 10);
  out.push_back(strings);
  out.push_back(typed_fields(ir::Tensor(DataType::kFloat, {0})));  // empty packed field
  out.push_back(ir::Tensor(DataType::kInt64, {2, 0}));             // empty raw_data
  out.push_back(ir::Tensor::scalar<int64_t>(-1));
  return out;
}

// A graph that uses every kind of attribute, type, optional field and
// nesting the encoder writes.
ir::Model everything_model() {
  ir::Model m;
  m.ir_version = 10;
  m.opset_imports.set("", 21);
  m.opset_imports.set("com.example", 1);
  m.producer_name = "wire_encoder_test";
  m.producer_version = "1.0";
  m.domain = "org.example";
  m.model_version = -3;
  m.doc_string = "a model with everything";
  m.metadata_props = {{"k", "v"}, {"k", "again"}, {"", ""}};

  ir::Graph& g = m.graph();
  g.set_name("main");
  g.doc_string = "the main graph";
  g.metadata_props = {{"graph", "meta"}};
  ir::Value* x = g.add_input("x", float_tensor({ir::Dim("N"), 3, ir::Dim()}));
  x->set_doc_string("input x");
  x->set_metadata_props({{"unit", "m"}});
  ir::Value* c = g.add_input("c", ir::Type::tensor(DataType::kBool, ir::Shape{}));
  ir::Value* w = g.add_initializer("w", patterned(DataType::kFloat, {3}));
  // An input that also has an initializer (IR < 4 style).
  ir::Value* b = g.add_input("b", float_tensor({3}));
  g.set_initializer(b, typed_fields(patterned(DataType::kFloat, {3})));

  ir::Node* add = g.append_node("Add", {x, w}, 1);
  add->output(0)->set_name("sum");
  add->set_name("add0");
  add->set_doc_string("adds");
  add->set_metadata_props({{"origin", "test"}});

  // Every attribute type on one custom node, with an omitted input and an
  // omitted output.
  ir::Node* custom = g.append_node("Custom", {add->output(0), nullptr, b}, 2, "com.example");
  custom->output(0)->set_name("custom_out");
  custom->set_overload("v2");
  custom->set_attribute(ir::Attribute::make_float("f", -0.0f));
  custom->set_attribute(ir::Attribute::make_float("nan", std::numeric_limits<float>::quiet_NaN()));
  custom->set_attribute(ir::Attribute::make_int("i", -5));
  custom->set_attribute(ir::Attribute::make_string("s", std::string("bytes\0\xff", 7)));
  custom->set_attribute(ir::Attribute::make_tensor("t", patterned(DataType::kInt8, {2, 2})));
  custom->set_attribute(ir::Attribute::make_floats("floats", {1.5f, -2.0f}));
  custom->set_attribute(ir::Attribute::make_ints("ints", {0, -1, 1LL << 40}));
  custom->set_attribute(ir::Attribute::make_strings("strings", {"", "two"}));
  custom->set_attribute(ir::Attribute::make_floats("no_floats", {}));
  custom->set_attribute(ir::Attribute("tensors", AttributeType::kTensors, every_element_type()));
  custom->set_attribute(
      ir::Attribute("tp", AttributeType::kTypeProto,
                    ir::Type::map(DataType::kString, ir::Type::sequence(float_tensor({2})))));
  custom->set_attribute(ir::Attribute(
      "tps", AttributeType::kTypeProtos,
      std::vector<ir::Type>{ir::Type::optional(float_tensor({})),
                            ir::Type::sparse_tensor(DataType::kFloat, ir::Shape{4, 4}),
                            ir::Type{}}));
  // A value without a type: the payload is written, the type is not.
  custom->set_attribute(ir::Attribute("untyped", AttributeType::kUndefined, int64_t{7}));
  ir::Attribute documented = ir::Attribute::make_int("documented", 1);
  documented.doc_string = "an attribute with a doc string";
  custom->set_attribute(std::move(documented));

  // A big tensor (its length prefix takes three bytes) with proto facts.
  ir::Tensor big = patterned(DataType::kFloat, {64, 64});
  ir::TensorProtoInfo& info = big.mutable_proto_info();
  info.name = "big";
  info.doc_string = "a big tensor";
  info.metadata_props = {{"layout", "rows"}};
  info.has_segment = true;
  info.segment_begin = 1;
  info.segment_end = 2;
  custom->set_attribute(ir::Attribute::make_tensor("big", big));

  // Subgraphs: one captures outer values (one defined after the node), one
  // shadows an outer name, and a graphs attribute holds both kinds.
  auto then_branch = std::make_shared<ir::Graph>("then");
  {
    ir::Node* neg = then_branch->append_node("Neg", {add->output(0)}, 1);
    neg->output(0)->set_name("then_out");
    then_branch->outputs().push_back(neg->output(0));
  }
  auto else_branch = std::make_shared<ir::Graph>("else");
  {
    ir::Node* relu = else_branch->append_node("Relu", {w}, 1);
    relu->output(0)->set_name("sum");  // hides the outer "sum"
    ir::Node* neg = else_branch->append_node("Neg", {relu->output(0)}, 1);
    neg->output(0)->set_name("else_out");
    else_branch->outputs().push_back(neg->output(0));
    else_branch->value_info().push_back(relu->output(0));
  }
  ir::Node* iff = g.append_node("If", {c}, 1);
  iff->output(0)->set_name("chosen");
  iff->set_attribute(ir::Attribute::make_graph("then_branch", then_branch));
  iff->set_attribute(ir::Attribute::make_graph("else_branch", else_branch));
  auto listed = std::make_shared<ir::Graph>("listed");
  {
    ir::Value* in = listed->add_input("inner_in", float_tensor({3}));
    ir::Node* n = listed->append_node("Identity", {in}, 1);
    n->output(0)->set_name("inner_out");
    listed->outputs().push_back(n->output(0));
  }
  custom->set_attribute(ir::Attribute("graphs", AttributeType::kGraphs,
                                      std::vector<std::shared_ptr<ir::Graph>>{listed}));

  ir::Node* last = g.append_node("Mul", {iff->output(0), custom->output(0)}, 1);
  last->output(0)->set_name("y");
  g.outputs().push_back(last->output(0));
  g.outputs().push_back(last->output(0));  // an output listed twice

  // value_info: every kind of type, and an entry that names no other value.
  ir::Value* vi = add->output(0);
  vi->set_type(float_tensor({ir::Dim("N"), 3, ir::Dim()}));
  g.value_info().push_back(vi);
  const std::vector<ir::Type> types = [] {
    ir::Type denoted = float_tensor({1});
    denoted.set_denotation("IMAGE");
    ir::Dim batch(2), channel;
    batch.denotation = "DATA_BATCH";
    channel.denotation = "DATA_CHANNEL";
    const ir::Shape shape{batch, ir::Dim("S"), channel};
    ir::Type opaque;
    opaque.kind = ir::TypeKind::kOpaque;
    opaque.set_opaque("d", "n");
    opaque.set_denotation("OPAQUE");
    ir::Type optional = ir::Type::optional(ir::Type::sequence(float_tensor({})));
    optional.set_denotation("MAYBE");
    ir::Type sparse = ir::Type::sparse_tensor(DataType::kInt64, std::nullopt);
    sparse.set_denotation("SPARSE");
    ir::Type sequence_of_nothing;
    sequence_of_nothing.kind = ir::TypeKind::kSequence;
    return std::vector<ir::Type>{denoted,
                                 float_tensor(shape),
                                 ir::Type::tensor(DataType::kFloat, std::nullopt),
                                 ir::Type::tensor(static_cast<DataType>(-7), ir::Shape{-1}),
                                 opaque,
                                 optional,
                                 sparse,
                                 sequence_of_nothing,
                                 ir::Type::map(DataType::kInt64, float_tensor({})),
                                 ir::Type{}};
  }();
  for (size_t i = 0; i < types.size(); ++i) {
    ir::Value* v = g.create_detached_value("typed_" + std::to_string(i));
    v->set_type(types[i]);
    g.value_info().push_back(v);
  }
  ir::Value* untyped = g.create_detached_value("");
  g.value_info().push_back(untyped);

  g.quantization_annotation.push_back({"sum", {{"SCALE_TENSOR", "s"}, {"ZERO_POINT_TENSOR", "z"}}});

  // A model-local function: attribute names, defaults (one of them a
  // graph, which sees no outer values), a reference, value_info, opsets.
  auto fn = std::make_unique<ir::Function>("com.example", "Twice");
  fn->overload = "o";
  fn->doc_string = "twice";
  fn->metadata_props = {{"fn", "meta"}};
  fn->opset_imports.set("", 21);
  fn->attribute_names = {"alpha"};
  fn->attribute_defaults.push_back(ir::Attribute::make_float("beta", 2.0f));
  auto default_graph = std::make_shared<ir::Graph>("default");
  {
    ir::Value* in = default_graph->add_input("d", float_tensor({}));
    default_graph->outputs().push_back(in);
  }
  fn->attribute_defaults.push_back(ir::Attribute::make_graph("body", default_graph));
  ir::Graph& body = fn->body();
  ir::Value* fx = body.add_input("fx");
  ir::Node* mul = body.append_node("Mul", {fx, fx}, 1);
  mul->output(0)->set_name("fy");
  mul->set_attribute(ir::Attribute::make_reference("alpha", AttributeType::kFloat, "alpha"));
  mul->set_attribute(ir::Attribute::make_reference("beta", AttributeType::kFloat, "beta"));
  body.outputs().push_back(mul->output(0));
  body.value_info().push_back(mul->output(0));
  m.functions().push_back(std::move(fn));
  return m;
}

TEST(WireEncoderHandBuilt, EveryAttributeTypeValueInfoMetadataAndDocStrings) {
  expect_fast_and_equal(everything_model());
}

TEST(WireEncoderHandBuilt, MessagesWhoseLengthsNeedSeveralBytes) {
  // Node, attribute and graph bodies of 127, 128, 16383 and 16384 bytes and
  // around: the one-byte length placeholders must grow exactly then.
  for (const size_t size : {100, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 16370, 16380,
                            16383, 16384, 16390, 2100000}) {
    SCOPED_TRACE(size);
    ir::Model m;
    ir::Graph& g = m.graph();
    ir::Value* x = g.add_input("x");
    ir::Node* n = g.append_node("Identity", {x}, 1);
    n->output(0)->set_name(std::string(size, 'y'));
    n->set_attribute(ir::Attribute::make_string("s", std::string(size, 's')));
    n->set_doc_string(std::string(size / 2, 'd'));
    g.outputs().push_back(n->output(0));
    expect_fast_and_equal(m);
  }
}

// The spliced form that save_model writes: large raw_data is not copied but
// listed, and the pieces in order must be the very bytes of the copy, with
// lengths of the messages around the weights (the graph; a node and its
// attribute; an If branch's node inside them) counting the spliced bytes,
// and splices moving with bodies whose length needs more bytes.
std::string joined(const std::string& bytes, const std::vector<detail::Splice>& splices) {
  std::string out;
  size_t from = 0;
  for (const detail::Splice& s : splices) {
    out.append(bytes, from, s.at - from);
    out.append(s.data, s.size);
    from = s.at;
  }
  out.append(bytes, from, std::string::npos);
  return out;
}

TEST(WireEncoderSpliced, LargeWeightsAreListedAndTheBytesAreTheSame) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", ir::Type::tensor(DataType::kFloat, ir::Shape{"n"}));
  // Weights around the splice threshold and far above it.
  ir::Value* sum = x;
  for (const int64_t count : {10, 16383, 16384, 16385, 300000}) {
    ir::Value* w = g.add_initializer(fmt::format("w{}", count), Tensor::full<float>({count}, 0.5f));
    ir::Node* add = g.append_node("Add", {sum, w}, 1);
    add->output(0)->set_name(fmt::format("sum{}", count));
    sum = add->output(0);
  }
  // A large tensor attribute, and one in a subgraph (If's branch).
  ir::Node* c = g.append_node("Constant", {}, 1);
  c->set_attribute(ir::Attribute::make_tensor("value", Tensor::full<float>({70000}, 2.0f)));
  c->output(0)->set_name("big_constant");
  auto branch = std::make_unique<ir::Graph>();
  ir::Node* inner = branch->append_node("Constant", {}, 1);
  inner->set_attribute(ir::Attribute::make_tensor("value", Tensor::full<float>({40000}, 3.0f)));
  inner->output(0)->set_name("inner_constant");
  branch->outputs().push_back(inner->output(0));
  auto other = std::make_unique<ir::Graph>();
  ir::Node* small = other->append_node("Constant", {}, 1);
  small->set_attribute(ir::Attribute::make_tensor("value", Tensor::from<float>({1.0f})));
  small->output(0)->set_name("small_constant");
  other->outputs().push_back(small->output(0));
  ir::Value* cond = g.add_initializer("cond", Tensor::scalar<bool>(true));
  ir::Node* if_node = g.append_node("If", {cond}, 1);
  if_node->set_attribute(ir::Attribute::make_graph("then_branch", std::move(branch)));
  if_node->set_attribute(ir::Attribute::make_graph("else_branch", std::move(other)));
  if_node->output(0)->set_name("chosen");
  g.outputs().push_back(sum);
  g.outputs().push_back(c->output(0));
  g.outputs().push_back(if_node->output(0));

  std::string copied;
  ASSERT_TRUE(detail::encode_model_fast(m, &copied));
  for (const size_t min_splice : {size_t{1}, size_t{64} << 10, size_t{1} << 30}) {
    SCOPED_TRACE(min_splice);
    std::string bytes;
    std::vector<detail::Splice> splices;
    ASSERT_TRUE(detail::encode_model_fast_spliced(m, min_splice, &bytes, &splices));
    EXPECT_TRUE(SameBytes(copied, joined(bytes, splices)));
    // From 64 KiB on: the weights of 16384 floats and more, and the two
    // large constants; the 16383-float weight (4 bytes short) is copied.
    if (min_splice == (size_t{64} << 10)) {
      EXPECT_EQ(splices.size(), 5u);
      EXPECT_EQ(bytes.size(), copied.size() - (16384 + 16385 + 300000 + 70000 + 40000) * 4);
    }
    if (min_splice == (size_t{1} << 30)) {
      EXPECT_TRUE(splices.empty());
    }
  }
  // save_model writes the spliced pieces: the file holds the same bytes.
  const fs::path file = fs::temp_directory_path() / fmt::format("spliced_{}.onnx", ::getpid());
  save_model(m, file);
  EXPECT_TRUE(SameBytes(copied, onnxscript::read_file(file)));
  fs::remove(file);
}

TEST(WireEncoderHandBuilt, FunctionWithoutMainGraphNodes) {
  ir::Model m;
  auto fn = std::make_unique<ir::Function>("", "Empty");
  m.functions().push_back(std::move(fn));
  expect_fast_and_equal(m);
  expect_fast_and_equal(ir::Model());
}

TEST(WireEncoderHandBuilt, ForwardReferencesAndCapturesOfLaterValues) {
  // Nodes out of order: a node reads a value that a later node defines, and
  // a subgraph captures an outer value whose producer comes after it. The
  // general writer accepts both (names resolve against the whole scope).
  ir::Model m;
  ir::Graph& g = m.graph();
  ir::Value* c = g.add_input("c", ir::Type::tensor(DataType::kBool, ir::Shape{}));
  ir::Value* x = g.add_input("x", float_tensor({2}));
  ir::Node* relu = g.append_node("Relu", {x}, 1);
  relu->output(0)->set_name("t");
  auto branch = std::make_shared<ir::Graph>("branch");
  ir::Node* neg = branch->append_node("Neg", {relu->output(0)}, 1);
  neg->output(0)->set_name("x");  // hides the outer x inside the branch
  branch->outputs().push_back(neg->output(0));
  ir::Node* iff = g.append_node("If", {c}, 1);
  iff->output(0)->set_name("z");
  iff->set_attribute(ir::Attribute::make_graph("then_branch", branch));
  iff->set_attribute(ir::Attribute::make_graph("else_branch", branch));
  ir::Node* last = g.append_node("Add", {iff->output(0), relu->output(0)}, 1);
  last->output(0)->set_name("y");
  g.outputs().push_back(last->output(0));
  g.move_before(relu, nullptr);  // Relu now comes last: If and Add read "t" before it
  ASSERT_EQ(g.last_node(), relu);
  expect_fast_and_equal(m);
}

TEST(WireEncoderHandBuilt, LongGraphsOutOfHeapOrderAndWideNodes) {
  // Nodes whose list order is the reverse of their creation order (so the
  // walk cannot stream the heap), with more inputs and outputs than the
  // walk hashes ahead.
  ir::Model m;
  ir::Graph& g = m.graph();
  std::vector<ir::Value*> inputs;
  for (int i = 0; i < 7; ++i) inputs.push_back(g.add_input("in" + std::to_string(i)));
  ir::Node* previous = nullptr;
  std::vector<ir::Value*> carried = inputs;
  for (int i = 0; i < 200; ++i) {
    ir::Node* n = g.append_node("Wide", carried, 7, "com.example");
    for (int k = 0; k < 7; ++k) n->output(k)->set_name(fmt::format("v{}_{}", i, k));
    carried.assign(n->outputs().begin(), n->outputs().end());
    if (previous != nullptr) g.move_before(n, previous);  // each new node goes first ...
    previous = n;
  }
  for (ir::Value* v : carried) g.outputs().push_back(v);
  // ... so every node reads values defined by the nodes after it.
  expect_fast_and_equal(m);

  // And the same in order, long enough for the walk to stream.
  ir::Model ordered;
  ir::Graph& h = ordered.graph();
  std::vector<ir::Value*> values;
  for (int i = 0; i < 7; ++i) values.push_back(h.add_input("in" + std::to_string(i)));
  for (int i = 0; i < 3000; ++i) {
    ir::Node* n = h.append_node("Wide", values, 7, "com.example");
    for (int k = 0; k < 7; ++k) n->output(k)->set_name(fmt::format("v{}_{}", i, k));
    values.assign(n->outputs().begin(), n->outputs().end());
  }
  for (ir::Value* v : values) h.outputs().push_back(v);
  expect_fast_and_equal(ordered);
}

// ---------------------------------------------------------------- residue

// A model whose bytes say `domain: ""` explicitly, on the opset import, a
// node and a tensor: presence directives the encoder honours.
wire::ModelProto explicit_defaults_proto() {
  wire::ModelProto p;
  p.set_ir_version(8);
  auto* opset = p.add_opset_import();
  opset->set_domain("");
  opset->set_version(17);
  auto* again = p.add_opset_import();  // same version, no explicit domain
  again->set_version(17);
  p.set_producer_name("");
  auto* g = p.mutable_graph();
  g->set_name("");
  auto* in = g->add_input();
  in->set_name("x");
  in->set_doc_string("");
  auto* n = g->add_node();
  n->add_input("x");
  n->add_output("y");
  n->set_op_type("Relu");
  n->set_domain("");
  n->set_name("");
  auto* a = n->add_attribute();
  a->set_name("t");
  a->set_type(wire::AttributeProto::TENSOR);
  a->set_doc_string("");
  a->mutable_t()->set_data_type(1);
  a->mutable_t()->set_name("");
  a->mutable_t()->set_raw_data(std::string(4, '\0'));
  a->mutable_t()->set_data_location(wire::TensorProto::DEFAULT);
  g->add_output()->set_name("y");
  return p;
}

TEST(WireEncoderResidue, ExplicitDefaultsAreReproduced) {
  const wire::ModelProto p = explicit_defaults_proto();
  const ir::Model model = load_model_from_bytes(p.SerializeAsString());
  ASSERT_FALSE(model.unknown_fields.empty());
  expect_fast_and_equal(model);
  EXPECT_EQ(serialize_model(model), p.SerializeAsString());
}

TEST(WireEncoderResidue, UnknownFieldsGoToTheGeneralWriter) {
  wire::ModelProto p = explicit_defaults_proto();
  p.mutable_graph()->mutable_node(0)->mutable_unknown_fields()->AddVarint(1000, 5);
  const std::string bytes = p.SerializeAsString();
  const ir::Model model = load_model_from_bytes(bytes);
  std::string fast;
  EXPECT_FALSE(detail::encode_model_fast(model, &fast));
  EXPECT_EQ(serialize_model(model), bytes);  // the unknown field survives
  testing::TempDir dir;
  save_model(model, dir / "residue.onnx");  // save_model falls back the same way
  EXPECT_EQ(testing::read_bytes(dir / "residue.onnx"), bytes);

  // The same on the model, a tensor and a value.
  for (int where = 0; where < 3; ++where) {
    wire::ModelProto q = explicit_defaults_proto();
    google::protobuf::Message* target = &q;
    if (where == 1) target = q.mutable_graph()->mutable_node(0)->mutable_attribute(0)->mutable_t();
    if (where == 2) target = q.mutable_graph()->mutable_input(0);
    target->GetReflection()->MutableUnknownFields(target)->AddLengthDelimited(99, "x");
    const ir::Model m = load_model_from_bytes(q.SerializeAsString());
    EXPECT_FALSE(detail::encode_model_fast(m, &fast)) << where;
    EXPECT_EQ(serialize_model(m), q.SerializeAsString()) << where;
  }
}

TEST(WireEncoderResidue, AttributeWithoutTypeGoesToTheGeneralWriter) {
  wire::ModelProto p = explicit_defaults_proto();
  p.mutable_graph()->mutable_node(0)->mutable_attribute(0)->clear_type();
  const ir::Model model = load_model_from_bytes(p.SerializeAsString());
  std::string fast;
  EXPECT_FALSE(detail::encode_model_fast(model, &fast));
  EXPECT_EQ(serialize_model(model), p.SerializeAsString());
}

TEST(WireEncoderResidue, HandWrittenResidueTheEncoderDoesNotKnowIsDeclined) {
  ir::Model m;
  std::string fast;
  for (const std::string& residue : {std::string("\x08", 1),      // truncated
                                     std::string("\x3a\x05", 2),  // length past the end
                                     std::string("\x0b\x0c", 2),  // a group
                                     std::string("\x42\x00", 2),  // opset field, empty payload
                                     std::string("\x38\x00", 2),  // graph field as a varint
                                     std::string("\xa0\x06\x00", 3)}) {  // unknown field 100
    m.unknown_fields = residue;
    EXPECT_FALSE(detail::encode_model_fast(m, &fast));
  }
}

// ---------------------------------------------------------------- naming errors

TEST(WireEncoderErrors, UnnamedValueUsedAsInput) {
  ir::Model m;
  ir::Graph& g = m.graph();
  ir::Node* relu = g.append_node("Relu", {g.add_input("x")}, 1);  // output left unnamed
  ir::Node* neg = g.append_node("Neg", {relu->output(0)}, 1);
  neg->output(0)->set_name("y");
  g.outputs().push_back(neg->output(0));
  expect_bail_with_general_error(m, "input is a value without a name");
}

TEST(WireEncoderErrors, TwoValuesWithOneName) {
  ir::Model m;
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x");
  ir::Node* a = g.append_node("Relu", {x}, 1);
  a->output(0)->set_name("y");
  ir::Node* b = g.append_node("Neg", {x}, 1);
  b->output(0)->set_name("y");
  g.outputs().push_back(b->output(0));
  expect_bail_with_general_error(m, "two different values are named 'y'");
}

// A chain of `length` Neg nodes from input "x", with outputs n0, n1, ...,
// whose last output is the graph output. Long enough for the encoder to check
// its names bucket by bucket.
std::vector<ir::Node*> neg_chain(ir::Graph& g, int length) {
  std::vector<ir::Node*> chain;
  ir::Value* v = g.add_input("x");
  for (int i = 0; i < length; ++i) {
    chain.push_back(g.append_node("Neg", {v}, 1));
    v = chain.back()->output(0);
    v->set_name("n" + std::to_string(i));
  }
  g.outputs().push_back(v);
  return chain;
}

TEST(WireEncoderErrors, TwoValuesWithOneNameFarApartInALongGraph) {
  {
    ir::Model m;
    neg_chain(m.graph(), 5000);
    expect_fast_and_equal(m);  // the unclashing chain itself is fine
  }
  {
    ir::Model m;
    std::vector<ir::Node*> chain = neg_chain(m.graph(), 5000);
    chain[4321]->output(0)->set_name("n17");
    expect_bail_with_general_error(m, "two different values are named 'n17'");
  }
  {
    ir::Model m;  // a node output takes the name of the graph input
    std::vector<ir::Node*> chain = neg_chain(m.graph(), 5000);
    chain[2999]->output(0)->set_name("x");
    expect_bail_with_general_error(m, "two different values are named 'x'");
  }
}

// Each thread's encoder keeps its working memory (the scopes' name lists and
// tables) for the next model. Nothing may carry over: models whose values
// have the very names of the last model's, written after it and after a
// bail midway through, must still be encoded, byte for byte.
TEST(WireEncoderScratch, TheNextModelSeesNoNamesOfTheLast) {
  ir::Model first;
  neg_chain(first.graph(), 5000);
  expect_fast_and_equal(first);
  ir::Model clashing;
  neg_chain(clashing.graph(), 5000)[4000]->output(0)->set_name("n3");
  expect_bail_with_general_error(clashing, "two different values are named 'n3'");
  ir::Model same_names;
  neg_chain(same_names.graph(), 5000);
  expect_fast_and_equal(same_names);
  ir::Model small;
  neg_chain(small.graph(), 3);
  expect_fast_and_equal(small);
}

TEST(WireEncoderErrors, InputProducedByAnErasedNode) {
  // The erased node's output keeps its name and producer, but the node is no
  // longer in the graph: the name resolves to nothing.
  ir::Model m;
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x");
  ir::Node* gone = g.append_node("Relu", {x}, 1);
  gone->output(0)->set_name("r");
  ir::Node* use = g.append_node("Neg", {x}, 1);
  use->output(0)->set_name("y");
  g.outputs().push_back(use->output(0));
  g.erase(gone);
  use->set_input(0, gone->output(0));
  expect_bail_with_general_error(m, "input 'r' does not resolve to the value used");
}

// A graph with input "x" whose one node reads the value that
// `undefined_input(graph)` makes, which the graph does not define.
template <typename MakeInput>
void expect_undefined_input_rejected(MakeInput undefined_input, const std::string& message) {
  ir::Model m;
  ir::Graph& g = m.graph();
  g.add_input("x");
  ir::Node* n = g.append_node("Relu", {undefined_input(g)}, 1);
  n->output(0)->set_name("y");
  g.outputs().push_back(n->output(0));
  expect_bail_with_general_error(m, message);
}

TEST(WireEncoderErrors, DetachedValuesOfTheGraphItself) {
  // Its own graph's value, but defined by nothing in it ...
  expect_undefined_input_rejected([](ir::Graph& g) { return g.create_detached_value("d"); },
                                  "input 'd' does not resolve to the value used");
  // ... and named like another value of the graph.
  expect_undefined_input_rejected([](ir::Graph& g) { return g.create_detached_value("x"); },
                                  "input 'x' does not resolve to the value used");
}

// A graph with input "x" whose one node reads a value of another graph,
// named `foreign_name`.
void expect_foreign_input_rejected(const std::string& foreign_name, const std::string& message) {
  ir::Graph other;
  ir::Value* foreign = other.add_input(foreign_name);
  expect_undefined_input_rejected([&](ir::Graph&) { return foreign; }, message);
}

TEST(WireEncoderErrors, InputFromAnUnrelatedGraph) {
  expect_foreign_input_rejected("z", "input 'z' does not resolve to the value used");
}

TEST(WireEncoderErrors, InputWhoseNameAnotherValueTakes) {
  // The foreign value's name exists in the graph, but names another value.
  expect_foreign_input_rejected("x", "input 'x' does not resolve to the value used");
}

TEST(WireEncoderErrors, OuterValueHiddenByASubgraphName) {
  ir::Model m;
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x");
  auto body = std::make_shared<ir::Graph>("body");
  ir::Node* inner = body->append_node("Neg", {x}, 1);
  inner->output(0)->set_name("x");                    // hides the outer x ...
  ir::Node* use = body->append_node("Relu", {x}, 1);  // ... that this node means
  use->output(0)->set_name("r");
  body->outputs().push_back(use->output(0));
  ir::Node* iff = g.append_node("If", {x}, 1);
  iff->output(0)->set_name("y");
  iff->set_attribute(ir::Attribute::make_graph("then_branch", body));
  g.outputs().push_back(iff->output(0));
  expect_bail_with_general_error(m, "another one hides it");
}

TEST(WireEncoderErrors, UnnamedGraphOutputAndInitializer) {
  {
    ir::Model m;
    ir::Graph& g = m.graph();
    ir::Node* n = g.append_node("Relu", {g.add_input("x")}, 1);
    g.outputs().push_back(n->output(0));
    expect_bail_with_general_error(m, "graph output is a value without a name");
  }
  {
    ir::Model m;
    m.graph().add_initializer("", ir::Tensor::scalar<float>(1));
    expect_bail_with_general_error(m, "an initializer has no name");
  }
}

TEST(WireEncoderErrors, AttributeMismatchesAndUndefinedTensors) {
  {
    ir::Model m;
    ir::Node* n = m.graph().append_node("Custom", {}, 0);
    n->set_attribute(ir::Attribute("a", AttributeType::kInts, 1.0f));
    expect_bail_with_general_error(m, "is of type ints but holds a value of type float");
  }
  {
    ir::Model m;
    ir::Node* n = m.graph().append_node("Custom", {}, 0);
    n->set_attribute(ir::Attribute("t", AttributeType::kTensor, ir::Tensor()));
    expect_bail_with_general_error(m, "the tensor is undefined");
  }
  {
    ir::Model m;
    ir::Node* n = m.graph().append_node("Custom", {}, 0);
    n->set_attribute(ir::Attribute("g", AttributeType::kGraph, std::shared_ptr<ir::Graph>()));
    expect_bail_with_general_error(m, "null graph");
  }
}

TEST(WireEncoderErrors, FunctionBodiesFollowTheSameRules) {
  ir::Model m;
  auto fn = std::make_unique<ir::Function>("lib", "F");
  ir::Value* in = fn->body().add_input("a");
  ir::Node* n = fn->body().append_node("Relu", {in}, 1);  // unnamed output
  fn->body().outputs().push_back(n->output(0));
  m.functions().push_back(std::move(fn));
  expect_bail_with_general_error(m, "function output is a value without a name");
}

// ---------------------------------------------------------------- bail-outs

TEST(WireEncoderBail, NonPlainModelsGoToTheGeneralWriter) {
  std::string fast;
  {
    ir::Model m;
    m.training_info.push_back("");
    EXPECT_FALSE(detail::encode_model_fast(m, &fast));
  }
  {
    ir::Model m;
    ir::Tensor t = ir::Tensor::scalar<float>(1);
    t.mutable_proto_info().encoding = ir::TensorEncoding::kExternal;
    m.graph().add_initializer("w", t);
    EXPECT_FALSE(detail::encode_model_fast(m, &fast));
    EXPECT_EQ(serialize_model(m), general_bytes(m));
  }
  {
    ir::Model m;
    ir::Node* n = m.graph().append_node("Custom", {}, 0);
    n->mutable_device_configurations().push_back("");
    EXPECT_FALSE(detail::encode_model_fast(m, &fast));
    EXPECT_EQ(serialize_model(m), general_bytes(m));
  }
  {
    ir::Model m;
    ir::SparseTensor s{ir::Tensor::from<float>({1}), ir::Tensor::from<int64_t>({0}), {4}};
    m.graph().add_sparse_initializer("s", s);
    EXPECT_FALSE(detail::encode_model_fast(m, &fast));
    EXPECT_EQ(serialize_model(m), general_bytes(m));
  }
}

// ---------------------------------------------------------------- a long chain

TEST(WireEncoderChain, TenThousandNodesRoundTrip) {
  const Tensor w = Tensor::from<float>({0.5f, 0.25f});
  const Function chain = script("chain", {"X"}, [&](FLOAT<2> X) -> FLOAT<2> {
    Value y = X;
    for (int i = 0; i < 12000; ++i) y = i % 2 ? op::Relu(y) : op::Add(y, w);
    return y;
  });
  const ir::Model model = chain.to_model();
  std::string fast;
  ASSERT_TRUE(detail::encode_model_fast(model, &fast));
  EXPECT_TRUE(SameBytes(general_bytes(model), fast));
  const ir::Model back = load_model_from_bytes(fast);
  EXPECT_EQ(back.graph().num_nodes(), model.graph().num_nodes());
  EXPECT_EQ(text::print_model(back), text::print_model(model));

  testing::TempDir dir;
  save_model(model, dir / "chain.onnx");
  EXPECT_EQ(testing::read_bytes(dir / "chain.onnx"), fast);
  EXPECT_EQ(testing::list_dir(dir.path()), std::vector<std::string>{"chain.onnx"});
}

}  // namespace
}  // namespace onnxscript::serde
