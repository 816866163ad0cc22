// Gradient (ai.onnx.preview.training): for each name in `xs`, the derivative
// of the tensor named `y` with respect to it, where y is computed by nodes of
// the graph around this Gradient node from the tensors named in `xs` and `zs`.
// The node's inputs are the values of xs then zs at which to differentiate
// (they need not be the values those names have in the graph), so the
// forward computation from them to y is redone here, in double, and then
// differentiated in reverse mode. For a y with several elements the result
// is the gradient of the sum of its elements. Output i has the element type
// of input i (a floating type).
//
// The nodes between xs/zs and y may be Add, Sub, Mul, Div (numpy
// broadcasting), Neg, Identity, MatMul of 2-D matrices, Relu, Sigmoid, Tanh,
// Exp, Log, Sqrt and Constant, and may read initializers; any other operator,
// or a tensor y depends on that is neither in xs/zs nor constant, is an
// error naming it. The kernel reads the graph through KernelContext::node(),
// so it runs in a Session, not eagerly.
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "eval/util/broadcast.h"
#include "eval/util/shape_util.h"
#include "onnxscript/ir/graph.h"

namespace onnxscript::eval {
namespace {

// A dense array of doubles: the forward values and the gradients.
struct Array {
  std::vector<int64_t> shape;
  std::vector<double> values;
};

Array to_array(const KernelContext& ctx, const Tensor& t, const std::string& what) {
  Array a{t.shape().to_vector(), std::vector<double>(t.numel())};
  if (t.dtype() == DataType::kBool || t.dtype() == DataType::kString ||
      t.dtype() == DataType::kComplex64 || t.dtype() == DataType::kComplex128)
    ctx.fail(fmt::format("{} is {}, which cannot take part in differentiation", what,
                         ir::data_type_name(t.dtype())));
  dispatch<kNumericTypes>(t.dtype(), ctx, [&]<typename T>() {
    for (int64_t i = 0; i < t.numel(); ++i)
      a.values[i] = static_cast<double>(static_cast<compute_t<T>>(t.data<T>()[i]));
  });
  return a;
}

Array filled(std::vector<int64_t> shape, double value) {
  const int64_t n = shape_product(shape, 0, shape.size());
  return Array{std::move(shape), std::vector<double>(n, value)};
}

// Calls f(out_index, a_index, b_index) for every element of the broadcast of a and b.
template <typename F>
void for_each_pair(const std::vector<int64_t>& out_shape, const Array& a, const Array& b, F&& f) {
  const BroadcastPlan plan = make_broadcast_plan(out_shape, {a.shape, b.shape});
  const int64_t sa = plan.inner_stride(0), sb = plan.inner_stride(1);
  for_each_broadcast_run(plan, [&](int64_t o, const int64_t* in, int64_t count) {
    for (int64_t i = 0; i < count; ++i) f(o + i, in[0] + i * sa, in[1] + i * sb);
  });
}

bool is_binary(const std::string& op) {
  return op == "Add" || op == "Sub" || op == "Mul" || op == "Div";
}

bool is_unary(const std::string& op) {
  return op == "Neg" || op == "Identity" || op == "Relu" || op == "Sigmoid" || op == "Tanh" ||
         op == "Exp" || op == "Log" || op == "Sqrt";
}

double unary_forward(const std::string& op, double x) {
  if (op == "Neg") return -x;
  if (op == "Relu") return x > 0 ? x : 0;
  if (op == "Sigmoid") return 1 / (1 + std::exp(-x));
  if (op == "Tanh") return std::tanh(x);
  if (op == "Exp") return std::exp(x);
  if (op == "Log") return std::log(x);
  if (op == "Sqrt") return std::sqrt(x);
  return x;  // Identity
}

// d op(x) / dx, given x and y = op(x).
double unary_derivative(const std::string& op, double x, double y) {
  if (op == "Neg") return -1;
  if (op == "Relu") return x > 0 ? 1 : 0;
  if (op == "Sigmoid") return y * (1 - y);
  if (op == "Tanh") return 1 - y * y;
  if (op == "Exp") return y;
  if (op == "Log") return 1 / x;
  if (op == "Sqrt") return 0.5 / y;
  return 1;  // Identity
}

class Differentiator {
 public:
  Differentiator(const KernelContext& ctx, const ir::Graph& graph) : ctx_(ctx) {
    for (const ir::Value* v : graph.inputs()) by_name_[v->name()] = v;
    for (const ir::Value* v : graph.initializers()) by_name_[v->name()] = v;
    for (const ir::Node* n : graph.nodes())
      for (const ir::Value* v : n->outputs())
        if (!v->name().empty()) by_name_[v->name()] = v;
  }

  const ir::Value* find(const std::string& name, const char* role) const {
    auto it = by_name_.find(name);
    if (it == by_name_.end())
      ctx_.fail(fmt::format("{} '{}' is not a tensor of the graph around the node", role, name));
    return it->second;
  }

  void bind(const ir::Value* v, Array value) { values_[v] = std::move(value); }

  // The forward value of v, computing the nodes it needs (recorded on the tape).
  const Array& value(const ir::Value* v) {
    if (auto it = values_.find(v); it != values_.end()) return it->second;
    const ir::Node* producer = v->producer();
    if (producer && producer != ctx_.node()) {
      run_forward(*producer);
    } else if (const Tensor* c = v->const_value()) {
      values_[v] = to_array(ctx_, *c, fmt::format("initializer '{}'", v->name()));
    } else {
      ctx_.fail(
          fmt::format("y depends on '{}', which is neither in xs or zs nor computed from "
                      "them",
                      v->name()));
    }
    return values_.at(v);
  }

  // Reverse mode from y (seeded with ones) through the tape; the gradient of v
  // or zeros when y does not depend on it.
  void backward(const ir::Value* y) {
    const Array& yv = value(y);
    grads_[y] = filled(yv.shape, 1.0);
    for (auto it = tape_.rbegin(); it != tape_.rend(); ++it) run_backward(**it);
  }

  Array gradient(const ir::Value* v) {
    if (auto it = grads_.find(v); it != grads_.end()) return it->second;
    return filled(values_.at(v).shape, 0.0);
  }

 private:
  void run_forward(const ir::Node& node) {
    const std::string& op = node.op_type();
    if (!(node.domain().empty() || node.domain() == "ai.onnx"))
      ctx_.fail(
          fmt::format("cannot differentiate {}.{} (node '{}')", node.domain(), op, node.name()));
    const ir::Value* out = node.output(0);
    if (op == "Constant") {
      values_[out] = constant_value(node);
      return;
    }
    if (!is_binary(op) && !is_unary(op) && op != "MatMul")
      ctx_.fail(
          fmt::format("cannot differentiate {} (node '{}'); supported are Add, Sub, Mul, "
                      "Div, Neg, Identity, MatMul, Relu, Sigmoid, Tanh, Exp, Log, Sqrt",
                      op, node.name()));
    const size_t arity = is_unary(op) ? 1 : 2;
    if (node.inputs().size() != arity || node.outputs().size() != 1 || !node.attributes().empty())
      ctx_.fail(fmt::format("node '{}' ({}) must have {} inputs, one output and no attributes",
                            node.name(), op, arity));
    for (const ir::Value* in : node.inputs())
      if (!in) ctx_.fail(fmt::format("node '{}' ({}) omits an input", node.name(), op));
    const Array& a = value(node.input(0));
    Array result;
    if (is_unary(op)) {
      result = Array{a.shape, std::vector<double>(a.values.size())};
      for (size_t i = 0; i < a.values.size(); ++i)
        result.values[i] = unary_forward(op, a.values[i]);
    } else {
      const Array& b = value(node.input(1));
      if (op == "MatMul") {
        result = matmul(a, b, node);
      } else {
        result = filled(broadcast_shape(ctx_, a.shape, b.shape), 0.0);
        for_each_pair(result.shape, a, b, [&](int64_t o, int64_t i, int64_t j) {
          const double x = a.values[i], z = b.values[j];
          result.values[o] = op == "Add"   ? x + z
                             : op == "Sub" ? x - z
                             : op == "Mul" ? x * z
                                           : x / z;
        });
      }
    }
    values_[out] = std::move(result);
    tape_.push_back(&node);
  }

  void run_backward(const ir::Node& node) {
    auto g_it = grads_.find(node.output(0));
    if (g_it == grads_.end()) return;  // y does not depend on this node
    const Array g = g_it->second;
    const std::string& op = node.op_type();
    const ir::Value* in_a = node.input(0);
    const Array& a = values_.at(in_a);
    Array& ga = grad_slot(in_a);
    if (is_unary(op)) {
      const Array& y = values_.at(node.output(0));
      for (size_t i = 0; i < a.values.size(); ++i)
        ga.values[i] += g.values[i] * unary_derivative(op, a.values[i], y.values[i]);
      return;
    }
    const ir::Value* in_b = node.input(1);
    const Array& b = values_.at(in_b);
    Array& gb = grad_slot(in_b);
    if (op == "MatMul") {
      // Y = A B with A [M, K], B [K, N]: dA = G B^T, dB = A^T G.
      const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
      for (int64_t i = 0; i < m; ++i)
        for (int64_t p = 0; p < k; ++p)
          for (int64_t j = 0; j < n; ++j) {
            const double gij = g.values[i * n + j];
            ga.values[i * k + p] += gij * b.values[p * n + j];
            gb.values[p * n + j] += a.values[i * k + p] * gij;
          }
      return;
    }
    // Broadcast operands collect the gradient of every element they fed.
    for_each_pair(g.shape, a, b, [&](int64_t o, int64_t i, int64_t j) {
      const double x = a.values[i], z = b.values[j], go = g.values[o];
      if (op == "Add") {
        ga.values[i] += go;
        gb.values[j] += go;
      } else if (op == "Sub") {
        ga.values[i] += go;
        gb.values[j] -= go;
      } else if (op == "Mul") {
        ga.values[i] += go * z;
        gb.values[j] += go * x;
      } else {  // Div
        ga.values[i] += go / z;
        gb.values[j] -= go * x / (z * z);
      }
    });
  }

  Array& grad_slot(const ir::Value* v) {
    auto it = grads_.find(v);
    if (it == grads_.end()) it = grads_.emplace(v, filled(values_.at(v).shape, 0.0)).first;
    return it->second;
  }

  Array matmul(const Array& a, const Array& b, const ir::Node& node) {
    if (a.shape.size() != 2 || b.shape.size() != 2 || a.shape[1] != b.shape[0])
      ctx_.fail(
          fmt::format("MatMul node '{}' is differentiated for 2-D [M, K] x [K, N] only, not "
                      "{} x {}",
                      node.name(), shape_string(a.shape), shape_string(b.shape)));
    const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
    Array y = filled({m, n}, 0.0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p)
        for (int64_t j = 0; j < n; ++j)
          y.values[i * n + j] += a.values[i * k + p] * b.values[p * n + j];
    return y;
  }

  Array constant_value(const ir::Node& node) {
    const std::string what = fmt::format("Constant node '{}'", node.name());
    if (const ir::Attribute* v = node.attribute("value"))
      return to_array(ctx_, v->as_tensor(), what);
    if (const ir::Attribute* v = node.attribute("value_float")) return filled({}, v->as_float());
    if (const ir::Attribute* v = node.attribute("value_int"))
      return filled({}, static_cast<double>(v->as_int()));
    if (const ir::Attribute* v = node.attribute("value_floats"))
      return Array{{static_cast<int64_t>(v->as_floats().size())},
                   std::vector<double>(v->as_floats().begin(), v->as_floats().end())};
    if (const ir::Attribute* v = node.attribute("value_ints"))
      return Array{{static_cast<int64_t>(v->as_ints().size())},
                   std::vector<double>(v->as_ints().begin(), v->as_ints().end())};
    ctx_.fail(what + " has no numeric value attribute");
  }

  const KernelContext& ctx_;
  std::map<std::string, const ir::Value*> by_name_;
  std::map<const ir::Value*, Array> values_;
  std::map<const ir::Value*, Array> grads_;
  std::vector<const ir::Node*> tape_;  // nodes in the order they were computed
};

void gradient(KernelContext& ctx) {
  const ir::Node* node = ctx.node();
  if (!node || !node->graph())
    ctx.fail(
        "differentiates nodes of the graph around it, so it runs only inside a graph (a "
        "Session), not eagerly");
  const std::vector<std::string>& xs = ctx.required_attribute("xs").as_strings();
  const std::vector<std::string> zs =
      ctx.attribute("zs") ? ctx.attribute("zs")->as_strings() : std::vector<std::string>{};
  const std::string y_name = ctx.required_attribute("y").as_string();
  if (ctx.num_inputs() != xs.size() + zs.size())
    ctx.fail(fmt::format("takes one input per name in xs and zs ({}), not {}",
                         xs.size() + zs.size(), ctx.num_inputs()));
  if (ctx.num_outputs() > xs.size())
    ctx.fail(fmt::format("has {} outputs but xs names {} tensors", ctx.num_outputs(), xs.size()));
  Differentiator d(ctx, *node->graph());
  std::vector<const ir::Value*> x_values;
  for (size_t i = 0; i < xs.size() + zs.size(); ++i) {
    const std::string& name = i < xs.size() ? xs[i] : zs[i - xs.size()];
    const ir::Value* v = d.find(name, i < xs.size() ? "xs entry" : "zs entry");
    d.bind(v, to_array(ctx, ctx.input_tensor(i), fmt::format("input {} ('{}')", i, name)));
    if (i < xs.size()) x_values.push_back(v);
  }
  d.backward(d.find(y_name, "y"));
  for (size_t i = 0; i < ctx.num_outputs(); ++i) {
    const DataType dtype = ctx.input_tensor(i).dtype();
    require_type(kFloatTypes{}, dtype, ctx);
    Array g = d.gradient(x_values[i]);
    Tensor out(dtype, g.shape);
    dispatch<kFloatTypes>(dtype, ctx, [&]<typename T>() {
      for (size_t e = 0; e < g.values.size(); ++e)
        out.data<T>()[e] = static_cast<T>(static_cast<compute_t<T>>(g.values[e]));
    });
    ctx.set_output(i, out);
  }
}

}  // namespace

void register_training_gradient(KernelRegistry& registry) {
  registry.add("ai.onnx.preview.training", "Gradient", 1, gradient);
}

}  // namespace onnxscript::eval
