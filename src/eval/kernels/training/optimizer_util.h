#pragma once
// Inputs shared by the optimizers of ai.onnx.preview.training (Adagrad, Adam,
// Momentum): a scalar learning rate R (float/double), a scalar int64 update
// count T, then `groups` runs of n tensors each, all float or double and
// all of one type: X_1..X_n, G_1..G_n, then the optimizer's state tensors
// (H, or V and H, or V). Outputs are the updated tensors, grouped the same
// way minus the gradients. The update is computed in double, element by
// element; G and each state tensor must have the shape of its X.
#include <vector>

#include <fmt/format.h>

#include "eval/kernels/nn/nn_util.h"

namespace onnxscript::eval {

/// One optimized tensor: X, its gradient G and its state tensors, as doubles.
struct OptimizedTensor {
  const Tensor* x = nullptr;
  std::vector<double> x_values, gradient;
  std::vector<std::vector<double>> state;  // in input order (H; or V, H; or V)
};

/// The optimizer's inputs: R, T, and the tensors being optimized.
struct OptimizerInputs {
  double rate = 0;
  int64_t step = 0;
  std::vector<OptimizedTensor> tensors;
};

/// Reads R, T and the variadic inputs, which must come in `groups` (X, G, and
/// groups - 2 state tensors) of equal length.
inline OptimizerInputs read_optimizer_inputs(const KernelContext& ctx, size_t groups) {
  OptimizerInputs in;
  const Tensor& r = ctx.input_tensor(0);
  const Tensor& t = ctx.input_tensor(1);
  require_type(TypeList<DataType::kFloat, DataType::kDouble>{}, r.dtype(), ctx);
  if (r.numel() != 1) ctx.fail("R must be a scalar");
  in.rate = float_values(ctx, r)[0];
  if (t.dtype() != DataType::kInt64 || t.numel() != 1) ctx.fail("T must be an int64 scalar");
  in.step = t.data<int64_t>()[0];
  const size_t variadic = ctx.num_inputs() - 2;
  if (ctx.num_inputs() < 2 + groups || variadic % groups != 0)
    ctx.fail(
        fmt::format("after R and T there must be {} groups of equally many tensors, not {} "
                    "tensors",
                    groups, variadic));
  const size_t n = variadic / groups;
  if (ctx.num_outputs() > (groups - 1) * n)
    ctx.fail(fmt::format("{} outputs for {} optimized tensors (at most {})", ctx.num_outputs(), n,
                         (groups - 1) * n));
  for (size_t i = 0; i < n; ++i) {
    OptimizedTensor o;
    o.x = &ctx.input_tensor(2 + i);
    require_type(TypeList<DataType::kFloat, DataType::kDouble>{}, o.x->dtype(), ctx);
    o.x_values = float_values(ctx, *o.x);
    for (size_t g = 1; g < groups; ++g) {
      const Tensor& t_g = ctx.input_tensor(2 + g * n + i);
      if (t_g.dtype() != o.x->dtype() || t_g.shape() != o.x->shape())
        ctx.fail(fmt::format("input {} ({} {}) must have the type and shape of X_{} ({} {})",
                             2 + g * n + i, ir::data_type_name(t_g.dtype()),
                             shape_string(t_g.shape()), i + 1, ir::data_type_name(o.x->dtype()),
                             shape_string(o.x->shape())));
      if (g == 1)
        o.gradient = float_values(ctx, t_g);
      else
        o.state.push_back(float_values(ctx, t_g));
    }
    in.tensors.push_back(std::move(o));
  }
  return in;
}

/// Sets output `group * n + i` (skipping absent outputs) to `values` as a
/// tensor shaped like X_i.
inline void set_optimizer_output(KernelContext& ctx, const OptimizerInputs& in, size_t group,
                                 size_t i, const std::vector<double>& values) {
  const size_t index = group * in.tensors.size() + i;
  if (index >= ctx.num_outputs()) return;
  const Tensor& x = *in.tensors[i].x;
  ctx.set_output(index, float_tensor(ctx, x.dtype(), x.shape(), values));
}

}  // namespace onnxscript::eval
