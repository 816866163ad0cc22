// Bad input never crashes: each defect throws an onnxscript::Error subclass
// whose message names the source, the object at fault and the problem.

#include <gtest/gtest.h>

#include <random>

#include <google/protobuf/stubs/logging.h>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/wire/onnx.pb.h"
#include "serde_test_util.h"

namespace onnxscript::serde {
namespace {

constexpr const char* kSource = "bad.onnx";

// X, W -> Add "add" -> Y, with W a float[2] initializer.
wire::ModelProto valid_model() {
  wire::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* x = g->add_input();
  x->set_name("X");
  x->mutable_type()->mutable_tensor_type()->set_elem_type(1);
  auto* w = g->add_initializer();
  w->set_name("W");
  w->set_data_type(1);
  w->add_dims(2);
  const float values[] = {1, 2};
  w->set_raw_data(values, sizeof(values));
  auto* add = g->add_node();
  add->set_name("add");
  add->set_op_type("Add");
  add->add_input("X");
  add->add_input("W");
  add->add_output("Y");
  g->add_output()->set_name("Y");
  return m;
}

// Loads `bytes` and expects an exception of type E whose message holds the
// source name and every fragment.
template <typename E>
void expect_error(const std::string& bytes, std::vector<std::string> fragments) {
  try {
    load_model_from_bytes(bytes, {}, kSource);
    ADD_FAILURE() << "no exception; expected one mentioning "
                  << ::testing::PrintToString(fragments);
  } catch (const E& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(kSource), std::string::npos) << what;
    for (const std::string& f : fragments) EXPECT_NE(what.find(f), std::string::npos) << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

template <typename E>
void expect_error(const wire::ModelProto& m, std::vector<std::string> fragments) {
  expect_error<E>(m.SerializeAsString(), std::move(fragments));
}

TEST(BadInput, TheValidModelLoads) {
  // The baseline that every test below breaks in one way.
  const ir::Model model = load_model_from_bytes(valid_model().SerializeAsString());
  EXPECT_EQ(model.graph().num_nodes(), 1u);
}

TEST(BadInput, TruncatedFile) {
  const std::string bytes = valid_model().SerializeAsString();
  expect_error<ParseError>(bytes.substr(0, bytes.size() / 2), {"truncated", "ModelProto"});
  // Every shorter prefix either fails cleanly or is a smaller valid model.
  for (size_t n = 0; n < bytes.size(); ++n) {
    try {
      load_model_from_bytes(bytes.substr(0, n), {}, kSource);
    } catch (const Error&) {
    }
  }
}

TEST(BadInput, GarbageBytes) {
  expect_error<ParseError>(std::string("this is not an onnx model\xff\xff\xff\xff", 29),
                           {"not a valid ModelProto"});
}

TEST(BadInput, FieldWithTheWrongWireType) {
  wire::ModelProto m = valid_model();
  // op_type (field 4) is a string; send a varint instead.
  auto* node = m.mutable_graph()->mutable_node(0);
  node->GetReflection()->MutableUnknownFields(node)->AddVarint(4, 7);
  expect_error<ParseError>(m, {"node 'add'", "NodeProto.op_type", "wire type varint"});
}

TEST(BadInput, GraphWithACycle) {
  wire::ModelProto m = valid_model();
  auto* g = m.mutable_graph();
  auto* a = g->add_node();
  a->set_name("first");
  a->set_op_type("Relu");
  a->add_input("b");
  a->add_output("a");
  auto* b = g->add_node();
  b->set_name("second");
  b->set_op_type("Relu");
  b->add_input("a");
  b->add_output("b");
  expect_error<ValidationError>(m, {"graph 'g'", "cycle", "Relu"});

  wire::ModelProto self = valid_model();
  self.mutable_graph()->mutable_node(0)->set_input(1, "Y");  // Add reads its own output
  expect_error<ValidationError>(self, {"cycle through node 'add'"});
}

TEST(BadInput, NodesOutOfOrderAreFineAndKeepTheirOrder) {
  wire::ModelProto m = valid_model();
  auto* g = m.mutable_graph();
  auto* relu = g->add_node();  // produces R, read by the Neg listed after it... and before
  relu->set_op_type("Relu");
  relu->add_input("Y");
  relu->add_output("R");
  g->mutable_node()->SwapElements(0, 1);
  const ir::Model model = load_model_from_bytes(m.SerializeAsString());
  EXPECT_EQ(model.graph().first_node()->op_type(), "Relu");
  wire::ModelProto back;
  ASSERT_TRUE(back.ParseFromString(serialize_model(model)));
  EXPECT_TRUE(testing::ProtoEquals(m, back));
}

TEST(BadInput, DanglingReference) {
  wire::ModelProto m = valid_model();
  m.mutable_graph()->mutable_node(0)->set_input(1, "nowhere");
  expect_error<ValidationError>(m, {"node 'add'", "'nowhere'", "not defined"});

  wire::ModelProto out = valid_model();
  out.mutable_graph()->mutable_output(0)->set_name("missing");
  expect_error<ValidationError>(out, {"graph output 'missing'"});
}

TEST(BadInput, NegativeDimension) {
  wire::ModelProto m = valid_model();
  m.mutable_graph()->mutable_initializer(0)->set_dims(0, -2);
  expect_error<ValidationError>(m, {"tensor 'W'", "negative"});
}

TEST(BadInput, AbsurdDimensions) {
  wire::ModelProto overflow = valid_model();
  auto* w = overflow.mutable_graph()->mutable_initializer(0);
  w->set_dims(0, int64_t{1} << 40);
  w->add_dims(int64_t{1} << 40);
  expect_error<ValidationError>(overflow, {"tensor 'W'", "overflow"});

  // A trillion floats claimed, eight bytes given: rejected before allocating.
  wire::ModelProto huge = valid_model();
  w = huge.mutable_graph()->mutable_initializer(0);
  w->set_dims(0, 1000000);
  w->add_dims(1000000);
  expect_error<ValidationError>(huge, {"tensor 'W'", "raw_data has 8 bytes", "4000000000000"});

  wire::ModelProto typed = valid_model();
  w = typed.mutable_graph()->mutable_initializer(0);
  w->clear_raw_data();
  w->add_float_data(1);
  w->add_float_data(2);
  w->add_float_data(3);
  expect_error<ValidationError>(typed, {"tensor 'W'", "float_data has 3 entries"});
}

TEST(BadInput, RawDataSizeMismatch) {
  wire::ModelProto m = valid_model();
  m.mutable_graph()->mutable_initializer(0)->set_raw_data("1234567");
  expect_error<ValidationError>(m, {"tensor 'W'", "raw_data has 7 bytes", "needs 8"});
}

TEST(BadInput, DataInTwoPlaces) {
  wire::ModelProto m = valid_model();
  m.mutable_graph()->mutable_initializer(0)->add_float_data(1);
  expect_error<ValidationError>(m, {"tensor 'W'", "more than one"});
}

TEST(BadInput, UnknownDataType) {
  wire::ModelProto m = valid_model();
  m.mutable_graph()->mutable_initializer(0)->set_data_type(99);
  expect_error<ValidationError>(m, {"tensor 'W'", "unknown data type 99"});
}

TEST(BadInput, DuplicateValueNames) {
  wire::ModelProto m = valid_model();
  m.mutable_graph()->mutable_node(0)->set_output(0, "X");  // X is a graph input
  expect_error<ValidationError>(m, {"node 'add'", "'X' is defined twice"});

  wire::ModelProto inits = valid_model();
  *inits.mutable_graph()->add_initializer() = inits.graph().initializer(0);
  expect_error<ValidationError>(inits, {"initializer 'W'", "defined twice"});
}

TEST(BadInput, UnknownAttributeType) {
  wire::ModelProto m = valid_model();
  auto* attr = m.mutable_graph()->mutable_node(0)->add_attribute();
  attr->set_name("alpha");
  attr->GetReflection()->MutableUnknownFields(attr)->AddVarint(20, 99);  // type = 99
  expect_error<ValidationError>(m,
                                {"node 'add'", "attribute 'alpha'", "unknown attribute type 99"});
}

TEST(BadInput, AttributeValueOfAnotherType) {
  wire::ModelProto m = valid_model();
  auto* attr = m.mutable_graph()->mutable_node(0)->add_attribute();
  attr->set_name("alpha");
  attr->set_type(wire::AttributeProto::INT);
  attr->set_f(1.0f);
  expect_error<ValidationError>(m, {"attribute 'alpha'", "int", "'f'"});

  wire::ModelProto twice = valid_model();
  auto* node = twice.mutable_graph()->mutable_node(0);
  for (int i = 0; i < 2; ++i) {
    auto* a = node->add_attribute();
    a->set_name("axis");
    a->set_type(wire::AttributeProto::INT);
    a->set_i(i);
  }
  expect_error<ValidationError>(twice, {"node 'add'", "'axis' appears twice"});
}

TEST(BadInput, UntypedAttributesAreInferredFromTheirValue) {
  // IR 1 files have no AttributeProto.type; the set field tells it.
  wire::ModelProto m = valid_model();
  auto* attr = m.mutable_graph()->mutable_node(0)->add_attribute();
  attr->set_name("axes");
  attr->add_ints(1);
  attr->add_ints(2);
  auto* explicit_undefined = m.mutable_graph()->mutable_node(0)->add_attribute();
  explicit_undefined->set_name("ratio");
  explicit_undefined->set_type(wire::AttributeProto::UNDEFINED);
  explicit_undefined->set_f(0.5f);
  const ir::Model model = load_model_from_bytes(m.SerializeAsString());
  const ir::Node* add = model.graph().first_node();
  EXPECT_EQ(add->attribute("axes")->as_ints(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(add->attribute("ratio")->as_float(), 0.5f);
  wire::ModelProto back;
  ASSERT_TRUE(back.ParseFromString(serialize_model(model)));
  EXPECT_TRUE(testing::ProtoEquals(m, back));

  wire::ModelProto ambiguous = valid_model();
  attr = ambiguous.mutable_graph()->mutable_node(0)->add_attribute();
  attr->set_name("both");
  attr->set_i(1);
  attr->set_f(1);
  expect_error<ValidationError>(ambiguous, {"attribute 'both'", "several value fields"});
}

TEST(BadInput, FunctionProblemsNameTheFunction) {
  wire::ModelProto m = valid_model();
  auto* f = m.add_functions();
  f->set_name("F");
  f->set_domain("local");
  f->add_input("A");
  f->add_output("B");  // produced by nothing
  expect_error<ValidationError>(m, {"function 'F'", "'B'"});
}

TEST(BadInput, MissingFileNamesThePath) {
  try {
    load_model("/nonexistent/dir/model.onnx");
    ADD_FAILURE() << "no exception";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/model.onnx"), std::string::npos);
  }
}

TEST(BadInput, DeepNestingIsRejectedNotOverflowed) {
  // Subgraphs nested far beyond protobuf's recursion limit.
  wire::ModelProto m = valid_model();
  wire::GraphProto inner;
  for (int i = 0; i < 200; ++i) {
    wire::GraphProto outer;
    auto* node = outer.add_node();
    node->set_op_type("If");
    auto* a = node->add_attribute();
    a->set_name("then_branch");
    a->set_type(wire::AttributeProto::GRAPH);
    *a->mutable_g() = std::move(inner);
    inner = std::move(outer);
  }
  *m.mutable_graph()->add_node() = inner.node(0);
  expect_error<ParseError>(m, {"not a valid ModelProto"});
}

TEST(BadInput, RandomCorruptionNeverCrashes) {
  // A model with a subgraph, typed and raw tensors and attributes of several
  // kinds, damaged at random: each result either loads or throws an Error.
  wire::ModelProto m = valid_model();
  auto* node = m.mutable_graph()->add_node();
  node->set_op_type("If");
  node->add_input("X");
  node->add_output("Z");
  auto* a = node->add_attribute();
  a->set_name("then_branch");
  a->set_type(wire::AttributeProto::GRAPH);
  auto* sub = a->mutable_g();
  auto* inner = sub->add_node();
  inner->set_op_type("Constant");
  inner->add_output("c");
  auto* value = inner->add_attribute();
  value->set_name("value");
  value->set_type(wire::AttributeProto::TENSOR);
  value->mutable_t()->set_data_type(7);
  value->mutable_t()->add_dims(3);
  for (int i = 0; i < 3; ++i) value->mutable_t()->add_int64_data(i);
  sub->add_output()->set_name("c");
  auto* ints = node->add_attribute();
  ints->set_name("ints");
  ints->set_type(wire::AttributeProto::INTS);
  ints->add_ints(4);
  const std::string bytes = m.SerializeAsString();

  // Damaged strings make protobuf log UTF-8 complaints; they are expected here.
  struct QuietProtobuf {
    google::protobuf::LogHandler* old = google::protobuf::SetLogHandler(nullptr);
    ~QuietProtobuf() { google::protobuf::SetLogHandler(old); }
  } quiet;
  // A new seed on each --gtest_repeat, so repeating the test fuzzes longer.
  static unsigned run = 0;
  std::mt19937 rng(12345 + run++);
  int loaded = 0, rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string damaged = bytes;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % damaged.size();
      switch (rng() % 3) {
        case 0:
          damaged[at] = static_cast<char>(rng());
          break;
        case 1:
          damaged[at] = static_cast<char>(damaged[at] ^ (1 << (rng() % 8)));
          break;
        default:
          damaged.resize(at);
          break;
      }
      if (damaged.empty()) break;
    }
    try {
      const ir::Model model = load_model_from_bytes(damaged, {}, kSource);
      (void)serialize_model(model);  // whatever loads must also write
      ++loaded;
    } catch (const Error&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(loaded, 0);
}

}  // namespace
}  // namespace onnxscript::serde
