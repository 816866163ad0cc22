// Adam (ai.onnx.preview.training): one Adam step for each tensor X_i with
// gradient G_i, averaged gradient V_i and averaged squared gradient H_i:
//   G_reg = norm_coefficient * X + G
//   V_new = alpha * V + (1 - alpha) * G_reg
//   H_new = beta * H + (1 - beta) * G_reg * G_reg
//   R_adj = T > 0 ? R * sqrt(1 - beta^T) / (1 - alpha^T) : R
//   X_new = (1 - norm_coefficient_post) * (X - R_adj * V_new / (sqrt(H_new) + epsilon))
// Inputs R, T, X_1..X_n, G_1..G_n, V_1..V_n, H_1..H_n; outputs X_new_1..n,
// V_new_1..n, H_new_1..n (see optimizer_util.h).
#include <cmath>

#include "optimizer_util.h"

namespace onnxscript::eval {
namespace {

void adam(KernelContext& ctx) {
  const OptimizerInputs in = read_optimizer_inputs(ctx, 4);
  const double alpha = ctx.attr_float("alpha", 0.9f);
  const double beta = ctx.attr_float("beta", 0.999f);
  const double epsilon = ctx.attr_float("epsilon", 1e-6f);
  const double norm = ctx.attr_float("norm_coefficient", 0.0f);
  const double norm_post = ctx.attr_float("norm_coefficient_post", 0.0f);
  const double t = static_cast<double>(in.step);
  const double rate =
      in.step > 0 ? in.rate * std::sqrt(1 - std::pow(beta, t)) / (1 - std::pow(alpha, t)) : in.rate;
  for (size_t i = 0; i < in.tensors.size(); ++i) {
    const OptimizedTensor& o = in.tensors[i];
    const size_t size = o.x_values.size();
    std::vector<double> x_new(size), v_new(size), h_new(size);
    for (size_t e = 0; e < size; ++e) {
      const double g = norm * o.x_values[e] + o.gradient[e];
      v_new[e] = alpha * o.state[0][e] + (1 - alpha) * g;
      h_new[e] = beta * o.state[1][e] + (1 - beta) * g * g;
      const double moved = o.x_values[e] - rate * v_new[e] / (std::sqrt(h_new[e]) + epsilon);
      x_new[e] = (1 - norm_post) * moved;
    }
    set_optimizer_output(ctx, in, 0, i, x_new);
    set_optimizer_output(ctx, in, 1, i, v_new);
    set_optimizer_output(ctx, in, 2, i, h_new);
  }
}

}  // namespace

void register_training_adam(KernelRegistry& registry) {
  registry.add("ai.onnx.preview.training", "Adam", 1, adam);
}

}  // namespace onnxscript::eval
