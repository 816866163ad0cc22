// required_ir_version: each feature raises the minimum to the IR version that
// introduced it, wherever it hides (subgraphs, functions, attributes).

#include <gtest/gtest.h>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript::serde {
namespace {

using ir::Attribute;
using ir::DataType;
using ir::Type;

// x -> Relu -> y, ai.onnx opset 7: needs nothing beyond IR 3.
ir::Model base_model() {
  ir::Model m;
  m.opset_imports.set("", 7);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", Type::tensor(DataType::kFloat, ir::Shape{2}));
  ir::Node* relu = g.append_node("Relu", {x}, 1);
  relu->output(0)->set_name("y");
  g.outputs().push_back(relu->output(0));
  return m;
}

TEST(RequiredIrVersion, PlainModelNeedsIr3) { EXPECT_EQ(required_ir_version(base_model()), 3); }

TEST(RequiredIrVersion, OpsetImportsBringTheirReleasesIrVersion) {
  const std::pair<int64_t, int64_t> ai_onnx[] = {{8, 3},   {9, 4},   {10, 5}, {11, 6},
                                                 {13, 7},  {17, 8},  {19, 9}, {20, 9},
                                                 {21, 10}, {22, 10}, {23, 11}};
  for (auto [opset, ir] : ai_onnx) {
    ir::Model m = base_model();
    m.opset_imports.set("", opset);
    EXPECT_EQ(required_ir_version(m), ir) << "opset " << opset;
  }
  ir::Model ml = base_model();
  ml.opset_imports.set("ai.onnx.ml", 3);
  EXPECT_EQ(required_ir_version(ml), 8);
  ir::Model custom = base_model();
  custom.opset_imports.set("com.example", 42);
  EXPECT_EQ(required_ir_version(custom), 3);
}

TEST(RequiredIrVersion, InitializersThatAreNotInputsNeedIr4) {
  ir::Model m = base_model();
  ir::Value* x = m.graph().inputs()[0];
  m.graph().set_initializer(x, ir::Tensor(DataType::kFloat, {2}));  // IR 3 style
  EXPECT_EQ(required_ir_version(m), 3);
  m.graph().add_initializer("w", ir::Tensor(DataType::kFloat, {2}));
  EXPECT_EQ(required_ir_version(m), 4);
}

TEST(RequiredIrVersion, ElementTypes) {
  const std::pair<DataType, int64_t> cases[] = {
      {DataType::kBfloat16, 4}, {DataType::kFloat8E4M3FN, 9}, {DataType::kFloat8E5M2FNUZ, 9},
      {DataType::kInt4, 10},    {DataType::kUint4, 10},       {DataType::kFloat4E2M1, 11}};
  for (auto [dtype, ir] : cases) {
    ir::Model m = base_model();
    m.graph().inputs()[0]->set_type(Type::tensor(dtype));
    EXPECT_EQ(required_ir_version(m), ir) << ir::data_type_name(dtype);
  }
  // In a Constant's tensor attribute, inside a subgraph.
  ir::Model m = base_model();
  auto branch = std::make_shared<ir::Graph>("then");
  ir::Node* c = branch->append_node("Constant", {}, 1);
  c->set_attribute(Attribute::make_tensor("value", ir::Tensor(DataType::kFloat8E5M2, {1})));
  c->output(0)->set_name("c");
  branch->outputs().push_back(c->output(0));
  ir::Node* iff = m.graph().append_node("If", {m.graph().inputs()[0]}, 1);
  iff->set_attribute(Attribute::make_graph("then_branch", branch));
  EXPECT_EQ(required_ir_version(m), 9);
}

TEST(RequiredIrVersion, TypesAndSparseTensors) {
  ir::Model opt = base_model();
  opt.graph().inputs()[0]->set_type(Type::optional(Type::tensor(DataType::kFloat)));
  EXPECT_EQ(required_ir_version(opt), 8);

  ir::Model sparse = base_model();
  ir::SparseTensor s;
  s.values = ir::Tensor(DataType::kFloat, {1});
  s.indices = ir::Tensor(DataType::kInt64, {1});
  s.dims = {4};
  sparse.graph().add_sparse_initializer("s", s);
  EXPECT_EQ(required_ir_version(sparse), 6);

  // TypeProto.SparseTensor is IR 8 (this once said 6).
  ir::Model sparse_type = base_model();
  sparse_type.graph().inputs()[0]->set_type(Type::sparse_tensor(DataType::kFloat));
  EXPECT_EQ(required_ir_version(sparse_type), 8);

  ir::Model seq_of_int4 = base_model();
  seq_of_int4.graph().inputs()[0]->set_type(Type::sequence(Type::tensor(DataType::kInt4)));
  EXPECT_EQ(required_ir_version(seq_of_int4), 10);
}

TEST(RequiredIrVersion, FunctionsAndTheirFeatures) {
  ir::Model m = base_model();
  auto f = std::make_unique<ir::Function>("local", "F");
  ir::Value* a = f->body().add_input("A");
  ir::Node* n = f->body().append_node("Relu", {a}, 1);
  n->output(0)->set_name("B");
  f->body().outputs().push_back(n->output(0));
  ir::Function* fp = f.get();
  m.functions().push_back(std::move(f));
  EXPECT_EQ(required_ir_version(m), 8);

  fp->attribute_defaults.push_back(Attribute::make_float("alpha", 0.5f));
  EXPECT_EQ(required_ir_version(m), 9);

  fp->overload = "v2";
  EXPECT_EQ(required_ir_version(m), 10);
  fp->overload.clear();
  fp->body().value_info().push_back(n->output(0));
  EXPECT_EQ(required_ir_version(m), 10);
}

TEST(RequiredIrVersion, OverloadMetadataAndDevices) {
  ir::Model overload = base_model();
  overload.graph().first_node()->set_overload("fast");
  EXPECT_EQ(required_ir_version(overload), 10);

  ir::Model node_meta = base_model();
  node_meta.graph().first_node()->mutable_metadata_props().emplace_back("k", "v");
  EXPECT_EQ(required_ir_version(node_meta), 10);

  ir::Model value_meta = base_model();
  value_meta.graph().inputs()[0]->mutable_metadata_props().emplace_back("k", "v");
  EXPECT_EQ(required_ir_version(value_meta), 10);

  ir::Model graph_meta = base_model();
  graph_meta.graph().metadata_props.emplace_back("k", "v");
  EXPECT_EQ(required_ir_version(graph_meta), 10);

  // Model metadata_props have existed since IR 1.
  ir::Model model_meta = base_model();
  model_meta.metadata_props.emplace_back("k", "v");
  EXPECT_EQ(required_ir_version(model_meta), 3);

  ir::Model quant = base_model();
  quant.graph().quantization_annotation.push_back({"y", {{"SCALE_TENSOR", "s"}}});
  EXPECT_EQ(required_ir_version(quant), 5);

  ir::Model training = base_model();
  training.training_info.push_back("");
  EXPECT_EQ(required_ir_version(training), 7);

  ir::Model devices = base_model();
  devices.configuration.push_back("");
  EXPECT_EQ(required_ir_version(devices), 11);
  ir::Model node_devices = base_model();
  node_devices.graph().first_node()->mutable_device_configurations().push_back("");
  EXPECT_EQ(required_ir_version(node_devices), 11);
}

// Graph::ir_version_bound lets required_ir_version skip the nodes; each
// way a node can come to need more must raise it, and the answer must stay
// exact when a feature goes away again.
TEST(RequiredIrVersion, NodeFeaturesAddedAnyWayAreSeenAndRemovedOnesNoLonger) {
  ir::Model m = base_model();
  ir::Graph& g = m.graph();
  EXPECT_EQ(g.ir_version_bound(), 3);  // float types and no rare fields

  ir::Value* y = g.first_node()->output(0);  // a node output, not a graph input
  y->set_type(Type::tensor(DataType::kFloat8E4M3FN));
  EXPECT_EQ(required_ir_version(m), 9);
  y->set_type(Type::tensor(DataType::kFloat));
  EXPECT_GE(g.ir_version_bound(), 9);    // the bound never comes down ...
  EXPECT_EQ(required_ir_version(m), 3);  // ... but the answer does

  ir::Node* c = g.append_node("Constant", {}, 1);
  c->output(0)->set_name("c");
  c->set_attribute(Attribute::make_tensor("value", ir::Tensor(DataType::kInt4, {2})));
  EXPECT_EQ(required_ir_version(m), 10);
  c->set_attribute(Attribute::make_tensor("value", ir::Tensor(DataType::kFloat, {2})));
  EXPECT_EQ(required_ir_version(m), 3);
  ir::Attribute typed("dtype", ir::AttributeType::kTypeProto,
                      Type::optional(Type::tensor(DataType::kFloat)));
  c->set_attribute(typed);
  EXPECT_EQ(required_ir_version(m), 8);
  c->remove_attribute("dtype");
  EXPECT_EQ(required_ir_version(m), 3);

  // A subgraph edited after it was attached: its node is seen all the same.
  auto branch = std::make_shared<ir::Graph>("then");
  ir::Node* iff = g.append_node("If", {g.inputs()[0]}, 1);
  iff->output(0)->set_name("z");
  iff->set_attribute(Attribute::make_graph("then_branch", branch));
  EXPECT_EQ(required_ir_version(m), 3);
  ir::Node* inner = branch->append_node("Relu", {y}, 1);
  inner->output(0)->set_name("r");
  inner->output(0)->set_type(Type::tensor(DataType::kFloat4E2M1));
  EXPECT_EQ(required_ir_version(m), 11);
}

TEST(RequiredIrVersion, InitializerTensorsRaiseTheBoundToo) {
  ir::Model m = base_model();
  m.opset_imports.set("", 17);  // IR 8 from the opset alone
  EXPECT_EQ(required_ir_version(m), 8);
  ir::Value* w = m.graph().add_initializer("w", ir::Tensor(DataType::kFloat8E5M2, {1}));
  EXPECT_GE(m.graph().ir_version_bound(), 9);
  EXPECT_EQ(required_ir_version(m), 9);
  m.graph().set_initializer(w, ir::Tensor(DataType::kFloat, {1}));
  EXPECT_EQ(w->const_value()->dtype(), DataType::kFloat);
  EXPECT_EQ(required_ir_version(m), 8);
  m.graph().remove_initializer(w);
  EXPECT_EQ(w->const_value(), nullptr);
  EXPECT_EQ(required_ir_version(m), 8);
}

}  // namespace
}  // namespace onnxscript::serde
