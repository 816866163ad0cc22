// The own rules on hand-built nodes, for what ONNX 1.22's node models do not
// show: rejections, outputs left untyped for lack of information, and shapes
// that depend on constant data. Expected types are worked out by hand from
// the operators' specifications.

#include <optional>
#include <span>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "onnxscript/infer/infer.h"
#include "onnxscript/ir/graph.h"

namespace onnxscript::infer {
namespace {

using ::testing::HasSubstr;

ir::Type f32(ir::Shape shape) { return ir::Type::tensor(ir::DataType::kFloat, std::move(shape)); }

std::string str(const ir::Value* v) { return v->type() ? v->type()->to_string() : "untyped"; }

// A constant int64 input made by a Constant node.
ir::Value* ints(ir::Graph& g, std::vector<int64_t> values) {
  ir::Node* c = g.append_node("Constant", {}, 1);
  c->set_attribute(ir::Attribute::make_tensor(
      "value", ir::Tensor::from_span<int64_t>(std::span<const int64_t>(values))));
  return c->output(0);
}

TEST(OwnRules, SwiGLUNeedsOneShapeForBothInputs) {
  ir::Graph g;
  ir::Value* a = g.add_input("A", f32({2, "N"}));
  ir::Value* b = g.add_input("B", f32({2, 5}));
  ir::Node* n = g.append_node("SwiGLU", {a, b}, 1);
  infer_node_outputs(*n, 28);
  EXPECT_EQ(str(n->output(0)), "float[2,5]");
  ir::Value* c = g.add_input("C", f32({3, 5}));
  ir::Node* bad = g.append_node("SwiGLU", {a, c}, 1);
  try {
    infer_node_outputs(*bad, 28);
    ADD_FAILURE() << "no InferenceError";
  } catch (const InferenceError& e) {
    EXPECT_THAT(e.what(), HasSubstr("SwiGLU"));
    EXPECT_THAT(e.what(), HasSubstr("2 and 3 differ"));
  }
}

TEST(OwnRules, ARejectionWithAnUntypedInputLeavesTheNodeUntyped) {
  // BitwiseAnd of int32[2,3] and int32[4] does not broadcast; with the
  // second input untyped nothing is known to be wrong.
  ir::Graph g;
  ir::Value* a = g.add_input("A", ir::Type::tensor(ir::DataType::kInt32, ir::Shape{2, 3}));
  ir::Value* b = g.add_input("B");
  ir::Node* n = g.append_node("BitwiseAnd", {a, b}, 1);
  EXPECT_NO_THROW(infer_node_outputs(*n, 18));
  EXPECT_EQ(str(n->output(0)), "int32");  // the element type from the known side
  b->set_type(ir::Type::tensor(ir::DataType::kInt32, ir::Shape{4}));
  EXPECT_THROW(infer_node_outputs(*n, 18), InferenceError);
}

TEST(OwnRules, Split18WithoutNumOutputsSplitsEquallyOverTheOutputs) {
  // [6, 2] into the node's 3 outputs: 2 rows each; [7, 2] does not divide.
  ir::Graph g;
  ir::Value* x = g.add_input("X", f32({6, 2}));
  ir::Node* n = g.append_node("Split", {x}, 3);
  infer_node_outputs(*n, 18);
  EXPECT_EQ(str(n->output(2)), "float[2,2]");
  ir::Value* y = g.add_input("Y", f32({7, 2}));
  ir::Node* bad = g.append_node("Split", {y}, 3);
  EXPECT_THROW(infer_node_outputs(*bad, 18), InferenceError);
}

TEST(OwnRules, ResizeSizesFromAGraphInputGiveTheRankOnly) {
  ir::Graph g;
  ir::Value* x = g.add_input("X", f32({1, 3, 4, 4}));
  ir::Value* sizes = g.add_input("sizes", ir::Type::tensor(ir::DataType::kInt64, ir::Shape{2}));
  ir::Node* n = g.append_node("Resize", {x, nullptr, nullptr, sizes}, 1);
  n->set_attribute(ir::Attribute::make_ints("axes", {2, 3}));
  infer_node_outputs(*n, 19);
  EXPECT_EQ(str(n->output(0)), "float[1,3,?,?]");
  // Constant sizes with not_larger: one scale, min(6/4, 10/4) = 1.5, for both
  // axes: 4 * 1.5 = 6.
  ir::Node* m = g.append_node("Resize", {x, nullptr, nullptr, ints(g, {6, 10})}, 1);
  m->set_attribute(ir::Attribute::make_ints("axes", {2, 3}));
  m->set_attribute(ir::Attribute::make_string("keep_aspect_ratio_policy", "not_larger"));
  infer_node_outputs(*m, 19);
  EXPECT_EQ(str(m->output(0)), "float[1,3,6,6]");
}

// A shuffle of channels as exporters write it with a named batch:
// Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [2, 58, 8, 8])), then
// back with -1 for the channels. The sizes come from the Shape node, so the
// outputs' dimensions are known: the batch by name, the -1 solved because
// the batch cancels (2 * 58 * 8 * 8 / (8 * 8) = 116).
TEST(DataPropagation, ReshapeToSizesReadFromAShapeKnowsItsDimensions) {
  ir::Graph g;
  ir::Value* x = g.add_input("X", f32({"batch", 116, 8, 8}));
  auto node = [&](const char* op, std::vector<ir::Value*> inputs) {
    ir::Node* n = g.append_node(op, inputs, 1);
    if (std::string(op) == "Concat") n->set_attribute(ir::Attribute::make_int("axis", 0));
    infer_node_outputs(*n, 18);
    return n->output(0);
  };
  ir::Value* shape = node("Shape", {x});
  ir::Value* batch = node("Gather", {shape, ints(g, {0})});  // 1-D indices: [batch]
  ir::Value* split = node("Reshape", {x, node("Concat", {batch, ints(g, {2, 58, 8, 8})})});
  EXPECT_EQ(str(split), "float[batch,2,58,8,8]");
  ir::Value* merged = node("Reshape", {split, node("Concat", {batch, ints(g, {-1, 8, 8})})});
  EXPECT_EQ(str(merged), "float[batch,116,8,8]");
  // A scalar index, then Unsqueeze, as torch.onnx writes x.size(0).
  ir::Node* scalar_index = g.append_node("Constant", {}, 1);
  scalar_index->set_attribute(ir::Attribute::make_tensor("value", ir::Tensor::scalar<int64_t>(3)));
  ir::Value* width = node("Gather", {shape, scalar_index->output(0)});
  ir::Value* row = node("Unsqueeze", {width, ints(g, {0})});
  ir::Value* rows = node("Reshape", {x, node("Concat", {ints(g, {-1}), row})});
  // -1 cannot be solved: the batch does not cancel.
  EXPECT_EQ(str(rows), "float[?,8]");
  // 0 copies the input's dimension (allowzero 0).
  ir::Value* same = node("Reshape", {x, node("Concat", {ints(g, {0, 0}), ints(g, {-1})})});
  EXPECT_EQ(str(same), "float[batch,116,64]");
}

TEST(OwnRules, PoolingDropsALastWindowInTheEndPaddingAtEveryOpsetBeyondLibonnx) {
  // [1,1,2,2], kernel 1, stride 2, ceil mode: ceil((2 - 1) / 2) + 1 = 2
  // windows, but the second would start at 2, past the input: 1.
  for (int64_t opset : {18, 21, 22}) {
    ir::Graph g;
    ir::Value* x = g.add_input("X", f32({1, 1, 2, 2}));
    ir::Node* n = g.append_node("MaxPool", {x}, 2);
    n->set_attribute(ir::Attribute::make_ints("kernel_shape", {1, 1}));
    n->set_attribute(ir::Attribute::make_ints("strides", {2, 2}));
    n->set_attribute(ir::Attribute::make_int("ceil_mode", 1));
    infer_node_outputs(*n, opset);
    EXPECT_EQ(str(n->output(0)), "float[1,1,1,1]") << opset;
    EXPECT_EQ(str(n->output(1)), "int64[1,1,1,1]") << opset;
  }
}

TEST(OwnRules, QuantizeLinearTakesOutputDtypeOrTheZeroPointsType) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", f32({4, 2}));
  ir::Value* scale = g.add_input("s", f32({}));
  ir::Node* plain = g.append_node("QuantizeLinear", {x, scale}, 1);
  infer_node_outputs(*plain, 21);
  EXPECT_EQ(str(plain->output(0)), "uint8[4,2]");
  ir::Node* typed = g.append_node("QuantizeLinear", {x, scale}, 1);
  typed->set_attribute(
      ir::Attribute::make_int("output_dtype", static_cast<int64_t>(ir::DataType::kInt4)));
  infer_node_outputs(*typed, 21);
  EXPECT_EQ(str(typed->output(0)), "int4[4,2]");
}

TEST(OwnRules, AttentionWithPackedHeads) {
  // Q [2, 4, 3*8] with q_num_heads 3, K and V [2, 6, 1*8] with kv_num_heads
  // 1: Y [2, 4, 3*8], present_key [2, 1, 6, 8], qk [2, 3, 4, 6].
  ir::Graph g;
  ir::Value* q = g.add_input("Q", f32({2, 4, 24}));
  ir::Value* k = g.add_input("K", f32({2, 6, 8}));
  ir::Value* v = g.add_input("V", f32({2, 6, 8}));
  ir::Node* n = g.append_node("Attention", {q, k, v}, 4);
  n->set_attribute(ir::Attribute::make_int("q_num_heads", 3));
  n->set_attribute(ir::Attribute::make_int("kv_num_heads", 1));
  infer_node_outputs(*n, 23);
  EXPECT_EQ(str(n->output(0)), "float[2,4,24]");
  EXPECT_EQ(str(n->output(1)), "float[2,1,6,8]");
  EXPECT_EQ(str(n->output(3)), "float[2,3,4,6]");
}

TEST(ReusedRules, LibonnxRulesCarryTheElementTypesAddedSince) {
  // Versions that only widened the types reuse libonnx's rule, which copies
  // an element type it has never heard of (int4 is 22, float8e8m0 24).
  ir::Graph g;
  ir::Value* x = g.add_input("X", ir::Type::tensor(ir::DataType::kInt4, ir::Shape{2, 6}));
  ir::Node* t = g.append_node("Transpose", {x}, 1);
  infer_node_outputs(*t, 21);
  EXPECT_EQ(str(t->output(0)), "int4[6,2]");
  ir::Node* c = g.append_node("Constant", {}, 1);
  c->set_attribute(ir::Attribute::make_tensor("value", ir::Tensor(ir::DataType::kFloat8E8M0, {3})));
  infer_node_outputs(*c, 24);
  EXPECT_EQ(str(c->output(0)), "float8e8m0[3]");
  // Cast-19 and later have an own rule: libonnx's rejects a 'to' it does not know.
  ir::Node* cast = g.append_node("Cast", {t->output(0)}, 1);
  cast->set_attribute(
      ir::Attribute::make_int("to", static_cast<int64_t>(ir::DataType::kFloat8E4M3FN)));
  infer_node_outputs(*cast, 19);
  EXPECT_EQ(str(cast->output(0)), "float8e4m3fn[6,2]");
}

TEST(ReusedRules, ReduceAtOpset18ReadsItsAxesInput) {
  // ReduceMax-18 over axes [0, 2] of [2, 3, 4] with keepdims 0: [3].
  ir::Graph g;
  ir::Value* x = g.add_input("X", f32({2, 3, 4}));
  ir::Node* n = g.append_node("ReduceMax", {x, ints(g, {0, 2})}, 1);
  n->set_attribute(ir::Attribute::make_int("keepdims", 0));
  infer_node_outputs(*n, 18);
  EXPECT_EQ(str(n->output(0)), "float[3]");
}

}  // namespace
}  // namespace onnxscript::infer
