// Done-when test of the wire format: every model of the ONNX backend test
// corpus loads into the IR and serializes back to the same ModelProto, unknown
// fields included; the TensorProto test data decodes to tensors of the types
// and shapes the models declare, and encodes back unchanged.

#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/wire/onnx.pb.h"
#include "serde_test_util.h"

namespace onnxscript::serde {
namespace {

namespace fs = std::filesystem;
using testing::ProtoEquals;
using testing::read_bytes;

constexpr const char* kCorpusDirs[] = {"node", "pytorch-converted", "pytorch-operator", "simple"};

std::vector<fs::path> files_under(const std::string& dir, const std::string& extension) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(ONNX_TESTDATA_DIR) / dir))
    if (e.is_regular_file() && e.path().extension() == extension) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CorpusRoundTrip, CorpusHasTheExpectedModels) {
  // `find <dir> -name '*.onnx' | wc -l` for libonnx-testdata 1.12.
  const std::map<std::string, size_t> expected = {
      {"node", 932}, {"pytorch-converted", 82}, {"pytorch-operator", 35}, {"simple", 23}};
  size_t total = 0;
  for (const char* dir : kCorpusDirs) {
    const size_t n = files_under(dir, ".onnx").size();
    EXPECT_EQ(n, expected.at(dir)) << dir;
    total += n;
  }
  EXPECT_EQ(total, 1072u);
}

class CorpusRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(CorpusRoundTrip, EveryModelSerializesBackToTheSameProto) {
  size_t checked = 0;
  for (const fs::path& path : files_under(GetParam(), ".onnx")) {
    SCOPED_TRACE(path.string());
    wire::ModelProto p1;
    ASSERT_TRUE(p1.ParseFromString(read_bytes(path)));
    ir::Model model = load_model(path);
    wire::ModelProto p2;
    ASSERT_TRUE(p2.ParseFromString(serialize_model(model)));
    EXPECT_TRUE(ProtoEquals(p1, p2));
    // The same through a second generation, as a save/load cycle would do.
    ir::Model again = load_model_from_bytes(p2.SerializeAsString());
    wire::ModelProto p3;
    ASSERT_TRUE(p3.ParseFromString(serialize_model(again)));
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(p1, p3));
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusRoundTrip, ::testing::ValuesIn(kCorpusDirs),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// Graph inputs that are fed by the test data (initializers are not).
std::vector<const ir::Value*> fed_inputs(const ir::Graph& g) {
  std::vector<const ir::Value*> out;
  for (const ir::Value* v : g.inputs())
    if (v->const_value() == nullptr) out.push_back(v);
  return out;
}

// Checks that `t` fits `type`: element type and every static dimension.
::testing::AssertionResult FitsType(const ir::Tensor& t, const ir::Type& type) {
  if (t.dtype() != type.elem_type)
    return ::testing::AssertionFailure()
           << "dtype " << ir::data_type_name(t.dtype()) << " vs " << type.to_string();
  if (type.shape) {
    if (type.shape->size() != t.shape().size())
      return ::testing::AssertionFailure() << "rank " << t.rank() << " vs " << type.to_string();
    for (size_t i = 0; i < t.shape().size(); ++i) {
      const ir::Dim& d = (*type.shape)[i];
      if (d.is_static() && d.value() != t.shape()[i])
        return ::testing::AssertionFailure()
               << "dim " << i << " is " << t.shape()[i] << " vs " << type.to_string();
    }
  }
  return ::testing::AssertionSuccess();
}

TEST_P(CorpusRoundTrip, TensorTestDataDecodesToTheDeclaredTypesAndEncodesBack) {
  size_t tensors = 0, typed_checks = 0;
  for (const fs::path& model_path : files_under(GetParam(), ".onnx")) {
    const ir::Model model = load_model(model_path);
    const auto inputs = fed_inputs(model.graph());
    const auto& outputs = model.graph().outputs();
    for (const auto& entry : fs::directory_iterator(model_path.parent_path())) {
      if (!entry.is_directory() || !entry.path().filename().string().starts_with("test_data_set"))
        continue;
      for (const auto& file : fs::directory_iterator(entry.path())) {
        const std::string stem = file.path().stem().string();  // input_3, output_0
        const bool is_input = stem.starts_with("input_");
        if (file.path().extension() != ".pb" || (!is_input && !stem.starts_with("output_")))
          continue;
        const size_t index = std::stoul(stem.substr(stem.find('_') + 1));
        const ir::Value* v = is_input ? (index < inputs.size() ? inputs[index] : nullptr)
                                      : (index < outputs.size() ? outputs[index] : nullptr);
        // Sequences, maps and optionals are stored as other protos.
        if (v == nullptr || !v->type() || !v->type()->is_tensor()) continue;
        SCOPED_TRACE(file.path().string());
        const ir::Tensor t = load_tensor_pb(file.path());
        // ONNX 1.12 wrote bfloat16 test data as uint16 (numpy has no
        // bfloat16), with the CastLike "like" inputs flattened: the data
        // itself disagrees with the models there.
        if (model_path.string().find("BFLOAT16") == std::string::npos) {
          EXPECT_TRUE(FitsType(t, *v->type()));
          ++typed_checks;
        }
        wire::TensorProto p1, p2;
        ASSERT_TRUE(p1.ParseFromString(read_bytes(file.path())));
        ASSERT_TRUE(p2.ParseFromString(tensor_to_proto_bytes(t)));
        EXPECT_TRUE(ProtoEquals(p1, p2));
        ++tensors;
      }
    }
  }
  EXPECT_GT(tensors, 0u);
  EXPECT_GT(typed_checks, tensors * 9 / 10);
}

}  // namespace
}  // namespace onnxscript::serde

namespace onnxscript::serde {
namespace {

wire::ValueInfoProto typed(const std::string& name, std::vector<int64_t> dims) {
  wire::ValueInfoProto vi;
  vi.set_name(name);
  auto* tt = vi.mutable_type()->mutable_tensor_type();
  tt->set_elem_type(1);
  for (int64_t d : dims) tt->mutable_shape()->add_dim()->set_dim_value(d);
  return vi;
}

wire::NodeProto node(const std::string& op, std::vector<std::string> in,
                     std::vector<std::string> out) {
  wire::NodeProto n;
  n.set_op_type(op);
  for (auto& s : in) n.add_input(s);
  for (auto& s : out) n.add_output(s);
  return n;
}

::testing::AssertionResult RoundTrips(const wire::ModelProto& p1) {
  const ir::Model model = load_model_from_bytes(p1.SerializeAsString());
  wire::ModelProto p2;
  if (!p2.ParseFromString(serialize_model(model)))
    return ::testing::AssertionFailure() << "unparsable";
  return testing::ProtoEquals(p1, p2);
}

TEST(EdgeRoundTrip, ModelWithoutAGraphStaysWithoutOne) {
  // A function library: functions, no main graph.
  wire::ModelProto p;
  p.set_ir_version(10);
  p.add_opset_import()->set_version(21);
  auto* f = p.add_functions();
  f->set_name("Double");
  f->set_domain("lib");
  f->add_input("x");
  f->add_output("y");
  *f->add_node() = node("Add", {"x", "x"}, {"y"});
  EXPECT_TRUE(RoundTrips(p));
  EXPECT_FALSE(p.has_graph());
}

TEST(EdgeRoundTrip, ValueInfoThatDisagreesWithAnOutputIsKeptApart) {
  wire::ModelProto p;
  p.set_ir_version(8);
  auto* g = p.mutable_graph();
  *g->add_input() = typed("x", {2});
  *g->add_node() = node("Relu", {"x"}, {"y"});
  *g->add_output() = typed("y", {});             // rank only
  *g->add_value_info() = typed("y", {2});        // more precise
  *g->add_value_info() = typed("nowhere", {7});  // names no value
  EXPECT_TRUE(RoundTrips(p));
  const ir::Model model = load_model_from_bytes(p.SerializeAsString());
  EXPECT_EQ(model.graph().outputs()[0], model.graph().first_node()->output(0));
  EXPECT_NE(model.graph().value_info()[0], model.graph().outputs()[0]);
}

TEST(EdgeRoundTrip, SubgraphsMayShadowAndCaptureOuterNames) {
  wire::ModelProto p;
  p.set_ir_version(8);
  auto* g = p.mutable_graph();
  *g->add_input() = typed("c", {});
  *g->add_input() = typed("x", {2});
  auto* iff = g->add_node();
  *iff = node("If", {"c"}, {"z"});
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* a = iff->add_attribute();
    a->set_name(branch);
    a->set_type(wire::AttributeProto::GRAPH);
    auto* sub = a->mutable_g();
    // The inner "x" hides the outer one; the outer "t" is captured even
    // though the node producing it comes later in the file.
    *sub->add_node() = node("Neg", {"t"}, {"x"});
    *sub->add_output() = typed("x", {2});
  }
  *g->add_node() = node("Relu", {"x"}, {"t"});
  *g->add_output() = typed("z", {2});
  EXPECT_TRUE(RoundTrips(p));

  const ir::Model model = load_model_from_bytes(p.SerializeAsString());
  const ir::Node* if_node = model.graph().first_node();
  const ir::Node* relu = if_node->next();
  const ir::Node* neg = if_node->subgraphs()[0]->first_node();
  EXPECT_EQ(neg->input(0), relu->output(0));
  EXPECT_NE(neg->output(0), model.graph().inputs()[1]);
  // The capture counts as a use of the outer value.
  EXPECT_EQ(relu->output(0)->uses().size(), 2u);
}

TEST(EdgeRoundTrip, AGraphKeepsItsOwnFactsAboutAValueASubgraphPassesThrough) {
  wire::ModelProto p;
  p.set_ir_version(8);
  auto* g = p.mutable_graph();
  *g->add_input() = typed("c", {});
  *g->add_input() = typed("x", {2});
  *g->add_node() = node("Relu", {"x"}, {"t"});
  auto* loop_like = g->add_node();
  *loop_like = node("If", {"c"}, {"z"});
  auto* a = loop_like->add_attribute();
  a->set_name("then_branch");
  a->set_type(wire::AttributeProto::GRAPH);
  a->mutable_g()->add_output()->set_name("t");  // the outer value, untyped here
  *g->add_output() = typed("t", {2});
  const ir::Model model = load_model_from_bytes(p.SerializeAsString());
  const ir::Value* t = model.graph().first_node()->output(0);
  ASSERT_TRUE(t->type().has_value());
  EXPECT_EQ(*t->type(), ir::Type::tensor(ir::DataType::kFloat, ir::Shape{2}));
}

}  // namespace
}  // namespace onnxscript::serde
