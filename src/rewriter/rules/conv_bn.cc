// "conv-bn" and "conv-bias-bn": a BatchNormalization at inference after a
// Conv with constant weights folds into the Conv's weights and bias.
//
// BatchNormalization computes y = (c - mean) * f + bias per channel, with
// f = scale / sqrt(var + epsilon); c = W * x + B is linear in W and B per
// output channel, so y = (W * f) * x + ((B - mean) * f + bias).

#include <cmath>

#include "onnxscript/opsets/opset18.h"
#include "onnxscript/rewriter/rules.h"
#include "rewriter/rules/rule_util.h"

namespace onnxscript::rewriter {

namespace op = onnxscript::opset18;

namespace {

template <typename T>
double at(const ir::Tensor& t, int64_t i) {
  return static_cast<double>(t.data<T>()[i]);
}

double element(const ir::Tensor& t, int64_t i) {
  return t.dtype() == ir::DataType::kFloat ? at<float>(t, i) : at<double>(t, i);
}

void store(ir::Tensor& t, int64_t i, double v) {
  if (t.dtype() == ir::DataType::kFloat) {
    t.data<float>()[i] = static_cast<float>(v);
  } else {
    t.data<double>()[i] = v;
  }
}

double epsilon_of(const ir::Node& bn) {
  const ir::Attribute* e = bn.attribute("epsilon");
  return e ? static_cast<double>(e->as_float()) : 1e-5;
}

// The folded weights and bias; `bias_in` may be null (no Conv bias).
std::pair<ir::Tensor, ir::Tensor> fold(const Match& m, const ir::Tensor* bias_in) {
  const ir::Tensor& w = *m.constant("w");
  const ir::Tensor& scale = *m.constant("scale");
  const ir::Tensor& bias = *m.constant("bias");
  const ir::Tensor& mean = *m.constant("mean");
  const ir::Tensor& var = *m.constant("var");
  const double eps = epsilon_of(*m.node("bn"));
  const int64_t channels = w.shape()[0];
  const int64_t per_channel = channels == 0 ? 0 : w.numel() / channels;
  ir::Tensor w2(w.dtype(), w.shape());
  ir::Tensor b2(w.dtype(), ir::Dims{channels});
  for (int64_t c = 0; c < channels; ++c) {
    const double f = element(scale, c) / std::sqrt(element(var, c) + eps);
    for (int64_t k = 0; k < per_channel; ++k)
      store(w2, c * per_channel + k, element(w, c * per_channel + k) * f);
    const double b = bias_in ? element(*bias_in, c) : 0.0;
    store(b2, c, (b - element(mean, c)) * f + element(bias, c));
  }
  return {std::move(w2), std::move(b2)};
}

bool foldable(const Match& m, bool with_bias) {
  const ir::Node& bn = *m.node("bn");
  if (const ir::Attribute* t = bn.attribute("training_mode"); t && t->as_int() != 0)
    return m.reject("BatchNormalization is in training mode");
  if (const ir::Attribute* s = bn.attribute("spatial"); s && s->as_int() == 0)
    return m.reject("BatchNormalization is not spatial");
  if (bn.attribute("is_test") || bn.attribute("consumed_inputs"))
    return m.reject("BatchNormalization of an opset before 7");
  const ir::Tensor* w = m.constant("w");
  if (!w) return m.reject("the Conv's weights are not a constant");
  if (w->dtype() != ir::DataType::kFloat && w->dtype() != ir::DataType::kDouble)
    return m.reject("the weights are neither float nor double");
  if (w->rank() < 3) return m.reject("the weights have rank below 3");
  const int64_t channels = w->shape()[0];
  std::vector<std::string> per_channel = {"scale", "bias", "mean", "var"};
  if (with_bias) per_channel.push_back("b");
  for (const std::string& name : per_channel) {
    const ir::Tensor* t = m.constant(name);
    if (!t) return m.reject(name + " is not a constant");
    if (t->dtype() != w->dtype()) return m.reject(name + " has another element type");
    if (t->rank() != 1 || t->shape()[0] != channels)
      return m.reject(name + " does not have one element per output channel");
  }
  return true;
}

}  // namespace

Rule conv_bn_rule() {
  return Rule(
      "conv-bn", {"x", "w", "scale", "bias", "mean", "var"},
      [](Value x, Value w, Value scale, Value bias, Value mean, Value var) {
        return op::BatchNormalization(op::Conv(x, w).named("conv"), scale, bias, mean, var)
            .named("bn");
      },
      [](const Match& m, Value x, Value, Value, Value, Value, Value) {
        auto [w2, b2] = fold(m, nullptr);
        return with_attributes_of(op::Conv(x, Value(w2), Value(b2)), *m.node("conv"));
      },
      [](const Match& m) { return foldable(m, false); });
}

Rule conv_bias_bn_rule() {
  return Rule(
      "conv-bias-bn", {"x", "w", "b", "scale", "bias", "mean", "var"},
      [](Value x, Value w, Value b, Value scale, Value bias, Value mean, Value var) {
        return op::BatchNormalization(op::Conv(x, w, b).named("conv"), scale, bias, mean, var)
            .named("bn");
      },
      [](const Match& m, Value x, Value, Value, Value, Value, Value, Value) {
        auto [w2, b2] = fold(m, m.constant("b"));
        return with_attributes_of(op::Conv(x, Value(w2), Value(b2)), *m.node("conv"));
      },
      [](const Match& m) { return foldable(m, true); });
}

}  // namespace onnxscript::rewriter
