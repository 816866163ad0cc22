// SessionOptions::optimize: constant nodes run once at planning, Conv with
// BatchNormalization and activations fused, the Erf form of Gelu as one
// step. Each case runs the same model with optimize off (every node as
// written) as the reference, and checks what the plan runs.
#include <cmath>
#include <limits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "onnxscript/eval/session.h"
#include "onnxscript/ir/clone.h"
#include "onnxscript/ir/ir.h"

namespace onnxscript::eval {
namespace {

using ir::Attribute;
using ir::Dim;
using ir::Type;
using ::testing::ElementsAre;

Type floats(ir::Shape shape) { return Type::tensor(DataType::kFloat, std::move(shape)); }

// Values spread over [-1, 1] that differ from element to element.
Tensor wavy(ir::Dims shape, float phase) {
  Tensor t(DataType::kFloat, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = std::sin(0.7f * i + phase);
  return t;
}

std::vector<float> values_of(const RuntimeValue& v) {
  const Tensor& t = v.tensor();
  return {t.data<float>(), t.data<float>() + t.numel()};
}

SessionOptions with_optimize(bool on) {
  SessionOptions o;
  o.optimize = on;
  return o;
}

// Runs `model` with optimize on and off on `inputs`, expects the outputs to
// agree within `tolerance`, and returns the optimized plan's operators.
std::vector<std::string> expect_same_results(const ir::Model& model,
                                             std::vector<RuntimeValue> inputs, float tolerance) {
  auto shared = std::make_shared<const ir::Model>(ir::clone_model(model));
  Session fast(shared, with_optimize(true)), plain(shared, with_optimize(false));
  const auto got = fast.run(inputs), want = plain.run(inputs);
  EXPECT_EQ(got.size(), want.size());
  for (size_t o = 0; o < got.size() && o < want.size(); ++o) {
    const auto g = values_of(got[o]), w = values_of(want[o]);
    EXPECT_EQ(got[o].tensor().shape(), want[o].tensor().shape());
    EXPECT_EQ(g.size(), w.size());
    for (size_t i = 0; i < g.size() && i < w.size(); ++i)
      EXPECT_NEAR(g[i], w[i], tolerance) << "output " << o << " element " << i;
  }
  return fast.planned_operators();
}

struct ConvModel {
  ir::Model model;
  ir::Value* conv_out = nullptr;
  ir::Value* bn_out = nullptr;
  ir::Value* weight = nullptr;
};

// x[1,2,5,5] -> Conv(3 filters of 3x3, pads 1, bias) -> BatchNormalization
// -> `activation` (if not empty) -> y.
ConvModel conv_bn_model(const std::string& activation, bool weight_is_input = false) {
  ConvModel c;
  ir::Model& m = c.model;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", floats({Dim(1), Dim(2), Dim(5), Dim(5)}));
  if (weight_is_input) {
    c.weight = g.add_input("w", floats({Dim(3), Dim(2), Dim(3), Dim(3)}));
    g.set_initializer(c.weight, wavy({3, 2, 3, 3}, 0.1f));
  } else {
    c.weight = g.add_initializer("w", wavy({3, 2, 3, 3}, 0.1f));
  }
  ir::Value* b = g.add_initializer("b", Tensor::from<float>({0.5f, -0.25f, 0.125f}, {3}));
  ir::Node* conv = g.append_node("Conv", {x, c.weight, b}, 1);
  conv->set_attribute(Attribute::make_ints("pads", {1, 1, 1, 1}));
  c.conv_out = conv->output(0);
  c.conv_out->set_name("conv_out");
  ir::Value* scale = g.add_initializer("scale", Tensor::from<float>({1.5f, 0.5f, -2.0f}, {3}));
  ir::Value* shift = g.add_initializer("shift", Tensor::from<float>({0.1f, 0.2f, -0.3f}, {3}));
  ir::Value* mean = g.add_initializer("mean", Tensor::from<float>({0.3f, -0.2f, 0.05f}, {3}));
  ir::Value* var = g.add_initializer("var", Tensor::from<float>({0.9f, 2.0f, 0.25f}, {3}));
  ir::Node* bn = g.append_node("BatchNormalization", {c.conv_out, scale, shift, mean, var}, 1);
  bn->set_attribute(Attribute::make_float("epsilon", 1e-3f));
  c.bn_out = bn->output(0);
  c.bn_out->set_name("bn_out");
  ir::Value* y = c.bn_out;
  if (!activation.empty()) {
    std::vector<ir::Value*> in{c.bn_out};
    if (activation == "Clip") {
      in.push_back(g.add_initializer("lo", Tensor::scalar<float>(0.0f)));
      in.push_back(g.add_initializer("hi", Tensor::scalar<float>(0.75f)));
    }
    ir::Node* act = g.append_node(activation, in, 1);
    y = act->output(0);
    y->set_name("y");
  }
  g.outputs() = {y};
  return c;
}

TEST(SessionOptimize, FoldsBatchNormalizationIntoConv) {
  ConvModel c = conv_bn_model("");
  const auto ops = expect_same_results(c.model, {wavy({1, 2, 5, 5}, 0.3f)}, 1e-5f);
  EXPECT_THAT(ops, ElementsAre("Conv"));
}

TEST(SessionOptimize, FusesConvBatchNormalizationAndActivation) {
  for (const std::string activation : {"Relu", "Clip", "LeakyRelu", "Sigmoid"}) {
    SCOPED_TRACE(activation);
    ConvModel c = conv_bn_model(activation);
    const auto ops = expect_same_results(c.model, {wavy({1, 2, 5, 5}, 0.3f)}, 1e-5f);
    EXPECT_THAT(ops, ElementsAre("onnxscript.internal.FusedConv"));
  }
}

TEST(SessionOptimize, FusesConvWhoseBiasIsAnIdentityOfAnInitializer) {
  // torch.onnx.export shares equal biases through Identity nodes.
  ConvModel c = conv_bn_model("Relu");
  ir::Graph& g = c.model.graph();
  ir::Node* conv = c.conv_out->producer();
  ir::Node* identity = g.insert_node_before(conv, "Identity", {conv->inputs()[2]}, 1);
  conv->set_input(2, identity->output(0));
  const auto ops = expect_same_results(c.model, {wavy({1, 2, 5, 5}, 0.3f)}, 1e-5f);
  EXPECT_THAT(ops, ElementsAre("onnxscript.internal.FusedConv"));
}

TEST(SessionOptimize, LeavesGroupsWhoseInsideIsReadElsewhere) {
  // The Conv's output is also a graph output: the normalization stays.
  ConvModel c = conv_bn_model("Relu");
  c.model.graph().outputs().push_back(c.conv_out);
  EXPECT_THAT(expect_same_results(c.model, {wavy({1, 2, 5, 5}, 0.3f)}, 1e-5f),
              ElementsAre("Conv", "BatchNormalization", "Relu"));
  // The normalization's output is read twice: the activation stays apart.
  ConvModel d = conv_bn_model("Relu");
  ir::Graph& g = d.model.graph();
  ir::Value* twice = g.append_node("Add", {d.bn_out, d.bn_out}, 1)->output(0);
  twice->set_name("twice");
  g.outputs().push_back(twice);
  EXPECT_THAT(expect_same_results(d.model, {wavy({1, 2, 5, 5}, 0.3f)}, 1e-5f),
              ElementsAre("Conv", "Relu", "Add"));
}

TEST(SessionOptimize, WeightsACallerMayReplaceAreNotFolded) {
  // An initializer that is also a graph input is only a default.
  ConvModel c = conv_bn_model("", /*weight_is_input=*/true);
  auto shared = std::make_shared<const ir::Model>(std::move(c.model));
  Session fast(shared, with_optimize(true)), plain(shared, with_optimize(false));
  EXPECT_THAT(fast.planned_operators(), ElementsAre("Conv", "BatchNormalization"));
  const std::vector<RuntimeValue> in{wavy({1, 2, 5, 5}, 0.3f), wavy({3, 2, 3, 3}, 2.0f)};
  EXPECT_EQ(values_of(fast.run(in)[0]), values_of(plain.run(in)[0]));
}

TEST(SessionOptimize, RunsConstantNodesOnceWhenPlanning) {
  // y = x + ConstantOfShape(shape)*3, z = RandomNormal: the constant branch
  // is computed when planning; the random node runs on every run.
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", floats({Dim(2), Dim(3)}));
  ir::Value* shape = g.add_initializer("shape", Tensor::from<int64_t>({2, 3}, {2}));
  ir::Node* fill = g.append_node("ConstantOfShape", {shape}, 1);
  fill->set_attribute(Attribute::make_tensor("value", Tensor::from<float>({2.0f}, {1})));
  ir::Value* three = g.add_initializer("three", Tensor::scalar<float>(3.0f));
  ir::Value* scaled = g.append_node("Mul", {fill->output(0), three}, 1)->output(0);
  ir::Value* y = g.append_node("Add", {x, scaled}, 1)->output(0);
  y->set_name("y");
  ir::Node* random = g.append_node("RandomNormal", {}, 1);
  random->set_attribute(Attribute::make_ints("shape", {4}));
  random->output(0)->set_name("z");
  g.outputs() = {y, random->output(0)};
  Session session(std::move(m));
  EXPECT_THAT(session.planned_operators(), ElementsAre("Add", "RandomNormal"));
  const auto out = session.run({Tensor::from<float>({0, 1, 2, 3, 4, 5}, {2, 3})});
  EXPECT_THAT(values_of(out[0]), ElementsAre(6, 7, 8, 9, 10, 11));
  EXPECT_EQ(out[1].tensor().numel(), 4);
}

TEST(SessionOptimize, AConstantNodeThatFailsStillFailsWhenRun) {
  // Reshape of 6 elements to 4: planning leaves the node in place, so the
  // error comes from the run, as it does without optimize.
  for (bool optimize : {true, false}) {
    ir::Model m;
    m.ir_version = 8;
    m.opset_imports.set("", 17);
    ir::Graph& g = m.graph();
    ir::Value* data = g.add_initializer("data", Tensor::from<float>({1, 2, 3, 4, 5, 6}, {6}));
    ir::Value* shape = g.add_initializer("shape", Tensor::from<int64_t>({4}, {1}));
    ir::Value* y = g.append_node("Reshape", {data, shape}, 1)->output(0);
    y->set_name("y");
    g.outputs() = {y};
    Session session(std::move(m), with_optimize(optimize));
    EXPECT_THAT(session.planned_operators(), ElementsAre("Reshape"));
    EXPECT_THROW(session.run(std::vector<RuntimeValue>{}), Error);
  }
}

// y = Mul(Mul(x, Add(Erf(Div(x, sqrt2)), 1)), half), as torch.onnx.export
// writes gelu; `half` is 0.5 for the real pattern.
ir::Model gelu_model(float half) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", floats({Dim(7)}));
  ir::Value* sqrt2 = g.add_initializer("sqrt2", Tensor::scalar<float>(1.4142135f));
  ir::Value* one = g.add_initializer("one", Tensor::scalar<float>(1.0f));
  ir::Value* h = g.add_initializer("half", Tensor::scalar<float>(half));
  ir::Value* d = g.append_node("Div", {x, sqrt2}, 1)->output(0);
  ir::Value* e = g.append_node("Erf", {d}, 1)->output(0);
  ir::Value* a = g.append_node("Add", {one, e}, 1)->output(0);  // constant first: either order
  ir::Value* p = g.append_node("Mul", {x, a}, 1)->output(0);
  ir::Value* y = g.append_node("Mul", {p, h}, 1)->output(0);
  y->set_name("y");
  g.outputs() = {y};
  return m;
}

TEST(SessionOptimize, RunsTheErfFormOfGeluAsOneStep) {
  const Tensor x = Tensor::from<float>({-3.0f, -1.0f, -0.25f, 0.0f, 0.5f, 1.0f, 4.0f}, {7});
  const auto ops = expect_same_results(gelu_model(0.5f), {x}, 1e-6f);
  EXPECT_THAT(ops, ElementsAre("Gelu"));
  Session session(gelu_model(0.5f));
  const auto y = values_of(session.run({x})[0]);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double v = x.data<float>()[i];
    EXPECT_NEAR(y[i], 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))), 1e-6) << v;
  }
}

TEST(SessionOptimize, FindsGeluWhoseScalarsAreConstantNodes) {
  // torch.onnx.export writes Gelu's scalars as Constant nodes, not initializers.
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", floats({Dim(7)}));
  auto constant = [&](float v) {
    ir::Node* c = g.append_node("Constant", {}, 1);
    c->set_attribute(Attribute::make_tensor("value", Tensor::scalar<float>(v)));
    return c->output(0);
  };
  ir::Value* d = g.append_node("Div", {x, constant(1.4142135f)}, 1)->output(0);
  ir::Value* e = g.append_node("Erf", {d}, 1)->output(0);
  ir::Value* a = g.append_node("Add", {e, constant(1.0f)}, 1)->output(0);
  ir::Value* p = g.append_node("Mul", {x, a}, 1)->output(0);
  ir::Value* y = g.append_node("Mul", {p, constant(0.5f)}, 1)->output(0);
  y->set_name("y");
  g.outputs() = {y};
  const Tensor xs = Tensor::from<float>({-3.0f, -1.0f, -0.25f, 0.0f, 0.5f, 1.0f, 4.0f}, {7});
  EXPECT_THAT(expect_same_results(m, {xs}, 1e-6f), ElementsAre("Gelu"));
}

TEST(SessionOptimize, LeavesLookAlikesOfGeluAlone) {
  const Tensor x = Tensor::from<float>({-3.0f, -1.0f, -0.25f, 0.0f, 0.5f, 1.0f, 4.0f}, {7});
  EXPECT_THAT(expect_same_results(gelu_model(0.6f), {x}, 1e-6f),
              ElementsAre("Div", "Erf", "Add", "Mul", "Mul"));
}

// y = MatMul(x, w) + bias, w [4, 5] and bias (with `bias_shape`) constants.
ir::Model linear_model(ir::Shape x_shape, ir::Dims bias_shape, bool bias_first) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", floats(std::move(x_shape)));
  ir::Value* w = g.add_initializer("w", wavy({4, 5}, 0.5f));
  ir::Value* bias = g.add_initializer("bias", wavy(std::move(bias_shape), 1.5f));
  ir::Value* p = g.append_node("MatMul", {x, w}, 1)->output(0);
  ir::Value* y =
      g.append_node("Add", bias_first ? std::vector{bias, p} : std::vector{p, bias}, 1)->output(0);
  y->set_name("y");
  g.outputs() = {y};
  return m;
}

TEST(SessionOptimize, RunsALinearLayerAsOneMatMulAdd) {
  const std::vector<std::string> fused{"onnxscript.internal.MatMulAdd"};
  // A batch of rows, the bias on either side of the Add.
  EXPECT_EQ(expect_same_results(linear_model({Dim(2), Dim(3), Dim(4)}, {5}, false),
                                {wavy({2, 3, 4}, 0.2f)}, 1e-5f),
            fused);
  EXPECT_EQ(expect_same_results(linear_model({Dim(2), Dim(3), Dim(4)}, {5}, true),
                                {wavy({2, 3, 4}, 0.2f)}, 1e-5f),
            fused);
  // One row ([4] -> [5]), and a bias of higher rank than the product, which
  // Add's broadcast prepends to the result's shape ([1, 1, 1, 5]).
  EXPECT_EQ(expect_same_results(linear_model({Dim(4)}, {5}, false), {wavy({4}, 0.2f)}, 1e-5f),
            fused);
  EXPECT_EQ(expect_same_results(linear_model({Dim(1), Dim(4)}, {1, 1, 1, 5}, false),
                                {wavy({1, 4}, 0.2f)}, 1e-5f),
            fused);
  // Enough rows and columns for the threaded path.
  ir::Model big;
  big.ir_version = 8;
  big.opset_imports.set("", 17);
  ir::Graph& g = big.graph();
  ir::Value* x = g.add_input("x", floats({Dim(300), Dim(256)}));
  ir::Value* w = g.add_initializer("w", wavy({256, 200}, 0.5f));
  ir::Value* bias = g.add_initializer("bias", wavy({200}, 1.5f));
  ir::Value* y =
      g.append_node("Add", {g.append_node("MatMul", {x, w}, 1)->output(0), bias}, 1)->output(0);
  y->set_name("y");
  g.outputs() = {y};
  EXPECT_EQ(expect_same_results(big, {wavy({300, 256}, 0.2f)}, 1e-4f), fused);
}

TEST(SessionOptimize, LeavesMatMulAddsThatAreNotALinearLayer) {
  // A bias that broadcasts over columns ([3, 1]) is not a row bias.
  EXPECT_THAT(expect_same_results(linear_model({Dim(3), Dim(4)}, {3, 1}, false),
                                  {wavy({3, 4}, 0.2f)}, 1e-5f),
              ElementsAre("MatMul", "Add"));
}

// y = Relu(Add(a, b)) with a and b graph inputs of the given types.
ir::Model add_relu_model(Type a, Type b) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* sum = g.append_node("Add", {g.add_input("a", a), g.add_input("b", b)}, 1)->output(0);
  ir::Value* y = g.append_node("Relu", {sum}, 1)->output(0);
  y->set_name("y");
  g.outputs() = {y};
  return m;
}

TEST(SessionOptimize, RunsAddThenReluAsOneStep) {
  // A residual-style Add with a per-channel operand, NaN and infinities kept.
  Tensor a = wavy({2, 3, 4, 5}, 0.4f), b = wavy({3, 1, 1}, 1.1f);
  a.data<float>()[7] = std::numeric_limits<float>::quiet_NaN();
  a.data<float>()[8] = -std::numeric_limits<float>::infinity();
  auto shared = std::make_shared<const ir::Model>(
      add_relu_model(floats({Dim(2), Dim(3), Dim(4), Dim(5)}), floats({Dim(3), Dim(1), Dim(1)})));
  Session fast(shared, with_optimize(true)), plain(shared, with_optimize(false));
  EXPECT_THAT(fast.planned_operators(), ElementsAre("onnxscript.internal.AddRelu"));
  const auto got = values_of(fast.run({a, b})[0]), want = values_of(plain.run({a, b})[0]);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i]))
      EXPECT_TRUE(std::isnan(got[i])) << i;
    else
      EXPECT_EQ(got[i], want[i]) << i;
  }
  EXPECT_TRUE(std::isnan(got[7]));
  EXPECT_EQ(got[8], 0.0f);
  // Integers wrap before the Relu, as Add then Relu do.
  Session ints(add_relu_model(Type::tensor(DataType::kInt32, ir::Shape{Dim(3)}),
                              Type::tensor(DataType::kInt32, ir::Shape{Dim(3)})));
  const auto out = ints.run(
      {Tensor::from<int32_t>({2147483647, -5, 4}, {3}), Tensor::from<int32_t>({1, 2, 3}, {3})});
  const Tensor& t = out[0].tensor();
  EXPECT_EQ(std::vector<int32_t>(t.data<int32_t>(), t.data<int32_t>() + 3),
            (std::vector<int32_t>{0, 0, 7}));
}

TEST(SessionOptimize, AFusedStepOnConstantsRunsWhenPlanning) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* a = g.add_initializer("a", Tensor::from<float>({-3, 1, 2}, {3}));
  ir::Value* b = g.add_initializer("b", Tensor::from<float>({1, 1, 1}, {3}));
  ir::Value* y = g.append_node("Relu", {g.append_node("Add", {a, b}, 1)->output(0)}, 1)->output(0);
  y->set_name("y");
  g.outputs() = {y};
  Session session(std::move(m));
  EXPECT_TRUE(session.planned_operators().empty());
  EXPECT_THAT(values_of(session.run(std::vector<RuntimeValue>{})[0]), ElementsAre(0, 2, 3));
}

TEST(SessionOptimize, OffRunsEveryNodeAsWritten) {
  Session session(conv_bn_model("Relu").model, with_optimize(false));
  EXPECT_THAT(session.planned_operators(), ElementsAre("Conv", "BatchNormalization", "Relu"));
}

}  // namespace
}  // namespace onnxscript::eval
