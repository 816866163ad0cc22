// Adagrad (ai.onnx.preview.training): one ADAGRAD step for each tensor X_i
// with gradient G_i and accumulated squared gradient H_i:
//   r = R / (1 + T * decay_factor)
//   G_reg = norm_coefficient * X + G
//   H_new = H + G_reg * G_reg
//   X_new = X - r * G_reg / (sqrt(H_new) + epsilon)
// Inputs R, T, X_1..X_n, G_1..G_n, H_1..H_n; outputs X_new_1..X_new_n,
// H_new_1..H_new_n (see optimizer_util.h).
#include <cmath>

#include "optimizer_util.h"

namespace onnxscript::eval {
namespace {

void adagrad(KernelContext& ctx) {
  const OptimizerInputs in = read_optimizer_inputs(ctx, 3);
  const double decay = ctx.attr_float("decay_factor", 0.0f);
  const double epsilon = ctx.attr_float("epsilon", 1e-6f);
  const double norm = ctx.attr_float("norm_coefficient", 0.0f);
  const double r = in.rate / (1.0 + static_cast<double>(in.step) * decay);
  for (size_t i = 0; i < in.tensors.size(); ++i) {
    const OptimizedTensor& t = in.tensors[i];
    std::vector<double> x_new(t.x_values.size()), h_new(t.x_values.size());
    for (size_t e = 0; e < x_new.size(); ++e) {
      const double g = norm * t.x_values[e] + t.gradient[e];
      h_new[e] = t.state[0][e] + g * g;
      x_new[e] = t.x_values[e] - r * g / (std::sqrt(h_new[e]) + epsilon);
    }
    set_optimizer_output(ctx, in, 0, i, x_new);
    set_optimizer_output(ctx, in, 1, i, h_new);
  }
}

}  // namespace

void register_training_adagrad(KernelRegistry& registry) {
  registry.add("ai.onnx.preview.training", "Adagrad", 1, adagrad);
}

}  // namespace onnxscript::eval
