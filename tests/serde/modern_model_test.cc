// A hand-built model that uses what IR versions 9 to 11 added (function
// attribute defaults, overloads, metadata on nodes, graphs and values, float8,
// int4 and float4 tensors, multi-device configuration) plus unknown fields on
// every message that has an IR counterpart. It must survive load, save, load.

#include <gtest/gtest.h>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/wire/onnx.pb.h"
#include "serde_test_util.h"

namespace onnxscript::serde {
namespace {

using testing::ProtoEquals;
using testing::TempDir;

// Unknown fields as a newer ONNX would write them: a varint and a string.
void add_unknown(google::protobuf::Message* msg, int salt) {
  auto* unknown = msg->GetReflection()->MutableUnknownFields(msg);
  unknown->AddVarint(1000 + salt, 42 + salt);
  unknown->AddLengthDelimited(2000 + salt, "future-" + std::to_string(salt));
}

void add_meta(google::protobuf::RepeatedPtrField<wire::StringStringEntryProto>* props,
              const std::string& key, const std::string& value) {
  auto* e = props->Add();
  e->set_key(key);
  e->set_value(value);
}

wire::ValueInfoProto* tensor_value(wire::ValueInfoProto* vi, const std::string& name, int dtype,
                                   std::vector<std::string> dims) {
  vi->set_name(name);
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(dtype);
  for (const auto& d : dims) {
    auto* dim = tt->mutable_shape()->add_dim();
    if (!d.empty() && std::isdigit(static_cast<unsigned char>(d[0]))) {
      dim->set_dim_value(std::stoll(d));
    } else if (!d.empty()) {
      dim->set_dim_param(d);
    }
  }
  return vi;
}

wire::ModelProto build_modern_model() {
  wire::ModelProto m;
  m.set_ir_version(11);
  m.set_producer_name("serde-test");
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(21);
  op = m.add_opset_import();
  op->set_domain("local");
  op->set_version(1);
  add_meta(m.mutable_metadata_props(), "model-key", "model-value");
  add_unknown(&m, 1);
  auto* config = m.add_configuration();
  config->set_name("two-gpus");
  config->set_num_devices(2);
  m.add_training_info()->mutable_algorithm()->set_name("training-step");

  // local.Gelu:tanh <alpha: float = 0.5, beta> (X) => (Y) { T = Mul<@alpha>(X, X); Y = Identity(T)
  // }
  auto* f = m.add_functions();
  f->set_name("Gelu");
  f->set_domain("local");
  f->set_overload("tanh");
  f->add_input("X");
  f->add_output("Y");
  f->add_attribute("beta");
  auto* alpha = f->add_attribute_proto();
  alpha->set_name("alpha");
  alpha->set_type(wire::AttributeProto::FLOAT);
  alpha->set_f(0.5f);
  add_unknown(alpha, 2);
  auto* fop = f->add_opset_import();
  fop->set_domain("");
  fop->set_version(21);
  auto* mul = f->add_node();
  mul->set_op_type("Mul");
  mul->add_input("X");
  mul->add_input("X");
  mul->add_output("T");
  auto* ref = mul->add_attribute();
  ref->set_name("scale");
  ref->set_type(wire::AttributeProto::FLOAT);
  ref->set_ref_attr_name("alpha");
  auto* id = f->add_node();
  id->set_op_type("Identity");
  id->add_input("T");
  id->add_output("Y");
  tensor_value(f->add_value_info(), "T", 1, {"N"});
  add_meta(f->mutable_metadata_props(), "function-key", "function-value");
  add_unknown(f, 3);

  auto* g = m.mutable_graph();
  g->set_name("main");
  add_meta(g->mutable_metadata_props(), "graph-key", "graph-value");
  add_unknown(g, 4);
  auto* x = tensor_value(g->add_input(), "X", 1, {"N", "4"});
  add_meta(x->mutable_metadata_props(), "value-key", "value-value");
  add_unknown(x, 5);
  auto* cond = tensor_value(g->add_input(), "cond", 9, {});
  (void)cond;

  // float8e4m3fn [4], int4 [5] (packed, 3 bytes), uint4 [3] as int32_data,
  // float4e2m1 [2] (1 byte).
  auto* f8 = g->add_initializer();
  f8->set_name("f8");
  f8->set_data_type(17);
  f8->add_dims(4);
  f8->set_raw_data(std::string("\x38\x40\xb8\x7e", 4));
  add_meta(f8->mutable_metadata_props(), "tensor-key", "tensor-value");
  add_unknown(f8, 6);
  auto* i4 = g->add_initializer();
  i4->set_name("i4");
  i4->set_data_type(22);
  i4->add_dims(5);
  i4->set_raw_data(std::string("\x21\xf3\x07", 3));
  auto* u4 = g->add_initializer();
  u4->set_name("u4");
  u4->set_data_type(21);
  u4->add_dims(3);
  u4->add_int32_data(0x21);
  u4->add_int32_data(0x0f);
  auto* f4 = g->add_initializer();
  f4->set_name("f4");
  f4->set_data_type(23);
  f4->add_dims(2);
  f4->set_raw_data(std::string("\x2a", 1));
  auto* sparse = g->add_sparse_initializer();
  sparse->add_dims(10);
  sparse->mutable_values()->set_name("sp");
  sparse->mutable_values()->set_data_type(1);
  sparse->mutable_values()->add_dims(2);
  sparse->mutable_values()->add_float_data(1.5f);
  sparse->mutable_values()->add_float_data(-2.0f);
  sparse->mutable_indices()->set_data_type(7);
  sparse->mutable_indices()->add_dims(2);
  sparse->mutable_indices()->add_int64_data(3);
  sparse->mutable_indices()->add_int64_data(7);

  auto* call = g->add_node();
  call->set_name("gelu");
  call->set_op_type("Gelu");
  call->set_domain("local");
  call->set_overload("tanh");
  call->add_input("X");
  call->add_output("G");
  add_meta(call->mutable_metadata_props(), "node-key", "node-value");
  add_unknown(call, 7);
  auto* dev = call->add_device_configurations();
  dev->set_configuration_id("two-gpus");
  dev->set_pipeline_stage(1);
  auto* beta = call->add_attribute();
  beta->set_name("beta");
  beta->set_type(wire::AttributeProto::INT);
  beta->set_i(0);
  add_unknown(beta, 8);

  // An If whose branches capture G and X from the main graph.
  auto* branch = g->add_node();
  branch->set_name("branch");
  branch->set_op_type("If");
  branch->add_input("cond");
  branch->add_output("Z");
  for (const char* name : {"then_branch", "else_branch"}) {
    auto* a = branch->add_attribute();
    a->set_name(name);
    a->set_type(wire::AttributeProto::GRAPH);
    auto* sub = a->mutable_g();
    sub->set_name(name);
    auto* n = sub->add_node();
    n->set_op_type(std::string(name) == "then_branch" ? "Add" : "Sub");
    n->add_input("G");
    n->add_input("X");
    n->add_output(std::string(name) + "_out");
    tensor_value(sub->add_output(), std::string(name) + "_out", 1, {"N", "4"});
    add_meta(sub->mutable_metadata_props(), "subgraph", name);
  }
  auto* q = g->add_quantization_annotation();
  q->set_tensor_name("G");
  add_meta(q->mutable_quant_parameter_tensor_names(), "SCALE_TENSOR", "f8");

  tensor_value(g->add_output(), "Z", 1, {"N", "4"});
  auto* gi = tensor_value(g->add_value_info(), "G", 1, {"N", "4"});
  gi->set_doc_string("the Gelu output");
  return m;
}

TEST(ModernModel, KeepsEverythingThroughTheIr) {
  const wire::ModelProto p1 = build_modern_model();
  const ir::Model model = load_model_from_bytes(p1.SerializeAsString());

  ASSERT_EQ(model.functions().size(), 1u);
  const ir::Function& f = *model.functions()[0];
  EXPECT_EQ(f.overload, "tanh");
  ASSERT_EQ(f.attribute_defaults.size(), 1u);
  EXPECT_EQ(f.attribute_defaults[0].name, "alpha");
  EXPECT_EQ(f.attribute_defaults[0].as_float(), 0.5f);
  EXPECT_EQ(f.attribute_names, std::vector<std::string>{"beta"});
  EXPECT_FALSE(f.unknown_fields.empty());
  const ir::Node* mul = f.body().first_node();
  ASSERT_NE(mul, nullptr);
  ASSERT_NE(mul->attribute("scale"), nullptr);
  EXPECT_EQ(mul->attribute("scale")->ref_attr_name, "alpha");
  EXPECT_EQ(mul->input(0), f.body().inputs()[0]);

  const ir::Graph& g = model.graph();
  const ir::Node* call = g.first_node();
  EXPECT_EQ(call->overload(), "tanh");
  EXPECT_EQ(call->metadata_props(), (ir::MetadataProps{{"node-key", "node-value"}}));
  EXPECT_EQ(call->device_configurations().size(), 1u);
  EXPECT_FALSE(call->unknown_fields().empty());
  EXPECT_EQ(g.metadata_props, (ir::MetadataProps{{"graph-key", "graph-value"}}));
  EXPECT_EQ(g.inputs()[0]->metadata_props(), (ir::MetadataProps{{"value-key", "value-value"}}));
  EXPECT_EQ(model.find_function("local", "Gelu", "tanh"), &f);

  ASSERT_EQ(g.initializers().size(), 4u);
  const ir::Tensor& f8 = *g.initializers()[0]->const_value();
  EXPECT_EQ(f8.dtype(), ir::DataType::kFloat8E4M3FN);
  EXPECT_EQ(f8.nbytes(), 4u);
  EXPECT_EQ(f8.data<uint8_t>()[3], 0x7e);
  EXPECT_EQ(f8.proto_info()->metadata_props, (ir::MetadataProps{{"tensor-key", "tensor-value"}}));
  const ir::Tensor& i4 = *g.initializers()[1]->const_value();
  EXPECT_EQ(i4.dtype(), ir::DataType::kInt4);
  EXPECT_EQ(i4.nbytes(), 3u);
  EXPECT_EQ(i4.data<uint8_t>()[1], 0xf3);
  const ir::Tensor& u4 = *g.initializers()[2]->const_value();
  EXPECT_EQ(u4.proto_info()->encoding, ir::TensorEncoding::kTypedFields);
  EXPECT_EQ(u4.data<uint8_t>()[0], 0x21);
  EXPECT_EQ(u4.data<uint8_t>()[1], 0x0f);
  ASSERT_EQ(g.sparse_initializers().size(), 1u);
  EXPECT_EQ(g.sparse_initializers()[0]->sparse_value()->dims, std::vector<int64_t>{10});

  // The If branches read G and X from the main graph itself.
  const ir::Node* branch = call->next();
  ASSERT_EQ(branch->subgraphs().size(), 2u);
  const ir::Node* add = branch->subgraphs()[0]->first_node();
  EXPECT_EQ(add->input(0), call->output(0));
  EXPECT_EQ(add->input(1), g.inputs()[0]);

  EXPECT_EQ(required_ir_version(model), 11);
}

TEST(ModernModel, SurvivesSaveAndLoad) {
  const wire::ModelProto p1 = build_modern_model();
  const ir::Model model = load_model_from_bytes(p1.SerializeAsString());
  TempDir dir;
  save_model(model, dir / "modern.onnx");
  const ir::Model loaded = load_model(dir / "modern.onnx");
  wire::ModelProto p2;
  ASSERT_TRUE(p2.ParseFromString(serialize_model(loaded)));
  EXPECT_TRUE(ProtoEquals(p1, p2));
  wire::ModelProto on_disk;
  ASSERT_TRUE(on_disk.ParseFromString(testing::read_bytes(dir / "modern.onnx")));
  EXPECT_TRUE(ProtoEquals(p1, on_disk));
}

TEST(ModernModel, DropsNothingWhenTheIrIsEdited) {
  // Renaming a node keeps its unknown fields and metadata in place.
  const wire::ModelProto p1 = build_modern_model();
  ir::Model model = load_model_from_bytes(p1.SerializeAsString());
  model.graph().first_node()->set_name("renamed");
  wire::ModelProto p2;
  ASSERT_TRUE(p2.ParseFromString(serialize_model(model)));
  EXPECT_EQ(p2.graph().node(0).name(), "renamed");
  wire::ModelProto expected = p1;
  expected.mutable_graph()->mutable_node(0)->set_name("renamed");
  EXPECT_TRUE(ProtoEquals(expected, p2));
}

}  // namespace
}  // namespace onnxscript::serde
