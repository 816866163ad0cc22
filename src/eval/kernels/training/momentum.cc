// Momentum (ai.onnx.preview.training): one step of gradient descent with
// momentum for each tensor X_i with gradient G_i and momentum V_i:
//   G_reg = norm_coefficient * X + G
//   V_new = alpha * V + (T > 0 ? beta : 1) * G_reg
//   standard: X_new = X - R * V_new
//   nesterov: X_new = X - R * (G_reg + alpha * V_new)
// `mode` is "standard" or "nesterov"; alpha, beta, mode and norm_coefficient
// are required. Inputs R, T, X_1..X_n, G_1..G_n, V_1..V_n; outputs
// X_new_1..n, V_new_1..n (see optimizer_util.h).
#include "optimizer_util.h"

namespace onnxscript::eval {
namespace {

void momentum(KernelContext& ctx) {
  const double alpha = ctx.required_attribute("alpha").as_float();
  const double beta = ctx.required_attribute("beta").as_float();
  const double norm = ctx.required_attribute("norm_coefficient").as_float();
  const std::string mode = ctx.required_attribute("mode").as_string();
  if (mode != "standard" && mode != "nesterov")
    ctx.fail(fmt::format("mode '{}' is neither 'standard' nor 'nesterov'", mode));
  const OptimizerInputs in = read_optimizer_inputs(ctx, 3);
  const double beta_adjusted = in.step > 0 ? beta : 1.0;
  for (size_t i = 0; i < in.tensors.size(); ++i) {
    const OptimizedTensor& o = in.tensors[i];
    const size_t size = o.x_values.size();
    std::vector<double> x_new(size), v_new(size);
    for (size_t e = 0; e < size; ++e) {
      const double g = norm * o.x_values[e] + o.gradient[e];
      v_new[e] = alpha * o.state[0][e] + beta_adjusted * g;
      const double direction = mode == "nesterov" ? g + alpha * v_new[e] : v_new[e];
      x_new[e] = o.x_values[e] - in.rate * direction;
    }
    set_optimizer_output(ctx, in, 0, i, x_new);
    set_optimizer_output(ctx, in, 1, i, v_new);
  }
}

}  // namespace

void register_training_momentum(KernelRegistry& registry) {
  registry.add("ai.onnx.preview.training", "Momentum", 1, momentum);
}

}  // namespace onnxscript::eval
