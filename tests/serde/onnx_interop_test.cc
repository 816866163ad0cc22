// The bridge to libonnx: models go to onnx::ModelProto for the checker and
// come back without loss, IR 10 fields included (they ride as unknown fields
// through libonnx 1.12).

#include <gtest/gtest.h>
#include <onnx/checker.h>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/onnx_interop.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/wire/onnx.pb.h"
#include "serde_test_util.h"

namespace onnxscript::serde {
namespace {

using ir::DataType;

ir::Model relu_model() {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  m.producer_name = "interop-test";
  ir::Graph& g = m.graph();
  g.set_name("relu");
  ir::Value* x = g.add_input("x", ir::Type::tensor(DataType::kFloat, ir::Shape{"N", 3}));
  ir::Node* relu = g.append_node("Relu", {x}, 1);
  relu->set_name("relu");
  relu->output(0)->set_name("y");
  relu->output(0)->set_type(ir::Type::tensor(DataType::kFloat, ir::Shape{"N", 3}));
  g.outputs().push_back(relu->output(0));
  return m;
}

TEST(OnnxInterop, ToOnnxProtoPassesTheChecker) {
  const onnx::ModelProto proto = to_onnx_proto(relu_model());
  EXPECT_EQ(proto.graph().node(0).op_type(), "Relu");
  EXPECT_EQ(proto.graph().input(0).type().tensor_type().shape().dim(0).dim_param(), "N");
  EXPECT_NO_THROW(onnx::checker::check_model(proto));

  ir::Model broken = relu_model();
  broken.graph().first_node()->set_attribute(ir::Attribute::make_int("no_such_attribute", 1));
  EXPECT_THROW(onnx::checker::check_model(to_onnx_proto(broken)), onnx::checker::ValidationError);
}

TEST(OnnxInterop, NewerFieldsSurviveTheTripThroughLibonnx) {
  ir::Model m = relu_model();
  m.graph().first_node()->set_overload("fast");
  m.graph().first_node()->mutable_metadata_props().emplace_back("origin", "test");
  const std::string expected = serialize_model(m);
  const ir::Model back = from_onnx_proto(to_onnx_proto(m));
  EXPECT_EQ(back.graph().first_node()->overload(), "fast");
  wire::ModelProto p1, p2;
  ASSERT_TRUE(p1.ParseFromString(expected));
  ASSERT_TRUE(p2.ParseFromString(serialize_model(back)));
  EXPECT_TRUE(testing::ProtoEquals(p1, p2));
}

TEST(OnnxInterop, FromOnnxProtoReportsBadModels) {
  onnx::ModelProto proto = to_onnx_proto(relu_model());
  proto.mutable_graph()->mutable_node(0)->set_input(0, "undefined");
  try {
    from_onnx_proto(proto);
    ADD_FAILURE() << "no exception";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("<onnx::ModelProto>"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'undefined'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace onnxscript::serde
